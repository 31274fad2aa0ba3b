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


class Cycle:
    def __init__(self) -> None:
        self.me = self


async def test_opening_another_venture_collects_what_the_last_one_left_frozen(tmp_path):
    """A screen closed after a freeze is cyclic garbage no full pass sees (heap.py); the next
    venture's opening thaws the heap and collects it."""
    import weakref

    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):  # the first venture opens after the engine loads, on a worker
            await settle(app, pilot)
            if app.session is not None:
                break
        first = app.session
        assert first is not None  # else the next opening has no venture to reclaim after
        closed = Cycle()
        gone = weakref.ref(closed)
        gc.freeze()  # alive when the survivors of a full pass were frozen
        del closed
        gc.collect()
        assert gone() is not None
        app.open_venture({"pitch": "Bike repairs in office car parks", "seed": 3})
        await settle(app, pilot)
        assert app.session is not None and app.session is not first
        assert gone() is None
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


async def test_a_step_done_before_its_busy_view_is_due_never_shows_one(tmp_path, monkeypatch):
    """A step that finishes before BUSY_VIEW_AFTER goes straight to its result: no thinking
    line, no greyed buttons, and its log rows come with the result, not a flush before it."""
    from worldforge_tui import app as app_module
    from worldforge_tui.widgets.action_bar import ActionBar

    monkeypatch.setattr(app_module, "BUSY_VIEW_AFTER", 60.0)  # never due in this test
    shown: list[str] = []
    real = ActionBar.set_thinking

    def spy(self, text, **kw):
        if text is not None:
            shown.append(text)
        return real(self, text, **kw)

    monkeypatch.setattr(ActionBar, "set_thinking", spy)
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        shown.clear()
        rows = len(app.replay.entries)
        await pilot.press("a")
        await settle(app, pilot)
        assert app.snap.phase == "fork"
        assert shown == [] and app.main.query_one("#thinking").display is False
        assert len(app.replay.entries) > rows  # the step's events, flushed with its result
        assert app.replay.held is False
        assert not app.main.query_one("#btn-option-a").disabled


def test_a_label_is_redrawn_when_only_its_colours_change():
    """`Content ==` compares text only: a footer key greyed while a worker runs, or a meter that
    turns red, keeps its text, and must still be redrawn."""
    from textual.content import Content

    from worldforge_tui.widgets.shown import same

    assert same(Content.styled("F1 Story", "bold"), Content.styled("F1 Story", "bold"))
    assert not same(Content.styled("F1 Story", "bold"), Content.styled("F1 Story", "bold dim"))
    assert not same(Content("runway 7"), Content.styled("runway 7", "$error"))
    assert same("day 3", "day 3") and not same("day 3", "day 4")
    assert not same("day 3", Content("day 3"))  # another kind: redrawn, never skipped wrongly


async def test_the_footer_greys_a_key_whose_text_stays_the_same():
    """A key that becomes impossible keeps its words in the footer and only turns dim: the footer
    must redraw for that (its `Content ==` check once skipped it)."""
    from typing import ClassVar

    from textual.app import App, ComposeResult
    from textual.binding import BindingType

    from worldforge_tui.widgets.key_footer import KeyFooter

    class OneKey(App[None]):
        BINDINGS: ClassVar[list[BindingType]] = [("x", "go", "Go")]
        possible = True

        def compose(self) -> ComposeResult:
            yield KeyFooter()

        def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
            return (True if self.possible else None) if action == "go" else True  # None: greyed

        def action_go(self) -> None:
            pass

    app = OneKey()
    async with app.run_test(size=(40, 3)) as pilot:
        footer = app.query_one(KeyFooter)
        await pilot.pause()
        before = footer.content
        app.possible = False
        app.refresh_bindings()
        await pilot.pause()
        after = footer.content
        assert "Go" in before.plain and after.plain == before.plain
        assert "dim" not in str(before.spans) and "dim" in str(after.spans)


class CountingRestyles(WorldForgeApp):
    """The game, noting every mounted node Textual restyles whole (screens included)."""

    restyled: list[object]

    def update_styles(self, node, animate=True):
        if node is not self and node.is_attached:
            self.__dict__.setdefault("restyled", []).append(node)
        super().update_styles(node, animate)


async def test_a_reopened_screen_restyles_only_after_a_theme_change_it_missed(tmp_path):
    """The settings screen is kept installed: reopened in the theme it left, it is not restyled
    whole; reopened after a theme change made while it was away, it shows the new theme."""
    from textual.widgets import Button

    app = CountingRestyles(pitch=PITCH, seed=7, save_dir=tmp_path, theme="textual-dark")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        for _ in range(2):
            await pilot.press("s")
            await pilot.pause()
            screen = app.screen
            assert screen.__class__.__name__ == "SettingsScreen"
            await pilot.press("escape")
            await pilot.pause()
        assert screen not in app.__dict__.get("restyled", [])
        save = screen.query_one("#settings-save", Button)
        before = save.styles.background
        app.theme = "textual-light"  # while the settings screen is off the stack
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert app.screen is screen and screen in app.restyled
        assert save.styles.background != before
        assert save.styles.background == app.current_theme.to_color_system().primary
