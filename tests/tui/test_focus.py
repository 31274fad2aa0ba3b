"""Focus follows the player: F1–F4 show and focus their pane at any size, `/` types into the log
filter (never into game keys), and after each step compact mode shows what must be decided next."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp

PITCH = "Meal kits for night-shift nurses"
PANES = {
    "f1": ("story", "#story"),
    "f2": ("receipt", "#receipt"),
    "f3": ("memory", "#memory"),
    "f4": ("log", "#log"),
}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_function_keys_show_and_focus_their_pane(tmp_path, size):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        board = app.main
        for key in ("f4", "f3", "f2", "f1", "f3"):
            name, selector = PANES[key]
            await pilot.press(key)
            await pilot.pause()
            pane = board.query_one(selector)
            assert app.focused is not None and (
                app.focused is pane or pane in app.focused.ancestors
            ), (key, app.focused)
            assert pane.region.height > 0, f"{key}: {name} not on screen"
            assert board.shown_pane == name


async def test_slash_types_into_the_filter_not_game_keys(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")  # focus on the story, far from the log
        await pilot.press("slash", "c", "e", "a", "o", "r", "1")
        await settle(app, pilot)
        field = app.main.query_one("#replay-filter", Input)
        assert app.focused is field and field.value == "ceaor1"
        assert app.main.shown_pane == "log" and app.main.query_one("#log").region.height > 0
        assert app.snap.phase == "gate", "letters typed into the filter approved nothing"
        assert not (tmp_path / "reports").exists() and len(app.screen_stack) == 1  # no export
        await pilot.press("enter")
        assert app.focused is app.main.query_one("#replay-log")


async def test_compact_shows_the_pane_that_holds_the_next_decision(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        board = app.main
        assert app.snap.phase == "gate" and board.shown_pane == "story"
        await pilot.press("f3")  # wander off
        await pilot.press("a")
        await settle(app, pilot)
        assert app.snap.phase == "fork" and board.shown_pane == "story"  # the options
        await pilot.press("1")
        await settle(app, pilot)
        assert board.shown_pane == "receipt"  # what the decision did
        await pilot.press("g")
        await settle(app, pilot)
        assert app.snap.phase == "gate" and board.shown_pane == "story"  # the new artifact
        assert board.query_one("#story").region.height > 0


async def test_the_pane_tab_line_repaints_without_laying_the_board_out(tmp_path, monkeypatch):
    """F1-F4 change which pane the tab line highlights, not its length: the line is repainted,
    and the board is not laid out again for it (it was, a key, while a worker streamed)."""
    from textual.widgets import Static

    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        tabs = app.main.query_one("#pane-tabs", Static)
        asked: list[bool] = []  # each refresh of the tab line: whether it asked for a layout
        real = Static.refresh

        def refresh(self, *regions, **kw):
            if self is tabs:
                asked.append(bool(kw.get("layout")))
            return real(self, *regions, **kw)

        monkeypatch.setattr(Static, "refresh", refresh)
        for key in ("f2", "f1", "f3", "f1"):
            await pilot.press(key)
            await pilot.pause()
            assert f" {key.upper()} " in tabs.content.plain
        assert asked and not any(asked)  # repainted, never laid out
        highlighted = [s for s in tabs.content.spans if "reverse" in str(s.style)]
        assert len(highlighted) == 1  # the story's tab, drawn as chosen
