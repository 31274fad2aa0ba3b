"""Live writing: the story pane shows a worker's artifact as it streams, the progress line names who
writes and how fast, renders are batched, and Esc cancels the call with nothing half-written."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.config import Settings
from engine.routing import Router
from engine.session import GameSession
from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.story_pane import StoryPane

PITCH = "Meal kits for night-shift nurses"


@pytest.fixture(scope="module")
def first_artifact(tmp_path_factory) -> dict[str, Any]:
    """A role-valid stage-1 artifact, from the simulation tier."""
    session = GameSession.start_venture(
        pitch=PITCH, seed=3, router=Router(Settings()), save_dir=tmp_path_factory.mktemp("sim")
    )
    try:
        session.run_stage()
        return dict(session.state.current.artifact)
    finally:
        session.close()


def _router(server) -> Router:
    return Router(
        Settings.model_validate(
            {
                "demo_mode": "local",
                "local_agent_base_url": server.url,
                "local_agent_model": "qwen2.5",
                "agent_request_timeout": 60,
            }
        )
    )


async def _wait_for(pilot, predicate, rounds: int = 600) -> None:
    for _ in range(rounds):
        if predicate():
            return
        await pilot.pause(0.01)
    raise AssertionError("condition never held")


async def test_artifact_fields_appear_while_the_worker_writes(
    tmp_path, fake_openai_factory, first_artifact, monkeypatch
):
    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=6, stream_delay=0.01
    )
    router = _router(server)
    deltas: list[Any] = []
    router.watch(lambda e: deltas.append(e) if e.kind == "delta" else None)
    renders = []
    original = StoryPane.show_live
    monkeypatch.setattr(
        StoryPane,
        "show_live",
        lambda self, live: (renders.append(live.plain), original(self, live))[1],
    )
    app = WorldForgeApp(pitch=PITCH, seed=3, save_dir=tmp_path, router=router)
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait_for(pilot, lambda: "tok/s" in (app.main.query_one("ActionBar").thinking or ""))
        line = app.main.query_one("ActionBar").thinking
        assert line.startswith("strategist writing · local: qwen2.5 · ")
        assert "esc cancels" in line
        await _wait_for(pilot, lambda: "Summary: " in text_of(app, "#story-body"))
        story = text_of(app, "#story-body")
        assert "✎ Being written" in story
        await settle(app, pilot)
        assert app.snap.current.served_by == "local"
        assert "✎ Being written" not in text_of(app, "#story-body")  # the shipped artifact now
    assert renders and any("Summary: " in r for r in renders)
    assert len(renders) < len(deltas)  # batched: never one widget write per piece
    written = [r for r in renders if "Being written" in r]
    assert len({len(r) for r in written}) > 2  # the section grew as fields completed
    assert app.live_latencies  # measured for bench.tui_stream


async def test_escape_cancels_cleanly_and_the_stage_runs_again(
    tmp_path, fake_openai_factory, first_artifact
):
    server = fake_openai_factory(
        "ollama", payload=json.dumps(first_artifact), stream_piece=2, stream_delay=0.05
    )
    app = WorldForgeApp(pitch=PITCH, seed=3, save_dir=tmp_path, router=_router(server))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _wait_for(pilot, lambda: "tok/s" in (app.main.query_one("ActionBar").thinking or ""))
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.snap.phase == "brief" and app.snap.current is None
        assert app.snap.can.get("run_stage")
        assert not [e for e in app.session.events() if e.type == "STAGE_EXECUTED"]
        notes = " ".join(str(n.message) for n in app._notifications)
        assert "cancelled" in notes
        assert "Being written" not in text_of(app, "#story-body")
        server.state.stream_delay = 0.0
        await pilot.press("g")
        await settle(app, pilot)
        assert app.snap.phase == "gate" and app.snap.current.served_by == "local"
