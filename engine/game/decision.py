"""What a fork decision does to the company's numbers: the chosen rule applied, its later effect
put on the board, a hire a standing order forbids undone, and the price the CEO named charged;
with the before and after the receipt shows and the change between them."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from engine.game import orders, pending, rules
from engine.game.models import Dilemma, Economics, GameState, OrgDelta
from engine.game.pricing import charge_named_price
from engine.language.directions import Direction
from worldforge_savedb.records import FrozenRecord


@dataclass(frozen=True, eq=False, repr=False)
class Decided(FrozenRecord):
    """The numbers a decision moved: what the receipt and the events show."""

    before: Economics
    after: Economics
    org_delta: OrgDelta
    effect_line: str  # the effect in words, as the option's card posed it
    later: str  # the later effect now pending, in words ("" when the rule has none)
    governed: list[str]  # what a standing order changed (a blocked hire), for the receipt


def apply_decision(
    st: GameState, dilemma: Dilemma, rule_id: str, stage_id: str, directions: Sequence[Direction]
) -> Decided:
    """Apply the decided rule in place; the card's effect and later lines must be what applied."""
    posed = next((o.effect_line for o in dilemma.options if o.rule_id == rule_id), None)
    before, after, org_delta, _delta = rules.apply_rule(st, rule_id, stage_id)
    line = rules.effect_line(before, after, org_delta)
    assert posed is None or posed == line, f"{rule_id}: posed {posed!r}, applied {line!r}"
    shown_later = next((o.later for o in dilemma.options if o.rule_id == rule_id), None)
    later = pending.plan(st, rule_id, stage_id)
    said_later = later["line"] if later else ""
    assert shown_later is None or shown_later == said_later, f"{rule_id}: later {shown_later!r}"
    governed = orders.govern_hire(st, org_delta)
    charge_named_price(
        st.economics, directions
    )  # customers and revenue each move; revenue does not
    after = copy.copy(st.economics)
    if governed:  # the receipt explains what happened, blocked hire included
        line = rules.effect_line(before, after, org_delta)
    return Decided(before, after, org_delta, line, said_later, governed)


def economics_delta(before: Economics, after: Economics) -> dict[str, float | None]:
    """after - before per field, money to whole dollars, the rest to one decimal; the runway's
    change is null when either side is profitable (no runway to count)."""
    a, b = after.numbers(), before.numbers()
    out: dict[str, float | None] = {
        k: float(round(a[k] - b[k])) if k.endswith("_usd") else round(a[k] - b[k], 1) for k in b
    }
    if before.profitable or after.profitable:
        out["runway_months"] = None
    return out
