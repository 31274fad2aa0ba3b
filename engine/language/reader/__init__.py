"""Reading what a player writes into directions: one parse of each input, vocabulary as data.

`utterance` parses an input once (tokens with offsets and lemmas, clauses, list markers);
`figures` finds money and numbers as people write them; `reads` holds a reading's types and the
word tests every clause shares; `clause` reads one clause; `fork` reads an own answer at a fork;
`read` reads a whole input, each clause a direction, commentary, or unread with a typed reason.
The vocabulary is data in engine/language/reader/vocab/. Read with
`engine.language.reader.read.read_text`; this package imports nothing itself, so a caller of one
part (the currency of a pitch needs `figures` and `vocab`) does not load the whole reader.
"""
