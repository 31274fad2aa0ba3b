"""Every screen at 80×24: each control is reachable by Tab and, focused, wholly on screen.

The walk opens every screen and dialog the game has at the smallest size the README supports,
tabs through its focus chain and fails on a control Tab never reaches or one that, focused, is
cut off (below the screen, or scrolled out of its container's view).
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widget import Widget

from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp

PITCH = "Meal kits for night-shift nurses"
SIZE = (80, 24)


def cut_off(screen: Screen, widget: Widget) -> str | None:
    """Why a focused control is not wholly visible, or None when it is."""
    try:
        geometry = screen.find_widget(widget)
    except Exception:  # noqa: BLE001 - not in the compositor's map: not drawn at all
        return "not drawn"
    region, clip = geometry.region, geometry.clip.intersection(screen.region)
    if not region.size.area:
        return "no size"
    if not clip.contains_region(region):
        return f"at {tuple(region)} outside the visible {tuple(clip)}"
    return None


async def walk(pilot, name: str) -> list[str]:
    """Tab through the active screen's controls: what is unreachable or cut off, by name."""
    app = pilot.app
    screen = app.screen
    controls = [w for w in screen.focus_chain if w.focusable]
    problems: list[str] = []
    reached: list[Widget] = []
    for _ in range(len(controls) + 1):
        await pilot.press("tab")
        await pilot.pause()
        focused = screen.focused
        if focused is None:
            continue
        if focused not in reached:
            reached.append(focused)
        why = cut_off(screen, focused)
        if why:
            problems.append(f"{name}: {focused!r} focused but {why}")
    for control in controls:
        if control not in reached:
            problems.append(f"{name}: {control!r} never reached by Tab")
    said = " ".join(str(w.render()) for w in screen.query("Label, Static"))
    if screen is not app.main and screen.query("Input") and "Enter" not in said:
        problems.append(f"{name}: nothing says what Enter does")
    return problems


async def board_and_dialogs(app: WorldForgeApp, pilot) -> list[str]:
    """The board, then each dialog it opens, walked in turn (each closed with Escape)."""
    from worldforge_tui.screens.dialogs import ConfirmScreen, InspectorScreen, TextPromptScreen
    from worldforge_tui.screens.end import EndScreen

    problems = await walk(pilot, "board")
    for pane in ("receipt", "memory", "log"):  # compact mode shows one pane at a time
        app.main.action_pane(pane)
        await pilot.pause()
        problems += await walk(pilot, f"board, {pane} pane")
    app.main.action_pane("story")
    openers = {
        "help": lambda: pilot.press("question_mark"),
        "load": lambda: pilot.press("l"),
        "settings": lambda: pilot.press("s"),
        "reject prompt": lambda: pilot.press("r"),
    }
    for name, open_it in openers.items():
        await open_it()
        await settle(app, pilot)
        assert app.screen is not app.main, f"{name} did not open"
        problems += await walk(pilot, name)
        await pilot.press("escape")
        await settle(app, pilot)
    made = {
        "confirm": lambda: ConfirmScreen("Forget this note for good?", yes_label="Forget"),
        "inspector": lambda: InspectorScreen("#1 RUN_STARTED", "{}\n" * 200),
        "end": lambda: EndScreen(app.snap),
        "prompt with an error": lambda: TextPromptScreen(
            "Why reject it? " * 8, "a reason", submit_label="Reject", error="refused: " * 30
        ),
    }
    for name, make in made.items():
        app.push_screen(make())
        await settle(app, pilot)
        problems += await walk(pilot, name)
        app.pop_screen()
        await settle(app, pilot)
    return problems


async def test_every_screen_and_dialog_fits_80x24(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.snap is not None and app.snap.phase == "gate"
        problems = await board_and_dialogs(app, pilot)
        await pilot.press("a")  # the fork: its option buttons are on the board
        await settle(app, pilot)
        problems += await walk(pilot, "board at the fork")
    assert problems == []


async def test_the_new_venture_form_fits_80x24(tmp_path):
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "NewVentureScreen"
        assert await walk(pilot, "new venture") == []


async def test_an_event_waiting_behind_the_receipt_is_announced(tmp_path):
    """At 80×24 a fork's receipt takes the screen; an event that waits (its text in the hidden
    Story pane) is named on the action bar's line with the keys that answer and show it."""
    from tests.tui.conftest import text_of

    app = WorldForgeApp(pitch=PITCH, seed=1, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("1")
        await settle(app, pilot)
        assert app.snap.pending_event is not None, "seed 1's first fork is followed by an event"
        assert app.main.shown_pane == "receipt"
        assert text_of(app, "#action-hint") == "1 / 2 answer the waiting event (F1 shows it)"
