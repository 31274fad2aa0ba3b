"""The app's bridge to the engine: opening a venture and running session commands on the one
session worker group, then turning their results into pane updates and notices.

Mixed into the app. The session is not thread-safe, so every command runs in the "session" thread
group, one at a time; workers only post messages, and the `on_…` handlers here (on the UI thread)
change what the panes show.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work

from worldforge_textkit.numbers import set_books
from worldforge_tui import heap
from worldforge_tui.boot import log
from worldforge_tui.host import AppHost
from worldforge_tui.messages import CommandFinished, EngineNotice, SessionFailed, SessionOpened
from worldforge_tui.text.safe_text import one_line
from worldforge_tui.widgets.action_bar import ActionBar
from worldforge_tui.widgets.memory_pane import MemoryPane

if TYPE_CHECKING:
    from textual.timer import Timer

    from engine.session.api import GameSession
    from engine.session.events import Event
    from engine.session.lease import Holder

WATCH_SECONDS = 0.5  # how often a read-only window reads the run's new events
# A command still running this long after its key gets its busy view (buttons greyed, the thinking
# line); one done sooner (a simulated step takes a few ms) goes straight to its result, one frame
# instead of three. The key target is 100 ms, so nothing looks idle for longer than that.
BUSY_VIEW_AFTER = 0.1
# their ValueErrors are refusals (the prune dry run, and the memory commands of the run)
MEMORY_COMMANDS = frozenset({"prune", "consolidate", "forget_memories", "forget_note"})


def _is_player_command(label: str) -> bool:
    """Whether a finished label names a player command (one of the gate, fork or brief)."""
    from engine.session.commands import player

    return any(kind.name == label for kind in player())


class SessionRunner(AppHost):
    """Opening ventures and running commands on the app's session worker group."""

    def _close_session(self) -> None:
        if self.session is not None:
            try:
                self.session.close()
            except Exception:  # noqa: BLE001 - closing a save on exit must never raise
                log.exception("closing the session failed")
            self.session = None
            set_books("USD")  # no venture open: money is written in no venture's currency

    # ---- opening ventures ----------------------------------------------------------------
    def open_venture(self, request: dict[str, Any]) -> None:
        """Start (pitch…) or resume ({"resume": run_id}) a venture in a worker."""
        if self.busy is not None:
            self.notify("Wait for the current step to finish.", severity="warning")
            return
        self.busy = "open"
        self.main.query_one(ActionBar).set_thinking(
            "opening the venture…"
            if "resume" in request
            else "founding the company: org, rival and eight stages…"
        )
        self.refresh_view()
        self._open_in_thread(request, reclaim=self.session is not None)

    @work(thread=True, group="session", exit_on_error=False)
    def _open_in_thread(self, request: dict[str, Any], *, reclaim: bool = False) -> None:
        from engine.errors import GameError
        from engine.session.api import GameSession

        if reclaim:  # another venture: what the last one left frozen is collected now (heap.py)
            heap.reclaim()
        try:
            if "resume" in request:
                session = GameSession.load(
                    str(request["resume"]), save_dir=self.save_dir, router=self.router
                )
            else:
                session = GameSession.start_venture(
                    pitch=request["pitch"],
                    name=request.get("name"),
                    archetype=request.get("archetype") or "builder",
                    seed=int(request.get("seed") or 0),
                    save_dir=self.save_dir,
                    router=self.router,
                    reading=request.get("reading"),  # the pitch fields the player confirmed
                    currency=request.get("currency"),  # None: the pitch's own currency
                )
        except GameError as exc:
            self.post_message(SessionFailed(one_line(str(exc), 300), request))
        except Exception as exc:  # noqa: BLE001 - shown as one line; traceback to the log file
            log.exception("opening a venture failed")
            self.post_message(
                SessionFailed(one_line(f"could not open the venture: {exc}", 300), request)
            )
        else:
            self.post_message(SessionOpened(session))

    def on_session_opened(self, message: SessionOpened) -> None:
        self._close_session()
        session: GameSession = message.session
        self.session = session
        set_books(session.state.founder.currency)  # the panes write money in its books' currency
        self.busy = None
        self.main.query_one(ActionBar).set_thinking(None)
        replay = self.replay
        self.inbox = replay.inbox  # the listener (a worker thread) only ever touches this
        session.add_listener(self._engine_event)
        replay.reset()
        replay.push_many(session.events())
        replay.flush()
        self.main.query_one(MemoryPane).clear_marks()
        self._snapshot()
        self.main.reveal("story")
        self.refresh_view()
        if session.read_only:
            self._watch_read_only(session)
        self._continue()

    # ---- a second window on a run: watch it read-only --------------------------------------
    def _watch_read_only(self, session: GameSession) -> None:
        """Another window holds the run: say who, scroll its log live, take over when it closes."""
        self._say_read_only(session, "Read-only", 10)
        timers: list[Timer] = []
        timers.append(
            self.set_interval(WATCH_SECONDS, lambda: self._watch_tick(session, timers[0]))
        )

    def _say_read_only(self, session: GameSession, title: str, timeout: float) -> None:
        line = one_line(session.read_only_line(), 300)
        self.notify(line, title=title, severity="warning", markup=False, timeout=timeout)

    def _watch_tick(self, session: GameSession, timer: Timer) -> None:
        if self.session is not session or not session.read_only:
            timer.stop()
            return
        try:
            fresh = session.refresh()
            took_over = session.try_take_over()
        except Exception:  # noqa: BLE001 - a watch tick must never take the app down
            log.exception("watching the run failed")
            return
        holder = session.holder
        if not took_over and holder is not None and holder.expired() and not self._offered:
            self._offered = True  # ask once per watch: the player confirms a take-over
            self._offer_take_over(session, holder)
        if session.forgotten:  # deleted elsewhere: say so once, keep the last view, never write
            timer.stop()
            self._say_read_only(session, "Run forgotten", 15)
            return
        if fresh:
            self.replay.push_many(fresh)
            self.replay.flush()
        if fresh or took_over:
            self._snapshot()
            self.refresh_view()
        if took_over:
            timer.stop()
            self.notify(
                "The other window closed the run: you can play it here now.",
                title="Read-only ended",
                markup=False,
            )

    _offered = False

    def _offer_take_over(self, session: GameSession, holder: Holder) -> None:
        """The holder's heartbeat went silent: ask before taking the run from it."""
        from worldforge_tui.screens.dialogs import ConfirmScreen

        def confirmed(yes: bool | None) -> None:
            if yes and self.session is session and session.try_take_over(confirmed=True):
                self._snapshot()
                self.refresh_view()
                self.notify("You hold the run now; the other window saves nothing.", markup=False)

        self.push_screen(
            ConfirmScreen(
                one_line(
                    f"The window holding this run{'' if self.is_web else f' ({holder.describe()})'}"
                    " has not answered for "
                    f"{holder.silent_for():.0f} s: it may be stopped or hung. Take the run over "
                    "here? That window will no longer be able to save.",
                    400,
                ),
                yes_label="Take over",
            ),
            confirmed,
        )

    def on_session_failed(self, message: SessionFailed) -> None:
        self.busy = None
        self.main.query_one(ActionBar).set_thinking(None)
        self.refresh_view()
        self.notify(message.error, title="Venture not opened", severity="error", markup=False)
        if message.request is not None and "resume" not in message.request:
            self.action_new_venture(error=message.error)

    # ---- engine events (called on the worker thread) -------------------------------------
    def _engine_event(self, event: Event) -> None:
        """The engine's listener, on the session's worker thread: queue the event for the log's
        next flush and relay a fallback as a message; never a widget call."""
        self.inbox.put(event)
        if getattr(event, "type", "") == "ROUTE_FALLBACK":
            self.route_fallbacks.append(dict(event.payload))
            self.post_message(EngineNotice(f"Fallback: {one_line(event.message, 200)}"))

    def on_engine_notice(self, message: EngineNotice) -> None:
        self.notify(message.message, title="Routing", severity="warning", markup=False)

    # ---- running commands ----------------------------------------------------------------
    def _snapshot(self) -> None:
        try:
            self.snap = self.session.snapshot() if self.session is not None else None
        except Exception as exc:  # noqa: BLE001 - keep the last good view rather than crash
            log.exception("snapshot failed")
            self.notify(
                one_line(f"could not read the venture: {exc}", 200), severity="error", markup=False
            )

    _on_refused: Callable[[str], None] | None = None

    def command(
        self,
        label: str,
        fn: Callable[[GameSession], object],
        thinking: str | None = None,
        *,
        on_refused: Callable[[str], None] | None = None,
    ) -> bool:
        """Run `fn(session)` in the session worker group; False if something else is running.
        `on_refused(reason)` runs when the engine says no (a prompt reopens with the typed text)."""
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
        self._on_refused = on_refused
        self.busy = label  # refuses other commands and keys at once; the view follows if slow
        self.replay.held = True  # its events come with its result, or with its busy view
        self._busy_view = self.set_timer(BUSY_VIEW_AFTER, partial(self._show_busy, thinking))
        self._command_in_thread(label, fn, self.session)
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

    @work(thread=True, group="session", exit_on_error=False)
    def _command_in_thread(
        self, label: str, fn: Callable[[GameSession], object], session: GameSession
    ) -> None:
        from engine.errors import GameError
        from engine.routing.types import CallCancelled

        refusals: tuple[type[Exception], ...] = (
            (GameError, ValueError) if label in MEMORY_COMMANDS else (GameError,)
        )
        try:
            result = fn(session)
        except CallCancelled as exc:  # Esc: the whole action is undone (engine.session.checkpoint)
            self.post_message(CommandFinished(label, error=one_line(str(exc), 300), undone=True))
        except refusals as exc:  # the engine (or the memory store) said no, in one line
            self.post_message(CommandFinished(label, error=one_line(str(exc), 300)))
        except Exception as exc:  # noqa: BLE001 - a worker fault must leave the app up
            log.exception("command %s failed", label)
            self.post_message(
                CommandFinished(
                    label,
                    error=one_line(f"{label} failed: {type(exc).__name__}: {exc}", 300),
                    crashed=True,
                )
            )
        else:
            self.post_message(CommandFinished(label, result=result))

    _heap_frozen = False

    def on_command_finished(self, message: CommandFinished) -> None:
        self.busy = None
        if self._busy_view is not None:  # done before its busy view showed: none is needed
            self._busy_view.stop()
            self._busy_view = None
        self.replay.held = False
        if not self._heap_frozen:  # the venture and what its first step imported stay for good:
            self._heap_frozen = True  # keep them out of full GC passes (after this frame)
            self.call_after_refresh(heap.settle)
        self.live_reset()
        if message.undone and self.session is not None:  # its committed steps were taken back
            self.replay.reset()
            self.replay.push_many(self.session.events())
        self.replay.flush()  # the step's events show with the step's result, not a tick later
        self.main.query_one(ActionBar).set_thinking(None)
        self._snapshot()
        self.refresh_view()
        refused, self._on_refused = self._on_refused, None
        if message.error:
            self.notify(message.error, title="Not done", severity="error", markup=False)
            if refused is not None and not message.crashed:
                refused(message.error)
        else:
            self._show_what_is_next(message.label, message.result)
            self._report_result(message.label, message.result)
        if self.snap is not None and self.snap.phase == "ended":
            if _is_player_command(message.label):  # the step that ended it: the ending shows
                from worldforge_tui.screens.end import EndScreen

                self.push_screen(EndScreen(self.snap, self.key_of), self._end_choice)
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

    def _report_result(self, label: str, result: Any) -> None:
        from engine.language import grammar

        if label == "export":
            self.last_export = Path(result)
            if self.is_web:  # in a browser the file is on the server: offer it as a download
                self.deliver_text(
                    self.last_export, save_filename=self.last_export.name, mime_type="text/markdown"
                )
                self.notify(
                    f"Report {self.last_export.name} offered for download.",
                    title="Exported",
                    markup=False,
                )
            else:
                self.notify(f"Report written to {result}", title="Exported", markup=False)
        elif label == "prune":
            deleted = len(getattr(result, "eligible_ids", []))
            archived = len(getattr(result, "archived_ids", []))
            kept = (  # expired notes that bind, profile the founder or matter: archived, kept
                f", {archived} of them to the archive (binding, a founder profile or important)"
                if archived
                else ""
            )
            self.notify(  # the notes' ids are the store's, never the player's words
                f"Prune dry run: {grammar.count(deleted + archived, 'memory')} would go (past "
                f"their expiry day){kept}. Nothing was changed.",
                title="Memory",
                markup=False,
            )
        elif label == "consolidate":
            self.main.query_one(MemoryPane).clear_marks()
            merged = len(getattr(result, "source_memory_ids", []) or [])
            said = {
                "consolidated": f"Merged {grammar.count(merged, 'note')} into one reviewed note.",
                "already_consolidated": "Those notes are already merged into a reviewed note.",
            }
            status = str(getattr(result, "status", ""))
            self.notify(said.get(status, "Memory consolidated."), title="Memory", markup=False)
        elif label == "what_if":
            from worldforge_tui.screens.dialogs import InspectorScreen

            self.push_screen(
                InspectorScreen("What if they forgot this note?", "\n".join(result.lines()))
            )
        elif label == "forget_note":
            self.notify("Forgot the note: the next brief is built without it.", title="Memory")
        elif label == "forget_memories":
            self.notify(
                f"Forgot {grammar.count(int(getattr(result, 'deleted', 0)), 'memory')}"
                " of this run.",
                title="Memory",
                markup=False,
            )

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
            self.give("stage.run")
