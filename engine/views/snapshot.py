"""The read model front ends render: one snapshot of a session, built from state and memory."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from engine.game.economy import MAX_REDOS, arc_stage
from engine.game.models import (
    Antagonist,
    Dilemma,
    Directive,
    Economics,
    Founder,
    Outcome,
    Receipt,
    Stage,
    StageRun,
    StandupTurn,
    Worker,
    WorldEvent,
)

if TYPE_CHECKING:
    from engine.session.api import GameSession


class Snapshot(BaseModel):
    run_id: str
    seed: int
    founder: Founder
    day: int
    phase: str
    stage_index: int
    stages: list[Stage]
    current: StageRun | None
    dilemma: Dilemma | None
    last_receipt: Receipt | None
    receipts: list[Receipt]
    standup: list[StandupTurn]
    standup_open: bool
    directive: Directive | None
    economics: Economics
    org: list[Worker]
    antagonist: Antagonist
    threat_arc: str
    memory: list[dict[str, Any]]
    memory_counts: dict[str, int]
    memory_store: str
    treasury_history: list[tuple[int, float]]
    outcome: Outcome | None
    pending_event: WorldEvent | None = None
    world_events: list[WorldEvent] = []
    runtime: str
    pill: str
    can: dict[str, bool]
    redos_left: int = 0
    max_redos: int = 0


def build_snapshot(session: GameSession) -> Snapshot:
    st = session.state
    records = session.memory.records()
    return Snapshot(
        run_id=st.run_id,
        seed=st.seed,
        founder=st.founder,
        day=st.day,
        phase=st.phase,
        stage_index=st.stage_index,
        stages=st.stages,
        current=st.current,
        dilemma=st.dilemma,
        last_receipt=st.receipts[-1] if st.receipts else None,
        receipts=st.receipts,
        standup=st.standup,
        standup_open=session.can("standup_reply"),
        directive=st.directive,
        economics=st.economics,
        org=[w for w in st.org if w.active],
        antagonist=st.antagonist,
        threat_arc=arc_stage(st.economics.threat),
        memory=[r.model_dump() for r in records],
        memory_counts=session.memory.counts(),
        memory_store=session.memory_store_label(),
        treasury_history=list(st.history),
        outcome=st.outcome,
        pending_event=st.pending_event,
        world_events=list(st.world_events),
        runtime=session.router.runtime_label(),
        pill=session.router.pill(),
        can={
            a: session.can(a)
            for a in (
                "run_stage",
                "approve",
                "reject",
                "decide",
                "decide_own",
                "standup_reply",
                "answer_event",
            )
        },
        redos_left=max(0, MAX_REDOS - st.stage.redos) if st.stage is not None else 0,
        max_redos=MAX_REDOS,
    )
