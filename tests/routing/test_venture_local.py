"""A full venture played through the local tier against the loopback server: every stage local."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engine.config import Settings
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession
from tests.routing.helpers import local_settings

PITCH = "Repair bookings for independent bike shops"
STANDUP_LINE = {"line": "Heard the call; I will fold it into this week's work."}


def _play(router: Router, save_dir: Any, seed: int = 11) -> GameSession:
    session = GameSession.start_venture(
        pitch=PITCH,
        name="Spoke Co",
        archetype="builder",
        seed=seed,
        save_dir=save_dir,
        router=router,
    )
    play(session, Plan())
    return session


@pytest.fixture(scope="module")
def sim_artifacts(tmp_path_factory) -> dict[int, dict[str, Any]]:
    """Role-valid artifacts per stage number, taken from a simulation run of the same venture."""
    session = _play(Router(Settings()), tmp_path_factory.mktemp("sim"))
    try:
        out = {}
        for e in session.events():
            if e.type == "STAGE_EXECUTED":
                number = int(re.match(r"stage_(\d+)_", e.payload["stage_id"]).group(1))
                out[number] = e.payload["artifact"]
        outcome = session.state.outcome
        out[0] = {"result": outcome.result, "reason": outcome.reason}
        return out
    finally:
        session.close()


def _payload_for(artifacts: dict[int, dict[str, Any]]):
    def payload(body: dict[str, Any]) -> dict[str, Any]:
        system = body["messages"][0]["content"]
        if "speaking at a standup" in system:
            return STANDUP_LINE
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        number = int(re.search(r"Stage (\d+) ", user).group(1))
        return artifacts[number]

    return payload


def _stage_events(session: GameSession, kind: str = "STAGE_EXECUTED") -> list[Any]:
    return [e for e in session.events() if e.type == kind]


def test_full_venture_served_by_local(fake_openai, sim_artifacts, tmp_path):
    fake_openai.set_payload(_payload_for(sim_artifacts))
    router = Router(local_settings(fake_openai.url, agent_request_timeout=10.0))
    session = _play(router, tmp_path)
    try:
        executed = _stage_events(session)
        assert len(executed) == len([n for n in sim_artifacts if n])  # as far as the sim run got
        assert {e.payload["served_by"] for e in executed} == {"local"}
        assert {e.payload["model"] for e in executed} == {"qwen2.5"}
        assert all(e.payload["fallback_reason"] is None for e in executed)
        assert all(json.loads(e.payload["raw_text"]) == e.payload["artifact"] for e in executed)
        assert _stage_events(session, "ROUTE_FALLBACK") == []
        outcome = session.state.outcome
        assert {"result": outcome.result, "reason": outcome.reason} == sim_artifacts[0]
        assert router.pill() == "local: qwen2.5"
    finally:
        session.close()
    systems = [r.body["messages"][0]["content"] for r in fake_openai.chat_requests]
    assert any("<campaign_memory>" in s for s in systems)  # the binding memory rode along


def test_venture_under_random_faults_is_honestly_labelled(
    fake_openai_factory, sim_artifacts, tmp_path
):
    server = fake_openai_factory("llamacpp", payload=_payload_for(sim_artifacts))
    server.script("truncated", "invalid_schema")  # the first stage exhausts its re-ask
    server.random_faults(
        7,
        {
            "ok": 5,
            "think": 2,
            "fenced": 2,
            "server_error": 1,
            "truncated": 1,
            "invalid_schema": 1,
            "drop": 1,
        },
    )
    router = Router(
        local_settings(server.url, agent_request_timeout=10.0, agent_cooldown_seconds=0)
    )
    session = _play(router, tmp_path)
    try:
        executed = _stage_events(session)
        assert session.state.phase == "ended"
        fallbacks = _stage_events(session, "ROUTE_FALLBACK")
        for e in executed:
            assert e.payload["served_by"] in ("local", "simulation")
            assert (e.payload["served_by"] == "simulation") == (
                e.payload["fallback_reason"] is not None
            )
        fell = {e.payload["stage_id"] for e in executed if e.payload["served_by"] == "simulation"}
        assert {e.payload["stage_id"] for e in fallbacks if "stage_id" in e.payload} == fell
        assert any(e.payload["served_by"] == "local" for e in executed)
        assert fell  # the scripted first stage (and maybe seed 7) makes at least one stage exhaust its retry and re-ask
    finally:
        session.close()


def test_local_run_replays_offline_and_verifies(fake_openai, sim_artifacts, tmp_path):
    """A model-served run re-derives offline: the replay tier serves its recorded outputs."""
    from engine.session.replay import verify

    fake_openai.set_payload(_payload_for(sim_artifacts))
    router = Router(local_settings(fake_openai.url, agent_request_timeout=10.0))
    session = _play(router, tmp_path)
    try:
        served_before = len(fake_openai.chat_requests)
        report = verify(session.conn, session.state.run_id)
        assert report.ok, report.first_difference
        assert report.mode == "replay"
        assert len(fake_openai.chat_requests) == served_before  # no model was called to verify
    finally:
        session.close()
