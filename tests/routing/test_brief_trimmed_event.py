"""A brief cut to fit a local model's context window is a typed event of the game's own log
(BRIEF_TRIMMED, shown in the replay pane's Events and Workers & tools tabs), not only a line in the
brief, the trace and the pill; a replay of the run still verifies."""

from __future__ import annotations

import json

from engine.config import Settings
from engine.routing import Router
from engine.routing.window import prompt_tokens
from engine.session.api import GameSession
from engine.session.commands import RunStage
from engine.session.replay import verify
from tests.servers.fixtures import MODEL_PITCH, MODEL_SEED
from worldforge_tui.replay_entries import WORKER_TYPES


def _session(server, tmp_path, name: str, window: int) -> GameSession:
    router = Router(
        Settings.from_values(
            {
                "demo_mode": "local",
                "local_agent_base_url": server.url,
                "local_agent_model": "qwen2.5",
                "local_context_window": window,
                "agent_request_timeout": 30,
            }
        ),
        caps_cache=None,
    )
    return GameSession.start_venture(
        pitch=MODEL_PITCH, seed=MODEL_SEED, router=router, save_dir=tmp_path / name
    )


def test_a_trimmed_brief_is_logged_as_its_own_event(tmp_path, fake_openai_factory, first_artifact):
    server = fake_openai_factory("ollama", payload=json.dumps(first_artifact))
    roomy = _session(server, tmp_path, "roomy", 65536)
    try:
        roomy.give(RunStage)
        assert not [e for e in roomy.events() if e.type == "BRIEF_TRIMMED"]
    finally:
        roomy.close()
    # the same stage in a window that leaves its brief less than an answer's room (512 tokens)
    body = server.chat_requests[-1].body
    assert body is not None
    window = prompt_tokens(body["messages"]) + 300
    session = _session(server, tmp_path, "tight", window)
    try:
        session.give(RunStage)
        assert session.state.current.served_by == "local"
        trimmed = [e for e in session.events() if e.type == "BRIEF_TRIMMED"]
        assert len(trimmed) == 1, [e.type for e in session.events()]
        event = trimmed[0]
        left_out = event.payload["left_out"]
        assert left_out >= 1 and event.payload["window_tokens"] == window
        assert event.payload["stage_id"] == "stage_1_you" and event.payload["model"] == "qwen2.5"
        assert event.message == (
            f"brief trimmed to fit qwen2.5's {window:,}-token window: {left_out} recalled "
            f"line{'s' if left_out > 1 else ''} left out"
        )
        brief = server.chat_requests[-1].body["messages"][0]["content"]
        assert f"Left out to fit the model's context window: {left_out}" in brief
        assert "BRIEF_TRIMMED" in WORKER_TYPES  # the Workers & tools tab lists it
        assert verify(session.conn, session.state.run_id).ok
    finally:
        session.close()
