"""One deadline per player action (engine.routing.deadline): every model call of an action shares
it, and Esc cancels the whole action, leaving the run as it stood before it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.config import Settings
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.routing.types import CallCancelled, StreamEvent
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, Reject, RunStage
from engine.session.events import list_events
from tests.routing.helpers import local_settings

PITCH = "Repair bookings for independent bike shops"
STANDUP_LINE = {"line": "Heard the call; I will fold it into this week's work."}


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> dict[int, dict[str, Any]]:
    """Role-valid artifacts per stage number, from a simulation run of the same venture."""
    session = GameSession.start_venture(
        pitch=PITCH, name="Spoke Co", seed=11, save_dir=tmp_path_factory.mktemp("sim")
    )
    try:
        play(session, Plan())
        return {
            int(re.match(r"stage_(\d+)_", e.payload["stage_id"]).group(1)): e.payload["artifact"]
            for e in session.events()
            if e.type == "STAGE_EXECUTED"
        }
    finally:
        session.close()


def _payload(artifacts: dict[int, dict[str, Any]]):
    def payload(body: dict[str, Any]) -> dict[str, Any]:
        if "speaking at a standup" in body["messages"][0]["content"]:
            return STANDUP_LINE
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        return artifacts[int(re.search(r"Stage (\d+) ", user).group(1))]

    return payload


def _at_gate(server, artifacts, tmp_path, **settings: Any) -> GameSession:
    server.set_payload(_payload(artifacts))
    router = Router(local_settings(server.url, **settings), caps_cache=False)
    session = GameSession.start_venture(
        pitch=PITCH, name="Spoke Co", seed=11, save_dir=tmp_path, router=router
    )
    session.give(RunStage)
    assert session.state.phase == "gate"
    return session


def _run_view(session: GameSession) -> tuple[Any, ...]:
    """What a cancelled action must leave as it was: day, cash, redos, phase, inputs, events,
    memories, as the save file holds them."""
    from engine.session.saves import load_run

    state, inputs = load_run(session.conn, session.state.run_id)
    stage = state.stage
    events = [(e.id, e.type) for e in list_events(session.conn, state.run_id, 0)]
    notes = session.conn.execute(
        "SELECT id, status, text FROM memories WHERE run_id = ? ORDER BY pk", (state.run_id,)
    ).fetchall()
    return (
        state.day,
        state.economics.treasury_usd,
        stage.redos if stage is not None else None,
        state.phase,
        len(state.receipts),
        inputs,
        events,
        [tuple(n) for n in notes],
    )


def _cancel_on_first_ask(router: Router) -> list[str]:
    """Cancel the action as soon as a model is asked (as Esc does); returns the keys asked."""
    asked: list[str] = []

    def watcher(event: StreamEvent) -> None:
        if event.kind == "start":
            asked.append(event.call_key)
            router.cancel()

    router.watch(watcher)
    return asked


def test_esc_during_a_redo_leaves_day_cash_and_redo_count(fake_openai, artifacts, tmp_path):
    session = _at_gate(fake_openai, artifacts, tmp_path, agent_request_timeout=30.0)
    try:
        before = _run_view(session)
        asked = _cancel_on_first_ask(session.router)
        with pytest.raises(CallCancelled):
            session.give(Reject, "Name a price: $40 a month")
        assert asked  # the redo's call was in flight when it was cancelled
        assert _run_view(session) == before  # the rejection is undone, not only the redo
        assert session.state.stage is not None and session.state.stage.redos == 0
        session.router.watch(lambda e: None)
        session.give(Approve)  # the run goes on from where it stood
        assert session.state.phase == "fork"
    finally:
        session.close()


def test_esc_at_the_standup_undoes_the_decision(fake_openai, artifacts, tmp_path):
    session = _at_gate(fake_openai, artifacts, tmp_path, agent_request_timeout=30.0)
    try:
        session.give(Approve)
        before = _run_view(session)
        asked = _cancel_on_first_ask(session.router)
        with pytest.raises(CallCancelled):
            session.give(Decide, "A")
        assert len(asked) == 1  # the standup's later lines were never asked for
        assert _run_view(session) == before
        assert session.state.phase == "fork"
    finally:
        session.close()


def test_a_hung_model_costs_one_deadline_per_action(fake_openai, artifacts, tmp_path):
    """Against a model that never answers, the decision's three standup lines share one deadline:
    the first waits it out, the other two are not sent (out of time), so the server is asked
    during one deadline only, not three."""
    session = _at_gate(
        fake_openai, artifacts, tmp_path, agent_request_timeout=1.5, agent_cooldown_seconds=0
    )
    try:
        session.give(Approve)
        fake_openai.set_default("hang")
        asked_before = len(fake_openai.chat_requests)
        last = session.events()[-1].id
        session.give(Decide, "A")
        after = session.events(last)
        assert len([e for e in after if e.type == "AGENT_STANDUP"]) == 3
        reasons = [e.payload["reason"] for e in after if e.type == "ROUTE_FALLBACK"]
        assert len(reasons) == 3, reasons  # each line fell to the simulator, labelled
        assert all("out of time" in r for r in reasons[1:]), (
            reasons
        )  # none got a deadline of its own
        standup_asks = [
            r
            for r in fake_openai.chat_requests[asked_before:]
            if "speaking at a standup" in r.body["messages"][0]["content"]
        ]
        first = standup_asks[0].body["messages"][1]["content"]
        assert all(r.body["messages"][1]["content"] == first for r in standup_asks)
    finally:
        fake_openai.release_hangs()
        session.close()


def test_the_simulator_takes_no_checkpoint(tmp_path, monkeypatch):
    """Only a model call can be cancelled: a simulated action copies nothing first."""
    from engine.session import checkpoint

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a simulated action took a checkpoint")

    monkeypatch.setattr(checkpoint.Checkpoint, "take", classmethod(refuse))
    session = GameSession.start_venture(
        pitch=PITCH, name="Spoke Co", seed=11, save_dir=tmp_path, router=Router(Settings())
    )
    try:
        session.give(RunStage)
        session.give(Approve)
        session.give(Decide, "A")
        assert session.state.phase == "brief"
    finally:
        session.close()
