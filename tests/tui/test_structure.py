"""Structure rules: the headless path never imports textual; every binding has an id and a label."""

from __future__ import annotations

import subprocess
import sys

from textual.binding import Binding

from worldforge_tui import actions
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.screens.dialogs import ConfirmScreen, InspectorScreen, TextPromptScreen
from worldforge_tui.screens.end import EndScreen
from worldforge_tui.screens.help import HelpScreen, keys_content
from worldforge_tui.screens.load import LoadScreen
from worldforge_tui.screens.main import MainScreen
from worldforge_tui.screens.new_venture import NewVentureScreen
from worldforge_tui.screens.settings import SettingsScreen
from worldforge_tui.widgets.memory_pane import MemoryPane
from worldforge_tui.widgets.replay_log import ReplayLog
from worldforge_tui.widgets.replay_pane import FilterInput, ReplayPane

BOUND = (
    WorldForgeApp,
    MainScreen,
    SettingsScreen,
    HelpScreen,
    LoadScreen,
    NewVentureScreen,
    EndScreen,
    TextPromptScreen,
    ConfirmScreen,
    InspectorScreen,
    MemoryPane,
    ReplayLog,
    ReplayPane,
    FilterInput,
)


def _fresh_python(code: str) -> None:
    """Run `code` in a fresh interpreter: it prints what it found loaded and exits 1 if any."""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_headless_imports_stay_free_of_textual():
    code = (
        "import sys, worldforge_tui, worldforge_tui.text.safe_text, worldforge_tui.text.formatting, "
        "worldforge_tui.replay_entries, worldforge_tui.screens.settings_form, engine.session.api; "
        "bad = [m for m in sys.modules if m == 'textual' or m.startswith('textual.')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    _fresh_python(code)


def test_the_app_module_loads_none_of_the_engine_before_the_first_frame():
    """The board draws before the engine loads (it loads on a thread after the first frame): the
    app module and its screens import no pydantic, SQLite, memory store, router or session (the
    action rows read the light command list, engine.session.commands, and nothing else of it)."""
    code = (
        "import sys, worldforge_tui.app; "
        "heavy = ('pydantic', 'sqlite3', 'memory', 'engine.session', 'engine.game.models', "
        "'engine.routing', 'engine.language.pitch'); "
        "light = ('engine.session', 'engine.session.commands'); "  # the command list, pure data
        "bad = sorted(m for m in sys.modules if m.startswith(heavy) and m not in light); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    _fresh_python(code)


def test_the_dialogs_load_after_the_first_frame():
    """The screens the board opens later (new venture, load, help, end, the dialogs) are imported
    by the boot thread after the first frame, not by the app module before it."""
    code = (
        "import sys, worldforge_tui.app; "
        "later = ('dialogs', 'end', 'help', 'load', 'new_venture', 'settings'); "
        "bad = [n for n in later if f'worldforge_tui.screens.{n}' in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    _fresh_python(code)


def test_every_binding_has_an_id_and_description():
    seen: dict[str, str] = {}
    for owner in BOUND:
        for binding in owner.BINDINGS:
            assert isinstance(binding, Binding), owner
            assert binding.id, f"{owner.__name__} {binding.key} has no id"
            assert binding.description, f"{owner.__name__} {binding.key} has no description"
            assert seen.setdefault(binding.id, owner.__name__) == owner.__name__, binding.id
    design_keys = {
        "gate.approve",
        "gate.reject",
        "fork.option_a",
        "fork.option_b",
        "fork.own",
        "app.settings",
        "app.new",
        "app.load",
        "app.export",
        "app.help",
        "app.quit",
    }
    assert design_keys <= set(seen)
    assert set(seen) == set(actions.BY_ID), "every binding comes from the registry, and back"
    documented = keys_content(lambda action_id: actions.BY_ID[action_id].key).plain
    board = {a.id for a in actions.ACTIONS if a.scope in actions.BOARD_SCOPES}
    assert all(binding_id in documented for binding_id in board | design_keys)


async def test_engine_events_never_touch_the_widget_tree_from_a_worker(tmp_path, monkeypatch):
    import threading

    from textual.dom import DOMNode

    from tests.tui.conftest import settle

    ui_thread = threading.get_ident()
    offenders: list[str] = []
    real_query_one = DOMNode.query_one

    def guarded(self, *args, **kwargs):
        if threading.get_ident() != ui_thread:
            offenders.append(threading.current_thread().name)
        return real_query_one(self, *args, **kwargs)

    monkeypatch.setattr(DOMNode, "query_one", guarded)
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for key in ("a", "1", "g"):
            await pilot.press(key)
            await settle(app, pilot)
        assert app.snap.phase == "gate" and app.snap.stage_index == 1
        log = app.main.query_one(ReplayLog)
        log.flush()
        assert [e.id for e in log.entries if e.id] == [e.id for e in app.session.events()]
    assert not offenders, f"widget tree queried from {sorted(set(offenders))}"
