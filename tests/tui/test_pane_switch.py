"""A pane switch (F1-F4) costs only what it changes: no widget outside the pane region is laid out
again (none at all on a wide board, where every pane is already on screen), and the whole screen is
not repainted for the focus it moves (Textual's `Screen.focused` asked for that repaint: every
widget on the board rendered again, in the frame that also carries a streaming worker's pieces)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.geometry import Region

from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp

PITCH = "Meal kits for night-shift nurses"
KEYS = ("f2", "f3", "f4", "f1", "f4", "f2", "f1")
PANE_REGION = ("#top", "#log")  # what compact mode swaps; the rest keeps its place
OUTSIDE = ("#pane-tabs", "#actions", "#status", "KeyFooter")


def regions(app: WorldForgeApp, selectors: tuple[str, ...] | None = None) -> dict[Any, Region]:
    """Where each widget of the board is (its descendants too, when `selectors` name a few)."""
    board = app.main
    if selectors is None:
        widgets = list(board.query("*"))
    else:
        widgets = []
        for selector in selectors:
            top = board.query_one(selector)
            widgets.extend([top, *top.query("*")])
    return {widget: widget.region for widget in widgets}


def moved(before: dict[Any, Region], after: dict[Any, Region]) -> list[str]:
    return [
        f"{type(w).__name__}#{w.id}: {before[w]} -> {after[w]}"
        for w in before
        if after.get(w) != before[w]
    ]


def spy_screen_repaints(app: WorldForgeApp) -> list[tuple[Any, ...]]:
    """Calls that ask the whole board to repaint (`refresh()` with no region), recorded."""
    board = app.main
    whole: list[tuple[Any, ...]] = []
    real = board.refresh

    def refresh(*regions: Region, **kw: Any) -> Any:
        if not regions and kw.get("repaint", True):
            whole.append(tuple(sorted(kw.items())))
        return real(*regions, **kw)

    board.refresh = refresh  # type: ignore[method-assign]
    return whole


async def test_a_pane_switch_on_a_wide_board_lays_nothing_out_and_repaints_only_what_changed(
    tmp_path,
):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(app, pilot)
        board = app.main
        before = regions(app)
        whole = spy_screen_repaints(app)
        for key in KEYS:
            await pilot.press(key)
            await pilot.pause()
            assert moved(before, regions(app)) == [], key
            assert whole == [], f"{key}: the whole board was asked to repaint"
        assert board.shown_pane == "story"
        assert app.focused is board.query_one("#story")  # the switch still moved the focus


@pytest.mark.parametrize("size", [(80, 24), (100, 40)])
async def test_a_compact_pane_switch_lays_out_only_the_pane_region(tmp_path, size):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        board = app.main
        outside = regions(app, OUTSIDE)
        assert len(outside) > 10  # the tabs, the action bar's buttons, the status bar, the keys
        area = {w: r for w, r in regions(app, PANE_REGION).items() if w.id in ("top", "log")}
        whole = spy_screen_repaints(app)
        for key in KEYS:
            await pilot.press(key)
            await pilot.pause()
            assert moved(outside, regions(app, OUTSIDE)) == [], key
            shown = [r for w, r in regions(app, PANE_REGION).items() if w.id in ("top", "log")]
            # one of the two fills the pane region, in the place the other had
            assert [r for r in shown if r.height] == [r for r in area.values() if r.height], key
            assert whole == [], f"{key}: the whole board was asked to repaint"
        assert board.shown_pane == "story" and app.focused is board.query_one("#story")
