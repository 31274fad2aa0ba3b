"""A rejection with a part that binds nothing is confirmed first, in the game itself."""

from __future__ import annotations

from textual.widgets import Input

from engine.language.reader.vocab import vocab
from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp

SAID = "price it at £12 a week, start with law firms and hire a barista for the launch"


async def test_a_part_that_binds_nothing_is_shown_before_the_reason_binds(tmp_path):
    app = WorldForgeApp(
        pitch="Refill subscriptions for office coffee in Leeds", seed=7, save_dir=tmp_path
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        app.screen.query_one(Input).value = SAID
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        shown = text_of(app, ".dialog-title")
        assert "Binds nothing: “hire a barista for the launch”" in shown
        assert "Will change: price £12 a week; speak to law firms." in shown
        assert app.session.state.stage.redos == 0  # nothing committed yet
        # "no" goes back to the words as typed
        await pilot.press("n")
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "TextPromptScreen"
        assert app.screen.query_one(Input).value == SAID
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("y")
        await settle(app, pilot)
        assert app.session.state.stage.redos == 1
        binding = [ln for ln in text_of(app, "#story-body").splitlines() if "Binding:" in ln]
        assert binding == ["Binding: price £12 a week; speak to law firms"]


def test_every_reason_the_reader_gives_has_words_on_the_chip_row():
    """A reason the reader learns (words.json teach_backs) shows as words, not as its key
    ("no value", "unplaced" reached the chip row as bare keys): its label sits beside it."""
    assert set(vocab().teach_backs) <= set(vocab().reason_labels)
