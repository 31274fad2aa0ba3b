"""Dialogs and keys do what they say: Enter takes the stated default, Escape clears the filter, a
refused input comes back with its text and the reason, a clashing rebind is refused in one notice,
a watching window opens no input, and a venture plays to its end by mouse alone."""

from __future__ import annotations

from textual.widgets import Button, Input, OptionList

from tests.tui.conftest import after_keys, settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.memory_pane import MemoryPane

PITCH = "Meal kits for night-shift nurses"


def screen_name(app) -> str:
    return app.screen.__class__.__name__


async def test_enter_decides_an_own_answer_but_declines_forgetting(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("o", *"sell to people who know me", "enter")
        await pilot.pause()
        assert screen_name(app) == "ConfirmScreen"
        hint = " ".join(str(label.render()) for label in app.screen.query(".dialog-hint"))
        assert "Enter: Decide" in hint and "y yes" in hint and "n no" in hint
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session.state.stages[0].decision.option in ("A", "B", "own")
        app.main.action_pane("memory")
        await pilot.press("f")
        await pilot.pause()
        assert screen_name(app) == "ConfirmScreen"
        hint = " ".join(str(label.render()) for label in app.screen.query(".dialog-hint"))
        assert "Enter: No (the safe answer)" in hint
        await pilot.press("enter")
        await settle(app, pilot)
        assert screen_name(app) == "MainScreen" and sum(app.session.memory.counts().values()) > 0


async def test_escape_clears_the_log_filter_from_the_filter_and_from_the_log(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        log = app.replay
        total = len(log.visible_entries)
        await pilot.press("slash", *"memory")
        await pilot.pause()
        assert len(log.visible_entries) < total
        await pilot.press("escape")
        await pilot.pause()
        assert len(log.visible_entries) == total and app.focused is log
        await pilot.press("slash", *"memory", "enter")
        await pilot.pause()
        assert app.focused is log and len(log.visible_entries) < total
        await pilot.press("escape")
        await pilot.pause()
        assert len(log.visible_entries) == total


async def test_a_refused_reason_comes_back_with_its_text_and_why(tmp_path):
    """The engine refuses a reason that names nothing it can change (a question, no redo spent):
    the prompt reopens with the typed text and the engine's line."""
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("r", *"meh", "enter")
        await settle(app, pilot)
        assert screen_name(app) == "TextPromptScreen"
        assert app.screen.query_one("#prompt-input", Input).value == "meh"
        assert "What should change?" in text_of(app, "#prompt-error")
        assert app.session.state.stage.redos == 0


async def test_binding_notes_cannot_be_marked_for_consolidation(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await after_keys("a", "1")(
            pilot
        )  # one key per settled board: a key pressed while busy is refused
        pane = app.main.query_one(MemoryPane)
        app.main.action_pane("memory")
        await pilot.pause()
        options = app.main.query_one("#memory-list", OptionList)
        ids = [options.get_option_at_index(i).id or "" for i in range(options.option_count)]
        procedural = [
            i
            for i, option_id in enumerate(ids)
            if option_id.startswith("mem:")
            and pane.records[option_id[4:]].get("kind") == "procedural"
        ]
        assert procedural, f"no binding note listed after the fork: {ids}"
        binding = procedural[0]
        options.highlighted = binding
        await pilot.press("space")
        await pilot.pause()
        assert not pane.marked
        assert any("can be consolidated" in n.message for n in app._notifications)


async def test_a_clashing_rebind_is_refused_in_one_notice_naming_both(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        app.apply_keymap({"gate.approve": "r", "fork.own": "x"})
        await pilot.pause()
        notices = [n.message for n in app._notifications if "keymap.json" in n.message]
        assert len(notices) == 1 and "gate.approve" in notices[0] and "gate.reject" in notices[0]
        assert app.key_of("gate.approve") == "a" and app.key_of("fork.own") == "x"
        assert "Approve [a]" in str(app.main.query_one("#btn-approve", Button).label)
        await pilot.press("r")
        await pilot.pause()
        assert screen_name(app) == "TextPromptScreen"  # reject is still reachable


async def test_a_watching_window_opens_no_input(tmp_path, monkeypatch):
    from engine.session.api import GameSession

    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        monkeypatch.setattr(GameSession, "read_only", property(lambda self: True))
        app.refresh_view()
        await pilot.press("r")
        await pilot.pause()
        assert screen_name(app) == "MainScreen"
        assert any("read-only" in n.message for n in app._notifications)
        assert app.main.query_one("#btn-reject").disabled


async def test_a_venture_plays_to_its_end_by_mouse_only(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for _ in range(60):
            if app.snap.phase == "ended":
                break
            for button_id in ("btn-approve", "btn-option-a", "btn-event-a", "btn-run"):
                button = app.main.query_one(f"#{button_id}")
                if button.display and not button.has_class("-hidden") and not button.disabled:
                    assert await pilot.click(f"#{button_id}"), button_id
                    break
            else:
                raise AssertionError(f"no button to click in phase {app.snap.phase}")
            await settle(app, pilot)
        assert app.snap.phase == "ended" and app.snap.outcome is not None
        assert screen_name(app) == "EndScreen"
        assert await pilot.click("#end-close")
        await pilot.pause()
        assert screen_name(app) == "MainScreen"


async def test_each_dialog_button_gives_its_answer_by_mouse():
    """Yes, No and OK each dismiss their dialog with its own answer."""
    from textual.app import App

    from worldforge_tui.screens.dialogs import ConfirmScreen, TextPromptScreen

    answers: list[object] = []
    app: App[None] = App()
    async with app.run_test(size=(120, 40)) as pilot:
        for screen, button in (
            (ConfirmScreen("Forget?"), "#confirm-yes"),
            (ConfirmScreen("Forget?", default=True), "#confirm-no"),
            (TextPromptScreen("Why?", initial="too vague"), "#prompt-ok"),
        ):
            app.push_screen(screen, answers.append)
            await pilot.pause()
            assert await pilot.click(button), button
            await pilot.pause()
        assert answers == [True, False, "too vague"]
