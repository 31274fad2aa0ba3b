"""The game's first screen is the New venture form, drawn before the engine loads: the player types
into it while the engine loads behind it (every key from the start: no welcome frame shows before
it), and Enter pressed meanwhile waits visibly ("Starting…") and starts the venture with
everything typed."""

from __future__ import annotations

import os
import subprocess
import sys

from textual import events
from textual.widgets import Button, Input

from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.screens.load import LoadScreen
from worldforge_tui.screens.main import MainScreen
from worldforge_tui.screens.new_venture import NewVentureScreen


class HeldBoot(WorldForgeApp):
    """The game with its engine load held until the test lets it go (as on a slow machine)."""

    def _startup(self) -> None:
        self.refresh_view()


async def drawn(app: WorldForgeApp, pilot) -> NewVentureScreen:
    """The first screen once it is mounted with its pitch focused (no sleeps)."""
    for _ in range(200):
        form = app.screen
        if isinstance(form, NewVentureScreen) and app.focused in form.query("#nv-pitch"):
            return form
        await pilot.pause()
    raise AssertionError("the first form was never drawn")


async def _type(pilot, text: str) -> None:
    for ch in text:
        await pilot.press("space" if ch == " " else ch)


async def test_the_form_takes_a_pitch_while_the_engine_loads_and_enter_waits_for_it(tmp_path):
    app = HeldBoot(save_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        form = await drawn(app, pilot)
        assert app.booting and app.router is None
        assert "loading" in text_of(app, "#nv-hint")
        await _type(pilot, "Bike repairs")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is form  # nothing to start it with yet: it waits, and says so
        assert text_of(app, "#nv-hint").startswith("Starting…")
        await _type(pilot, " for couriers")  # still typed into the form while it waits
        assert form.query_one("#nv-pitch", Input).value == "Bike repairs for couriers"
        app._boot()
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.session is not None
        assert app.session.state.founder.pitch == "Bike repairs for couriers"


async def test_a_form_left_waiting_says_why_when_the_engine_fails_and_keeps_the_pitch(
    tmp_path, monkeypatch
):
    import worldforge_tui.app as app_module

    def broken():
        raise RuntimeError("settings backend [/] exploded")

    monkeypatch.setattr(app_module, "load_router", broken)
    app = HeldBoot(save_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        form = await drawn(app, pilot)
        await _type(pilot, "Bike repairs")
        await pilot.press("enter")
        app._boot()
        await settle(app, pilot)
        assert app.screen is form and not app.booting and app.session is None
        assert "failed to load" in text_of(app, "#nv-error")
        assert "[/] exploded" in text_of(app, "#nv-error")  # literal, no markup
        assert form.query_one("#nv-pitch", Input).value == "Bike repairs"


async def test_the_run_to_resume_is_offered_once_the_engine_has_loaded(tmp_path):
    played = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    async with played.run_test(size=(100, 40)) as pilot:
        await settle(played, pilot)
        run_id = played.session.state.run_id
    app = HeldBoot(save_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        form = await drawn(app, pilot)
        assert not form.query("#nv-resume")  # the saves are read by the engine, not loaded yet
        app._boot()
        await settle(app, pilot)
        assert app.screen is form
        assert str(form.query_one("#nv-resume", Button).label).startswith("Resume")
        await pilot.click("#nv-resume")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.session is not None and app.session.state.run_id == run_id


async def test_keys_typed_as_the_game_starts_are_all_typed_into_the_first_form(tmp_path):
    """Played in tmux: a pitch typed as `worldforge play` started (its keys stamped before the
    form was drawn) had its letters dropped and its board letters taken as board keys (the `l`
    of "Meal" closed the form, the next one crashed the app). No welcome frame shows before the
    first form, so every key typed from the start is the pitch's."""
    app = HeldBoot(save_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        form = await drawn(app, pilot)
        for ch in "Meal kits? nl":
            early = events.Key("space" if ch == " " else ch, ch)
            early.time = 0.0  # before anything was drawn
            app.post_message(early)
        await pilot.pause()
        assert app.is_running and app.screen is form
        assert form.query_one("#nv-pitch", Input).value == "Meal kits? nl"
        app._boot()
        await settle(app, pilot)
        assert app.screen is form and form.query_one("#nv-pitch", Input).value == "Meal kits? nl"


async def test_keys_typed_on_the_board_while_the_engine_loads_do_what_the_welcome_says(tmp_path):
    """The form closed before the engine has loaded: the welcome frame says `n` founds and `l`
    loads; typed then, they do that once it has, in order, and the form `n` opened takes the
    rest."""
    app = HeldBoot(save_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await drawn(app, pilot)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("n", "b", "i", "k", "e")
        assert isinstance(app.screen, MainScreen) and len(app.screen_stack) == 1
        app._boot()
        await settle(app, pilot)
        assert isinstance(app.screen, NewVentureScreen)
        assert app.screen.query_one("#nv-pitch", Input).value == "bike"
    app = HeldBoot(save_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await drawn(app, pilot)
        await pilot.press("escape", "l")
        app._boot()
        await settle(app, pilot)
        assert [type(s) for s in app.screen_stack] == [MainScreen, LoadScreen]


FORM_BEFORE_ENGINE = r"""
import sys
from textual.widgets import Input
from worldforge_tui.app import WorldForgeApp

class Probe(WorldForgeApp):
    def on_mount(self):
        self._poll = self.set_interval(0.002, self._check)
    def _check(self):
        if type(self.screen).__name__ == "NewVentureScreen" and isinstance(self.focused, Input):
            self._poll.stop()
            self.at_form = "engine.session.api" in sys.modules
            self.set_interval(0.01, self._loaded)
    def _loaded(self):
        if not self.booting:
            self.hint = str(self.screen.query_one("#nv-hint").render())
            self.exit()

app = Probe(save_dir=sys.argv[1])
app.run(headless=True, size=(100, 40))
print("loaded at the form" if app.at_form else "form first, then the engine")
print("hint:", app.hint)
"""


def test_the_form_is_typeable_before_the_engine_loads_then_it_loads(tmp_path):
    """In a fresh process (the engine not yet imported): the form is on screen with its pitch
    focused before the engine's session is imported, and the engine then loads behind it."""
    env = {**os.environ, "WORLDFORGE_HOME": str(tmp_path), "TEXTUAL_ANIMATIONS": "none"}
    done = subprocess.run(
        [sys.executable, "-c", FORM_BEFORE_ENGINE, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert lines[-2] == "form first, then the engine"
    assert lines[-1].startswith("hint: Enter starts the venture")


async def test_a_foreign_save_is_said_on_the_first_form_and_left_as_it_was(tmp_path):
    """The saves are read once the engine has loaded: a file at the save's path that is no
    WorldForge save is refused on the form already on screen, and never written."""
    (tmp_path / "worldforge.db").write_text("not a database", encoding="utf-8")
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, NewVentureScreen)
        assert "not a WorldForge save" in text_of(app, "#nv-error")
        assert not app.screen.query("#nv-resume")
    assert (tmp_path / "worldforge.db").read_text(encoding="utf-8") == "not a database"


async def test_enter_typed_before_the_game_took_the_terminal_starts_the_venture(tmp_path):
    """A terminal that has not yet been switched to raw keys turns Enter into a line feed, which
    arrives as ctrl+j: on the form it starts the venture as Enter does."""
    app = HeldBoot(save_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        form = await drawn(app, pilot)
        await _type(pilot, "Bike repairs")
        await pilot.press("ctrl+j")
        await pilot.pause()
        assert app.screen is form
        assert text_of(app, "#nv-hint").startswith("Starting…")
        app._boot()
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
