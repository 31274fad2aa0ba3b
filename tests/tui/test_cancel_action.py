"""Esc during a decision's standup undoes the whole action on screen too: the fork is back, and the
replay log holds no event of the undone decision."""

from __future__ import annotations

from typing import Any

from engine.config import Settings
from engine.routing import Router
from tests.servers.fixtures import MODEL_PITCH, MODEL_SEED
from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.action_bar import ActionBar

LINE = {"line": "Heard the call; I will fold it into this week's work."}


async def test_escape_at_the_standup_takes_the_decision_back(
    tmp_path, fake_openai_factory, first_artifact
):
    def payload(body: dict[str, Any]) -> dict[str, Any]:
        standup = "speaking at a standup" in body["messages"][0]["content"]
        return LINE if standup else first_artifact

    server = fake_openai_factory("ollama", payload=payload, stream_piece=2)
    router = Router(
        Settings.from_values(
            {
                "demo_mode": "local",
                "local_agent_base_url": server.url,
                "local_agent_model": "qwen2.5",
                "agent_request_timeout": 60,
            }
        )
    )
    app = WorldForgeApp(pitch=MODEL_PITCH, seed=MODEL_SEED, save_dir=tmp_path, router=router)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        await pilot.press("a")
        await settle(app, pilot)
        assert app.snap.phase == "fork"
        shown = [e.id for e in app.replay.entries]
        server.state.stream_delay = 0.2  # the standup's lines come slowly
        await pilot.press("1")
        for _ in range(1000):
            if "tok/s" in (app.main.query_one(ActionBar).thinking or ""):
                break
            await pilot.pause(0.01)
        else:
            raise AssertionError("the standup never began")
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.snap.phase == "fork"  # the decision is taken back, not only the standup
        assert app.snap.can.get("decide")
        assert [e.id for e in app.replay.entries] == shown
        assert [e.id for e in app.session.events()] == shown
        assert "cancelled" in " ".join(str(n.message) for n in app._notifications)
