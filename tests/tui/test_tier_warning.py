"""`play` names a dead model tier: the app's tier_warning (printed once the app closes) says a
model was asked for and none answered, and stays silent on the simulation."""

from __future__ import annotations

from tests.servers.openai_server import refused_url
from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp

PITCH = "Meal kits for night-shift nurses"


async def test_play_warns_when_the_asked_tier_never_answered(tmp_path, monkeypatch):
    monkeypatch.setenv("DEMO_MODE", "local")
    monkeypatch.setenv("LOCAL_AGENT_BASE_URL", refused_url())
    monkeypatch.setenv("LOCAL_AGENT_MODEL", "qwen2.5")
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert app.game.route_fallbacks
    warning = app.tier_warning()
    assert warning and warning.startswith("a model tier was asked for (local) and none answered")
    assert "unreachable" in warning


async def test_play_on_the_simulation_warns_of_nothing(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
    assert app.tier_warning() is None
