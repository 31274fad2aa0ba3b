"""The reading is shown as it is typed and corrected before it binds: a chip per direction over
the words it came from, an unread part marked with why, one key to change a chip's axis, one to
flip do / don't, one to drop it; what binds is what the player confirmed (and replay binds the
same). Markup, control characters, emoji and huge pastes stay inert."""

from __future__ import annotations

from textual.widgets import Input

from engine.language.directions import Direction
from engine.session.replay import verify
from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.memory_pane import MemoryPane, record_prompt
from worldforge_tui.widgets.reading_chips import ReadingChips

HURRIED = "speak to head chefs, drop the routes talk, and hire a barista"


async def _read(app, pilot, text: str) -> ReadingChips:
    """Type `text` key by key as a player does, and wait until the chips show its reading."""
    app.screen.query_one(Input).value = ""
    for ch in text:
        await pilot.press(ch if ch != " " else "space")
    return await _shown(app, pilot, text)


async def _shown(app, pilot, text: str) -> ReadingChips:
    """Wait (on the state, however loaded the machine) until the chips show `text`'s reading:
    it comes after a pause in typing, from a worker thread."""
    chips = app.screen.query_one(ReadingChips)
    for _ in range(2000):
        if chips.read_for == text:
            return chips
        await app.workers.wait_for_complete()
        await pilot.pause(0.01)
    raise AssertionError(f"the reading never showed (shows {chips.read_for!r})")


def _bound(app) -> list[str]:
    note = app.session.memory.records(kinds=["procedural"])[-1]
    return [Direction.from_dict(d).line() for d in (note.payload or {})["directions"]]


async def test_a_hurried_rejection_is_read_as_typed_corrected_and_binds_as_confirmed(tmp_path):
    app = WorldForgeApp(pitch="Route planning for restaurant suppliers", seed=5, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        chips = await _read(app, pilot, HURRIED)
        shown = text_of(app, "#prompt-reading")
        assert "audience · do · head chefs" in shown
        assert "exclusion · don't · routes talk" in shown
        assert "✖ unread “hire a barista”: too vague to place." in shown
        await pilot.press("ctrl+f")  # speak to head chefs → leave out head chefs
        assert "exclusion · don't · head chefs ✎" in text_of(app, "#prompt-reading")
        await pilot.press("down", "ctrl+r")  # drop "leave out routes talk"
        assert "dropped: exclusion · don't · routes talk" in text_of(app, "#prompt-reading")
        assert [d.line() for d in chips.confirmed() or []] == ["leave out head chefs"]
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "ConfirmScreen"  # the unread part, confirmed
        assert "leave out head chefs" in text_of(app, ".dialog-title")
        await pilot.press("n")  # back to the words: the corrections still stand
        await settle(app, pilot)
        await _shown(app, pilot, HURRIED)
        shown = text_of(app, "#prompt-reading")
        assert "exclusion · don't · head chefs ✎" in shown and "dropped: exclusion" in shown
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("y")
        await settle(app, pilot)
        assert _bound(app) == ["leave out head chefs"]
        reject = next(r for r in app.session.inputs if r["cmd"] == "reject")
        assert reject["reason"] == HURRIED and reject["confirmed"][0]["axis"] == "exclusion"
        assert verify(app.session.conn, app.session.state.run_id).ok
        pane = app.screen.query_one(MemoryPane)  # the note, with its chip and its words
        note = next(r for r in pane.records.values() if str(r.get("text")).endswith(HURRIED))
        row = record_prompt(note, False, app.session.state.day).plain
        assert "BINDING" in row and "exclusion · don't · head chefs  ← “head chefs”" in row
        assert "routes talk" not in row.split("\n", 1)[1]  # dropped: no chip


async def test_a_chip_axis_cycles_and_an_uncorrected_reading_binds_as_read(tmp_path):
    app = WorldForgeApp(pitch="Route planning for restaurant suppliers", seed=5, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        chips = await _read(app, pilot, "speak to head chefs")
        await pilot.press("ctrl+t")
        assert "channel · do · head chefs ✎" in text_of(app, "#prompt-reading")
        await pilot.press("ctrl+t", "ctrl+t", "ctrl+t", "ctrl+t", "ctrl+t", "ctrl+t")
        shown = text_of(app, "#prompt-reading")
        assert "audience · do · head chefs" in shown and "✎" not in shown  # round again
        chips = await _read(app, pilot, "speak to head chefs, and skip the routes")
        assert chips.chips.chips[0].now is not chips.chips.chips[0].read  # kept over re-reading
        assert chips.confirmed() is None  # cycled round to where it began: the reading binds
        await pilot.press("enter")
        await settle(app, pilot)
        assert _bound(app)[0] == "speak to head chefs"


async def test_markup_control_characters_emoji_and_a_huge_paste_stay_inert(tmp_path):
    app = WorldForgeApp(pitch="Route planning for restaurant suppliers", seed=5, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        field = app.screen.query_one(Input)

        async def shown_for(text: str) -> str:
            field.value = text
            await _shown(app, pilot, text.strip())
            return text_of(app, "#prompt-reading")

        shown = await shown_for(
            "[bold red]speak[/] to 🧑‍🍳 chefs [/] and drop [link=x]routes[/link]"
        )
        assert "[bold red]speak[/]" in shown  # shown literally, never parsed
        assert "don't" in shown  # and read: the chips are there
        shown = await shown_for("talk to chefs, charge £20 a month")  # the books keep dollars
        assert (  # the rest binds; the price is unread, with why and the figure to say instead
            "✖ unread “£20 a month”: a price in another currency. "
            "The books are kept in dollars: say “$20 a month”."
        ) in shown
        shown = await shown_for("speak to chefs \x1b[31m and \x07 drop routes")
        assert "\x1b" not in shown and "\x07" not in shown
        assert shown.startswith("✖ reason contains a control character")  # one line, no chips
        field.insert_text_at_cursor("x" * 1_000_000)  # a 1 MB paste: refused in one line
        await pilot.pause()
        assert len(field.value) <= 1000
        assert app.screen.__class__.__name__ == "TextPromptScreen"


async def test_the_own_answer_shows_its_chips_and_its_conflict_before_it_binds(tmp_path):
    app = WorldForgeApp(pitch="Route planning for restaurant suppliers", seed=5, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        await _read(app, pilot, "Speak to hair salons")
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        assert app.session.state.phase == "fork"
        await pilot.press("o")
        await settle(app, pilot)
        said = "the first option but leave out salons"
        chips = await _read(app, pilot, said)
        shown = text_of(app, "#prompt-reading")
        assert "exclusion · don't · salons" in shown and "unread" not in shown
        assert "Picks option [1], and:" in shown  # the key the fork shows, not "A"
        await _read(app, pilot, "the second one")
        assert "Picks option [2]; nothing else binds." in text_of(app, "#prompt-reading")
        chips = await _read(app, pilot, said)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        confirm = " ".join(text_of(app, ".dialog-title").split())
        assert "“speak to hair salons” and “leave out salons” cannot both hold" in confirm
        await pilot.press("n")  # back to the words, to change them
        await settle(app, pilot)
        chips = await _read(app, pilot, said)
        while chips.chips.current is not None and chips.chips.current.read.axis != "exclusion":
            await pilot.press("down")
        await pilot.press("ctrl+r")
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        assert "cannot" not in text_of(app, ".dialog-title")
        await pilot.press("y")
        await settle(app, pilot)
        decided = app.session.state.receipts[-1]
        assert app.session.state.phase != "fork" and decided is not None
        own = next(r for r in app.session.inputs if r["cmd"] == "decide_own")
        assert own["text"] == said and not any(d["axis"] == "exclusion" for d in own["confirmed"])
        assert verify(app.session.conn, app.session.state.run_id).ok


def test_the_chip_keys_are_rows_of_the_action_table_and_help_lists_them():
    from worldforge_tui import actions
    from worldforge_tui.screens.help import keys_content

    shown = keys_content(lambda action_id: actions.BY_ID[action_id].key).plain
    for row_id in ("reading.prev", "reading.next", "reading.axis", "reading.flip", "reading.drop"):
        assert actions.BY_ID[row_id].scope == "prompt"
        assert row_id in shown


async def test_a_standup_reply_is_read_as_typed_and_binds_as_confirmed(tmp_path):
    app = WorldForgeApp(pitch="Bookkeeping for hair salons", seed=4, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("1")
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)
        said = "ok but talk to salon owners not chains, charge 20 bucks a month"
        chips = await _read(app, pilot, said)
        shown = text_of(app, "#prompt-reading")
        assert "price · do · $20 a month" in shown and "exclusion · don't · chains" in shown
        while chips.chips.current is not None and chips.chips.current.read.axis != "exclusion":
            await pilot.press("down")
        await pilot.press("ctrl+t")  # not a thing to leave out: a claim never to make
        assert "claim · don't · chains ✎" in text_of(app, "#prompt-reading")
        await pilot.press("enter")
        await settle(app, pilot)
        assert sorted(_bound(app)) == [
            "never claim chains",
            "price $20 a month",
            "speak to salon owners",
        ]
        assert verify(app.session.conn, app.session.state.run_id).ok


async def test_a_long_reading_leaves_the_prompts_buttons_on_an_80x24_screen(tmp_path):
    from textual.widgets import Button

    from tests.tui.test_fit_80x24 import cut_off

    app = WorldForgeApp(pitch="Bookkeeping for hair salons", seed=4, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        field = app.screen.query_one(Input)
        long = (
            "idk its too corporate?? talk to salon owners not chains, charge 20 bucks a month, "
            "call the van Sharp Sally, hire a barista, make it chill, no jargon pls and launch "
            "in week 3 or whatever"
        )
        field.value = long
        await _shown(app, pilot, long)
        await pilot.pause()
        assert "✖ unread" in text_of(app, "#prompt-reading")
        for button in app.screen.query(Button):
            assert cut_off(app.screen, button) is None, button.id
