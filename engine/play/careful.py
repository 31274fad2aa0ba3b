"""A careful CEO: a stated policy a headless player can follow instead of a fixed fork path.

At a fork and at an event's small choice it takes the option whose previewed numbers (the same
numbers the option's effect line shows the player, computed on a copy of the company) leave the
company furthest from its nearest defeat line: cash against the weeks the remaining stages take,
trust, team strain and the rival's threat. It reads nothing the player cannot see, draws nothing,
and never touches the rubric: the gate judges the work exactly as for any other player.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.game.economy import TUNING
from engine.game.models import Economics, GameState
from engine.game.rules import Rule, preview_after
from engine.game.world_events import KIND_BY_ID

# The policy as data: the meters that end a venture and where (see engine.game.economy.DEFEATS).
MAX_METER = 100.0


def months_left(state: GameState) -> float:
    """How long the stages after the current one take, in months (at least one stage's time)."""
    after = max(1, len(state.stages) - state.stage_index - 1)
    return after * (TUNING["days_per_stage"] + TUNING["days_per_fork"]) / 30


def safety(state: GameState, econ: Economics) -> tuple[float, float]:
    """(nearest, total) distance from the defeat lines, each as a fraction: 0 is on a line."""
    margins = (
        min(1.0, econ.runway_months / months_left(state)),
        econ.trust / MAX_METER,
        (MAX_METER - econ.burn_pressure) / MAX_METER,
        (MAX_METER - econ.threat) / MAX_METER,
    )
    return min(margins), sum(margins)


def _safer(state: GameState, options: Sequence[tuple[str, Rule | str]], where: str) -> str:
    """The key of the option that leaves the company safest (the first one on a tie)."""
    scored = [(safety(state, preview_after(state, rule, where)[0]), key) for key, rule in options]
    best = max(score for score, _ in scored)
    return next(key for score, key in scored if score == best)


def fork_choice(state: GameState) -> str:
    """A or B at the posed fork."""
    assert state.dilemma is not None and state.stage is not None
    return _safer(state, [(o.key, o.rule_id) for o in state.dilemma.options], state.stage.id)


def event_choice(state: GameState) -> str | None:
    """A or B for the waiting event's small choice (None: no choice is waiting)."""
    ev = state.pending_event
    if ev is None or not ev.options:
        return None
    kind = KIND_BY_ID[ev.kind]
    assert kind.choices is not None
    options = [(key, rule) for key, (_text, rule) in zip(("A", "B"), kind.choices, strict=True)]
    return _safer(state, options, ev.after_stage)
