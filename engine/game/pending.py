"""A decision's later effect: part of a rule (its record's `later`) that lands a number of stages
after the fork that chose it, when that stage runs, as an approved flaw's cost comes due.

What lands is fixed when the option is chosen (the rule's `later` amounts, times the founder
archetype's factor), so the fork shows it exactly before the choice ("at stage 6, Take: trust
-6") and the board shows it as pending until it lands. It lands through the one rule mechanism
(engine.game.rules.apply_rule), meters clamped as every meter is.
"""

from __future__ import annotations

from typing import Any

from engine.game.models import GameState
from engine.game.rules import LABEL, RULES, Rule, apply_rule, effect_line, make_rule, resolve
from worldforge_textkit.numbers import money

_MONEY = {"revenue": "revenue {}/mo", "cash": "cash {}", "overhead": "overhead {}/mo"}


def _amounts(state: GameState, rule: Rule) -> dict[str, float]:
    """The rule's later amounts for this founder (no state scaling: fixed when chosen)."""
    probe = make_rule(f"later.{rule.id}", dict(rule.later))
    return resolve(probe, state.economics, state.founder.archetype)


def amounts_line(amounts: dict[str, float]) -> str:
    """ "trust -6, cash -$3,000": a later effect's amounts in words, meters first."""
    parts = [f"{LABEL[k]} {v:+g}" for k, v in amounts.items() if k in LABEL]
    for k, fmt in _MONEY.items():
        if k in amounts:
            v = amounts[k]
            parts.append(fmt.format(("+" if v > 0 else "-") + money(abs(v))))
    return ", ".join(parts)


def landing(state: GameState, rule: Rule | str) -> tuple[int, dict[str, float]] | None:
    """(stage index it lands at, amounts) of the rule's later effect chosen now; None when it has
    none, or when it would land after the last stage."""
    rule = RULES[rule] if isinstance(rule, str) else rule
    if not rule.later:
        return None
    due = state.stage_index + rule.later_in
    if due >= len(state.stages):
        return None
    return due, _amounts(state, rule)


def later_line(state: GameState, rule: Rule | str) -> str:
    """What the option will do later, as the fork shows it ("" for none)."""
    hit = landing(state, rule)
    if hit is None:
        return ""
    return _at(state, *hit)


def _at(state: GameState, due: int, amounts: dict[str, float]) -> str:
    stage = state.stages[due]
    return f"at stage {stage.number} ({stage.beat}): {amounts_line(amounts)}"


def restate(state: GameState) -> None:
    """Say again where each pending effect lands, once the sequence of stages changed
    (engine.game.shape): it lands at the stage it was shown to, which may have a new number."""
    for p in state.pending:
        p["line"] = _at(state, p["due_index"], p["amounts"])


def plan(state: GameState, rule_id: str, stage_id: str) -> dict[str, Any] | None:
    """Put the chosen rule's later effect on the board (None when it has none)."""
    hit = landing(state, rule_id)
    if hit is None:
        return None
    due, amounts = hit
    entry = {
        "rule_id": rule_id,
        "stage_id": stage_id,
        "due_index": due,
        "effects": dict(RULES[rule_id].later),  # the archetype's factor applies as it lands
        "amounts": amounts,
        "line": later_line(state, rule_id),
    }
    state.pending.append(entry)
    return entry


def land_due(state: GameState) -> list[dict[str, Any]]:
    """Land every pending effect due at the current stage, in the order chosen; one record each:
    what was chosen, where, and the effect line of what it did."""
    due = [p for p in state.pending if p["due_index"] <= state.stage_index]
    state.pending = [p for p in state.pending if p["due_index"] > state.stage_index]
    out = []
    for p in due:
        rule = make_rule(f"later.{p['rule_id']}", dict(p["effects"]))
        where = state.stages[min(state.stage_index, len(state.stages) - 1)].id
        before, after, delta, _ = apply_rule(state, rule, where)
        decided = RULES[p["rule_id"]].decided if p["rule_id"] in RULES else p["rule_id"]
        out.append(
            {
                **p,
                "effect_line": effect_line(before, after, delta),
                "decided": decided,
                "text": f"Your call to {decided} lands now",
                "numbers": (before, after),  # for the line that names them; not in the payload
            }
        )
    return out
