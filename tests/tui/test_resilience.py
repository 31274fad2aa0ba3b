"""Faults and hostile text: a worker error leaves the app up; untrusted text renders literally."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from engine.session.commands import RunStage
from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.action_bar import ActionBar

MARKUP = "[bold]Boss[/] [/] [link=x]y [@click=app.quit]q[/]"
CONTROL = "\x1b[31m red\x1b[0m\x07 \x00 \u202e \x1b]0;pwn\x07"
HOSTILE = MARKUP + CONTROL
LONG = "z" * 10_240


async def test_worker_error_leaves_app_up_and_retry_works(tmp_path, monkeypatch):
    real = RunStage.prepare  # the stage's model work, where a worker's fault comes from
    calls = {"n": 0}

    def exploding(self, session):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("model [bold]exploded[/] \x1b[2J")
        return real(self, session)

    monkeypatch.setattr(RunStage, "prepare", exploding)
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


@pytest.mark.parametrize("pitch", ["Meal kits " + LONG, "Meal kits for nurses " + CONTROL])
async def test_refused_pitch_shown_in_one_line(tmp_path, pitch):
    app = WorldForgeApp(pitch=pitch, seed=5, save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert app.session is None and app.is_running
        assert app.screen.__class__.__name__ == "NewVentureScreen"
        error = text_of(app, "#nv-error")
        assert "\n" not in error and "\x1b" not in error and len(error) <= 200


async def test_hostile_text_in_pitch_reason_answer_and_artifact(tmp_path):
    pitch = "Meal kits for night-shift nurses " + MARKUP
    app = WorldForgeApp(pitch=pitch, name="[/]Co", seed=5, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap is not None, "hostile pitch must still found a company"
        story = text_of(app, "#story-body")
        assert MARKUP in story and app.is_running

        # hostile artifact fields, as a model might return them
        run = app.session.state.current
        run.artifact["summary"] = HOSTILE
        run.artifact["features"] = ["[red]x[/red]", "\x1b[5m blink", LONG]
        app.snapshot()
        app.refresh_view()
        await pilot.pause()
        story = text_of(app, "#story-body")
        assert "[red]x[/red]" in story and "\x1b" not in story
        screen = app.export_screenshot()
        assert "\x1b" not in screen

        await pilot.press("r")
        await pilot.press(
            *[("space" if c == " " else c) for c in "[/]x price it at $27 a month"], "enter"
        )
        await settle(app, pilot)
        assert app.session.state.directive.text.startswith("[/]x")
        assert "[/]x" in text_of(app, "#story-body")

        await pilot.press("a")
        await settle(app, pilot)
        app.player.give(
            "fork.own"
        )  # typed text cannot carry ESC; paste-like input goes in directly
        await pilot.pause()
        app.screen.query_one("#prompt-input", Input).value = "[bold]go[/] \x1b[2J"
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.snap.phase == "fork" and app.is_running  # refused: control character
        await pilot.press("o", *list("[bold]go[/]"), "enter")
        await settle(app, pilot)
        await pilot.press("y")  # confirm the reading shown before it commits
        await settle(app, pilot)
        assert "[bold]go[/]" in text_of(app, "#receipt-body")
        assert app.is_running


async def test_thinking_line_names_role_tier_model_and_ui_stays_responsive(tmp_path, monkeypatch):
    import threading

    release = threading.Event()
    real = RunStage.prepare

    def slow(self, session):
        assert release.wait(30), "test never released the worker"
        return real(self, session)

    monkeypatch.setattr(RunStage, "prepare", slow)
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=3, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        bar = app.main.query_one("#actions", ActionBar)
        for _ in range(200):  # a step still running after BUSY_VIEW_AFTER shows its busy view
            await pilot.pause(0.02)
            if app.busy == "run_stage" and bar.thinking is not None:
                break
        assert "strategist" in bar.thinking and "tier simulation" in bar.thinking
        assert "model simulation" in bar.thinking
        assert app.main.query_one("#btn-run").disabled  # nothing can be started twice
        await pilot.press("question_mark")  # the UI answers while the worker thinks
        assert app.screen.__class__.__name__ == "HelpScreen"
        await pilot.press("escape")
        release.set()
        await settle(app, pilot)
        assert app.snap.phase == "gate" and bar.thinking is None


async def test_unreachable_local_model_falls_back_labelled(tmp_path):
    from engine.config import Settings
    from engine.routing import Router
    from tests.servers.openai_server import refused_url

    router = Router(
        Settings.from_values(
            {
                "demo_mode": "local",
                "local_agent_base_url": refused_url(),
                "local_agent_model": "qwen2.5",
                "agent_request_timeout": 5,
            }
        )
    )
    app = WorldForgeApp(
        pitch="Meal kits for night-shift nurses", seed=3, save_dir=tmp_path, router=router
    )
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        run = app.snap.current
        assert run.served_by == "simulation" and run.fallback_reason
        assert "fallback:" in text_of(app, "#story-body")
        assert any(n.title == "Routing" for n in app._notifications)
        assert app.pill().startswith("fallback")


async def test_hostile_model_output_renders_literally(tmp_path, fake_openai):
    """A real local-tier answer carrying markup, ANSI and a 10 KB field shows as plain text."""
    import json

    from engine.config import Settings
    from engine.routing import Router

    seed_app = WorldForgeApp(
        pitch="Meal kits for night-shift nurses", seed=3, save_dir=tmp_path / "seed"
    )
    async with seed_app.run_test(size=(100, 30)) as pilot:
        await settle(seed_app, pilot)
        artifact = dict(seed_app.snap.current.artifact)
    artifact["summary"] = MARKUP + CONTROL + " " + LONG
    artifact["core_problem"] = "[/]\x1b[2J\x1b]0;owned\x07 [bold red]boom"
    fake_openai.set_payload(json.dumps(artifact))
    router = Router(
        Settings.from_values(
            {
                "demo_mode": "local",
                "local_agent_base_url": fake_openai.url,
                "local_agent_model": "qwen2.5",
            }
        )
    )
    app = WorldForgeApp(
        pitch="Meal kits for night-shift nurses", seed=3, save_dir=tmp_path, router=router
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.current.served_by == "local"
        story = text_of(app, "#story-body")
        assert "[bold red]boom" in story and MARKUP in story
        assert "\x1b" not in story and "\x07" not in story
        assert "\x1b" not in app.export_screenshot()
        log = app.main.query_one("#replay-log")
        await pilot.press("f4")
        log.focus()
        await pilot.press("end", "enter")
        assert app.screen.__class__.__name__ == "InspectorScreen"
        assert "\x1b" not in text_of(app, "#inspector-body")


async def test_engine_load_failure_is_reported_not_fatal(tmp_path, monkeypatch):
    import worldforge_tui.app as app_module

    def broken():
        raise RuntimeError("settings backend [/] exploded")

    monkeypatch.setattr(app_module, "load_router", broken)
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)  # the first form is drawn, then the engine fails behind it
        assert app.is_running and app.router is None and not app.booting
        assert any("failed to load" in n.message for n in app._notifications)
        assert app.screen.__class__.__name__ == "NewVentureScreen"
        assert "failed to load" in text_of(app, "#nv-error")
        await pilot.press("escape", "n", "l", "s")
        assert app.is_running and app.screen.__class__.__name__ == "MainScreen"
