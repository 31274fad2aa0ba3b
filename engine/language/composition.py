"""How directions compose over a venture, written once as data: which axes hold one value and
which several, what a fork option may replace and what it must keep, which channels are support
channels, and the conflicts across axes no artifact can follow (with the smallest fix).

`engine.language.directions.fold` composes the recalled notes with `COMPOSE`; the fork's option
cards and decisions (engine.session.steps) keep or say what they replace with it; the gate and the
confirm name the `conflicts` of what binds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Literal, Protocol, TypeVar

from engine.language.artifact_text import key_lemmas, said
from engine.language.grammar import join_prose
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit.patterns import Pattern


class Direction(Protocol):
    """What composing reads of a direction (engine.language.directions.Direction is one; this
    module sits below it, as directions.fold composes with this table)."""

    @property
    def axis(self) -> str: ...

    value: str  # keep_named gives an option the CEO's words

    @property
    def do(self) -> bool: ...
    @property
    def op(self) -> str: ...
    @property
    def key(self) -> str | None: ...
    @property
    def amount(self) -> float | None: ...
    @property
    def period(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def memory_id(self) -> str | None: ...
    def line(self) -> str: ...


D = TypeVar("D", bound=Direction)


@dataclass(frozen=True, eq=False, repr=False)
class Compose(FrozenRecord):
    """How one axis composes. `holds`: one value binds at a time (a later one replaces it) or
    several side by side (a later one that restates an earlier one, naming the same thing,
    replaces only it). `keyed`: one value per key (churn, burn, the launch week). `fork`: what a
    fork option does to a value the CEO named on the axis: `replaces` it (and its card says so
    before it is chosen) or `keeps` it (the option's content is composed around the CEO's)."""

    holds: Literal["one", "several"]
    fork: Literal["replaces", "keeps"]
    keyed: bool = False


_DATA = json.loads(Path(__file__).with_name("composition.json").read_text("utf-8"))
COMPOSE: dict[str, Compose] = {
    axis: Compose(row["holds"], row["fork"], keyed=bool(row.get("keyed")))
    for axis, row in _DATA["axes"].items()
}
# Where a direction comes from when the CEO named it (a fork option's content is the game's).
CEO_SOURCES = frozenset({"own", "rejection", "standup", "consolidated"})
# What marks a channel customers are answered through (support steps take only these; an
# acquisition channel such as paid ads or referrals is how customers are found, not answered).
SUPPORT_CHANNEL_WORDS: tuple[str, ...] = tuple(_DATA["support_channel_words"])
# The fields of each role's work a customer reads (the landing page, the launch email): never a
# rival's or a competitor's name, never the team's internal words (engine.game.adherence checks).
CUSTOMER_COPY: dict[str, tuple[str, ...]] = {
    role: tuple(fields) for role, fields in _DATA["customer_copy"].items()
}
INTERNAL_PHRASES: tuple[str, ...] = tuple(_DATA["internal_phrases"])
# The axes whose value the work must not say (an exclusion, a claim to avoid): a thing named on
# another axis that one of them leaves out cannot hold beside it.
LEAVES_OUT: tuple[str, ...] = tuple(_DATA["leaves_out"])
# The slots a competitor's name never lands in (it takes its own slot, `competitor`).
COMPETITOR_SLOTS: tuple[str, ...] = tuple(_DATA["competitor_slots"])
# What a competitor does, said after its name ("Petal Express ignores", "Gousto charges").
COMPETITOR_AFTER: tuple[str, ...] = tuple(_DATA["competitor_after"])
_NAME = r"(?P<name>[A-Z][\w&'.-]*(?:\s+(?:of\s+|the\s+|&\s+)?[A-Z][\w&'.-]*)*)"
_ALT = "|".join  # the cue words as alternatives, longest first
_AFTER = Pattern(  # compiled on first use: a venture whose words name no competitor never does
    rf"^(?P<rest>.+?)[\s,]+(?:(?:that|who|whom|which)\s+)?{_NAME}\s+"
    rf"(?:{_ALT(re.escape(c) for c in sorted(_DATA['competitor_after'], key=len, reverse=True))})"
    r"\b.*$"
)
_BEFORE = Pattern(
    rf"^(?P<rest>.+?)[\s,]+"
    rf"(?:{_ALT(re.escape(c) for c in sorted(_DATA['competitor_before'], key=len, reverse=True))})"
    rf"\s+{_NAME}\b.*$"
)


def split_competitor(axis: str, value: str) -> tuple[str, str | None]:
    """An audience or a place that a competitor's name defines, split into its own value and the
    competitor ("the flower sellers Petal Express ignores" → "the flower sellers", "Petal
    Express"): the rival, a competitor the CEO names and the venture's own place or audience are
    different slots. (value, None) when no competitor is named or the axis holds none."""
    if axis not in COMPETITOR_SLOTS:
        return value, None
    for pattern in (_AFTER, _BEFORE):
        m = pattern.match(value.strip())
        if m and m.group("rest").strip(" ,"):
            rest = re.sub(r"\s+(?:who|that|whom|which)$", "", m.group("rest").strip(" ,"))
            name = re.sub(r"^The\s+(?=[A-Z])", "The ", m.group("name"))
            return rest, name
    return value, None


def audiences(directions: Sequence[Direction]) -> str:
    """Who the work speaks to: every audience that binds, side by side ("flower sellers and the
    busiest farmers-market vendors"), as the realisation writes it and the schema holds it."""
    return join_prose([d.value for d in directions if d.axis == "audience"])


def slot(d: Direction) -> str:
    """What a later direction replaces in the fold: the axis (and key) for an axis that holds one
    value; for one that holds several, the thing its value names."""
    rule = COMPOSE.get(d.axis)
    if rule is None or rule.holds == "one":
        return f"{d.axis}:{d.key or 'launch'}" if rule and rule.keyed else d.axis
    return f"{d.axis}:{' '.join(key_lemmas(d.value)) or d.value.lower()}"


def restates(new: Direction, old: Direction) -> bool:
    """A later value on an axis that holds several names the same people or thing as an earlier
    one ("the busiest flower sellers" and "flower sellers"): it takes the earlier one's place."""
    return (
        new.axis == old.axis
        and COMPOSE[new.axis].holds == "several"
        and (said(new.value, old.value) is not None or said(old.value, new.value) is not None)
    )


@lru_cache(maxsize=1_024)
def is_support_channel(value: str) -> bool:
    """Whether a channel is one customers are answered through (whatsapp, a named person on
    support), which support steps may take; else it is how customers are found."""
    return any(said(value, w) for w in SUPPORT_CHANNEL_WORDS)


def ceo_named(d: Direction) -> bool:
    return d.source in CEO_SOURCES


def replaces_named(
    option: Sequence[Direction], bound: Sequence[Direction]
) -> list[tuple[Direction, Direction]]:
    """The directions the CEO named (in `bound`, what binds now) that an option's content would
    replace, each with what replaces it: the card says so before the option is chosen."""
    out: list[tuple[Direction, Direction]] = []
    for new in option:
        for old in bound:
            if not ceo_named(old) or old.line() == new.line():
                continue
            same = old.axis == new.axis and (slot(old) == slot(new) or restates(new, old))
            if same or _lifts(new, old):
                out.append((old, new))
    return out


def keep_named(option: list[D], bound: Sequence[Direction]) -> list[D]:
    """An option's content with what the CEO named kept on the axes an option may not replace:
    an option's channel or audience that restates the CEO's more broadly ("referrals" for the
    CEO's "partner referrals") takes the CEO's words; a narrowing that keeps them ("the busiest
    flower sellers") stands."""
    out: list[D] = []
    for d in option:
        kept = next(
            (
                c
                for c in bound
                if ceo_named(c)
                and COMPOSE[d.axis].fork == "keeps"
                and restates(d, c)
                and said(d.value, c.value) is None
            ),
            None,
        )
        if kept is not None:
            d.value = kept.value
        out.append(d)
    return out


_THINGS = ("audience", "scope", "place", "channel")


def _lifts(new: Direction, old: Direction) -> bool:
    """Whether folding `new` on top takes out `old` across axes: a thing named that the CEO left
    out ("paid ads" after "leave out paid ads"), or a thing left out that the CEO named."""
    if new.axis in _THINGS and new.do and old.axis in LEAVES_OUT:
        return said(new.value, old.value) is not None
    if new.axis in LEAVES_OUT and old.axis in _THINGS and old.do:
        return said(old.value, new.value) is not None
    return False


@dataclass(frozen=True, eq=False, repr=False)
class Conflict(FrozenRecord):
    """A minimal set of binding directions no artifact can follow together (take any one out and
    the rest can hold), and its smallest fix: the one to drop (the oldest, as the CEO's later
    words bind), or a change that keeps them all but one value (`change`, None when none fits)."""

    directions: tuple[str, ...]
    drop: str
    change: str | None = None
    drop_memory_id: str | None = None

    @property
    def line(self) -> str:
        said = join_prose([f"“{x}”" for x in self.directions])
        fix = f"drop “{self.drop}”" + (f", or {self.change}" if self.change else "")
        return f"{said} cannot {'both' if len(self.directions) == 2 else 'all'} hold: {fix}"

    def to_dict(self) -> dict[str, object]:
        return {
            "directions": list(self.directions),
            "drop": self.drop,
            "change": self.change,
            "drop_memory_id": self.drop_memory_id,
            "line": self.line,
        }


@dataclass(frozen=True, eq=False, repr=False)
class Repair(FrozenRecord):
    """What binds, checked as a whole: each minimal conflicting set, and the smallest fix for
    all of them at once (the fewest directions to drop, older ones first: one exclusion that
    conflicts with an audience and a channel is one drop, not two)."""

    conflicts: tuple[Conflict, ...]
    drop: tuple[str, ...]

    @property
    def line(self) -> str:
        if not self.conflicts:
            return ""
        sets = " ".join(f"{c.line}." for c in self.conflicts[:3])
        n = len(self.drop)
        fix = join_prose([f"“{x}”" for x in self.drop])
        return f"{sets} Smallest fix: drop {fix} ({n} direction{'s' if n != 1 else ''})."

    def to_dict(self) -> dict[str, object]:
        return {"conflicts": [c.to_dict() for c in self.conflicts], "drop": list(self.drop)}


# The axes whose value names a thing an exclusion can leave out (no work can say and not say it).
_NAMES_THINGS = ("audience", "scope", "place", "channel", "name")
# The axes that bind a number on one line (a price per period and unit, a plan number per key,
# the launch week): an exact value and bounds on the same line must overlap.
_BOUNDED = ("price", "number", "timeline")


def _line_of(d: Direction) -> tuple[str, ...]:
    return (d.axis, d.key or "", d.period if d.axis == "price" else "")


def _interval(d: Direction) -> tuple[float, float, bool, bool]:
    """(low, high, low is open, high is open): the values a bounded direction allows (a "by week
    N" allows week N; "under $N" does not allow $N)."""
    a = d.amount or 0.0
    if d.op == "min":
        return a, float("inf"), False, True
    if d.op == "max":
        return float("-inf"), a, True, d.axis != "timeline"
    return a, a, False, False


def _clash(a: Direction, b: Direction) -> bool:
    """Whether two directions cannot hold together: a thing one names that the other leaves
    out, or two bounds on one number whose allowed values do not overlap."""
    for x, y in ((a, b), (b, a)):
        if x.axis in _NAMES_THINGS and x.do and y.axis in LEAVES_OUT and said(x.value, y.value):
            return True
    if a.axis in _BOUNDED and _line_of(a) == _line_of(b) and None not in (a.amount, b.amount):
        lo1, hi1, lo1o, hi1o = _interval(a)
        lo2, hi2, lo2o, hi2o = _interval(b)
        lo, lo_open = max((lo1, lo1o), (lo2, lo2o))
        hi, hi_open = min((hi1, not hi1o), (hi2, not hi2o))
        hi_open = not hi_open
        return lo > hi or (lo == hi and (lo_open or hi_open))
    return False


def _change(keep: Direction, move: Direction) -> str | None:
    """A change to `move` that keeps `keep` (a price or a number moved into the bound the other
    sets): "change it to price $30 a month"; None for a thing and an exclusion."""
    if move.axis not in _BOUNDED or move.op != "eq" or keep.op == "eq" or keep.amount is None:
        return None
    a = keep.amount
    if keep.op == "max":
        a = a if move.axis == "timeline" else a - 1
    words = move.line().replace(f"{move.amount:g}", f"{a:g}")
    if words == move.line():  # the amount is written another way ("$1,200"): say the bound
        return f"change “{move.line()}” to meet “{keep.line()}”"
    return f"change “{move.line()}” to “{words}”"


def conflicts(directions: Sequence[Direction]) -> list[Conflict]:
    """Every minimal conflicting set in what binds (`directions`, in the order they bound):
    across axes, an audience, scope, place, channel or name that is also left out; on one
    number, a price under a floor (or over a cap) the CEO set, a week after a "by week", two
    bounds that leave nothing. On one line two bounds that do not overlap are already minimal
    (intervals on a line conflict pairwise), so each set is a pair; its fix drops the older."""
    out: list[Conflict] = []
    for j, b in enumerate(directions):
        for a in directions[:j]:
            if not _clash(a, b):
                continue
            change = _change(a, b) or _change(b, a)
            out.append(
                Conflict(
                    directions=(a.line(), b.line()),
                    drop=a.line(),
                    change=change,
                    drop_memory_id=a.memory_id,
                )
            )
    return out


def repair(directions: Sequence[Direction]) -> Repair:
    """The conflicts in what binds and the smallest fix for all of them: the fewest directions
    whose dropping leaves no conflict (a minimum hitting set of the conflicting sets, found by
    trying sets of one, then two, …), the older ones first where several are as small."""
    found = conflicts(directions)
    if not found:
        return Repair(conflicts=(), drop=())
    lines = [d.line() for d in directions]
    members = [x for x in dict.fromkeys(m for c in found for m in c.directions)]
    members.sort(key=lines.index)  # the older first
    for size in range(1, len(members) + 1):
        for pick in combinations(members, size):
            if all(set(pick) & set(c.directions) for c in found):
                return Repair(conflicts=tuple(found), drop=pick)
    return Repair(conflicts=tuple(found), drop=tuple(members))  # unreachable: all members hit
