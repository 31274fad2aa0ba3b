"""The WorldForge Textual app: one game session, driven by keys, rendered from engine snapshots.

Lifecycle, boot, board-level actions, the command palette and the handlers of what the session's
workers post live here. The app is composed of plain parts it owns: the session and its workers
(`controller.SessionController`, which posts typed messages), the player's gate, fork, standup and
memory flows (`player_actions.PlayerActions`), the streamed model calls (`live_writing.LiveFeed`)
and a read-only window's watch (`read_only.ReadOnlyWatch`); a command's result is reported by the
typed handler its action row names (`reports`). Engine events reach the replay log through a
thread-safe queue that the log flushes in batches.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen

from worldforge_tui import actions, heap
from worldforge_tui.boot import load_router, log, setup_file_log
from worldforge_tui.controller import SessionController
from worldforge_tui.live_writing import LiveFeed, LiveTick
from worldforge_tui.messages import (
    Booted,
    CommandFinished,
    EngineNotice,
    SessionFailed,
    SessionOpened,
    VentureRequest,
)
from worldforge_tui.screens.main import MainScreen
from worldforge_tui.text.safe_text import one_line
from worldforge_tui.theme import DEFAULT_THEME, THEMES
from worldforge_tui.widgets.action_bar import ActionBar
from worldforge_tui.widgets.memory_pane import MemoryPane
from worldforge_tui.widgets.replay_log import ReplayLog
from worldforge_tui.widgets.replay_pane import ReplayPane

if TYPE_CHECKING:
    import argparse

    from textual.notifications import SeverityLevel
    from textual.theme import Theme
    from textual.timer import Timer
    from textual.widget import AwaitMount

    from engine.config import Settings
    from engine.routing import Router
    from engine.session.api import GameSession
    from engine.session.saves import RunSummary
    from engine.views.snapshot import Snapshot
    from worldforge_tui.player_actions import PlayerActions
    from worldforge_tui.screens.new_venture import NewVentureScreen

BOARD_ACTIONS = frozenset({"settings", "new_venture", "load", "export"})
# A command still running this long after its key gets its busy view (buttons greyed, the thinking
# line); one done sooner (a simulated step takes a few ms) goes straight to its result, one frame
# instead of three. The key target is 100 ms, so nothing looks idle for longer than that.
BUSY_VIEW_AFTER = 0.1


def _is_player_command(label: str) -> bool:
    """Whether a finished label names a player command (one of the gate, fork or brief)."""
    from engine.session.commands import player

    return any(kind.name == label for kind in player())


class WorldForgeApp(App[int]):
    """The game. Construct with the CLI's venture arguments (all optional)."""

    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "WorldForge"
    BINDINGS: ClassVar[list[BindingType]] = list(actions.bindings("app"))

    def __init__(
        self,
        *,
        pitch: str | None = None,
        name: str | None = None,
        archetype: str | None = None,
        seed: int | None = None,
        save_dir: str | Path | None = None,
        router: Router | None = None,
        auto_run: bool = True,
        theme: str | None = None,
    ) -> None:
        super().__init__()
        self.start_request: VentureRequest | None = (
            {
                "pitch": pitch,
                "name": name,
                "archetype": archetype or "builder",
                "seed": 7 if seed is None else seed,
            }
            if pitch
            else None
        )
        self.form_seed = seed  # the new-venture form's seed when the CLI named one, else fresh
        self.save_dir = save_dir
        self.router = router
        self.game = SessionController(self, save_dir)  # the session and its workers
        self._player: PlayerActions | None = None
        self.live = LiveFeed(self)
        self.auto_run = auto_run
        self.live_keys: dict[str, str] = actions.default_keys()
        self.requested_theme = theme  # --theme: this session only, not saved
        # Keys typed on the board while the engine loads (the first form closed, the welcome
        # frame's `n`, `l`, `?`…): the board keeps them and replays them, in order, once it can
        # act on them (a venture started from the CLI shows the board first).
        self.booting = True
        self.typed_ahead: list[tuple[str, str | None]] = []
        self.start_form: NewVentureScreen | None = None  # the first screen, while it is open
        for ours in THEMES:
            self.register_theme(ours)
        self.theme = self.requested_theme or DEFAULT_THEME

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        """Restyle a node in the DOM; one not yet mounted is styled when it mounts (Textual applies
        the stylesheet to every widget it registers). Textual also restyled a widget on every
        class its constructor sets (an Input's validity, a Button's variant: 1.5-2.5 ms each,
        about 60 of them on the settings and new-venture screens and the board's action bar).

        Kept as the one override of a Textual method for speed, for its measured gain
        (`python -m bench.tui_keys --runs 3 --before TREE-WITHOUT-IT`, CPU medians, 2 loaded
        cores): opening settings 67.7 -> 59.9 ms, the new-venture form 59.6 -> 55.1 ms, a theme
        change 76.3 -> 66.3 ms. `App.update_styles` is documented API; only the skip is ours."""
        if node is not self and not node.is_attached:
            return
        super().update_styles(node, animate)

    # ---- lifecycle -----------------------------------------------------------------------
    def get_default_screen(self) -> Screen[Any]:
        return MainScreen.from_table()

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
        heap.install(self)  # the collector's passes kept short, off the keys, while it runs
        self.theme_changed_signal.subscribe(self, self._theme_chosen)
        if self.start_request is None:  # form first: the engine loads once the form is drawn
            self._open_start_form()
        else:
            self.call_after_refresh(self._startup)

    def _open_start_form(self) -> None:
        """The New venture form, the first screen, over the board: it needs no engine, so the
        player types a pitch while the engine loads behind it (`_startup` starts once the form
        is drawn, or closed before that). No welcome frame shows before it: every key typed
        from the start is typed into it."""
        from worldforge_tui.screens.new_venture import NewVentureScreen

        form = NewVentureScreen(seed=self.form_seed, loading=True)
        self.start_form = form

        def chosen(request: VentureRequest | None) -> None:
            self.start_form = None
            self._startup()  # closed before it was drawn: the engine still loads
            if request:
                self.open_venture(request)

        self.push_screen(form, chosen)

    def on_new_venture_screen_drawn(self, _message: NewVentureScreen.Drawn) -> None:
        self._startup()

    _started = False

    def _startup(self) -> None:
        """After the first screen is drawn: load the engine and router off the UI thread (once)."""
        if self._started:
            return
        self._started = True
        self.refresh_view()
        self._boot()

    @work(thread=True, group="boot", exit_on_error=False)
    def _boot(self) -> None:
        """Import the engine (and the model SDKs behind the router) without blocking the UI."""
        try:
            # Warm imports, once the first screen is drawn and off the UI thread: the engine (so
            # the first command is quick), the player's flows and the dialogs opened later.
            import engine.session.api  # noqa: F401
            import worldforge_tui.player_actions
            import worldforge_tui.screens.dialogs
            import worldforge_tui.screens.end
            import worldforge_tui.screens.help
            import worldforge_tui.screens.load
            import worldforge_tui.screens.new_venture
            import worldforge_tui.screens.settings  # noqa: F401
            from engine.config import config_dir
            from worldforge_tui.keymap import load_keymap

            router, warning = (self.router, None) if self.router is not None else load_router()
            keymap, problem = load_keymap(config_dir())
        except Exception as exc:  # noqa: BLE001 - a broken install is reported, not a crash
            log.exception("engine failed to load")
            self.post_message(
                Booted(None, one_line(f"the engine failed to load: {exc}", 200), {}, failed=True)
            )
            return
        self.post_message(Booted(router, warning or problem, keymap))

    def on_booted(self, message: Booted) -> None:
        self.booting = False
        typed, self.typed_ahead = self.typed_ahead, []
        if message.failed:
            self.notify(
                message.warning or "the engine failed to load",
                severity="error",
                markup=False,
                timeout=30,
            )
            if self.start_form is not None:
                self.start_form.engine_failed(message.warning or "the engine failed to load")
            return
        self.router = message.router
        # What boot loaded (the engine, the model SDKs) lives as long as the app: keep it out of
        # the collector's full passes, which otherwise stall a key now and then by ~0.1 s.
        heap.settle()
        self.live.attach(self.router)
        self._restore_theme()
        if message.keymap:
            self.apply_keymap(message.keymap)
        if message.warning:  # settings that cannot be used: the CLI's line, and what happens now
            self.notify(
                message.warning,
                title="Settings ignored: playing the simulation",
                severity="warning",
                markup=False,
                timeout=20,
            )
        from engine.config import azure_hint

        hint = azure_hint(self.router.settings) if self.router is not None else None
        if hint:
            self.notify(hint, title="Azure", severity="warning", markup=False, timeout=20)
        self.refresh_view()
        if self.start_request is not None:
            self.open_venture(self.start_request)
        elif self.start_form is not None:  # the first screen: it may start the venture now
            self.start_form.engine_loaded(*self._resume_offer())
        self.call_later(self._replay_typed, typed)

    async def _replay_typed(self, keys: list[tuple[str, str | None]]) -> None:
        """The keys typed while the engine loaded, as if pressed now and in order. A board key
        (`n`, `l`, `?`, `s`) runs its action here, and the keys after it wait until the screen
        it opened is mounted: posted at once, `n` `b` `i` reached the board before `n` opened
        the form (a key's binding runs only as it bubbles back to the app)."""
        for key, character in keys:
            row = self._board_row(key) if isinstance(self.screen, MainScreen) else None
            if row is not None:
                await self.run_action(row.action)  # its dialog's mount is awaited
            else:
                self.post_message(events.Key(key, character))

    def _board_row(self, key: str) -> actions.GameAction | None:
        """The app-scope row (help, settings, new, load…) a key runs on the board now, if any."""
        for row in actions.in_scope("app"):
            if key in self.live_keys.get(row.id, row.key).split(",") and self.check_action(
                row.action, ()
            ):
                return row
        return None

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A notification; in a browser (`worldforge serve`) without the host's names: its paths,
        host name and process ids (a run held elsewhere, a file that could not be saved)."""
        if self.is_web:
            from worldforge_tui.text.visitor import for_visitor

            message, title = for_visitor(message), for_visitor(title)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def tier_warning(self) -> str | None:
        """One line when this session asked for a model tier and none answered a call."""
        if self.router is None:
            return None
        from engine.views.served import served_summary, tier_warning

        served = self.router.status().get("served") or {}
        return tier_warning(
            served_summary(self.router.runtime_label(), served, list(self.game.route_fallbacks))
        )

    # ---- remembered look -----------------------------------------------------------------
    def _restore_theme(self) -> None:
        """The theme saved in the settings file (unless --theme chose one for this session)."""
        saved = self.router.settings.tui_theme if self.router is not None else None
        if self.requested_theme is None and saved and saved in self.available_themes:
            self.theme = saved

    def _theme_chosen(self, theme: Theme) -> None:
        """A theme picked in the app (palette, settings) is saved for the next start."""
        settings = self.router.settings if self.router is not None else None
        if settings is None or settings.tui_theme == theme.name:
            return
        if self.requested_theme is not None and theme.name == self.requested_theme:
            return  # the --theme of this session: not a choice to remember
        settings.tui_theme = theme.name
        self._save_settings_quietly({"tui_theme": theme.name})

    @work(thread=True, group="preferences", exclusive=True, exit_on_error=False)
    def _save_settings_quietly(self, changes: dict[str, str]) -> None:
        from engine.config import save_choices

        try:
            save_choices(changes)  # only the theme: never the environment's or default values
        except Exception as exc:  # noqa: BLE001 - a preference that cannot be saved is a notice
            log.exception("saving preferences failed")
            self.call_from_thread(
                self.notify,
                one_line(f"theme not saved: {exc}", 200),
                severity="warning",
                markup=False,
            )

    def apply_keymap(self, keymap: dict[str, str]) -> None:
        """Rebind by id (known ids only); unknown ids are reported once, in one notification."""
        unknown = actions.unknown_ids(keymap)
        known = {k: v for k, v in keymap.items() if k not in unknown}
        clashes = actions.conflicts(known)
        for binding_id, _other, _key in clashes:
            known.pop(binding_id, None)
        self.live_keys = {**actions.default_keys(), **known}
        self.set_keymap(known)
        if clashes:
            shown = "; ".join(
                f"{one_line(b, 40)} → {one_line(k, 20)} is {o}'s key" for b, o, k in clashes[:4]
            )
            self.notify(
                f"keymap.json: {shown} (refused: both would answer one key; the default stays)",
                severity="warning",
                markup=False,
                timeout=10,
            )
        if unknown:
            shown = ", ".join(one_line(k, 40) for k in unknown[:6])
            self.notify(
                f"keymap.json: unknown binding id{'s' * (len(unknown) > 1)} {shown} "
                f"(ignored; {self.key_of('app.help')} lists every id)",
                severity="warning",
                markup=False,
                timeout=10,
            )
        self.main.reveal(self.main.shown_pane)  # the pane bar names the live keys
        self.refresh_view()

    def key_of(self, action_id: str) -> str:
        """How the live key of a registry action is shown (`a`, `?`, `^q`, `F1`)."""
        keys = self.live_keys.get(action_id) or actions.BY_ID[action_id].key
        first = keys.split(",")[0].strip()
        shown = self.get_key_display(Binding(first, ""))
        return shown.upper() if shown[:1] == "f" and shown[1:].isdigit() else shown

    def on_unmount(self) -> None:
        self.game.close()
        heap.uninstall(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Board-level actions (settings, new, load, export) only from the board itself."""
        if action in BOARD_ACTIONS:
            return isinstance(self.screen, MainScreen)
        if action == "cancel_call":  # Esc only means "cancel" while a worker is writing
            return self.busy is not None and isinstance(self.screen, MainScreen)
        return True

    @property
    def player(self) -> PlayerActions:
        """The player's gate, fork, standup and memory flows, made on first use (no venture is
        open before the engine has loaded; the boot thread warms the module meanwhile)."""
        if self._player is None:
            from worldforge_tui.player_actions import PlayerActions

            self._player = PlayerActions(self)
        return self._player

    # ---- state queries used by screens ---------------------------------------------------
    @property
    def session(self) -> GameSession | None:
        """The open venture (the controller's)."""
        return self.game.session

    @property
    def snap(self) -> Snapshot | None:
        """The open venture's last snapshot."""
        return self.game.snap

    @property
    def busy(self) -> str | None:
        """The command running on the session now (None when idle)."""
        return self.game.busy

    def can(self, capability: str) -> bool:
        """True if the player may do this now (a venture is open, idle, and the engine allows it)."""
        return self.game.can(capability)

    def pill(self) -> str:
        try:
            return str(self.router.pill()) if self.router is not None else "simulation"
        except Exception:  # noqa: BLE001 - a pill is decoration; never fail a render for it
            return "simulation"

    def refresh_view(self) -> None:
        """Re-render every pane from the current snapshot."""
        self.main.show(self.snap, busy=self.busy is not None)

    # ---- replay inspector ----------------------------------------------------------------
    def on_replay_log_inspect(self, message: ReplayLog.Inspect) -> None:
        from worldforge_tui.replay_entries import payload_text
        from worldforge_tui.screens.dialogs import InspectorScreen

        entry = message.entry
        self.push_screen(
            InspectorScreen(f"#{entry.id} {entry.type} · day {entry.day}", payload_text(entry))
        )

    # ---- app actions ---------------------------------------------------------------------
    def _engine_ready(self) -> bool:
        """The engine is loaded (a venture can be opened); says so when it is not."""
        if self.router is None:
            self.notify(
                "The engine is not loaded (still starting, or it failed: see the log).",
                severity="warning",
            )
            return False
        return True

    def action_new_venture(self, error: str | None = None) -> AwaitMount | None:
        """The new-venture form the player opened (offering to resume the last unfinished run);
        its mount, awaited by keys typed while the engine loaded. The game's own first form is
        `_open_start_form`."""
        if not self._engine_ready():
            return None
        resume, unreadable = self._resume_offer()
        error = error or unreadable
        from worldforge_tui.screens.new_venture import NewVentureScreen

        screen = NewVentureScreen(resume=resume, seed=self.form_seed)

        def chosen(request: VentureRequest | None) -> None:
            if request:
                self.open_venture(request)

        mounted = self.push_screen(screen, chosen)
        if error:
            self.call_after_refresh(screen.show_error, error)
        return mounted

    def _resume_offer(self) -> tuple[RunSummary | None, str | None]:
        """The last unfinished run (the form offers to resume it), and why the saves could not be
        read (a damaged or foreign save, said on the form), once the engine has loaded."""
        from engine.errors import SaveError
        from engine.session.api import GameSession

        try:
            runs = GameSession.list_runs(self.save_dir)
        except SaveError as exc:  # a damaged or foreign save: said on the first screen
            return None, str(exc)
        except Exception:  # noqa: BLE001 - an unreadable save dir just means no resume offer
            log.exception("listing runs failed")
            return None, None
        unfinished = [r for r in runs if not r.outcome]
        return (max(unfinished, key=lambda r: r.updated) if unfinished else None), None

    def action_load(self) -> AwaitMount | None:
        if not self._engine_ready():
            return None
        from engine.session.api import GameSession

        try:
            runs = GameSession.list_runs(self.save_dir)
        except Exception as exc:  # noqa: BLE001 - report and stay on the board
            self.notify(one_line(f"cannot list saves: {exc}", 200), severity="error", markup=False)
            return None

        def chosen(run_id: str | None) -> None:
            if run_id:
                self.open_venture({"resume": run_id})

        from worldforge_tui.screens.load import LoadScreen

        return self.push_screen(
            LoadScreen(sorted(runs, key=lambda r: r.updated, reverse=True)), chosen
        )

    def action_export(self) -> None:
        self.command(
            "export", lambda s: s.export_report(), report=actions.BY_ID["app.export"].report
        )

    def action_help(self) -> AwaitMount:
        from worldforge_tui import version

        try:
            from engine.config import config_dir

            where = str(config_dir() / "keymap.json")
        except Exception:  # noqa: BLE001 - the path is a hint; never fail the help for it
            where = "keymap.json in the config dir"
        if self.is_web:  # a visitor in a browser sees nothing of the host's files
            where = "keymap.json in the server's config dir"
        from worldforge_tui.screens.help import HelpScreen

        return self.push_screen(HelpScreen(version(), where))

    def action_settings(self) -> AwaitMount | None:
        if not self._engine_ready() or self.router is None:
            return None
        from worldforge_tui.screens.settings import SettingsScreen

        if self.is_screen_installed("settings"):  # built once, refreshed on each open
            self.get_screen("settings", SettingsScreen).show_settings(self.router.settings)
        else:
            self.install_screen(SettingsScreen(self.router.settings), "settings")
        return self.push_screen("settings", self.apply_settings)

    def apply_settings(self, settings: Settings | None) -> None:
        """Save (never the keys) and hand the settings to the router for the next call."""
        router = self.router
        if settings is None or router is None:
            return
        from engine.config import changed_fields, save_choices

        changes = changed_fields(router.settings, settings)  # what the player changed
        try:
            path = save_choices(changes) if changes else None
        except Exception as exc:  # noqa: BLE001 - still applied for this session
            log.exception("saving settings failed")
            self.notify(
                one_line(f"settings applied but not saved: {exc}", 200),
                severity="warning",
                markup=False,
            )
            path = None
        router.update_settings(settings)
        pill = self.pill()
        if self.session is not None and self.busy is None:  # persisted in the run's event log
            from engine.session.commands import RoutingChanged

            self.command("settings", lambda s: s.execute(RoutingChanged.of(s.router)))
        else:
            self._settings_row(settings, pill, path)
        self.refresh_view()
        self.notify(f"Settings applied: the next call uses {pill}.", title="Settings", markup=False)

    def _settings_row(self, settings: Settings, pill: str, path: Path | None) -> None:
        """A screen-only log row when no venture is open (or a step is running) to record it in."""
        self.replay.push(
            {
                "id": 0,
                "type": "SETTINGS_CHANGED",
                "actor": "ceo",
                "game_day": self.snap.day if self.snap is not None else 0,
                "message": f"routing {settings.demo_mode}/{settings.agent_routing}: "
                f"next call → {pill}",
                "payload": {
                    "demo_mode": settings.demo_mode,
                    "agent_routing": settings.agent_routing,
                    "runtime": settings.runtime_label(),
                    "pill": pill,
                    "saved_to": str(path) if path else None,
                },
            }
        )

    def _end_choice(self, choice: str | None) -> None:
        if choice == "export":
            self.action_export()
        elif choice == "new":
            self.action_new_venture()

    def _palette_title(self, row: actions.GameAction) -> str:
        """The palette's words for an action; a fork option or event answer adds its own text."""
        snap = self.snap
        index = {"fork.option_a": 0, "fork.option_b": 1, "event.option_a": 0, "event.option_b": 1}
        if snap is None or row.id not in index:
            return row.palette
        if row.id.startswith("fork.") and snap.dilemma is not None:
            options = [(o.key, o.text) for o in snap.dilemma.options]
            fatal = snap.fatal_options
        elif row.id.startswith("event.") and snap.pending_event is not None:
            options = [(o.key, o.text) for o in snap.pending_event.options]
            fatal = snap.fatal_events
        else:
            return row.palette
        if index[row.id] >= len(options):
            return row.palette
        key, text = options[index[row.id]]
        mark = " ✖ FATAL" if key in fatal else ""
        return f"{row.palette}: {one_line(text, 60)}{mark}"

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if not isinstance(screen, MainScreen):
            return
        for row in actions.ACTIONS:
            if not row.palette or row.scope not in ("app", "board"):
                continue
            if row.scope == "board" and screen.row_state(row) is not True:
                continue  # only what is possible now
            if row.needs_venture and self.session is None:
                continue
            owner = self if row.scope == "app" else screen
            yield SystemCommand(
                f"{self._palette_title(row)} ({self.key_of(row.id)})",
                row.description,
                partial(owner.run_action, row.action),
            )

    # ---- the session: opening ventures, running commands, what their workers post ----------
    def open_venture(self, request: VentureRequest) -> None:
        """Start (pitch…) or resume ({"resume": run_id}) a venture on the session worker."""
        if self.busy is not None:
            self.notify("Wait for the current step to finish.", severity="warning")
            return
        self.main.query_one(ActionBar).set_thinking(
            "opening the venture…"
            if "resume" in request
            else "founding the company: org, rival and eight stages…"
        )
        self.game.open(request, self.router)
        self.refresh_view()

    def on_session_opened(self, message: SessionOpened) -> None:
        session = message.session
        replay = self.replay
        self.game.adopt(session, replay.inbox)  # the listener (a worker thread) only feeds it
        self.main.query_one(ActionBar).set_thinking(None)
        replay.reset()
        replay.push_many(session.events())
        replay.flush()
        self.main.query_one(MemoryPane).clear_marks()
        self.snapshot()
        self.main.reveal("story")
        self.refresh_view()
        if session.read_only:
            from worldforge_tui.read_only import ReadOnlyWatch

            ReadOnlyWatch(self, session)
        self._continue()

    def on_session_failed(self, message: SessionFailed) -> None:
        self.game.failed()
        self.main.query_one(ActionBar).set_thinking(None)
        self.refresh_view()
        self.notify(message.error, title="Venture not opened", severity="error", markup=False)
        if message.request is not None and "resume" not in message.request:
            self.action_new_venture(error=message.error)

    def on_engine_notice(self, message: EngineNotice) -> None:
        self.notify(message.message, title="Routing", severity="warning", markup=False)

    def snapshot(self) -> None:
        """Read the venture's view again (a failure keeps the last good view, and says so)."""
        error = self.game.snapshot()
        if error:
            self.notify(error, severity="error", markup=False)

    def command(
        self,
        label: str,
        fn: Callable[[GameSession], object],
        thinking: str | None = None,
        *,
        report: str = "",
        on_refused: Callable[[str], None] | None = None,
    ) -> bool:
        """Run `fn(session)` on the session worker; False if something else is running.
        `report` names the handler of its result (`worldforge_tui.reports`); `on_refused(reason)`
        runs when the engine says no (a prompt reopens with the typed text)."""
        if self.session is None:
            self.notify(
                f"No venture open: press {self.key_of('app.new')} to start one.",
                severity="warning",
                markup=False,
            )
            return False
        if self.busy is not None:
            self.notify("Wait for the current step to finish.", severity="warning")
            return False
        # refuses other commands and keys at once; the view follows if slow
        self.game.run(label, fn, report=report, on_refused=on_refused)
        self.replay.held = True  # its events come with its result, or with its busy view
        self._busy_view = self.set_timer(BUSY_VIEW_AFTER, partial(self._show_busy, thinking))
        return True

    _busy_view: Timer | None = None

    def _show_busy(self, thinking: str | None) -> None:
        """The command is still running: grey what cannot be done now and say who is working
        (unless a streamed call's progress line already does)."""
        self._busy_view = None
        self.replay.held = False
        if self.busy is None:
            return
        bar = self.main.query_one(ActionBar)
        if bar.thinking is None:
            bar.set_thinking(thinking)
        self.refresh_view()

    _heap_frozen = False

    def on_command_finished(self, message: CommandFinished) -> None:
        """A command's result: handled once the live text's last pieces are painted (`hold`)."""
        if message.error or not self.live.hold(lambda: self._command_finished(message)):
            self._command_finished(message)

    def _command_finished(self, message: CommandFinished) -> None:
        self.game.finished()
        if self._busy_view is not None:  # done before its busy view showed: none is needed
            self._busy_view.stop()
            self._busy_view = None
        self.replay.held = False
        if not self._heap_frozen:  # the venture and what its first step imported stay for good:
            self._heap_frozen = True  # keep them out of full GC passes (after this frame)
            self.call_after_refresh(heap.settle)
        self.live.reset()
        if message.undone and self.session is not None:  # its committed steps were taken back
            self.replay.reset()
            self.replay.push_many(self.session.events())
        self.replay.flush()  # the step's events show with the step's result, not a tick later
        self.main.query_one(ActionBar).set_thinking(None)
        self.snapshot()
        self.refresh_view()
        if message.error:
            self.notify(message.error, title="Not done", severity="error", markup=False)
            if message.on_refused is not None and not message.crashed:
                message.on_refused(message.error)
        else:
            self._show_what_is_next(message.label, message.result)
            if message.report:  # the engine's result types load with the first result
                from worldforge_tui.reports import REPORTS

                REPORTS[message.report](self, message.result)
        if self.snap is not None and self.snap.phase == "ended":
            if _is_player_command(message.label):  # the step that ended it: the ending shows
                from worldforge_tui.screens.end import EndScreen

                self.push_screen(EndScreen(self.snap), self._end_choice)
            return
        if not message.error:
            self._continue()

    def _show_what_is_next(self, label: str, result: object) -> None:
        """Bring forward the pane holding what the player decides next (what compact mode shows):
        the receipt after a decision, the story when an artifact or a fork awaits."""
        from engine.game.models import Receipt

        if label == "what_if":  # a look at another version of the work: the board stays put
            return
        if isinstance(result, Receipt):
            self.main.reveal("receipt")
        elif self.snap is not None and self.snap.phase in ("gate", "fork"):
            self.main.reveal("story")

    def _continue(self) -> None:
        """A stage's worker runs as soon as the stage begins, unless the brief holds a standup
        (its reply binds the next stage and does not run it: the player runs it) or an event
        waits (it is never answered for the player)."""
        snap = self.snap
        if not self.auto_run or snap is None or self.busy is not None:
            return
        if self.session is not None and self.session.read_only:
            return
        if snap.phase != "brief" or snap.standup or snap.pending_event is not None:
            return
        if snap.can.get("run_stage"):
            self.player.give("stage.run")

    # ---- streamed model calls and the memory pane ----------------------------------------
    def on_live_tick(self, _message: LiveTick) -> None:
        self.live.tick()

    def action_cancel_call(self) -> None:
        """Esc: cancel the action in flight, every model call of it; the run goes back to where it
        stood before the action, which can run again."""
        if self.busy is None or self.router is None:
            return
        self.router.cancel()
        self.notify("Cancelling the model call…", title="Routing", markup=False, timeout=3)

    def on_memory_pane_action_requested(self, message: MemoryPane.ActionRequested) -> None:
        self.player.memory_request(message)


def build_app(args: argparse.Namespace | None = None) -> WorldForgeApp:
    """The app configured from the CLI's namespace (pitch, name, archetype, seed, save_dir)."""

    def arg(key: str) -> Any:
        return getattr(args, key, None) if args is not None else None

    seed = arg("seed")
    return WorldForgeApp(
        pitch=arg("pitch"),
        name=arg("name"),
        archetype=arg("archetype"),
        seed=int(seed) if seed is not None else None,
        save_dir=arg("save_dir"),
        theme=arg("theme"),
    )


def theme_names() -> list[str]:
    """Every theme `--theme` accepts: Textual's built-in ones and the game's own."""
    from textual.theme import BUILTIN_THEMES

    return sorted({*BUILTIN_THEMES, *(theme.name for theme in THEMES)})


def run_app(args: argparse.Namespace | None = None) -> int:
    """Run the game until the player quits; the exit code for the CLI."""
    setup_file_log()
    app = build_app(args)
    app.run()
    warning = app.tier_warning()
    if warning:  # the terminal is the shell's again: say it where the player looks next
        print(f"worldforge: warning: {warning}", file=sys.stderr)
    return int(app.return_code or 0)
