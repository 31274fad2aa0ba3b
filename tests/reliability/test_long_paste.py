"""Issue 12 case 8: an over-long paste into a text field is refused with a message (it used to be
dropped without a word)."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp


async def test_a_megabyte_paste_into_the_pitch_is_refused_with_a_message(tmp_path) -> None:
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "NewVentureScreen"
        pitch = app.screen.query_one("#nv-pitch", Input)
        pitch.focus()
        await pilot.pause()
        pitch.post_message(events.Paste("z" * 1_000_000))
        await pilot.pause()
        await pilot.pause()
        assert pitch.value == ""
        assert any("Too long" in n.message for n in app._notifications)
        pitch.post_message(events.Paste("Bike repair bookings"))
        await pilot.pause()
        assert pitch.value == "Bike repair bookings"  # a paste within the limit still lands
