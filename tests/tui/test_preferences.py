"""Remembered look: a theme picked in the app is saved in the settings file and restored on the
next start; --theme chooses one for a session without saving it; an unknown name is refused."""

from __future__ import annotations

import json

from engine.config import settings_path
from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.cli import main

PITCH = "Meal kits for night-shift nurses"


def saved_theme() -> str | None:
    path = settings_path()
    return json.loads(path.read_text(encoding="utf-8")).get("TUI_THEME") if path.exists() else None


async def test_theme_is_saved_and_restored(tmp_path, isolated_home):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert app.theme == "worldforge" and saved_theme() is None
        app.theme = "nord"
        await pilot.pause()
        await app.workers.wait_for_complete()
    assert saved_theme() == "nord"

    again = WorldForgeApp(save_dir=tmp_path)
    async with again.run_test(size=(100, 30)) as pilot:
        await settle(again, pilot)
        assert again.theme == "nord"


async def test_theme_flag_is_for_this_session_only(tmp_path, isolated_home):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path, theme="gruvbox")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert app.theme == "gruvbox"
    assert saved_theme() is None


def test_unknown_theme_is_one_line_exit_2(capsys):
    assert main(["play", "--theme", "no-such-theme"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown theme" in err and "nord" in err


async def test_theme_writes_only_the_theme_not_the_environment(
    tmp_path, isolated_home, monkeypatch, fake_openai_factory
):
    """The issue's case: a one-run environment (DEMO_MODE=local, a URL with user-info) and a theme
    picked in the app. Only TUI_THEME reaches the file, the password reaches no file in the home
    (the capability cache included), and the next start with no environment still works."""
    password = "hunter2pass"
    fake_openai = fake_openai_factory("ollama", rejects=("temperature",))  # a rung to learn
    url = fake_openai.url.replace("http://", f"http://user:{password}@")
    monkeypatch.setenv("DEMO_MODE", "local")
    monkeypatch.setenv("LOCAL_AGENT_BASE_URL", url)
    monkeypatch.setenv("LOCAL_AGENT_MODEL", "qwen2.5")
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path / "saves")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert app.router.settings.demo_mode == "local"
        app.theme = "dracula"
        await pilot.pause()
        await app.workers.wait_for_complete()
    assert fake_openai.chat_requests, "the model tier was called"
    assert json.loads(settings_path().read_text(encoding="utf-8")) == {"TUI_THEME": "dracula"}
    caps = isolated_home / "capabilities.json"
    assert caps.exists() and "127.0.0.1" in caps.read_text(encoding="utf-8")
    leaks = [
        p
        for p in [*isolated_home.rglob("*"), *tmp_path.rglob("*")]
        if p.is_file() and password.encode() in p.read_bytes()
    ]
    assert leaks == []
    for name in ("DEMO_MODE", "LOCAL_AGENT_BASE_URL", "LOCAL_AGENT_MODEL"):
        monkeypatch.delenv(name)
    args = ["simulate", "--pitch", PITCH, "--save-dir", str(tmp_path / "later"), "--json"]
    assert main(args) == 0


def test_an_old_capability_cache_with_a_password_is_rewritten_without_it(isolated_home):
    from engine.routing.health import Capabilities

    path = isolated_home / "capabilities.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    old = "http://user:hunter2pass@127.0.0.1:43341/v1#tiny"
    path.write_text(json.dumps({old: {"json_mode": "json_object"}}), encoding="utf-8")
    snapshot = Capabilities(path).snapshot()
    assert list(snapshot) == ["http://127.0.0.1:43341/v1#tiny"]
    assert snapshot["http://127.0.0.1:43341/v1#tiny"]["json_mode"] == "json_object"
    assert "hunter2pass" not in path.read_text(encoding="utf-8")
