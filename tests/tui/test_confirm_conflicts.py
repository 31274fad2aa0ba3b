"""Words that conflict across axes are confirmed first, in the game itself: the confirm names the
minimal conflicting set and the smallest fix before anything binds."""

from __future__ import annotations

from textual.widgets import Input

from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp

SAID = "Speak to hair salons, and leave out salons"


async def test_a_conflict_is_shown_with_its_smallest_fix_before_the_reason_binds(tmp_path):
    app = WorldForgeApp(pitch="Bookkeeping for hair salons", seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        app.screen.query_one(Input).value = SAID
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        shown = " ".join(text_of(app, ".dialog-title").split())
        assert "“speak to hair salons” and “leave out salons” cannot both hold" in shown
        assert "Smallest fix: drop “speak to hair salons” (1 direction)." in shown
        assert app.session.state.stage.redos == 0  # nothing committed yet
