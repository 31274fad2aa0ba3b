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


class HeldBoot(WorldForgeApp):
    """The game with its engine load held until the test lets it go (as on a slow machine)."""

    def _startup(self) -> None:
        self.refresh_view()


async def test_letters_typed_while_the_engine_loads_start_the_pitch(tmp_path):
    """`s`, `l`, `n` and `?` are board keys once the engine is loaded; typed before it, they are
    the start of a pitch: nothing opens, and the new-venture form shows them in its pitch field."""
    from textual.widgets import Input

    from worldforge_tui.screens.main import MainScreen
    from worldforge_tui.screens.new_venture import NewVentureScreen

    app = HeldBoot(save_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("s", "l", "n", "space", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen) and len(app.screen_stack) == 1
        app._boot()
        await settle(app, pilot)
        assert isinstance(app.screen, NewVentureScreen)
        assert app.screen.query_one("#nv-pitch", Input).value == "sln ?"
        await pilot.press("x")
        assert app.screen.query_one("#nv-pitch", Input).value == "sln ?x"
    loaded = WorldForgeApp(save_dir=tmp_path)  # once loaded, the same keys act on the board
    async with loaded.run_test(size=(100, 40)) as pilot:
        await settle(loaded, pilot)
        assert isinstance(loaded.screen, NewVentureScreen)
        assert loaded.screen.query_one("#nv-pitch", Input).value == ""
