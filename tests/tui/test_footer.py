"""The footer: the live keys of the focused part of the board, each one clickable, redrawn only
when they change."""

from __future__ import annotations

import json

from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.screens.help import HelpScreen
from worldforge_tui.widgets.key_footer import KeyFooter

PITCH = "Meal kits for night-shift nurses"


def footer_text(app) -> str:
    return app.screen.query_one(KeyFooter).visual.plain


async def test_footer_follows_focus_and_a_click_presses_the_key(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        text = footer_text(app)
        assert "? Help" in text and "s Settings" in text and text.rstrip().endswith("^p palette")
        assert "Consolidate" not in text
        await pilot.press("f3")  # the memory pane's keys join the board's
        await pilot.pause()
        assert "c Consolidate" in footer_text(app)
        await pilot.press("f1")
        await pilot.pause()
        assert "Consolidate" not in footer_text(app)
        footer = app.screen.query_one(KeyFooter)
        await pilot.click(footer, offset=(footer_text(app).index("Help") + 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_footer_shows_rebound_keys_and_skips_redraws_of_the_same_keys(
    tmp_path, isolated_home, monkeypatch
):
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "keymap.json").write_text(json.dumps({"app.help": "h"}), encoding="utf-8")
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert "h Help" in footer_text(app) and "? Help" not in footer_text(app)
        redraws: list[object] = []
        real = KeyFooter.update
        monkeypatch.setattr(KeyFooter, "update", lambda self, c: (redraws.append(c), real(self, c)))
        app.refresh_view()  # refreshes the bindings; the same keys come back
        await pilot.pause()
        assert redraws == []
        app.screen.query_one(KeyFooter).compact = True  # a real change does redraw
        await pilot.pause()
        assert len(redraws) == 1
