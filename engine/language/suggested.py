"""A model's suggestion for a part of the player's words the reader could not place: what it
holds, how a model's answer is checked into one, and how a confirmed one joins the reading.

The reader (engine.language.reader) leaves a clause it cannot place unread, with its typed
reason. With a model tier configured, that part may be offered to the model as a constrained
choice (engine.workers.suggest): an axis from `AXES` or none, do / don't, and a value that is a
span of the player's own words. The answer is never trusted: `check` keeps a placement only when
its part was offered, its axis is one of `AXES`, its words are a whole-word span of that part
(the value is the player's slice of the text, never the model's) and its do / don't can bind
(a thing to leave out is never a thing to do). A kept suggestion binds nothing until the player
confirms the command that carries it; the command records it, so replay binds it again without
asking any model (`with_suggestions`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.language.directions import Direction
from engine.language.reader.reads import (
    ARTICLES,
    CLAUSE_VERBS,
    NEG,
    VERBISH,
    Part,
    Read,
    Reading,
    tidy_value,
)
from engine.language.reader.utterance import Token, Utterance, parse
from engine.language.reader.vocab import vocab
from worldforge_savedb.records import FrozenRecord

# The axes a span of the player's words can fill as it stands (a price, a number or a week needs
# a figure the reader reads; a tone is one of the reader's own words), with what each means.
AXES: dict[str, str] = {
    "audience": "who the work speaks to or sells to",
    "exclusion": "something the work must leave out (do is false)",
    "channel": "how the work reaches customers",
    "scope": "what the work centres on",
    "place": "where the work starts",
    "claim": "a claim the work must never make (do is false)",
    "name": "what the product or company is called",
}
NONE = "none"  # the model's way to say no axis fits: the part stays unread
LEAVE_OUT = frozenset(("exclusion", "claim"))  # axes that only ever bind as don't
# A don't on these is a thing to leave out, as the reader reads a negated segment (a refused
# place or name stays on its axis: the gate holds it as words to leave out).
TO_EXCLUSION = frozenset(("audience", "channel", "scope"))
# Reasons a span cannot answer: the figure needs the player's own word (a currency, a week).
NOT_OFFERED = frozenset(("no_currency", "no_week"))
# The closed class the vocabulary holds no list of: a value never starts or ends with one.
PREPOSITIONS = vocab().lists["prepositions"]
SUGGESTED_BY = "suggested by "  # a bound suggestion's direction notes who suggested it
MAX_PARTS = 3  # parts offered from one input
MAX_SPAN_WORDS = 8


@dataclass(frozen=True, eq=False, repr=False)
class Suggestion(FrozenRecord):
    """One placement a model suggested for an unread part, checked: the part (its offsets and
    why the reader left it unread), the axis, do / don't, the span of the player's words
    (offsets and the words as written) and who suggested it ("local: qwen2.5")."""

    part_start: int
    part_end: int
    why: str
    axis: str
    do: bool
    start: int
    end: int
    value: str
    by: str

    @classmethod
    def from_dict(cls, raw: object) -> Suggestion:
        """A suggestion from a recorded command (ValueError, one line, when it is not one)."""
        if not isinstance(raw, Mapping):
            raise ValueError("a suggestion is not an object")
        try:
            made = cls(
                part_start=int(raw["part_start"]),
                part_end=int(raw["part_end"]),
                why=str(raw["why"]),
                axis=str(raw["axis"]),
                do=bool(raw["do"]),
                start=int(raw["start"]),
                end=int(raw["end"]),
                value=str(raw["value"]),
                by=str(raw["by"]),
            )
        except (KeyError, TypeError, ValueError):
            raise ValueError("a suggestion lacks a field or has a bad one") from None
        if made.axis not in AXES:
            raise ValueError(f"a suggestion's axis {made.axis[:20]!r} is not one it may take")
        return made

    def to_dict(self) -> dict[str, object]:
        return {
            "part_start": self.part_start,
            "part_end": self.part_end,
            "why": self.why,
            "axis": self.axis,
            "do": self.do,
            "start": self.start,
            "end": self.end,
            "value": self.value,
            "by": self.by,
        }

    @property
    def note(self) -> str:
        """How the direction it binds was chosen, in words (its note on every screen)."""
        return f"{SUGGESTED_BY}{self.by}"

    def words(self) -> str:
        """The suggestion in words for the confirm: “value” as axis (do / don't)."""
        how = "" if self.do or self.axis in LEAVE_OUT else ", to avoid"
        return f"“{self.value}” as {self.axis}{how}"


def line_of(d: Direction) -> str:
    """What a direction binds, in words; one a model suggested says so ("… (suggested by …)")."""
    return d.shown() if d.note and d.note.startswith(SUGGESTED_BY) else d.line()


def confirm_line(suggested: Sequence[Suggestion]) -> str:
    """The confirm's sentence for suggestions: who suggested what; it binds only if confirmed."""
    by = ", ".join(sorted({s.by for s in suggested}))
    placed = "; ".join(s.words() for s in suggested)
    return f"Suggested by {by}, not read by the game: {placed}; it binds if you confirm."


def offerable(reading: Reading) -> list[Part]:
    """The unread parts a model may be asked to place (at most MAX_PARTS, in order): not one
    whose figure needs the player's own word, nor one with no words a value could be."""
    return [
        p
        for p in reading.parts
        if p.kind == "unread" and p.reason not in NOT_OFFERED and spans(reading.text, p)
    ][:MAX_PARTS]


@functools.cache
def _function_words() -> frozenset[str]:
    """Words a value never starts or ends with: the reader's articles, negations, verbs and
    lead-ins, pronouns, terminators and the small words around money (vocab rows and the
    grammar's own sets; one-word rows only)."""
    lists = vocab().lists
    rows = set().union(
        *(
            lists[name]
            for name in ("pronouns", "verbs", "terminators", "adverbs", "imperative_lead")
        ),
        lists["after_money"] - lists["channels"],
    )
    return frozenset(
        {w for w in rows if " " not in w}
        | set(ARTICLES)
        | NEG
        | CLAUSE_VERBS
        | VERBISH
        | PREPOSITIONS
    )


def _value(utt: Utterance, toks: list[Token]) -> tuple[str, int, int] | None:
    """The value a run of tokens holds, as the reader cuts one (articles and quotes off), or
    None when what is left starts or ends with a function word ("should", "it", "for")."""
    tidy = tidy_value(utt, toks)
    if tidy is None:
        return None
    edges = [t for t in toks if t.start == tidy[1] or t.end == tidy[2]]
    small = _function_words()
    if not edges or any(t.low in small or not t.is_word for t in edges):
        return None
    return tidy


def spans(text: str, part: Part) -> list[str]:
    """Every value a placement of the part may take: each run of its words (up to
    MAX_SPAN_WORDS) that the reader would cut as a value, as written."""
    utt = parse(text)
    toks = [t for t in utt.tokens if part.start <= t.start and t.end <= part.end]
    out: list[str] = []
    for i in range(len(toks)):
        for j in range(i + 1, min(len(toks), i + MAX_SPAN_WORDS) + 1):
            got = _value(utt, toks[i:j])
            if got is not None and got[0] == text[toks[i].start : toks[j - 1].end]:
                out.append(got[0])
    return list(dict.fromkeys(out))


def check(
    answer: Mapping[str, Any], text: str, parts: Sequence[Part], by: str
) -> tuple[list[Suggestion], list[str]]:
    """The placements of a model's answer that hold, and why each other one was discarded (one
    short line each). `parts` are the parts offered, numbered from 1; `text` the reading's text."""
    kept: list[Suggestion] = []
    dropped: list[str] = []
    placed: set[int] = set()
    utt = parse(text)
    starts, ends = {t.start for t in utt.tokens}, {t.end for t in utt.tokens}
    for raw in answer.get("placements") or []:
        n, axis, words = raw.get("part"), str(raw.get("axis", "")), str(raw.get("words", ""))
        if not isinstance(n, int) or not 1 <= n <= len(parts):
            dropped.append(f"no part {n} to place" if isinstance(n, int) else "a part it lacks")
            continue
        if n in placed:
            dropped.append(f"a second placement of part {n}")
            continue
        if axis == NONE:
            continue
        part = parts[n - 1]
        if axis not in AXES:
            dropped.append("an axis outside the list it was given")  # its words never shown
            continue
        do = bool(raw.get("do", True))
        if not do and axis in TO_EXCLUSION:
            axis = "exclusion"  # "not the tourists": people, a channel or a theme to leave out
        if do and axis in LEAVE_OUT:
            dropped.append(f"“{axis}” only ever binds as something to leave out")
            continue
        value = words.strip()
        at = _find(text, value, part, starts, ends)
        if at is None:
            dropped.append("words that are not yours")  # the model's text is never shown
            continue
        cut = _value(utt, [t for t in utt.tokens if at <= t.start and t.end <= at + len(value)])
        if cut is None:
            dropped.append(f"“{value[:40]}” names nothing")
            continue
        placed.add(n)
        value, a, b = cut
        kept.append(Suggestion(part.start, part.end, part.reason, axis, do, a, b, value, by))
    return kept, dropped


def _find(text: str, value: str, part: Part, starts: set[int], ends: set[int]) -> int | None:
    """Where `value` stands in the part as whole words, exactly as written (None: it does not)."""
    if not value:
        return None
    at = text.find(value, part.start, part.end)
    while at != -1:
        if at in starts and at + len(value) in ends:
            return at
        at = text.find(value, at + 1, part.end)
    return None


def with_suggestions(reading: Reading, suggested: Iterable[Suggestion]) -> Reading:
    """The reading with each confirmed suggestion bound: its part becomes a direction read from
    the suggested span. A suggestion that no longer fits the words (another text, another part)
    binds nothing."""
    fits = [
        s
        for s in suggested
        if reading.text[s.start : s.end] == s.value
        and s.part_start <= s.start < s.end <= s.part_end
        and any(
            p.kind == "unread" and (p.start, p.end) == (s.part_start, s.part_end)
            for p in reading.parts
        )
    ]
    if not fits:
        return reading
    placed = {(s.part_start, s.part_end) for s in fits}
    return replace(
        reading,
        directions=[
            *reading.directions,
            *(Read(s.axis, s.do, s.value, s.start, s.end) for s in fits),
        ],
        parts=[
            replace(p, kind="direction", reason="", teach_back="")
            if p.kind == "unread" and (p.start, p.end) in placed
            else p
            for p in reading.parts
        ],
    )
