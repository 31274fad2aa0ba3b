"""Ventures that differ in shape: after a fork, the company's state may add a stage (with a fork
of its own) or skip one still to come.

Each kind is a row: after which forks it may happen, what the company must be like then, the
stage it adds or skips, and why, in the venture's words. It is drawn by the company's state alone
(the seed and the CEO's choices make that state), the first kind whose conditions hold, at most
once a venture, so a replay re-derives it and a player who knows the rules can plan for it (the
two-forks planner does: engine.play.policies); the board shows the line it leaves ("Stage 6
added: …", "TAKE skipped: …"), and the event log records it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game.economy import defeat_at, meter_shown
from engine.game.models import GameState, Reshape, Stage
from engine.game.pending import restate
from engine.game.world import ADDED_BY_ID, OWNER_WORKER, STAGE_TABLE, goal_for
from engine.game.world_events import OPS  # the same conditions as an event's
from engine.language.grammar import agree, cap, is_plural
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit.numbers import months_said


@dataclass(frozen=True, eq=False, repr=False)
class ShapeKind(FrozenRecord):
    """One way a venture changes shape. `why` names {rival}, {customer} (as the CEO last named it,
    the niche), {carry} (agreeing with it), {company}, {next} (the beat the sequence was heading
    to) and the company's {runway}, {proof}, {trust}, {threat}."""

    id: str
    after: tuple[str, ...]  # the stages after whose fork it may happen
    when: tuple[tuple[str, str, float], ...]  # (economics field, ">=" or "<", value), all hold
    why: str
    adds: str | None = None  # the stage it puts next (a row of engine.game.world.ADDED_TABLE)
    skips: str | None = None  # the stage still to come it removes


KINDS: tuple[ShapeKind, ...] = (
    ShapeKind(
        "cash_crunch",
        ("stage_4_search", "stage_5_find"),
        (("runway_months", ">=", 0.4), ("runway_months", "<", 0.8)),
        "runway at {company} is down to {runway}, so a bridge comes before {next}",
        adds="stage_x_bridge",
    ),
    ShapeKind(
        "rival_raid",
        ("stage_4_search", "stage_5_find"),
        (("threat", ">=", 66),),
        "{rival} raids {customer} with a cheaper copy (threat {threat}/100); "
        "{company} must hold its wedge before {next}",
        adds="stage_x_hold",
    ),
    ShapeKind(
        "traction",
        ("stage_5_find",),
        (("proof", ">=", 45), ("trust", ">=", 45)),
        "proof at {proof}/100 and trust at {trust}/100: {customer} {carry} {company} past the "
        "operating toll",
        skips="stage_6_take",
    ),
)
KIND_BY_ID = {k.id: k for k in KINDS}
MAX_FORKS = len(STAGE_TABLE) + 1  # the eight stages, and at most one added a venture


def draw(state: GameState, after_stage: str) -> ShapeKind | None:
    """The change of shape after this stage's fork (or none): the first kind, in order, that may
    follow this stage and whose conditions the company meets now; none once the venture has
    changed shape, or when these numbers end it."""
    if state.reshaped or state.stage_index >= len(state.stages):
        return None
    if defeat_at(state.economics, state.stage_index) is not None:  # the venture ends here
        return None
    econ = state.economics
    ahead = {s.id for s in state.stages[state.stage_index :]}
    for kind in KINDS:
        if after_stage not in kind.after or (kind.skips and kind.skips not in ahead):
            continue
        if all(OPS[op](float(getattr(econ, f)), v) for f, op, v in kind.when):
            return kind
    return None


def _why(state: GameState, kind: ShapeKind, nxt: Stage) -> str:
    econ = state.economics
    # the customer as every other line names it (the niche): "busy nurses carry …" beside
    # "the busiest nurses" everywhere else (played)
    customer = state.niche or state.founder.customer
    return kind.why.format(
        rival=state.antagonist.name,
        customer=customer,
        carry=agree("carries", is_plural(customer)),
        company=state.founder.company,
        next=nxt.beat,
        runway="no limit" if econ.profitable else months_said(econ.runway_months),
        proof=meter_shown("proof", econ.proof),
        trust=meter_shown("trust", econ.trust),
        threat=meter_shown("threat", econ.threat),
    )


def reshape(state: GameState, kind: ShapeKind, after_stage: str) -> Reshape:
    """Change the sequence in place: put the added stage next (owned by its role's worker, its
    goal in the company's pressure) or remove the skipped one; renumber the stages and move each
    pending later effect with the stage it was shown to land at."""
    at = state.stage_index
    nxt = state.stages[at]
    why = _why(state, kind, nxt)
    if kind.adds is not None:
        sid, beat, title, goal, metric, role = ADDED_BY_ID[kind.adds]
        worker = next(w for w in state.org if w.id == OWNER_WORKER[role])
        stage = Stage(
            id=sid,
            beat=beat,
            number=at + 1,
            title=title,
            base_goal=goal,
            goal=goal,
            success_metric=metric,
            owner_role=role,  # type: ignore[arg-type]
            worker_id=worker.id,
            worker_title=worker.title,
        )
        stage.goal = goal_for(state, stage)
        state.stages.insert(at, stage)
        for p in state.pending:
            p["due_index"] += p["due_index"] >= at
        line = f"Stage {at + 1} added: {beat} ({title}), because {why}."
    else:
        gone = next(i for i, s in enumerate(state.stages) if s.id == kind.skips)
        stage = state.stages.pop(gone)
        for p in state.pending:
            p["due_index"] -= p["due_index"] > gone
        line = f"{stage.beat} skipped: {cap(why)}."
    number = stage.number
    for n, s in enumerate(state.stages, start=1):
        s.number = n
    restate(state)
    done = Reshape(
        kind=kind.id,
        after_stage=after_stage,
        day=state.day,
        stage_id=stage.id,
        beat=stage.beat,
        number=stage.number if kind.adds is not None else number,
        line=line,
    )
    state.reshaped.append(done)
    return done
