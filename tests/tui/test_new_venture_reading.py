"""The new-venture form shows how the game reads the pitch as the player types, and a fresh seed
for every venture (shown and editable)."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.screens.new_venture import fresh_seed, reading_line


async def test_the_form_reads_the_pitch_as_it_is_typed(tmp_path):
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "NewVentureScreen"
        await pilot.click("#nv-pitch")
        for ch in "Meal kits for night-shift nurses at big city hospitals":
            await pilot.press("space" if ch == " " else ch)
        await settle(app, pilot)
        reading = text_of(app, "#nv-reading")
        assert "Customer: night-shift nurses" in reading and "big city hospitals" in reading
        seed = app.screen.query_one("#nv-seed", Input).value
        assert seed.isdigit()


def test_a_pitch_with_no_customer_says_what_it_guessed():
    line = reading_line("Luxury cat hotels")
    assert "Customer: pet owners" in line and "names no customer" in line
    assert reading_line("x").startswith("Reading: type")


def test_every_new_venture_gets_a_fresh_seed():
    assert len({fresh_seed() for _ in range(20)}) > 1


async def test_a_pitch_typed_as_the_form_opens_lands_in_the_pitch_field(tmp_path):
    """Letters sent the moment the form is pushed (before any frame of it is drawn) are the
    pitch: none reach a screen with no focused field and vanish (the browser lost its pitch so)."""
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        app.pop_screen()  # back on the board, the form opened again by its action
        app.action_new_venture()
        for ch in "Bike repairs":
            app.post_message(events.Key("space" if ch == " " else ch, ch))
        await settle(app, pilot)
        assert app.screen.query_one("#nv-pitch", Input).value == "Bike repairs"
        assert "Reading:" in text_of(app, "#nv-reading")
