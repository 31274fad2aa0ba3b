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
