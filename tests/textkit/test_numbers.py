"""One numbers module: the same amount reads the same everywhere, profitable is None, and the TUI's
text fields take exactly what the engine accepts."""

from __future__ import annotations

from engine.game.economy import TUNING, initial_economics, recompute, runway_text
from engine.language.text import MAX_NAME_CHARS, MAX_PITCH_CHARS, MAX_REASON_CHARS
from worldforge_textkit.numbers import (
    books,
    currency,
    in_books,
    money,
    money_short,
    months_said,
    number,
    runway,
    runway_short,
)


def test_money_full_and_short() -> None:
    assert money(12_000) == "$12,000" and money(999.6) == "$1,000"
    assert money_short(412_000) == "$412k" and money_short(1_250_000) == "$1.2M"
    assert money_short(-3000) == "-$3.0k" and money_short("junk") == "$0"


def test_money_is_written_in_the_books_currency_and_never_converted() -> None:
    assert money(12_000, "GBP") == "£12,000" and money_short(-3000, "EUR") == "-€3.0k"
    with books("GBP") as books_in:
        assert books_in.name == "pounds" and currency().symbol == "£"
        assert money(40) == "£40" and money_short(1_250_000) == "£1.2M"
        assert in_books("keep acquisition cost under about $10, or $5 a seat") == (
            "keep acquisition cost under about £10, or £5 a seat"
        )
        with books("EUR"):
            assert money(9) == "€9"
        assert money(9) == "£9"  # the outer books again
    assert money(40) == "$40" and in_books("under $10") == "under $10"  # then dollars again
    assert money(1, "XYZ") == "$1"  # an unknown code is dollars


def test_profitable_is_none_and_reads_as_words() -> None:
    assert runway(None) == "profitable" and runway(4.25) == "runway 4.2 months"
    assert runway_short(None) == "∞" and runway_short(4.0) == "4.0mo"
    econ = initial_economics([])
    econ.monthly_burn_usd = 5000.0
    recompute(econ)
    months = TUNING["seed_usd"] / 5000  # the seed money over a $5,000 burn, no revenue yet
    assert runway_text(econ) == runway(econ.runway_months) == f"runway {months_said(months)}"
    econ.market_share, econ.monthly_burn_usd = 100.0, 1.0
    recompute(econ)
    assert econ.shown()["runway_months"] is None and runway_text(econ) == "profitable"


def test_number_is_finite() -> None:
    assert number(float("nan")) == 0.0 and number(None) == 0.0 and number("2.5") == 2.5


async def test_tui_fields_take_what_the_engine_accepts(tmp_path) -> None:
    from tests.tui.conftest import settle
    from worldforge_tui.app import WorldForgeApp
    from worldforge_tui.screens.dialogs import TextPromptScreen
    from worldforge_tui.widgets.bounded_input import BoundedInput

    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(
            app, pilot
        )  # the form opens after start-up (one pause is not enough on a busy CPU)
        assert app.screen.query_one("#nv-pitch", BoundedInput).max_length == MAX_PITCH_CHARS
        assert app.screen.query_one("#nv-name", BoundedInput).max_length == MAX_NAME_CHARS
        app.push_screen(TextPromptScreen("Why reject it?"))
        await pilot.pause()
        assert app.screen.query_one("#prompt-input", BoundedInput).max_length == MAX_REASON_CHARS


def test_a_long_runway_is_said_in_years():
    """A venture that raised money ended with '824.5 months of runway left'."""
    from worldforge_textkit.numbers import months_said, runway

    assert months_said(4.52) == "4.5 months"
    assert months_said(3.0) == "3 months" and months_said(1.02) == "1 month"  # no float noise
    assert months_said(824.5) == "69 years"
    assert runway(30.0) == "runway 2 years"
