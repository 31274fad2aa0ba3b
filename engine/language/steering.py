"""Steering input (a fork's own answer, a rejection reason, a standup reply) read into the typed
directions the session binds (`read_directions`), from the one reading of the words
(engine.language.reader).

The books are kept in the venture's currency (worldforge_textkit.numbers, the one in force): a
price named in it ("40 quid a visit" on a pound venture) binds; a price named in another currency
is asked about with the same figure in the books' currency as the example (`Read.in_books`),
never converted at a guessed rate; a bare figure is in the books' money. A relative week ("a week earlier") resolves against the week the
artifact a rejection answers states. What the reader cannot place is asked about
(`Read.unclear`) or reported (`Read.unread`), never guessed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypedDict, cast

from engine.errors import InputError
from engine.language.artifact_text import current_number, current_price_said, current_week
from engine.language.directions import (
    AXES,
    CORE_SCOPE,
    MAX_VALUE,
    OPS,
    Axis,
    Direction,
    Op,
    Source,
    price_words,
    slotted,
)
from engine.language.reader.read import read_text
from engine.language.reader.reads import Part, Reading
from engine.language.reader.reads import Read as Said
from engine.language.reader.vocab import vocab
from engine.language.suggested import Suggestion, with_suggestions
from worldforge_savedb.records import FrozenRecord, Record
from worldforge_textkit import clip, has_phrase, words
from worldforge_textkit.numbers import currency

# What a rejection says when the work ignored the decision it was briefed with.
DECISION_CUES = vocab().lists["decision_cues"]
_WRONG_PEOPLE = vocab().lists["wrong_people"]
_FORM = '{"axis": "price", "value": "$20 a month"}, or a list of them'
_ORDER = (
    "price",
    "number",
    "timeline",
    "name",
    "claim",
    "tone",
    "channel",
    "audience",
    "exclusion",
    "scope",
    "place",
    "competitor",
)
_RELATIVE_WEEKS = {
    "one week earlier": -1,
    "two weeks earlier": -2,
    "one week later": 1,
    "two weeks later": 2,
}


@dataclass(eq=False, repr=False)
class Read(Record):
    """What one input was read into, plus what could not be placed (asked, never guessed)."""

    directions: list[Direction] = field(default_factory=list)
    unclear: list[str] = field(default_factory=list)  # e.g. "price": named but not readable
    notes: list[str] = field(default_factory=list)  # e.g. "two prices: the later one wins"
    # a price named in another currency, said in the currency the books keep ("£25 a repair" →
    # "$25 a repair"): asked about with this as the example, never converted at a guessed rate
    in_books: str = ""
    unread: list[str] = field(default_factory=list)  # the words that place nothing, as written
    # the unread clauses, each with its span, typed reason and teach-back (what a front end shows)
    parts: list[Part] = field(default_factory=list)
    option: str | None = None  # an own answer's pick: "A", "B", "both", or None
    text: str = ""  # the words as read (cleaned, clipped): what each span points into
    asked: str = ""  # why the reader asks instead of binding ("neither", …), "" when it does not


def read_directions(
    text: str,
    *,
    source: Source,
    stage: str | None = None,
    current: Mapping[str, object] | None = None,
    base_price: float | None = None,
    customer: str | None = None,
    amends: Amends | None = None,
    fork: Mapping[str, str] | None = None,
) -> Read:
    """Read free text into typed directions. `current` is the artifact a rejection answers (a
    relative week resolves against the week it states); `customer` is who "the wrong people"
    means the work should speak to instead; `base_price` is the company's list price when no
    artifact states one (a relative "too expensive" moves it); `amends`: what the player added
    to the reading before it bound (a model's placements they confirmed, their corrections);
    `fork`: the options an own answer answers (the words that pick one are no unread part, and
    the option's own content is the decision's to bind, not these words')."""
    given = structured(text)
    if given is not None:  # a script's directions, given as data: never re-read
        return Read(directions=_given(given, source, stage, text))
    amends = amends or Amends()
    reading = with_suggestions(
        read_text(text, source=source, period="month", fork=fork), amends.suggested
    )
    own = [r for r in reading.directions if not r.option]  # an option's content is its own
    reading = replace(reading, directions=own)
    out = from_reading(
        reading,
        source=source,
        stage=stage,
        current=current,
        customer=customer,
        said=text,
        base_price=base_price,
    )
    notes: dict[tuple[int | None, int | None], str] = {
        (s.start, s.end): s.note for s in amends.suggested
    }
    for d in out.directions:
        d.note = notes.get((d.start, d.end), d.note)
    if amends.confirmed is not None:
        out.directions = _given(checked(amends.confirmed), source, stage, text)
        out.unclear = [u for u in out.unclear if u == "price_amount"]  # a figure is never guessed
    return out


@dataclass(frozen=True, eq=False, repr=False)
class Amends(FrozenRecord):
    """What the player added to a reading of their words before it bound, recorded with the
    command so replay binds the same without asking anyone: a model's placements of unread parts
    they confirmed (`suggested`, engine.language.suggested), and their own corrections
    (`confirmed`: the directions they confirmed instead of the reading's, as a front end's chips
    left them; None: the reading binds as read, with any suggestions)."""

    suggested: Sequence[Suggestion] = ()
    confirmed: Sequence[Mapping[str, object]] | None = None


def _given(given: list[Direction], source: Source, stage: str | None, text: str) -> list[Direction]:
    """Directions given as data (a script's JSON, a front end's confirmed reading), as bound:
    tagged with where they were said; a competitor is its own slot here too."""
    for d in given:
        d.source, d.stage, d.said = source, stage, clip(text, 160)
    return slotted(given)


def checked(confirmed: Sequence[Mapping[str, object]]) -> list[Direction]:
    """The directions a player confirmed, as a command records them: each must be a direction
    (one line otherwise); a thing left out or a claim avoided is never bound as its opposite."""
    out = []
    for raw in confirmed:
        try:
            d = Direction.from_dict(raw)
        except ValueError as err:
            raise InputError(f"a confirmed reading has a bad direction: {err}") from None
        if d.axis in ("exclusion", "claim"):
            d.do = False
        d.value = clip(d.value, MAX_VALUE)
        out.append(d)
    return out


def structured(text: str) -> list[Direction] | None:
    """Directions a script gives as JSON instead of words: one object or a list of them, each
    `{"axis": "price", "value": "$20 a month"}` plus any of `do`, `amount`, `op`, `period`,
    `unit`, `key` (a price or a number with no `amount` takes the figure its value reads as).
    None when the text is not JSON; InputError (one line) when it is JSON but no direction."""
    said = text.strip()
    if not said.startswith(("{", "[")):
        return None
    try:
        raw = json.loads(said)
    except json.JSONDecodeError:
        return None
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for item in items:
        try:
            d = Direction.from_dict(item)
        except ValueError as err:  # names the bad field
            raise InputError(f"{err} (a direction is {_FORM})") from None
        if d.axis in ("exclusion", "claim"):
            d.do = False  # a thing to leave out, a claim to avoid: never the opposite
        if d.axis in ("price", "number", "timeline") and d.amount is None:
            figure = next(
                (
                    r
                    for r in read_text(d.value, source="standup", period="month").directions
                    if r.amount is not None
                ),
                None,
            )
            if figure is None:
                raise InputError(f"a {d.axis} direction needs a figure (got {d.value[:40]!r})")
            d.amount, d.unit = figure.amount, figure.unit
            d.period = figure.period or d.period
        d.value = clip(d.value, MAX_VALUE)
        if d.axis == "price":
            d.value = price_words(d)
        out.append(d)
    return out


def from_reading(
    reading: Reading,
    *,
    source: Source,
    stage: str | None = None,
    current: Mapping[str, object] | None = None,
    customer: str | None = None,
    said: str = "",
    base_price: float | None = None,
) -> Read:
    """The session's directions from one reading (see the module docstring)."""
    out = Read(
        unread=reading.unread,
        notes=list(reading.notes),
        parts=[p for p in reading.parts if p.kind == "unread"],
        option=reading.option,
        text=reading.text,
        asked=reading.ask_why or "",
    )
    base = _Base(current, base_price)
    quoted = clip(said, 160)
    for r in reading.directions:
        if r.axis == "audience" and not r.value:
            if customer:  # "Wrong audience": the venture's own customer
                out.directions.append(
                    Direction(
                        axis="audience",
                        value=clip(customer, MAX_VALUE),
                        source=source,
                        stage=stage,
                        said=quoted,
                    )
                )
            continue
        d = _direction(r, base, out)
        if d is None:
            if r.end > r.start and (
                (r.axis == "number" and r.key == "customers")  # no customer target to hold
                or (r.axis == "price" and r.do and r.currency not in (None, currency().symbol))
            ):
                out.unread.append(reading.text[r.start : r.end])
                if r.axis == "price":  # said why, with the figure in the books' currency
                    out.parts.append(
                        Part(
                            kind="unread",
                            start=r.start,
                            end=r.end,
                            words=reading.text[r.start : r.end],
                            reason="other_currency",
                            teach_back=f"The books are kept in {currency().name}: "
                            f"say “{out.in_books}”.",
                        )
                    )
            continue
        d.source, d.stage, d.said = source, stage, quoted
        d.value = clip(d.value, MAX_VALUE)
        if d.axis == "price" and reading.notes:
            d.note = "the later of two prices you named"
        out.directions.append(d)
    toks = words(said)
    if (
        customer
        and not any(d.axis == "audience" for d in out.directions)
        and any(has_phrase(toks, p) for p in _WRONG_PEOPLE)
    ):
        out.directions.append(
            Direction(
                axis="audience",
                value=clip(customer, MAX_VALUE),
                source=source,
                stage=stage,
                said=quoted,
            )
        )
    if len(out.directions) > 1:  # "Too broad. Price it at $12 a meal": the named change binds
        out.directions = [d for d in out.directions if d.value != CORE_SCOPE] or out.directions
    if out.in_books and out.directions:  # a price in another currency stands alone: it is
        out.unclear.remove("price_amount")  # unread (said so), and the rest of the words bind
    if reading.ask_why == "price_amount":
        out.unclear.append("price_amount")
    out.directions = slotted(out.directions)  # a competitor is its own slot, never the audience
    out.directions.sort(key=lambda d: _ORDER.index(d.axis))  # the order briefs have always had
    priced = any(d.axis == "price" for d in out.directions)
    if (
        not priced
        and "price" not in out.unclear
        and (
            reading.ask_why == "price_refused"
            or (not out.directions and any(w in ("price", "pricing") for w in toks))
        )
    ):
        out.unclear.append("price")  # "The price is wrong": which price, then?
    return out


@dataclass(frozen=True, eq=False, repr=False)
class _Base(FrozenRecord):
    """What a relative reading moves: the artifact a rejection answers, or the list price."""

    current: Mapping[str, object] | None
    price: float | None

    def moved(self, now: float, r: Said) -> float:
        """`now` moved the way the words say: by their ratio ("half"), else by 30 %."""
        if r.unit:
            return now * float(r.unit)
        if r.value.startswith("state"):
            return now
        return now * (0.7 if r.value.startswith(("lower", "down")) else 1.3)


def _relative_price(r: Said, base: _Base) -> Direction | None:
    said = current_price_said(base.current)
    now = (said[0] if said else None) or base.price
    if not now:
        return None
    period, unit = ("unit", said[2]) if said and said[1] == "unit" else ("month", None)
    step = 5 if now >= 20 or period != "unit" else 1
    new = max(1, round(base.moved(now, r) / step) * step)
    d = Direction(axis="price", value="", amount=float(new), period=period, unit=unit)
    d.value = price_words(d)
    return d


def _relative(r: Said, base: _Base) -> Direction | None:
    """A move with no figure of its own, resolved against what the work states (None: nothing
    to move, so nothing binds and the session asks)."""
    if r.axis == "price":
        return _relative_price(r, base)
    if r.axis == "number" and r.key and base.current is not None:
        now = current_number(base.current, r.key)
        if not now:
            return None
        if r.key == "breakeven":
            n = min(36, int(now) + 3) if r.value.startswith("up") else max(2, int(now) - 3)
            return Direction(axis="number", key=r.key, value=f"month {n}", amount=float(n))
        v = round(base.moved(now, r), 1 if r.key == "churn" else 0)
        shown = f"{v:.1f} %" if r.key == "churn" else f"{v:.0f}"
        return Direction(axis="number", key=r.key, value=shown, amount=float(v))
    if r.axis == "timeline":
        shift = _RELATIVE_WEEKS.get(r.value) or (-2 if r.value.startswith("earlier") else 3)
        now_week = current_week(base.current)
        be = current_number(base.current, "breakeven") if base.current is not None else None
        if be and not now_week:  # a plan with a breakeven and no launch week moves the breakeven
            n = min(36, int(be) + 3) if shift > 0 else max(2, int(be) - 3)
            return Direction(axis="number", key="breakeven", value=f"month {n}", amount=float(n))
        if now_week is None:
            return None
        week = float(max(1, now_week + shift))
        return Direction(axis="timeline", value=f"week {week:.0f}", amount=week, key="launch")
    return None


class Span(TypedDict, total=False):
    """Where in the player's words a direction was read from (characters), when it was."""

    start: int
    end: int


def _direction(r: Said, base: _Base, out: Read) -> Direction | None:
    """The session's direction for one reading (None: nothing the gate can hold binds)."""
    if r.amount is None and r.axis in ("price", "number", "timeline"):
        d = _relative(r, base)
        if d is not None:
            d.start, d.end = r.start, r.end
        elif r.axis == "price":
            out.unclear.append("price")
        return d
    span: Span = {"start": r.start, "end": r.end} if r.end > r.start else {}
    if r.axis == "price":
        return _price(r, out, span) if r.do else None
    if r.axis == "timeline":
        amount = r.amount or 0.0
        return Direction(
            axis="timeline",
            value=f"week {amount:.0f}",
            amount=amount,
            op=_op(r.op),
            key="launch",
            **span,
        )
    if r.axis == "number":
        return _number(r, span)
    if not r.do and r.axis in ("name", "place"):
        # the gate holds a refused name or place as words to leave out ("Stop using the name
        # ColdSlot" never becomes "call it ColdSlot")
        return Direction(axis="exclusion", value=r.value, do=False, **span)
    if not r.do and r.axis in ("exclusion", "claim"):
        return Direction(axis=_axis(r.axis), value=r.value, do=False, **span)
    if r.axis in ("exclusion", "claim") or not r.do:
        # a refused tone ("not formal": the tone named beside it binds) or a claim the work
        # should make is not held by the gate, and never bound as its opposite
        return None
    return Direction(axis=_axis(r.axis), value=r.value, do=True, **span)


def _price(r: Said, out: Read, span: Span) -> Direction | None:
    """A named price in the books' currency; another currency is asked about, not converted."""
    period = r.period or "month"
    unit = r.unit if period == "unit" else None
    if period == "unit" and not unit:
        period = "month"
    if r.currency not in (None, currency().symbol):
        d = Direction(axis="price", value="", amount=r.amount, period=period, unit=unit)
        out.in_books = price_words(d)
        out.unclear.append("price_amount")
        return None
    d = Direction(
        axis="price", value="", amount=r.amount, op=_op(r.op), period=period, unit=unit, **span
    )
    d.value = price_words(d)
    return d


def _number(r: Said, span: Span) -> Direction | None:
    """A number target the plan holds (no customer count: the caller reports it unread)."""
    if r.amount is None or r.key not in ("churn", "burn", "mrr", "breakeven", "cac", "hours"):
        return None
    amount = r.amount
    if r.key == "breakeven" and r.value.startswith("week"):
        amount = max(1.0, round(amount / 4.345))  # the plan counts breakeven in months
    return Direction(axis="number", value=r.value, amount=amount, op=_op(r.op), key=r.key, **span)


def _op(op: str) -> Op:
    return cast(Op, op if op in OPS else "eq")


def _axis(axis: str) -> Axis:
    if axis not in AXES:
        raise ValueError(f"not an axis: {axis}")
    return cast(Axis, axis)
