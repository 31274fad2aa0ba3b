"""One parse of what a player typed: tokens with offsets and lemmas, split into clauses.

Every reader of player words (engine.language.reader) takes this one parse; nobody re-splits the
text. A token keeps its character offsets into the text, so every direction read from it can say
which words it came from. A clause is a run of tokens between sentence punctuation, a comma, a
dash, "but", or "and" before a new instruction; it keeps its own offsets too.

Bad input stays inert: the text is clipped to `MAX_CHARS` (the caller says so in one line) and a
parse never holds more than `MAX_CLAUSES` clauses, so a reading returns within its bound.
"""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from worldforge_savedb.records import FrozenRecord, Record


def _spellings() -> dict[str, str]:
    """vocab/spellings.json: a hurried spelling of a word the grammar reads ("thru") and the word
    ("through"), checked at load (every row a single token with its example)."""
    data = json.loads((Path(__file__).parent / "vocab" / "spellings.json").read_text("utf-8"))
    out = {}
    for row in data["rows"]:
        said, means, example = row["said"], row["means"], row["example"]
        if (
            not _TOKEN.fullmatch(said)
            or said.lower() != said
            or said not in _TOKEN.findall(example.lower())
        ):
            raise ValueError(f"spellings.json {said!r}: one lowercase token, in its example")
        out[said] = means
    return out


MAX_CHARS = 1000  # the longest reason the session accepts (engine.language.text)
MAX_CLAUSES = 40

_TOKEN = re.compile(
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?[a-zA-Z]*"  # 1,500 / 2,000k
    r"|\d{1,2}:\d{2}(?:[ap]m)?\b"  # a time of day: 3:15, 9:30am
    r"|[^\W_]+(?:[-'’.][^\W_]+)*"  # words, 1.5k, front-hub, can't, 10p
    r"|[^\s\w]",  # one punctuation mark or symbol
    re.UNICODE,
)
# Tokens that end a clause, and words that start a new clause when they follow a comma or stand
# alone ("but", a dash, a list marker "(b)").
_STOPS = frozenset(".!?;\n—–…")
_SPELLED = _spellings()
_SPLIT_WORDS = frozenset(("but", "whereas", "although", "though"))
_BUT_AFTER = frozenset(("anything", "everything", "anyone", "everyone", "anywhere"))  # "except"
# "it's" typed "its" (or "thats") after a negation in the same clause opens a new one when a
# word follows that a possessive "its" never takes: "its not for students its for their
# parents" is two clauses ("cut its price", "reads like it's for kids" are one).
_LETTERS = frozenset(("A", "B", "b"))  # an option's letter opening an own answer
JOINS = frozenset(("plus", "with", "and", "also", "+", "&"))  # words that add one thing to another
_IT_IS = frozenset(("its", "it's", "thats", "that's"))
_NEGATIONS = frozenset(("not", "no", "never", "isn't", "isnt", "aren't", "arent", "don't", "dont"))
# words after which "its" belongs to their own clause: what is said, a preposition's object
_KEEPS_ITS = frozenset(("say", "saying", "claim", "claiming", "promise", "imply", "think", "that"))
_KEEPS_ITS |= frozenset(("like", "to", "of", "for", "with", "in", "on", "at", "because"))
_IT_IS_NEXT = frozenset(
    ("for", "about", "not", "the", "a", "an", "our", "their", "just", "only", "all", "too")
)


@dataclass(frozen=True, eq=False, repr=False)
class Token(FrozenRecord):
    """One token: its text, where it sits in the player's words, and its lemma."""

    text: str
    start: int
    end: int
    low: str
    lemma: str

    @property
    def is_word(self) -> bool:
        return self.text[:1].isalnum() or self.low[:1].isalpha()  # "+" spelled for "and"

    @property
    def is_cap(self) -> bool:
        """Starts with a capital (a proper noun, or the first word of a sentence)."""
        return self.text[:1].isupper()


@dataclass(eq=False, repr=False)
class Clause(Record):
    """A run of tokens read on its own (`i`..`j` into the utterance's tokens)."""

    i: int
    j: int
    tokens: list[Token]
    start: int
    end: int
    question: bool = False  # ends with "?"

    @property
    def low(self) -> list[str]:
        return [t.low for t in self.tokens]


@dataclass(eq=False, repr=False)
class Utterance(Record):
    """The one parse: the (clipped) text, its tokens and its clauses."""

    text: str
    tokens: list[Token]
    clauses: list[Clause] = field(default_factory=list)
    clipped: bool = False

    def span(self, a: int, b: int) -> str:
        """The player's words between two character offsets, as written."""
        return self.text[a:b]


def lemma(low: str) -> str:
    """A lookup lemma: a plural noun's singular by the common English endings ("clinics" →
    "clinic", "parties" → "party"); other words unchanged."""
    if low.endswith("'s") and len(low) > 3:
        return low[:-2]  # "burn's" → "burn"
    if len(low) > 4 and low.endswith("ies"):
        return low[:-3] + "y"
    if len(low) > 4 and low.endswith(("ches", "shes", "sses", "xes")):
        return low[:-2]
    if len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is", "'s")):
        return low[:-1]
    return low


def verb_stems(low: str) -> list[str]:
    """The base forms a verb's -ing or -ed form may have, most likely first ("targeting" →
    "target", "using" → "use", "stopping" → "stop", "aimed" → "aim"); none for other words."""
    for end in ("ing", "ed"):
        stem = low[: -len(end)]
        if low.endswith(end) and len(stem) >= 3:
            out = [stem, stem + "e"]
            if stem[-1] == stem[-2]:
                out.insert(0, stem[:-1])
            return out
    return []


def _clean(text: str) -> str:
    """Control and format characters become spaces (offsets stay put: one for one)."""
    return "".join(
        " " if unicodedata.category(ch) in ("Cc", "Cf") and ch != "\n" else ch for ch in text
    )


def tokenize(text: str) -> list[Token]:
    out = []
    for m in _TOKEN.finditer(text):
        raw = m.group()
        low = _low(raw)
        out.append(Token(raw, m.start(), m.end(), low, lemma(low)))
    return out


def lows(text: str) -> list[str]:
    """Each token's `low` (its folded text), without making the tokens: the words of a cue, a
    place or a pitch matched as they are (the vocabulary's 722 cues at load)."""
    return [_low(m.group()) for m in _TOKEN.finditer(text)]


def _low(raw: str) -> str:
    low = raw.lower().replace("’", "'").replace("‘", "'")
    return _SPELLED.get(low, low)


def parse(text: str, *, new_clause_words: frozenset[str] = frozenset()) -> Utterance:
    """Tokens and clauses of `text`. `new_clause_words`: words that begin a new instruction
    after "and" ("… and launch week 8"); the reader passes its cue words. One parse per text:
    the confirm, the step and the receipt that read the same words share it (an Utterance is
    never changed once made)."""
    return _parse(text[:MAX_CHARS], new_clause_words, len(text) > MAX_CHARS)


@lru_cache(maxsize=256)
def _parse(text: str, new_clause_words: frozenset[str], clipped: bool) -> Utterance:
    body = _clean(text)
    toks = tokenize(body)
    utt = Utterance(body, toks, clipped=clipped)
    cuts: list[int] = []  # token indexes where a clause ends (exclusive) / the next begins
    opens: set[int] = set()  # cuts whose token opens the next clause ("… its for parents")
    k = 0
    n = len(toks)
    while k < n:
        t = toks[k]
        low = t.low
        if t.text in _STOPS or (t.text == "-" and _spaced(toks, k)) or t.text == ",":
            cuts.append(k)
        elif t.text == "(" and k + 2 < n and toks[k + 2].text == ")" and len(toks[k + 1].text) == 1:
            cuts.extend((k, k + 2))  # "(a) drop …, (b) …": the marker is no clause
        elif (
            (low in _SPLIT_WORDS and k > 0 and toks[k - 1].low not in _BUT_AFTER)
            or (
                low in ("and", "&", "plus", "also", "then")
                and k + 1 < n
                and (
                    toks[k + 1].low in new_clause_words or toks[k + 1].low in ("no", "never", "not")
                )
            )
            or (t.text == ":" and k + 1 < n and toks[k + 1].is_cap and k > 2)
        ):
            cuts.append(k)
        elif (
            low in JOINS
            and k == 1 + (cuts[-1] if cuts else -1) + 1
            and toks[k - 1].text in _LETTERS
        ):
            cuts.append(k)  # "B plus flyers", "A with a referral bonus": the option, then more
        elif low in _IT_IS and k > 1 and toks[k - 1].is_word and k + 1 < n:
            since = [x.low for x in toks[(cuts[-1] + 1 if cuts else 0) : k - 1]]
            last = k + 2 >= n or not toks[k + 2].is_word  # "its not leeds its york"
            if (
                (toks[k + 1].low in _IT_IS_NEXT or last)
                and any(x in _NEGATIONS for x in since)  # a thing said between: "not for students"
                and toks[k - 1].low not in _KEEPS_ITS  # "dont say its the healthiest bar"
            ):
                cuts.append(k)
                opens.add(k)
        k += 1
    bounds = [-1, *cuts, n]
    for a, b in itertools.pairwise(bounds):
        # the token at a cut ("but", "and", a comma) belongs to neither side, but "its" to the next
        first = a if a in opens else a + 1
        words = toks[first:b]
        while (
            words
            and not words[0].is_word
            and words[0].text not in ("'", '"', "‘", "“", "$", "£", "€")
        ):
            words = words[1:]
            first += 1
        if not words:
            continue
        q = b < n and toks[b].text == "?"
        utt.clauses.append(
            Clause(first, first + len(words), words, words[0].start, words[-1].end, question=q)
        )
        if len(utt.clauses) >= MAX_CLAUSES:
            break
    return utt


def _spaced(toks: list[Token], k: int) -> bool:
    """A dash with a space on both sides (" - "), not a hyphen inside a word."""
    before = k == 0 or toks[k - 1].end < toks[k].start
    after = k + 1 >= len(toks) or toks[k + 1].start > toks[k].end
    return before and after
