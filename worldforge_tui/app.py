"""The WorldForge Textual app: one game session, driven by keys, rendered from engine snapshots.

Every session command runs in one thread-worker group (the session is not thread-safe, so one at a
time); workers only post messages, and the `on_…` handlers here change what the panes show. Engine
events reach the replay log through a thread-safe queue that the log flushes in batches.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from worldforge_tui.boot import load_router, log, setup_file_log
from worldforge_tui.messages import (
    Booted,
    CommandFinished,
    EngineNotice,
    SessionFailed,
    SessionOpened,
)
from worldforge_tui.player_actions import PlayerActions
from worldforge_tui.safe_text import one_line
from worldforge_tui.screens.dialogs import InspectorScreen
from worldforge_tui.screens.end import EndScreen
from worldforge_tui.screens.help import HelpScreen
from worldforge_tui.screens.load import LoadScreen
from worldforge_tui.screens.main import MainScreen
from worldforge_tui.screens.new_venture import NewVentureScreen
from worldforge_tui.theme import DEFAULT_THEME, THEMES
from worldforge_tui.widgets.action_bar import ActionBar
from worldforge_tui.widgets.memory_pane import MemoryPane
from worldforge_tui.widgets.replay_log import ReplayLog
from worldforge_tui.widgets.replay_pane import ReplayPane

BOARD_ACTIONS = frozenset({"settings", "new_venture", "load", "export"})
MEMORY_COMMANDS = frozenset({"prune", "consolidate", "forget"})  # their ValueErrors are refusals


class WorldForgeApp(PlayerActions, App[int]):
    """The game. Construct with the CLI's venture arguments (all optional)."""

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "WorldForge"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-compact"), (110, "-wide")]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "settings", "Settings", id="app.settings"),
        Binding("n", "new_venture", "New", id="app.new"),
        Binding("l", "load", "Load", id="app.load"),
        Binding("e", "export", "Export", id="app.export"),
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def __init__(self, *, pitch: str | None = None, name: str | None = None,
                 archetype: str | None = None, seed: int | None = None,
                 save_dir: str | Path | None = None, router: Any = None,
                 auto_run: bool = True) -> None:
        super().__init__()
        self.start_request = ({"pitch": pitch, "name": name, "archetype": archetype or "builder",
                               "seed": 7 if seed is None else seed} if pitch else None)
        self.save_dir = save_dir
        self.router = router
        self.session: Any = None
        self.snap: Any = None
        self.busy: str | None = None
        self.auto_run = auto_run
        self.last_export: Path | None = None

    # ---- lifecycle -----------------------------------------------------------------------
    def get_default_screen(self) -> Screen[Any]:
        return MainScreen()

    @property
    def main(self) -> MainScreen:
        """The board (always the bottom of the screen stack)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, MainScreen)
        return screen

    @property
    def replay(self) -> ReplayLog:
        return self.main.query_one(ReplayPane).log_view

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = DEFAULT_THEME
        self.call_after_refresh(self._startup)

    def _startup(self) -> None:
        """After the board's first frame: load the engine and router off the UI thread."""
        self.refresh_view()
        self._boot()

    @work(thread=True, group="boot", exit_on_error=False)
    def _boot(self) -> None:
        """Import the engine (and the model SDKs behind the router) without blocking the UI."""
        try:
            import engine.session  # noqa: F401 - warm the import so the first command is quick
            from engine.config import config_dir
            from worldforge_tui.keymap import load_keymap

            router, warning = (self.router, None) if self.router is not None else load_router()
            keymap, problem = load_keymap(config_dir())
        except Exception as exc:  # noqa: BLE001 - a broken install is reported, not a crash
            log.exception("engine failed to load")
            self.post_message(Booted(None, one_line(f"the engine failed to load: {exc}", 200),
                                     {}, failed=True))
            return
        self.post_message(Booted(router, warning or problem, keymap))

    def on_booted(self, message: Booted) -> None:
        if message.failed:
            self.notify(message.warning or "the engine failed to load", severity="error",
                        markup=False, timeout=30)
            return
        self.router = message.router
        if message.keymap:
            self.set_keymap(message.keymap)
        if message.warning:
            self.notify(message.warning, severity="warning", markup=False)
        self.refresh_view()
        if self.start_request is not None:
            self.open_venture(self.start_request)
        else:
            self.action_new_venture()

    def on_unmount(self) -> None:
        self._close_session()

    def _close_session(self) -> None:
        if self.session is not None:
            try:
                self.session.close()
            except Exception:  # noqa: BLE001 - closing a save on exit must never raise
                log.exception("closing the session failed")
            self.session = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Board-level actions (settings, new, load, export) only from the board itself."""
        if action in BOARD_ACTIONS:
            return isinstance(self.screen, MainScreen)
        return True

    # ---- state queries used by screens ---------------------------------------------------
    def can(self, capability: str) -> bool:
        """True if the player may do this now (a venture is open, idle, and the engine allows it)."""
        if self.session is None or self.busy is not None or self.snap is None:
            return False
        return bool(self.snap.can.get(capability, False))

    def pill(self) -> str:
        try:
            return str(self.router.pill()) if self.router is not None else "simulation"
        except Exception:  # noqa: BLE001 - a pill is decoration; never fail a render for it
            return "simulation"

    def refresh_view(self) -> None:
        """Re-render every pane from the current snapshot."""
        self.main.show(self.snap, busy=self.busy is not None)

    # ---- opening ventures ----------------------------------------------------------------
    def open_venture(self, request: dict[str, Any]) -> None:
        """Start (pitch…) or resume ({"resume": run_id}) a venture in a worker."""
        if self.busy is not None:
            self.notify("Wait for the current step to finish.", severity="warning")
            return
        self.busy = "open"
        self.main.query_one(ActionBar).set_thinking(
            "opening the venture…" if "resume" in request else
            "founding the company: org, rival and eight stages…")
        self.refresh_view()
        self._open_in_thread(request)

    @work(thread=True, group="session", exit_on_error=False)
    def _open_in_thread(self, request: dict[str, Any]) -> None:
        from engine.errors import GameError
        from engine.session import GameSession

        try:
            if "resume" in request:
                session = GameSession.load(str(request["resume"]), save_dir=self.save_dir,
                                           router=self.router)
            else:
                session = GameSession.start_venture(
                    pitch=request["pitch"], name=request.get("name"),
                    archetype=request.get("archetype") or "builder",
                    seed=int(request.get("seed") or 0), save_dir=self.save_dir, router=self.router)
        except GameError as exc:
            self.post_message(SessionFailed(one_line(str(exc), 300), request))
        except Exception as exc:  # noqa: BLE001 - shown as one line; traceback to the log file
            log.exception("opening a venture failed")
            self.post_message(SessionFailed(one_line(f"could not open the venture: {exc}", 300),
                                            request))
        else:
            self.post_message(SessionOpened(session))

    def on_session_opened(self, message: SessionOpened) -> None:
        self._close_session()
        self.session = message.session
        self.busy = None
        self.main.query_one(ActionBar).set_thinking(None)
        self.session.add_listener(self._engine_event)
        replay = self.replay
        replay.reset()
        replay.push_many(self.session.events())
        replay.flush()
        self.main.query_one(MemoryPane).clear_marks()
        self._snapshot()
        self.refresh_view()
        self._continue()

    def on_session_failed(self, message: SessionFailed) -> None:
        self.busy = None
        self.main.query_one(ActionBar).set_thinking(None)
        self.refresh_view()
        self.notify(message.error, title="Venture not opened", severity="error", markup=False)
        if message.request is not None and "resume" not in message.request:
            self.action_new_venture(error=message.error)

    # ---- engine events (called on the worker thread) -------------------------------------
    def _engine_event(self, event: Any) -> None:
        self.replay.push(event)
        if getattr(event, "type", "") == "ROUTE_FALLBACK":
            self.post_message(EngineNotice(f"Fallback: {one_line(event.message, 200)}"))

    def on_engine_notice(self, message: EngineNotice) -> None:
        self.notify(message.message, title="Routing", severity="warning", markup=False)

    # ---- running commands ----------------------------------------------------------------
    def _snapshot(self) -> None:
        try:
            self.snap = self.session.snapshot() if self.session is not None else None
        except Exception as exc:  # noqa: BLE001 - keep the last good view rather than crash
            log.exception("snapshot failed")
            self.notify(one_line(f"could not read the venture: {exc}", 200), severity="error",
                        markup=False)

    def command(self, label: str, fn: Callable[[Any], Any], thinking: str | None = None) -> bool:
        """Run `fn(session)` in the session worker group; False if something else is running."""
        if self.session is None:
            self.notify("No venture open: press n to start one.", severity="warning")
            return False
        if self.busy is not None:
            self.notify("Wait for the current step to finish.", severity="warning")
            return False
        self.busy = label
        self.main.query_one(ActionBar).set_thinking(thinking)
        self.refresh_view()
        self._command_in_thread(label, fn, self.session)
        return True

    @work(thread=True, group="session", exit_on_error=False)
    def _command_in_thread(self, label: str, fn: Callable[[Any], Any], session: Any) -> None:
        from engine.errors import GameError

        refusals: tuple[type[Exception], ...] = (GameError, ValueError) \
            if label in MEMORY_COMMANDS else (GameError,)
        try:
            result = fn(session)
        except refusals as exc:  # the engine (or the memory store) said no, in one line
            self.post_message(CommandFinished(label, error=one_line(str(exc), 300)))
        except Exception as exc:  # noqa: BLE001 - a worker fault must leave the app up
            log.exception("command %s failed", label)
            self.post_message(CommandFinished(
                label, error=one_line(f"{label} failed: {type(exc).__name__}: {exc}", 300),
                crashed=True))
        else:
            self.post_message(CommandFinished(label, result=result))

    def on_command_finished(self, message: CommandFinished) -> None:
        self.busy = None
        self.replay.flush()  # the step's events show with the step's result, not a tick later
        self.main.query_one(ActionBar).set_thinking(None)
        self._snapshot()
        self.refresh_view()
        if message.error:
            self.notify(message.error, title="Not done", severity="error", markup=False)
        else:
            self._report_result(message.label, message.result)
        if self.snap is not None and self.snap.phase == "ended":
            if message.label in ("decide", "decide_own", "approve", "run_stage", "reject"):
                self.push_screen(EndScreen(self.snap), self._end_choice)
            return
        if not message.error:
            self._continue()

    def _report_result(self, label: str, result: Any) -> None:
        if label in ("decide", "decide_own"):
            self.main.reveal("receipt")
        elif label == "export":
            self.last_export = Path(result)
            self.notify(f"Report written to {result}", title="Exported", markup=False)
        elif label == "prune":
            ids = ", ".join(getattr(result, "eligible_ids", [])[:8]) or "none"
            self.notify(f"Prune dry run: {len(getattr(result, 'eligible_ids', []))} memories "
                        f"would go ({ids}). Nothing was deleted.", title="Memory", markup=False)
        elif label == "consolidate":
            self.main.query_one(MemoryPane).clear_marks()
            self.notify(f"Consolidation {getattr(result, 'status', 'done')}: "
                        f"{getattr(result, 'semantic_memory_id', '')}", title="Memory",
                        markup=False)
        elif label == "forget":
            self.notify(f"Forgot {getattr(result, 'deleted', 0)} memories of this run.",
                        title="Memory", markup=False)

    def _continue(self) -> None:
        """A stage's worker runs as soon as the stage begins (unless a standup awaits a reply)."""
        snap = self.snap
        if not self.auto_run or snap is None or self.busy is not None:
            return
        if snap.phase == "brief" and snap.can.get("run_stage") and not snap.standup_open:
            self.gate_run_stage()

    # ---- replay inspector ----------------------------------------------------------------
    def on_replay_log_inspect(self, message: ReplayLog.Inspect) -> None:
        from worldforge_tui.replay_entries import payload_text

        entry = message.entry
        self.push_screen(InspectorScreen(f"#{entry.id} {entry.type} · day {entry.day}",
                                         payload_text(entry)))

    # ---- app actions ---------------------------------------------------------------------
    def _engine_ready(self) -> bool:
        """The engine is loaded (a venture can be opened); says so when it is not."""
        if self.router is None:
            self.notify("The engine is not loaded (still starting, or it failed: see the log).",
                        severity="warning")
            return False
        return True

    def action_new_venture(self, error: str | None = None) -> None:
        if not self._engine_ready():
            return
        from engine.session import GameSession

        resume = None
        try:
            runs = GameSession.list_runs(self.save_dir)
            unfinished = [r for r in runs if not r.outcome]
            resume = max(unfinished, key=lambda r: r.updated) if unfinished else None
        except Exception:  # noqa: BLE001 - an unreadable save dir just means no resume offer
            log.exception("listing runs failed")
        screen = NewVentureScreen(resume=resume)

        def chosen(request: dict[str, Any] | None) -> None:
            if request:
                self.open_venture(request)

        self.push_screen(screen, chosen)
        if error:
            self.call_after_refresh(screen.show_error, error)

    def action_load(self) -> None:
        if not self._engine_ready():
            return
        from engine.session import GameSession

        try:
            runs = GameSession.list_runs(self.save_dir)
        except Exception as exc:  # noqa: BLE001 - report and stay on the board
            self.notify(one_line(f"cannot list saves: {exc}", 200), severity="error",
                        markup=False)
            return

        def chosen(run_id: str | None) -> None:
            if run_id:
                self.open_venture({"resume": run_id})

        self.push_screen(LoadScreen(sorted(runs, key=lambda r: r.updated, reverse=True)), chosen)

    def action_export(self) -> None:
        self.command("export", lambda s: s.export_report())

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_settings(self) -> None:
        if not self._engine_ready():
            return
        from worldforge_tui.screens.settings import SettingsScreen

        self.push_screen(SettingsScreen(self.router.settings), self.apply_settings)

    def apply_settings(self, settings: Any) -> None:
        """Save (never the keys) and hand the settings to the router for the next call."""
        if settings is None:
            return
        from engine.config import save_settings

        try:
            path = save_settings(settings)
        except Exception as exc:  # noqa: BLE001 - still applied for this session
            log.exception("saving settings failed")
            self.notify(one_line(f"settings applied but not saved: {exc}", 200),
                        severity="warning", markup=False)
            path = None
        self.router.update_settings(settings)
        pill = self.pill()
        if self.session is not None and self.busy is None:  # persisted in the run's event log
            self.command("settings", lambda s: s.note_settings_change(settings))
        else:
            self._settings_row(settings, pill, path)
        self.refresh_view()
        self.notify(f"Settings applied: the next call uses {pill}.", title="Settings",
                    markup=False)

    def _settings_row(self, settings: Any, pill: str, path: Path | None) -> None:
        """A screen-only log row when no venture is open (or a step is running) to record it in."""
        self.replay.push({"id": 0, "type": "SETTINGS_CHANGED", "actor": "ceo",
                          "game_day": self.snap.day if self.snap is not None else 0,
                          "message": f"routing {settings.demo_mode}/{settings.agent_routing}: "
                                     f"next call → {pill}",
                          "payload": {"demo_mode": settings.demo_mode,
                                      "agent_routing": settings.agent_routing,
                                      "runtime": settings.runtime_label(), "pill": pill,
                                      "saved_to": str(path) if path else None}})

    def _end_choice(self, choice: str | None) -> None:
        if choice == "export":
            self.action_export()
        elif choice == "new":
            self.action_new_venture()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Settings", "Routing mode, local and Foundry models, test, save",
                            self.action_settings)
        yield SystemCommand("New venture", "Found a new company", self.action_new_venture)
        yield SystemCommand("Load venture", "Open a saved venture", self.action_load)
        yield SystemCommand("Export report", "Write the Markdown report", self.action_export)
        yield SystemCommand("Help", "How to play, and every key", self.action_help)
        gate = (("Approve artifact", "approve", self.gate_approve),
                ("Reject artifact…", "reject", self.gate_reject),
                ("Choose option 1", "decide", lambda: self.gate_decide("A")),
                ("Choose option 2", "decide", lambda: self.gate_decide("B")),
                ("Own answer…", "decide_own", self.gate_own_answer),
                ("Reply to the standup…", "standup_reply", self.gate_standup_reply),
                ("Run the stage", "run_stage", self.gate_run_stage))
        for title, capability, callback in gate:
            if self.can(capability):
                yield SystemCommand(title, "Game action", callback)


def build_app(args: argparse.Namespace | None = None) -> WorldForgeApp:
    """The app configured from the CLI's namespace (pitch, name, archetype, seed, save_dir)."""
    def arg(key: str) -> Any:
        return getattr(args, key, None) if args is not None else None

    seed = arg("seed")
    return WorldForgeApp(pitch=arg("pitch"), name=arg("name"), archetype=arg("archetype"),
                         seed=int(seed) if seed is not None else None, save_dir=arg("save_dir"))


def run_app(args: argparse.Namespace | None = None) -> int:
    """Run the game until the player quits; the exit code for the CLI."""
    setup_file_log()
    app = build_app(args)
    app.run()
    return int(app.return_code or 0)
