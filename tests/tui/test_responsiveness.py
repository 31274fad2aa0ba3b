"""What keeps keys quick, checked as behaviour (the timings live in bench/tui_keys.py)."""

from __future__ import annotations

import gc

from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp

PITCH = "Meal kits for night-shift nurses"


async def test_boot_and_an_open_venture_are_kept_out_of_full_gc_passes(tmp_path):
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.session is not None
        assert gc.get_freeze_count() > 10_000  # the engine and SDK modules, the venture
    gc.unfreeze()


async def test_only_the_board_carries_breakpoint_classes(tmp_path):
    """Another screen given the app's breakpoints would be restyled whole on its first resize."""
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.main.has_class("-compact")
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "HelpScreen"
        assert not app.screen.has_class("-compact") and not app.screen.has_class("-wide")
