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
from pathlib import Path
from typing import Literal, Protocol, TypeVar

from engine.language.artifact_text import key_lemmas, said
from engine.language.grammar import join_prose
from worldforge_savedb.records import FrozenRecord


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
# The slots a competitor's name never lands in (it takes its own slot, `competitor`).
COMPETITOR_SLOTS: tuple[str, ...] = tuple(_DATA["competitor_slots"])
_NAME = r"(?P<name>[A-Z][\w&'.-]*(?:\s+(?:of\s+|the\s+|&\s+)?[A-Z][\w&'.-]*)*)"
_ALT = "|".join  # the cue words as alternatives, longest first
_AFTER = re.compile(
    rf"^(?P<rest>.+?)[\s,]+(?:(?:that|who|whom|which)\s+)?{_NAME}\s+"
    rf"(?:{_ALT(re.escape(c) for c in sorted(_DATA['competitor_after'], key=len, reverse=True))})"
    r"\b.*$"
)
_BEFORE = re.compile(
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
    if new.axis in _THINGS and new.do and old.axis == "exclusion":
        return said(new.value, old.value) is not None
    if new.axis == "exclusion" and old.axis in _THINGS and old.do:
        return said(old.value, new.value) is not None
    return False


@dataclass(frozen=True, eq=False, repr=False)
class Conflict(FrozenRecord):
    """Two binding directions no artifact can follow together, and the smallest fix: the one
    direction to drop (the older of the two), in words."""

    first: str
    second: str
    fix: str
    drop_memory_id: str | None = None

    @property
    def line(self) -> str:
        return f"“{self.first}” conflicts with “{self.second}”: {self.fix}"


def conflicts(directions: Sequence[Direction]) -> list[Conflict]:
    """Conflicts across axes in what binds: an audience, scope, place or channel that is also
    left out; a price under a floor (or over a cap) the CEO set. The fix drops the older one
    (the earlier in `directions`, which the fold gives in the order they bound)."""
    at = {id(d): i for i, d in enumerate(directions)}

    def pair(a: Direction, b: Direction) -> Conflict:
        older = a if at[id(a)] <= at[id(b)] else b
        return Conflict(
            first=a.line(),
            second=b.line(),
            fix=f"drop “{older.line()}”, the older of the two",
            drop_memory_id=older.memory_id,
        )

    out: list[Conflict] = []
    excl = [d for d in directions if d.axis == "exclusion"]
    for d in directions:
        if d.axis in ("audience", "scope", "place", "channel") and d.do:
            for x in excl:
                if said(d.value, x.value) is not None:
                    out.append(pair(d, x))
    prices = [d for d in directions if d.axis == "price" and d.amount is not None]
    for p in prices:
        for bound in prices:
            if bound is p or bound.op == "eq" or p.op != "eq" or bound.period != p.period:
                continue
            a, b = p.amount or 0.0, bound.amount or 0.0
            if (bound.op == "min" and a < b) or (bound.op == "max" and a >= b):
                out.append(pair(p, bound))
    return out
