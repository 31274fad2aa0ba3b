"""Faults and hostile text: a worker error leaves the app up; untrusted text renders literally."""

from __future__ import annotations

from engine.session import GameSession
from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp

HOSTILE = "[bold]Boss[/] [/] [link=x]y\x1b[31m red\x1b[0m\x07 \x00 \u202e"
LONG = "z" * 10_240


async def test_worker_error_leaves_app_up_and_retry_works(tmp_path, monkeypatch):
    real = GameSession.run_stage
    calls = {"n": 0}

    def exploding(self):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("model [bold]exploded[/] \x1b[2J")
        return real(self)

    monkeypatch.setattr(GameSession, "run_stage", exploding)
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=3, save_dir=tmp_path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        assert app.is_running and app.snap.phase == "brief" and app.busy is None
        assert any("exploded" in n.message for n in app._notifications)
        assert app.main.query_one("#btn-run").disabled is False
        await pilot.press("g")
        await settle(app, pilot)
        assert app.snap.phase == "gate" and calls["n"] == 2


async def test_refused_input_keeps_new_venture_screen(tmp_path):
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "NewVentureScreen"
        await pilot.press("x", "enter")  # a one-word pitch: the engine refuses it
        await settle(app, pilot)
        assert app.session is None and app.is_running
        assert app.screen.__class__.__name__ == "NewVentureScreen"
        assert "pitch" in text_of(app, "#nv-error").lower()


async def test_oversized_pitch_is_refused_in_one_line(tmp_path):
    app = WorldForgeApp(pitch="Meal kits " + HOSTILE + LONG, seed=5, save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert app.session is None and app.is_running
        assert app.screen.__class__.__name__ == "NewVentureScreen"
        error = text_of(app, "#nv-error")
        assert "\n" not in error and "\x1b" not in error and len(error) <= 200


async def test_hostile_text_in_pitch_reason_answer_and_artifact(tmp_path):
    pitch = "Meal kits for night-shift nurses " + HOSTILE
    app = WorldForgeApp(pitch=pitch, name="[/]Co", seed=5, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap is not None, "hostile pitch must still found a company"
        story = text_of(app, "#story-body")
        assert "[bold]Boss[/] [/]" in story
        assert "\x1b" not in story and "\x07" not in story and "\x00" not in story

        # hostile artifact fields, as a model might return them
        run = app.session.state.current
        run.artifact["summary"] = HOSTILE
        run.artifact["features"] = ["[red]x[/red]", "\x1b[5m blink", LONG]
        app._snapshot()
        app.refresh_view()
        await pilot.pause()
        story = text_of(app, "#story-body")
        assert "[red]x[/red]" in story and "\x1b" not in story
        screen = app.export_screenshot()
        assert "\x1b" not in screen

        await pilot.press("r")
        await pilot.press(*list("[/]x"), "enter")
        await settle(app, pilot)
        assert app.session.state.directive.text.startswith("[/]x")
        assert "[/]x" in text_of(app, "#story-body")

        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("o", *list("[bold]go[/]"), "enter")
        await settle(app, pilot)
        assert "[bold]go[/]" in text_of(app, "#receipt-body")
        assert app.is_running
