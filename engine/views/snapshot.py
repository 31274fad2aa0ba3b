"""The snapshot front ends render: one model of a session, built from its read model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.game.economy import MAX_REDOS, arc_stage, defeat_at
from engine.game.models import (
    Antagonist,
    Dilemma,
    Economics,
    Founder,
    GameState,
    Outcome,
    Receipt,
    Stage,
    StageRun,
    StandupTurn,
    WorldEvent,
)

if TYPE_CHECKING:
    from engine.views.read_model import ReadModel


@dataclass(kw_only=True)
class Snapshot:
    """What a front end draws from: the state's records (shared, never mutated by a front end)
    plus the session's memory, where it is kept, and what the player may do now."""

    run_id: str
    founder: Founder
    day: int
    phase: str
    stage_index: int
    stages: list[Stage]
    current: StageRun | None
    dilemma: Dilemma | None
    last_receipt: Receipt | None
    standup: list[StandupTurn]
    standup_open: bool
    economics: Economics
    antagonist: Antagonist
    threat_arc: str
    memory: list[dict[str, object]]
    memory_counts: dict[str, int]
    memory_store: str
    treasury_history: list[tuple[int, float]]
    outcome: Outcome | None
    pending_event: WorldEvent | None = None
    can: dict[str, bool]
    redos_left: int = 0
    max_redos: int = 0
    # The defeat kind (engine.game.economy.DEFEATS) each choice's previewed numbers would end the
    # run with, keyed "A"/"B" for the fork and the waiting event: the option card marks it fatal.
    fatal_options: dict[str, str] = field(default_factory=dict)
    fatal_events: dict[str, str] = field(default_factory=dict)
    # Decisions' later effects still to land, each as the fork showed it (engine.game.pending).
    pending: list[str] = field(default_factory=list)
    # Stages still to come that another role's worker ships this venture, and why (world.HANDOVERS).
    handovers: list[str] = field(default_factory=list)
    # How this venture's sequence of stages changed, and why (engine.game.shape): "Stage 6 added: …".
    reshaped: list[str] = field(default_factory=list)


def fatal_choices(state: GameState) -> tuple[dict[str, str], dict[str, str]]:
    """Which fork options and event answers end the run by their own previewed numbers (the
    numbers the option's effect line shows and the receipt applies), checked the way the engine
    checks after the step: a fork's check comes once the next stage has begun."""
    from engine.game.rules import preview_after
    from engine.game.world_events import KIND_BY_ID

    forks: dict[str, str] = {}
    if state.phase == "fork" and state.dilemma is not None and state.stage is not None:
        for option in state.dilemma.options:
            after, _ = preview_after(state, option.rule_id, state.stage.id)
            hit = defeat_at(after, state.stage_index + 1)
            if hit:
                forks[option.key] = hit[0]
    answers: dict[str, str] = {}
    event = state.pending_event
    kind = KIND_BY_ID.get(event.kind) if event is not None else None
    if event is not None and kind is not None and kind.choices:
        for key, (_text, rule) in zip(("A", "B"), kind.choices, strict=False):
            after, _ = preview_after(state, rule, event.after_stage)
            hit = defeat_at(after, state.stage_index)
            if hit:
                answers[key] = hit[0]
    return forks, answers


def build_snapshot(view: ReadModel) -> Snapshot:
    st = view.state
    fatal_options, fatal_events = fatal_choices(st)
    return Snapshot(
        run_id=st.run_id,
        founder=st.founder,
        day=st.day,
        phase=st.phase,
        stage_index=st.stage_index,
        stages=st.stages,
        current=st.current,
        dilemma=st.dilemma,
        last_receipt=st.receipts[-1] if st.receipts else None,
        standup=st.standup,
        standup_open=view.allowed.get("standup_reply", False),
        economics=st.economics,
        antagonist=st.antagonist,
        threat_arc=arc_stage(st.economics.threat),
        memory=[r.to_dict() for r in view.memory],
        memory_counts=view.memory_counts,
        memory_store=view.store_label,
        treasury_history=list(st.history),
        outcome=st.outcome,
        pending_event=st.pending_event,
        can=dict(view.allowed),
        redos_left=max(0, MAX_REDOS - st.stage.redos) if st.stage is not None else 0,
        max_redos=MAX_REDOS,
        fatal_options=fatal_options,
        fatal_events=fatal_events,
        # in the order they land, whatever order they were chosen in
        pending=[p["line"] for p in sorted(st.pending, key=lambda p: p["due_index"])],
        handovers=[
            f"stage {s.number} ({s.beat}) shipped by {s.worker_title}: {s.handover}"
            for s in st.stages[st.stage_index :]
            if s.handover
        ],
        reshaped=[r.line for r in st.reshaped],
    )
