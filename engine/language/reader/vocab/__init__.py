"""The reader's vocabulary as data: `frames.json` (cues that introduce a value, per axis) and
`words.json` (tone words, money words and units, periods, bounds, number keys, people, channels).

Validated at load: every row has its fields, so a new phrasing is a new row reviewed as a data
diff; that each row's example holds its cue is checked by the tests (`check_examples`), not at
every start. One precedence rule everywhere: at a position, the longest cue (in tokens) wins, then
the first row in the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

from engine.language.directions import AXES
from engine.language.reader.utterance import lows
from worldforge_savedb.records import FrozenRecord

_HERE = Path(__file__).resolve().parent


class VocabError(ValueError):
    """A vocabulary row that breaks the schema (raised at load, naming the row)."""


@dataclass(frozen=True, eq=False, repr=False)
class Cue(FrozenRecord):
    """One row: its words (as token texts), and what it means."""

    words: tuple[str, ...]
    row: dict[str, Any]


def cue_words(phrase: str) -> tuple[str, ...]:
    return tuple(lows(phrase))


def _check_example(where: str, cue: str, example: str) -> None:
    words, ex = cue_words(cue), cue_words(example)
    said = [words] + [(words[0], o, *words[1:]) for o in ("it", "them") if len(words) > 1]
    if not any(
        ex[i : i + len(w)] == w for w in said for i in range(len(ex) - len(w) + 1)
    ):  # the cue, or a verb's object pronoun inside it ("narrow it to": clause.py reads both)
        raise VocabError(f"{where}: example {example!r} does not hold the cue {cue!r}")


@cache
def _data(path: Path) -> dict[str, Any]:
    """A vocabulary file, parsed once (words.json holds most of the sections `vocab` reads)."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _rows(name: str, section: str, need: tuple[str, ...]) -> list[Cue]:
    data = _data(_HERE / name)
    out = []
    for k, row in enumerate(data[section]):
        where = f"{name} {section}[{k}]"
        if not isinstance(row, dict):
            raise VocabError(f"{where}: not an object")
        missing = [f for f in ("cue", "example", *need) if f not in row]
        if missing:
            raise VocabError(f"{where}: missing {', '.join(missing)}")
        if row.get("kind", "first") not in ("first", "only", "known"):
            raise VocabError(f"{where}: kind is 'first', 'only' or 'known', not {row['kind']!r}")
        if "axis" in row and row["axis"] not in AXES:
            raise VocabError(f"{where}: unknown axis {row['axis']!r}")
        out.append(Cue(cue_words(row["cue"]), row))
    return out


def check_examples(v: Vocab) -> None:
    """Every row's example holds its cue (a suffix row's, a figure ending in it): VocabError naming
    the first that does not. The tests run it on the shipped vocabulary; a start does not, as it
    tokenises every example again (85 M instructions, 6 % of one `worldforge simulate`)."""
    for f in fields(v):
        rows = getattr(v, f.name)
        if not isinstance(rows, list):
            continue  # the word lists: no cues
        for k, c in enumerate(rows):
            where, cue, example = f"{f.name}[{k}]", c.row["cue"], c.row["example"]
            if not c.row.get("suffix"):
                _check_example(where, cue, example)
            elif not re.search(r"\d" + re.escape(cue) + r"\b", example):
                # a suffix on a figure ("10p", "1.5k"): one token with it
                raise VocabError(f"{where}: example {example!r} has no figure{cue}")


@dataclass(frozen=True, eq=False, repr=False)
class Vocab(FrozenRecord):
    """The reader's vocabulary from its data files: the cue words of each kind."""

    frames: list[Cue]
    tone: list[Cue]
    money: list[Cue]
    money_nouns: list[Cue]
    numbers: list[Cue]
    period: list[Cue]
    ops: list[Cue]
    number_keys: list[Cue]
    weeks_relative: list[Cue]
    dismissals: list[Cue]
    pointers: list[Cue]
    period_before: list[Cue]
    places: list[Cue]
    between: list[Cue]
    relative: list[Cue]
    overclaim: list[Cue]
    complaints: list[Cue]
    include: list[Cue]
    expansions: list[Cue]
    replacing: list[Cue]
    lists: dict[str, frozenset[str]]
    teach_backs: dict[str, str]  # an unread part's reason -> what the reader says of it
    reason_labels: dict[str, str]  # an unread part's reason in a few words (the chip row's)
    axis_said: dict[str, str]  # an axis as a teach-back names it ("audience": "who to speak to")

    def match(self, rows: list[Cue], low: list[str], k: int) -> Cue | None:
        """The row whose words start at `low[k]`: the longest, then the first."""
        if k >= len(low):
            return None
        best: Cue | None = None
        for c in _by_first(id(rows), rows).get(low[k], ()):
            n = len(c.words)
            if tuple(low[k : k + n]) == c.words and (best is None or n > len(best.words)):
                best = c
        return best

    def candidates(self, rows: list[Cue], low: list[str], k: int) -> list[Cue]:
        """Every row whose words start at `low[k]`, in precedence order (longest, then first)."""
        if k >= len(low):
            return []
        hits = [
            c
            for c in _by_first(id(rows), rows).get(low[k], ())
            if tuple(low[k : k + len(c.words)]) == c.words
        ]
        return sorted(hits, key=lambda c: -len(c.words))  # stable: first row among equals

    def starts(self, rows: list[Cue], word: str) -> bool:
        """Whether some row's words start with this word."""
        return word in _by_first(id(rows), rows)


_INDEX: dict[int, dict[str, list[Cue]]] = {}


def _by_first(key: int, rows: list[Cue]) -> dict[str, list[Cue]]:
    """Rows by their first word (built once per list), so a match looks at a handful."""
    index = _INDEX.get(key)
    if index is None:
        index = {}
        for c in rows:
            index.setdefault(c.words[0], []).append(c)
        _INDEX[key] = index
    return index


def _word_list(words: dict[str, Any], name: str) -> frozenset[str]:
    """A plain list of words: present, and each one lowercase text (raised at load otherwise)."""
    got = words.get(name)
    if not isinstance(got, list) or not all(isinstance(w, str) and w == w.lower() for w in got):
        raise VocabError(f"words.json {name}: not a list of lowercase words")
    return frozenset(got)


@cache
def vocab() -> Vocab:
    """The vocabulary, loaded and checked once."""
    words = _data(_HERE / "words.json")
    lists = {  # every section that is no list of rows is a plain list of words
        name: _word_list(words, name)
        for name, got in words.items()
        if isinstance(got, list) and not (got and isinstance(got[0], dict))
    }
    teach = words.get("teach_backs")
    if not isinstance(teach, dict) or not all(
        isinstance(t, str) and "{words}" in t for t in teach.values()
    ):
        raise VocabError("words.json teach_backs: each reason's line must quote {words}")
    labels = words.get("reason_labels")
    if not isinstance(labels, dict) or not all(isinstance(t, str) for t in labels.values()):
        raise VocabError("words.json reason_labels: a few words for each reason")
    if unlabelled := sorted(set(teach) - set(labels)):
        raise VocabError(f"words.json reason_labels: no label for {unlabelled}")
    return Vocab(
        frames=_rows("frames.json", "rows", ("axis", "do")),
        tone=_rows("words.json", "tone", ("value", "do")),
        money=_rows("words.json", "money", ("currency",)),
        money_nouns=_rows("words.json", "money_nouns", ("amount", "currency")),
        numbers=_rows("words.json", "numbers", ("n",)),
        period=_rows("words.json", "period", ("period",)),
        ops=_rows("words.json", "ops", ("op", "where")),
        number_keys=_rows("words.json", "number_keys", ("key", "op")),
        weeks_relative=_rows("words.json", "weeks_relative", ("value",)),
        dismissals=_rows("words.json", "dismissals", ("do",)),
        pointers=_rows("words.json", "pointers", ("axis",)),
        period_before=_rows("words.json", "period_before", ("period",)),
        places=_rows("places.json", "rows", ()),
        between=_rows("words.json", "between", ()),
        relative=_rows("words.json", "relative", ("way",)),
        overclaim=_rows("words.json", "overclaim", ()),
        complaints=_rows("words.json", "complaints", ("axis", "value")),
        include=_rows("words.json", "include", ()),
        expansions=_rows("words.json", "expansions", ("value",)),
        replacing=_rows("words.json", "replacing", ("joins",)),
        lists=lists,
        teach_backs=dict(teach),
        reason_labels=dict(labels),
        axis_said=_axis_said(words),
    )


def _axis_said(words: Mapping[str, object]) -> dict[str, str]:
    """words.json axis_said: every axis named in words (raised at load otherwise)."""
    said = words.get("axis_said")
    if not isinstance(said, dict) or set(said) != set(AXES):
        raise VocabError("words.json axis_said: one line for each axis")
    return {str(k): str(x) for k, x in said.items()}
