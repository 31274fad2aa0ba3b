"""The skill ladder: three stated players a headless venture can follow at its forks and event
choices (`worldforge simulate --policy`, the balance sweep's side-by-side figures).

- random: a seeded coin at each fork and event choice (from the seed, archetype and stage).
- greedy: the option whose shown preview leaves the company furthest from its nearest defeat
  line (engine.play.careful), one fork at a time.
- lookahead: plans two forks ahead from what a player can compute from the public rules: each
  option's preview, the pending effects already on the board landing when their stage comes, the
  clock's known drift (burn, the rival's climb, strain) over the stage between, a stage the
  company's state would add or skip (engine.game.shape), and the next fork as the deck poses it
  for the company it would be; it takes the option whose best
  follow-up leaves the company safest. It never reads the rubric, the seeded events or the
  rival's seeded noise, none of which a player sees in advance.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

from engine.game import shape
from engine.game.dilemmas import variant_for
from engine.game.economy import TUNING, advance_days
from engine.game.models import GameState, StageDecision
from engine.game.pending import land_due, plan
from engine.game.rules import Rule, apply_rule
from engine.play import POLICIES, careful

__all__ = ["POLICIES", "answers", "event_choice", "fork_choice", "project"]
Safety = tuple[float, float]


def _coin(state: GameState, where: str) -> str:
    rng = random.Random(f"{state.seed}:{state.founder.archetype}:random:{where}")
    return rng.choice(("A", "B"))


def _copy(state: GameState) -> GameState:
    """A copy of the company a plan may move: its numbers, org, flags, clock and board."""
    probe = copy.copy(state)
    probe.economics = copy.copy(state.economics)
    probe.org = [copy.copy(w) for w in state.org]
    probe.flags = list(state.flags)
    probe.history = list(state.history)
    probe.pending = [dict(p) for p in state.pending]
    return probe


def project(state: GameState, rule: Rule | str, stage_id: str) -> GameState:
    """The company after this decision and the stage that follows it, as far as a player can
    compute it: the rule applied (its preview), a stage its state adds or skips, the clock's
    drift to the next fork, and the pending effects that land at the next stage."""
    probe = _copy(state)
    rule_id = rule if isinstance(rule, str) else rule.id
    apply_rule(probe, rule, stage_id)
    plan(probe, rule_id, stage_id)
    # the decision goes on the probe's record (a copy of its stage): later options read it
    probe.stages = list(state.stages)
    i = probe.stage_index
    probe.stages[i] = copy.copy(state.stages[i])
    probe.stages[i].decision = StageDecision(rule_id=rule_id, option="own", text="")
    probe.stage_index += 1
    kind = shape.draw(probe, stage_id) if probe.stage_index < len(probe.stages) else None
    if kind is not None:  # the sequence changes on the probe's own copies
        probe.stages = [copy.copy(s) for s in probe.stages]
        probe.reshaped = list(probe.reshaped)
        shape.reshape(probe, kind, stage_id)
    land_due(probe)
    advance_days(probe, int(TUNING["days_per_fork"] + TUNING["days_per_stage"]))
    return probe


def _value(state: GameState, stage_id: str, rule_id: str) -> Safety:
    """How safe option `rule_id` leaves the company one fork on, taking the better next option."""
    after = project(state, rule_id, stage_id)
    if after.stage_index >= len(after.stages):  # the last fork: the closing weeks follow
        return careful.safety(state, after.economics)
    nxt = after.stages[after.stage_index]
    v = variant_for(after, nxt)
    return max(careful.safety(after, project(after, r, nxt.id).economics) for r in (v.a[2], v.b[2]))


def _lookahead_fork(state: GameState) -> str:
    assert state.dilemma is not None and state.stage is not None
    scored = [(_value(state, state.stage.id, o.rule_id), o.key) for o in state.dilemma.options]
    best = max(s for s, _ in scored)
    return next(k for s, k in scored if s == best)


def fork_choice(policy: str, state: GameState) -> str:
    """A or B at the posed fork, by the named policy."""
    assert state.stage is not None
    if policy == "random":
        return _coin(state, state.stage.id)
    if policy == "lookahead":
        return _lookahead_fork(state)
    return careful.fork_choice(state)


def event_choice(policy: str, state: GameState) -> str | None:
    """A or B for the waiting event's small choice by the named policy (None: none waits)."""
    ev = state.pending_event
    if ev is None or not ev.options:
        return None
    if policy == "random":
        return _coin(state, f"event:{ev.after_stage}")
    return careful.event_choice(state)


def answers(policy: str) -> dict[str, Callable[[GameState], str | None]]:
    """What the policy says, by player command (engine.play.headless's plan asks it)."""
    return {
        "answer_event": lambda st: event_choice(policy, st),
        "decide": lambda st: fork_choice(policy, st),
    }
