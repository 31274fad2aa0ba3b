"""Typed directions: what a CEO input binds the next worker to, as data the gate can check.

A `Direction` is an axis (price, audience, exclusion, channel, scope, place, timeline, claim to avoid,
tone, a number, a name), a value, do / don't, the source and the stage, with its plain words
(`Direction.line`). The directions read from one input are stored as the binding memory note's
payload (`payload`, in `memory.models.MemoryRecord.payload`) and come back only through recall:
`fold` folds the recalled notes, the later direction on a slot replacing the earlier one, so
withholding or forgetting a note takes its directions out of the next brief.

Reading a CEO's words into directions is engine.language.steering; the gate's check of an
artifact against them is engine.game.adherence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, Protocol, get_args

from engine.language.artifact_text import said
from engine.language.composition import LEAVES_OUT, restates, split_competitor
from engine.language.composition import slot as compose_slot
from engine.language.grammar import article
from worldforge_savedb.records import Record
from worldforge_textkit import clip
from worldforge_textkit.numbers import money

Axis = Literal[
    "price",
    "audience",
    "exclusion",
    "channel",
    "scope",
    "place",
    "timeline",
    "claim",
    "tone",
    "number",
    "name",
    "competitor",
]
Source = Literal["decision", "own", "rejection", "standup", "consolidated"]
Op = Literal["eq", "max", "min"]
AXES: tuple[str, ...] = get_args(Axis)
SOURCES: tuple[str, ...] = get_args(Source)
OPS: tuple[str, ...] = get_args(Op)
SOURCE_WORDS = {
    "decision": "your choice",
    "own": "your own answer",
    "rejection": "your rejection",
    "standup": "your standup reply",
    "consolidated": "a reviewed note",
}
MAX_VALUE = 80  # a direction's value is clipped to this many characters (inert text)
# The catch-all values a reading gives when the words name no particular claim or scope.
GENERIC_CLAIM = "results it cannot prove yet"
CORE_SCOPE = "one core job"


@dataclass(eq=False, repr=False)
class Direction(Record):
    """One typed direction. `op` says how a number binds: eq (exactly), max (under), min (at
    least); `key` names which number or date (churn, burn, mrr, breakeven, cac, hours, launch).
    A plain dataclass (the engine builds it and trusts it); `from_dict` checks one read back from
    a note's payload, `to_dict` is the payload's JSON (None fields left out)."""

    axis: Axis
    value: str
    do: bool = True
    amount: float | None = None
    op: Op = "eq"
    key: str | None = None
    unit: str | None = None  # a price's unit ("farm" in "$40 a month per farm")
    period: str = "month"
    source: Source = "rejection"
    stage: str | None = None
    said: str = ""  # the CEO's words it was read from (clipped)
    memory_id: str | None = None  # the note it came from (set when folded from recall)
    replaced: str | None = None  # what it replaced on its slot, in words
    note: str | None = None  # how the reading chose it ("the later of two prices you named")
    start: int | None = None  # where in the player's words it was read from (characters)
    end: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.amount, int):  # 27 and 27.0 are one amount; the payload says 27.0
            self.amount = float(self.amount)

    @classmethod
    def from_dict(cls, raw: object) -> Direction:
        """A direction from a note's payload (data another build or process may have written):
        ValueError unless it is a mapping whose fields have their types; unknown keys ignored."""
        if not isinstance(raw, Mapping):
            raise ValueError("a direction is not an object")
        try:
            d = cls(**{name: raw[name] for name in _DIRECTION_FIELDS if name in raw})
        except TypeError as err:  # a required field missing
            raise ValueError(f"not a direction: {err}") from None
        bad = [name for name, types in _DIRECTION_TYPES.items() if not _is(getattr(d, name), types)]
        for name, allowed in (("axis", AXES), ("op", OPS), ("source", SOURCES)):
            if getattr(d, name) not in allowed:
                bad.append(name)
        if bad:
            raise ValueError(f"a direction has a bad {', '.join(bad)}")
        return d

    def to_dict(self, *, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
        """The direction as JSON data, fields in order, None fields and `leave_out` left out."""
        return {
            name: value
            for name in _DIRECTION_FIELDS
            if (value := getattr(self, name)) is not None and name not in leave_out
        }

    @property
    def stage_beat(self) -> str:
        """The beat of the stage it was given at ("SEARCH"), '' when none."""
        return self.stage.rsplit("_", 1)[-1].upper() if self.stage else ""

    @property
    def slot(self) -> str:
        """What a later direction replaces: one price, one audience, one value per number; each
        exclusion and claim to avoid stands on its own."""
        if self.axis in ("exclusion", "claim"):
            return f"{self.axis}:{self.value.lower()}"
        if self.axis in ("number", "timeline"):
            return f"{self.axis}:{self.key or 'launch'}"
        return self.axis

    def line(self) -> str:
        """The direction in plain words ("price $27 a month", "leave out salons")."""
        if self.axis == "price":
            return f"price {_BOUND[self.op]}{price_words(self)}"
        if self.axis == "timeline":
            bound = {"eq": "in", "max": "by", "min": "no sooner than"}[self.op]
            return f"launch {bound} week {self.amount:.0f}"
        if self.axis == "number":
            what = NUMBER_WORDS.get(self.key or "", self.key)
            return f"{what} {_BOUND[self.op]}{number_words(self)}"
        return _LINES[self.axis].format(value=self.value)

    def shown(self) -> str:
        """The line, with how the reading chose it when it chose ("price $12 a meal (the later
        of two prices you named)")."""
        return f"{self.line()} ({self.note})" if self.note else self.line()


# What names a thing an exclusion of the same words undoes (and a later exclusion takes out).
_NAMES_A_THING = ("audience", "scope", "place", "channel")
# How a price or number binds, and the words of each axis that binds a value as it was said.
_BOUND = {"eq": "", "max": "under ", "min": "at least "}
_LINES = {
    "audience": "speak to {value}",
    "exclusion": "leave out {value}",
    "channel": "reach customers through {value}",
    "scope": "centre the work on {value}",
    "place": "start in {value}",
    "claim": "never claim {value}",
    "tone": "write in a {value} tone",
    "name": "call it {value}",
    "competitor": "stand apart from {value}, never naming it to customers",
}
_DIRECTION_FIELDS = tuple(f.name for f in fields(Direction))
_OPT = (str, type(None))
_DIRECTION_TYPES: dict[str, tuple[type, ...]] = {
    **dict.fromkeys(("axis", "value", "op", "period", "source", "said"), (str,)),
    **dict.fromkeys(("key", "unit", "stage", "memory_id", "replaced", "note"), _OPT),
    **dict.fromkeys(("start", "end"), (int, type(None))),
    "do": (bool,),
    "amount": (float, type(None)),
}


def _is(value: object, types: tuple[type, ...]) -> bool:
    """isinstance, except that a bool is not a number here (JSON's true is no amount)."""
    return isinstance(value, types) and not (isinstance(value, bool) and bool not in types)


def price_words(d: Direction) -> str:
    """'$40 a month per farm', '$12 a meal' (a price per thing bought names no month)."""
    if d.amount is None:
        return d.value
    if d.period == "unit" and d.unit:
        return f"{money(d.amount)} {article(d.unit) or 'a'} {d.unit}"
    unit = f" per {d.unit}" if d.unit else ""
    return f"{money(d.amount)} a {d.period}{unit}"


NUMBER_WORDS = {
    "churn": "churn target",
    "burn": "monthly burn",
    "mrr": "month-6 revenue target",
    "breakeven": "breakeven",
    "cac": "acquisition cost",
    "hours": "weekly hours per channel",
}


def number_words(d: Direction) -> str:
    v = d.amount or 0.0
    if d.key == "churn":
        return f"{v:.1f} %"
    if d.key == "breakeven":
        return f"month {v:.0f}"
    if d.key == "hours":
        return f"{v:.0f} hours a week"
    return money(v)


@dataclass(eq=False, repr=False)
class Binding(Record):
    """What binds one brief, folded from recalled memory only (never from game state)."""

    directions: list[Direction] = field(default_factory=list)
    rule_id: str | None = None  # the newest recalled fork decision's rule
    decision: str = ""  # its words
    rejection: dict[str, Any] | None = None  # the newest recalled rejection of this stage
    note_ids: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.directions and not self.rule_id

    def lines(self) -> list[str]:
        return [
            f"{d.line()} (from {SOURCE_WORDS.get(d.source, d.source)}"
            + (f", {d.stage_beat}" if d.stage_beat else "")
            + (f"; {d.note}" if d.note else "")
            + ")"
            for d in self.directions
        ]


def slotted(directions: list[Direction]) -> list[Direction]:
    """A competitor's name taken out of an audience or a place into its own slot (composition's
    `split_competitor`): "speak to the flower sellers Petal Express ignores" binds the audience
    "the flower sellers" and the competitor "Petal Express", which never lands in customer copy."""
    out: list[Direction] = []
    for d in directions:
        rest, name = split_competitor(d.axis, d.value) if d.do else (d.value, None)
        out.append(d)
        if name:
            d.value = rest
            out.append(replace(d, axis="competitor", value=name, start=None, end=None))
    return out


def payload(
    directions: Iterable[Direction],
    *,
    source: Source,
    rule_id: str | None = None,
    said: str = "",
) -> dict[str, Any]:
    """The binding note's structured payload (what `fold` reads back)."""
    return {
        "source": source,
        "rule_id": rule_id,
        "said": clip(said, 160),
        "directions": [d.to_dict(leave_out=("memory_id", "replaced")) for d in directions],
    }


class Note(Protocol):
    """What a binding note gives the fold (a memory record, memory.models.MemoryRecord)."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def payload(self) -> dict[str, Any] | None: ...
    @property
    def game_day(self) -> int: ...
    @property
    def stage_id(self) -> str | None: ...


def names(thing: Direction, exclusion: Direction) -> bool:
    """Whether a direction that names a thing (an audience, scope, place, channel) names what an
    exclusion leaves out, by lemma and phrase ("routes" and "every mention of routes")."""
    return said(thing.value, exclusion.value) is not None


def _lift(slots: dict[str, Direction], d: Direction) -> bool:
    """Take out what `d` contradicts (a thing it names that was left out, or a thing it leaves
    out that was named); False when `d` itself must not bind: "leave out every mention of routes"
    also read as "routes" in the same note, whose words left routes out."""
    if d.axis in _NAMES_A_THING and d.do:
        barred = [k for k, x in slots.items() if x.axis in LEAVES_OUT and names(d, x)]
        if any(slots[k].memory_id == d.memory_id for k in barred):
            return False
        for k in barred:
            del slots[k]
    if d.axis in LEAVES_OUT:
        for k in [k for k, x in slots.items() if x.axis in _NAMES_A_THING and x.do]:
            if names(slots[k], d):
                del slots[k]
    return True


def fold(notes: Iterable[Note], *, stage_id: str | None = None) -> Binding:
    """The binding section of a brief: the recalled binding notes (in write order by game day
    then id) folded into the directions that bind now (nothing else binds): on each slot
    (engine.language.composition: one value per axis, or several side by side) the later
    replaces the earlier; an audience, a scope, a place or a channel named later lifts an
    exclusion or a claim to avoid of the same thing ("paid ads", later "no ads"; "don't claim
    species", later "centre it on species identification"), and the other way round (no
    artifact can follow both); in one note the exclusion is what the words said ("leave out every
    mention of routes" binds no scope "routes")."""
    out = Binding()
    slots: dict[str, Direction] = {}
    seen: dict[str, Note] = {}
    for n in notes:  # the same note from recall and from the binding read counts once
        if n.payload and n.kind == "procedural":
            seen.setdefault(n.id, n)
    recs = sorted(seen.values(), key=lambda n: (n.game_day, n.id))
    for rec in recs:
        p = rec.payload or {}
        out.note_ids.append(rec.id)
        if p.get("rule_id") and p.get("source") in ("decision", "own"):
            out.rule_id = p["rule_id"]
            out.decision = str(p.get("said") or "")
        if p.get("source") == "rejection" and (stage_id is None or rec.stage_id == stage_id):
            out.rejection = {"memory_id": rec.id, **p}
        for raw in p.get("directions") or []:
            try:
                d = Direction.from_dict(raw)
            except ValueError:
                continue  # a note from another build: inert
            d.memory_id = rec.id
            key = compose_slot(d)
            same = [k for k, x in slots.items() if k == key or restates(d, x)]
            old = slots.get(same[0]) if same else None  # "the busiest flower sellers" takes the
            if old is not None:  # place of "flower sellers" (and of every other restatement)
                d.replaced = old.line()
            if not _lift(slots, d):
                continue
            for k in same:
                slots.pop(k, None)
            slots[key] = d
    out.directions = list(slots.values())
    return out
