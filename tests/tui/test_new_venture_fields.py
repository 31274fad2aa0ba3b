"""The new-venture form's reading fields (offering, who pays, place, problem): filled from the
pitch as it is typed, each editable, and what the player confirms founds the venture. At 80x24
every control is reachable and scrolled into view, and the hint says what Enter does."""

from __future__ import annotations

from textual.widgets import Button, Input, Select

from tests.tui.conftest import settle, text_of
from worldforge_textkit.numbers import currency as currency_in_force
from worldforge_tui.app import WorldForgeApp


async def _type(pilot, text: str) -> None:
    for ch in text:
        await pilot.press("space" if ch == " " else ch)


def _field(app, key: str) -> str:
    return app.screen.query_one(f"#nv-{key}", Input).value


async def test_the_fields_fill_as_the_pitch_is_typed_and_an_edited_one_stays(tmp_path):
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await _type(pilot, "Meal kits for night-shift nurses in Leeds")
        await settle(app, pilot)
        assert (_field(app, "offering"), _field(app, "customer"), _field(app, "place")) == (
            "meal kits",
            "night-shift nurses",
            "Leeds",
        )
        app.screen.query_one("#nv-customer", Input).focus()
        await pilot.press("ctrl+a", "ctrl+k")  # select all, delete (Input's own keys)
        await _type(pilot, "ward sisters")
        app.screen.query_one("#nv-pitch", Input).focus()
        await pilot.press("end")
        await _type(pilot, " and Bradford")
        await settle(app, pilot)
        assert _field(app, "customer") == "ward sisters"  # the player's, kept
        assert _field(app, "offering") == "meal kits"  # still the reading's, refreshed


async def test_what_the_player_confirms_founds_the_venture(tmp_path):
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await _type(pilot, "Kebab van for the night shift")
        await settle(app, pilot)
        assert _field(app, "customer") == "night-shift workers"
        for key, value in (("customer", "warehouse pickers"), ("problem", "cold sandwiches")):
            field = app.screen.query_one(f"#nv-{key}", Input)
            field.focus()
            await pilot.press("ctrl+a", "ctrl+k")
            await _type(pilot, value)
        await pilot.press("enter")  # the hint's promise: Enter starts the venture
        await settle(app, pilot)
        founder = app.session.state.founder
        assert (founder.customer, founder.problem) == ("warehouse pickers", "cold sandwiches")
        assert founder.offering == "kebab van"


async def test_at_80x24_every_control_is_reachable_and_scrolled_into_view(tmp_path):
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "Enter starts the venture" in text_of(app, "#nv-hint")
        screen = app.screen
        seen: list[str] = []
        for _ in range(20):
            focused = screen.focused
            assert focused is not None
            seen.append(focused.id or "")
            region = focused.region
            assert region.height > 0 and region.y >= 0 and region.bottom <= 24, focused.id
            assert region.x >= 0 and region.right <= 80, focused.id
            await pilot.press("tab")
            await pilot.pause()
            if screen.focused is not None and screen.focused.id == seen[0]:
                break
        wanted = {"nv-pitch", "nv-offering", "nv-customer", "nv-place", "nv-problem", "nv-name"}
        assert wanted | {"nv-archetype", "nv-seed", "nv-start", "nv-cancel"} <= set(seen)
        buttons = screen.query(Button)
        assert all(b.region.bottom <= 24 for b in buttons)  # the buttons stay in view


async def test_markup_and_escapes_in_a_field_are_inert(tmp_path):
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await _type(pilot, "Tea for nurses")
        field = app.screen.query_one("#nv-customer", Input)
        field.focus()
        await pilot.press("ctrl+a", "ctrl+k")
        await _type(pilot, "[red]night[/] nurses \\x1b[31m")
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session is not None
        customer = app.session.state.founder.customer
        assert "[red]" not in customer and "\\x1b" not in customer and "nurses" in customer


async def test_the_currency_follows_the_pitch_until_chosen_and_founds_the_books(tmp_path):
    """Typed "40 quid" or a UK city, the books are in pounds; a currency the player picks stays;
    the venture founded keeps its books in it and the status bar writes money in it."""
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        currency = app.screen.query_one("#nv-currency", Select)
        assert currency.value == "USD"
        await _type(pilot, "knife sharpening van for restaurants in leeds")
        await settle(app, pilot)
        assert currency.value == "GBP"
        mechanic = text_of(app, "#nv-mechanic")  # the founder's perk in the books' currency
        assert "£2,500" in mechanic and "$" not in mechanic
        currency.value = "EUR"  # the player's choice: later typing leaves it be
        await settle(app, pilot)
        app.screen.query_one("#nv-pitch", Input).focus()
        await pilot.press("end")
        await _type(pilot, " at 40 quid")
        await settle(app, pilot)
        assert currency.value == "EUR"
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session.state.founder.currency == "EUR"
        bar = text_of(app, "#status-meters")
        assert "€" in bar and "$" not in bar
    assert currency_in_force().code == "USD"  # closed, no venture's currency lingers


async def test_the_founders_line_names_money_in_the_pitchs_currency(tmp_path):
    """Played: a pitch in Leeds set the currency to pounds while the founder's line under it
    still read "a slow careful move saves $2,500"."""
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert "saves $2,500" in text_of(app, "#nv-mechanic")
        await _type(pilot, "dog walkin for busy nurses in leeds")
        await settle(app, pilot)
        assert app.screen.query_one("#nv-currency", Select).value == "GBP"
        shown = text_of(app, "#nv-mechanic")
        assert "saves £2,500" in shown and "$" not in shown
        app.screen.query_one("#nv-archetype", Select).value = "seller"
        await settle(app, pilot)
        assert "brings £2,500 more" in text_of(app, "#nv-mechanic")
