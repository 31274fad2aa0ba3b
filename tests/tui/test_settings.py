"""Settings: form ↔ Settings mapping, keys never saved, and a flip that changes the next call."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input, Select, Static

from engine.config import Settings, settings_path
from engine.routing import Router
from engine.routing.types import ProbeRow
from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.replay_entries import in_tab
from worldforge_tui.screens.settings import ROLE_FIELDS, SettingsScreen
from worldforge_tui.screens.settings_form import build_settings, field_text, inherited_hint, pills
from worldforge_tui.widgets.replay_log import ReplayLog


def base() -> Settings:
    return Settings.from_values({})


def nurses(tmp_path, router: Router | None = None) -> WorldForgeApp:
    return WorldForgeApp(
        pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path, router=router
    )


async def open_settings(app: WorldForgeApp, pilot) -> SettingsScreen:
    """Wait for the board, then press `s`: the settings screen it opens."""
    await settle(app, pilot)
    await pilot.press("s")
    await pilot.pause()
    assert isinstance(app.screen, SettingsScreen)
    return app.screen


def test_build_settings_applies_form_and_keeps_blank_secret():
    start = Settings.from_values({"local_agent_api_key": "sk-keep-me"})
    out = build_settings(
        start,
        {
            "demo_mode": "local",
            "local_agent_base_url": "http://127.0.0.1:9",
            "local_agent_model": "qwen2.5",
            "local_agent_api_key": "",
            "local_ops_model": "  ",
        },
    )
    assert out.demo_mode == "local" and out.local_agent_model == "qwen2.5"
    assert out.local_agent_api_key.get_secret_value() == "sk-keep-me"
    assert out.local_ops_model is None and out.local_model_for("ops") == "qwen2.5"


def test_build_settings_refuses_bad_url_in_one_line():
    with pytest.raises(ValueError) as err:
        build_settings(base(), {"local_agent_base_url": "ftp://nope"})
    assert "LOCAL_AGENT_BASE_URL" in str(err.value) and "\n" not in str(err.value)


def test_build_settings_refuses_a_typed_password_in_a_url_but_keeps_one_from_env():
    with pytest.raises(ValueError) as err:
        build_settings(base(), {"local_agent_base_url": "http://me:hunter2pass@127.0.0.1:9/v1"})
    assert "never saved" in str(err.value) and "hunter2pass" not in str(err.value)
    from_env = Settings.from_values({"local_agent_base_url": "http://me:pw9x@127.0.0.1:9/v1"})
    shown = field_text(from_env, "local_agent_base_url")
    assert shown == "http://me:****@127.0.0.1:9/v1"  # the password never on screen
    values = {"local_agent_base_url": shown, "local_agent_model": "m"}
    kept = build_settings(from_env, values)  # unchanged: not refused, the real URL kept
    assert (
        kept.local_agent_model == "m" and kept.local_agent_base_url == from_env.local_agent_base_url
    )


def test_saving_the_form_writes_only_the_fields_the_player_changed(monkeypatch):
    from engine.config import changed_fields, load_settings, save_choices

    monkeypatch.setenv("DEMO_MODE", "local")
    monkeypatch.setenv("LOCAL_AGENT_BASE_URL", "http://me:pw@127.0.0.1:9/v1")
    shown = load_settings()
    form = {"demo_mode": "local", "local_agent_base_url": field_text(shown, "local_agent_base_url")}
    edited = build_settings(shown, {**form, "local_agent_model": "qwen2.5"})
    save_choices(changed_fields(shown, edited))
    assert json.loads(settings_path().read_text()) == {"LOCAL_AGENT_MODEL": "qwen2.5"}


def test_form_covers_every_role_and_hints_inheritance():
    assert "local_org_designer_model" in ROLE_FIELDS and "npc_model" in ROLE_FIELDS
    s = Settings.from_values({"local_agent_model": "qwen2.5"})
    assert inherited_hint(s, "ops", "local") == "inherits default (qwen2.5)"


def test_pills_report_probe_results():
    s = Settings.from_values(
        {
            "demo_mode": "local",
            "local_agent_base_url": "http://127.0.0.1:1",
            "local_agent_model": "m",
        }
    )
    assert ("local: untested", "muted") in pills(s)
    row = ProbeRow(tier="local", endpoint=None, ok=False, ms=0.0, error="refused", models=[])
    bad = pills(s, [row])
    assert ("local: refused", "bad") in bad
    assert ("foundry: not set", "muted") in pills(s)


async def test_settings_flip_changes_next_calls_served_by(tmp_path, fake_openai):
    router = Router(base())
    app = nurses(tmp_path, router)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.current.served_by == "simulation"
        fake_openai.set_payload(json.dumps(app.snap.current.artifact))

        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#set-demo_mode", Select).value = "local"
        screen.query_one("#set-local_agent_base_url", Input).value = fake_openai.url
        screen.query_one("#set-local_agent_model", Input).value = "qwen2.5"
        screen.query_one("#set-local_agent_api_key", Input).value = "sk-test-secret-123456"
        await pilot.press("ctrl+t")  # test connection against the loopback server
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.probe_rows and any(
            r["tier"] == "local" and r["ok"] for r in screen.probe_rows
        )
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "MainScreen"
        assert router.settings.demo_mode == "local"
        saved = settings_path().read_text(encoding="utf-8")
        assert "sk-test-secret" not in saved and "LOCAL_AGENT_MODEL" in saved

        # a reason the reader can place (a vague one gets a question and no redo)
        reason = "leave out salons"
        await pilot.press("r", *[("space" if c == " " else c) for c in reason], "enter")
        await settle(app, pilot)
        assert app.snap.current.served_by == "local" and app.snap.current.model == "qwen2.5"
        assert fake_openai.chat_requests, "the redo went to the loopback model"
        log = app.main.query_one(ReplayLog)
        log.flush()
        types = [e.type for e in log.entries]
        assert "SETTINGS_CHANGED" in types
        persisted = [e for e in app.session.events() if e.type == "SETTINGS_CHANGED"]
        assert persisted and persisted[0].payload["demo_mode"] == "local"  # in the run's own log
        assert "sk-test-secret" not in str(persisted[0].payload)
        executed = [e for e in log.entries if e.type == "STAGE_EXECUTED"]
        assert "local: qwen2.5" in executed[-1].text and in_tab(executed[-1], "workers")
        assert "local" in app.pill()


async def test_settings_reopened_shows_current_settings_not_leftover_edits(tmp_path):
    """The screen is built once and reused: a reopen shows the router's settings, not the text
    left by an earlier visit closed with Escape, and no key typed earlier."""
    router = Router(base())
    app = nurses(tmp_path, router)
    async with app.run_test(size=(80, 24)) as pilot:
        first = await open_settings(app, pilot)
        first.query_one("#set-local_agent_model", Input).value = "typed-then-abandoned"
        first.query_one("#set-local_agent_api_key", Input).value = "sk-abandoned-123456"
        first.query_one("#set-demo_mode", Select).value = "live"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "MainScreen"
        router.update_settings(
            Settings.from_values({"local_agent_model": "qwen2.5", "local_ops_model": "phi-4"})
        )

        await pilot.press("s")
        await pilot.pause()
        assert app.screen is first  # reused, not composed again
        assert first.query_one("#set-local_agent_model", Input).value == "qwen2.5"
        assert first.query_one("#set-local_agent_api_key", Input).value == ""
        assert first.query_one("#set-demo_mode", Select).value == "simulation"
        assert first.query_one("#set-local_ops_model", Input).value == "phi-4"
        assert "qwen2.5" in first.query_one("#set-local_marketer_model", Input).placeholder
        await pilot.press("ctrl+s")  # a simulation save closes at once with the shown settings
        await pilot.pause()
        assert app.screen.__class__.__name__ == "MainScreen"
        assert router.settings.local_agent_model == "qwen2.5"


async def test_settings_left_during_save_test_is_not_saved_later(tmp_path):
    """Save waits for a connection test; leaving with Escape meanwhile means no save, even though
    the reused screen still receives the test's answer afterwards."""
    router = Router(base())
    app = nurses(tmp_path, router)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(app, pilot)
        candidate = Settings.from_values(
            {
                "demo_mode": "local",
                "local_agent_model": "m",
                "local_agent_base_url": "http://127.0.0.1:9",
            }
        )
        screen._save_pending = candidate  # as action_save leaves it while the probe runs
        await pilot.press("escape")
        await pilot.pause()
        row = ProbeRow(tier="local", endpoint=None, ok=True, ms=0.0, error=None, models=[])
        screen.post_message(screen.Probed([row], candidate))
        await pilot.pause()
        await pilot.pause()
        assert app.screen.__class__.__name__ == "MainScreen"
        assert router.settings.demo_mode == "simulation"
        assert router.settings.local_agent_model != "m"


async def test_a_changed_choice_updates_the_pills_and_changing_it_back_restores_them(tmp_path):
    """Each Select reports the value it was built with when it mounts; the pills skip that
    report, but a choice the player makes (and takes back) still shows in them."""
    app = nurses(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_settings(app, pilot)
        pills_line = screen.query_one("#settings-pills", Static)
        opened = str(pills_line.content)
        routing = screen.query_one("#set-agent_routing", Select)
        routing.value = "cloud_only"
        await pilot.pause()
        changed = str(pills_line.content)
        assert changed != opened and "cloud_only" in changed
        routing.value = "local_first"
        await pilot.pause()
        assert str(pills_line.content) == opened


@pytest.fixture
def silent_server():
    """A loopback port that accepts connections and never answers (a hung model server)."""
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    finally:
        sock.close()


async def fill_local(screen: SettingsScreen, pilot, url: str) -> None:
    screen.query_one("#set-demo_mode", Select).value = "local"
    screen.query_one("#set-local_agent_base_url", Input).value = url
    screen.query_one("#set-local_agent_model", Input).value = "tiny"
    await pilot.pause()


async def test_a_save_test_against_a_hung_server_is_bounded_and_takes_no_keys(
    tmp_path, monkeypatch, silent_server
):
    """Save tests the connection in the background: the form is locked meanwhile (keys meant for
    the board are never typed into a field), the line counts against the bound, and past it
    the test counts as failed and asks; declining saves nothing."""
    from worldforge_tui.screens import settings as settings_screen
    from worldforge_tui.screens.dialogs import ConfirmScreen

    monkeypatch.setenv("WORLDFORGE_HOME", str(tmp_path))
    monkeypatch.setattr(settings_screen, "PROBE_BOUND", 0.3)
    router = Router(base())
    app = nurses(tmp_path, router)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(app, pilot)
        await fill_local(screen, pilot, silent_server)
        screen.query_one("#set-local_agent_model", Input).focus()
        await pilot.press("ctrl+s")
        await pilot.pause()
        line = str(screen.query_one("#settings-error").render())
        assert "Testing connection before saving" in line and "esc leaves" in line
        await pilot.press("a", "1")
        assert screen.query_one("#set-local_agent_model", Input).value == "tiny"
        for _ in range(200):  # the bound passes (a timer), then the question
            if isinstance(app.screen, ConfirmScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, ConfirmScreen)
        assert "no answer within" in str(app.screen.query_one(".dialog-title").render())
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen and not screen.query_one("#settings-form").disabled
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main
    assert router.settings.demo_mode == "simulation"
    assert not settings_path().exists()


async def test_escape_during_a_test_leaves_at_once_and_the_board_gets_the_next_keys(
    tmp_path, monkeypatch, silent_server
):
    monkeypatch.setenv("WORLDFORGE_HOME", str(tmp_path))
    router = Router(base())
    app = nurses(tmp_path, router)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_settings(app, pilot)
        await fill_local(screen, pilot, silent_server)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main
        await pilot.press("a")
        await settle(app, pilot)
        assert app.snap.phase == "fork"  # `a` approved on the board
        assert screen.query_one("#set-local_agent_model", Input).value == "tiny"
    assert router.settings.demo_mode == "simulation" and not settings_path().exists()


async def test_an_escape_in_a_settings_value_never_reaches_the_screen(tmp_path, monkeypatch):
    """An OSC 52 clipboard write in WORLDFORGE_LOCAL_AGENT_MODEL: the settings are refused at
    load in one clean notification (the game plays the simulation), and no screen shows it."""
    monkeypatch.setenv("WORLDFORGE_HOME", str(tmp_path))
    monkeypatch.setenv("WORLDFORGE_LOCAL_AGENT_MODEL", "tiny\x1b]52;c;cm0gLXJmIH4=\x07")
    app = nurses(tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_settings(app, pilot)
        said = [f"{n.title} {n.message}" for n in app._notifications]
        assert any("control characters" in line for line in said), said
        assert not any("\x1b" in line or "\x07" in line for line in said)
        assert screen.query_one("#set-local_agent_model", Input).value == ""
        shot = app.export_screenshot()  # the refused value is named with ? for each control
        assert "52;c;" in shot and "\x1b" not in shot and "\x07" not in shot
