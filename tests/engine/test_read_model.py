"""Views take a read model (state, allowed commands, store label, memory, events), never the
session: a snapshot and a report card are built from the read model alone, so what they show is
what it holds."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from engine.views.read_model import ReadModel
from engine.views.report import render_report, write_report
from engine.views.snapshot import build_snapshot


@dataclass
class Logged:
    type: str
    payload: dict[str, Any] = field(default_factory=dict)


def _decided(new_session: Any) -> GameSession:
    s = new_session(seed=11)
    for command in (RunStage, Approve):
        s.give(command)
    s.give(Decide, "A")
    return s


def test_a_snapshot_shows_what_the_read_model_holds(new_session):
    s = _decided(new_session)
    view = replace(
        s.read_model(),
        allowed={"standup_reply": True, "run_stage": False},
        store_label="a store named in the read model",
    )
    snap = build_snapshot(view)
    assert snap.can == {"standup_reply": True, "run_stage": False} and snap.standup_open
    assert snap.memory_store == "a store named in the read model"
    assert snap.memory == [r.to_dict() for r in view.memory] != []
    assert snap.economics is s.state.economics  # the state's records, shared


def test_a_report_card_reads_the_events_and_memory_it_is_given(new_session, tmp_path):
    s = _decided(new_session)
    shipped = s.read_model().events()
    artifact = next(e for e in shipped if e.type == "STAGE_EXECUTED").payload
    fake = [
        Logged("STAGE_EXECUTED", {**artifact, "score": 99}),
        Logged("AGENT_STANDUP", {"served_by": "local", "model": "tiny-model"}),
    ]
    view = ReadModel(
        state=s.state,
        allowed={},
        store_label="",
        memory=[],
        memory_counts={},
        events=lambda: fake,
    )
    card = render_report(view)
    assert "score 99" in card and "tiny-model" in card
    assert card.split("## Memory trail")[1].strip() == ""  # no memory in this read model
    written = write_report(view, tmp_path, tmp_path / "card.md")
    assert written.read_text(encoding="utf-8") == card


def test_pending_effects_are_listed_in_the_order_they_land(new_session):
    """Played: "Pending from your decisions" listed stage 7, stage 8, stage 7, in the order the
    effects were chosen."""
    s = _decided(new_session)
    st = s.state
    st.pending = [
        {"due_index": 7, "line": "at stage 8 (RETURN): Threat +13"},
        {"due_index": 6, "line": "at stage 7 (TAKE): Trust +1"},
        {"due_index": 6, "line": "at stage 7 (TAKE): Threat -14"},
    ]
    assert build_snapshot(s.read_model()).pending == [
        "at stage 7 (TAKE): Trust +1",
        "at stage 7 (TAKE): Threat -14",
        "at stage 8 (RETURN): Threat +13",
    ]
