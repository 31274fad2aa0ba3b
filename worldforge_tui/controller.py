"""The app's one game session and the workers that drive it, as a plain object the app owns.

The session is not thread-safe, so opening a venture and every command run in the app's "session"
worker group, one at a time. A worker never touches a widget: it posts one typed message
(`SessionOpened`, `SessionFailed`, `CommandFinished`, `EngineNotice`) and the app's handlers, on
the UI thread, change what the panes show. A command carries the name of the handler that reports
its result (`worldforge_tui.reports`, named in its action row) and what to do when it is refused.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App

from worldforge_textkit.numbers import set_books
from worldforge_tui import heap
from worldforge_tui.boot import log
from worldforge_tui.messages import (
    CommandFinished,
    EngineNotice,
    SessionFailed,
    SessionOpened,
    VentureRequest,
)
from worldforge_tui.replay_entries import EventInbox
from worldforge_tui.text.safe_text import one_line

if TYPE_CHECKING:
    from engine.routing import Router
    from engine.session.api import GameSession
    from engine.session.events import Event
    from engine.views.snapshot import Snapshot

# their ValueErrors are refusals (the prune dry run, and the memory commands of the run)
MEMORY_COMMANDS = frozenset({"prune", "consolidate", "forget_memories", "forget_note"})


class SessionController:
    """The open venture (`session`), its last snapshot (`snap`), what runs on it now (`busy`), and
    the workers that open ventures and run commands, posting their outcome to `app`."""

    def __init__(self, app: App[int], save_dir: str | Path | None) -> None:
        self.app = app
        self.save_dir = save_dir
        self.session: GameSession | None = None
        self.snap: Snapshot | None = None
        self.busy: str | None = None
        self.inbox: EventInbox | None = None  # the replay log's queue, fed on the worker thread
        # Every route fallback's payload this process saw: `play` names them once it closes.
        self.route_fallbacks: deque[dict[str, object]] = deque(maxlen=2000)

    # ---- opening ventures ----------------------------------------------------------------
    def open(self, request: VentureRequest, router: Router | None) -> None:
        """Start (pitch…) or resume ({"resume": run_id}) a venture on the session worker."""
        self.busy = "open"
        reclaim = self.session is not None
        work = partial(self._open, request, router, reclaim=reclaim)
        self.app.run_worker(work, thread=True, group="session", exit_on_error=False)

    def _open(self, request: VentureRequest, router: Router | None, *, reclaim: bool) -> None:
        from engine.errors import GameError
        from engine.session.api import GameSession

        if reclaim:  # another venture: what the last one left frozen is collected now (heap.py)
            heap.reclaim()
        try:
            if "resume" in request:
                session = GameSession.load(
                    str(request["resume"]), save_dir=self.save_dir, router=router
                )
            else:
                session = GameSession.start_venture(
                    pitch=str(request["pitch"]),
                    name=request.get("name"),
                    archetype=request.get("archetype") or "builder",
                    seed=int(request.get("seed") or 0),
                    save_dir=self.save_dir,
                    router=router,
                    reading=request.get("reading"),  # the pitch fields the player confirmed
                    currency=request.get("currency"),  # None: the pitch's own currency
                )
        except GameError as exc:
            self.app.post_message(SessionFailed(one_line(str(exc), 300), request))
        except Exception as exc:  # noqa: BLE001 - shown as one line; traceback to the log file
            log.exception("opening a venture failed")
            self.app.post_message(
                SessionFailed(one_line(f"could not open the venture: {exc}", 300), request)
            )
        else:
            self.app.post_message(SessionOpened(session))

    def adopt(self, session: GameSession, inbox: EventInbox) -> None:
        """The venture a worker opened becomes the app's (the last one is closed)."""
        self.close()
        self.session, self.busy, self.inbox = session, None, inbox
        set_books(session.state.founder.currency)  # the panes write money in its books' currency
        session.add_listener(self._engine_event)

    def failed(self) -> None:
        self.busy = None

    def close(self) -> None:
        if self.session is not None:
            try:
                self.session.close()
            except Exception:  # noqa: BLE001 - closing a save on exit must never raise
                log.exception("closing the session failed")
            self.session = None
            set_books("USD")  # no venture open: money is written in no venture's currency

    # ---- engine events (called on the worker thread) -------------------------------------
    def _engine_event(self, event: Event) -> None:
        """The engine's listener, on the session's worker thread: queue the event for the log's
        next flush and relay a fallback as a message; never a widget call."""
        if self.inbox is not None:
            self.inbox.put(event)
        if event.type == "ROUTE_FALLBACK":
            self.route_fallbacks.append(dict(event.payload))
            self.app.post_message(EngineNotice(f"Fallback: {one_line(event.message, 200)}"))

    # ---- commands ------------------------------------------------------------------------
    def can(self, capability: str) -> bool:
        """True if the player may do this now (a venture is open, idle, and the engine allows it)."""
        if self.session is None or self.busy is not None or self.snap is None:
            return False
        if self.session.read_only:  # a watching window opens no input it would have to refuse
            return False
        return bool(self.snap.can.get(capability, False))

    def snapshot(self) -> str | None:
        """Read the venture's view again; the one-line reason when it cannot be read (the last
        good view stays)."""
        try:
            self.snap = self.session.snapshot() if self.session is not None else None
        except Exception as exc:  # noqa: BLE001 - keep the last good view rather than crash
            log.exception("snapshot failed")
            return one_line(f"could not read the venture: {exc}", 200)
        return None

    def run(
        self,
        label: str,
        fn: Callable[[GameSession], object],
        *,
        report: str = "",
        on_refused: Callable[[str], None] | None = None,
    ) -> None:
        """Run `fn(session)` on the session worker (the caller checked a venture is open and
        idle); its outcome comes back as one `CommandFinished`."""
        assert self.session is not None and self.busy is None
        self.busy = label
        work = partial(self._run, label, fn, self.session, report, on_refused)
        self.app.run_worker(work, thread=True, group="session", exit_on_error=False)

    def _run(
        self,
        label: str,
        fn: Callable[[GameSession], object],
        session: GameSession,
        report: str,
        on_refused: Callable[[str], None] | None,
    ) -> None:
        from engine.errors import GameError
        from engine.routing.types import CallCancelled

        refusals: tuple[type[Exception], ...] = (
            (GameError, ValueError) if label in MEMORY_COMMANDS else (GameError,)
        )
        done = partial(CommandFinished, label, report=report, on_refused=on_refused)
        try:
            result = fn(session)
        except CallCancelled as exc:  # Esc: the whole action is undone (engine.session.checkpoint)
            self.app.post_message(done(error=one_line(str(exc), 300), undone=True))
        except refusals as exc:  # the engine (or the memory store) said no, in one line
            self.app.post_message(done(error=one_line(str(exc), 300)))
        except Exception as exc:  # noqa: BLE001 - a worker fault must leave the app up
            log.exception("command %s failed", label)
            error = one_line(f"{label} failed: {type(exc).__name__}: {exc}", 300)
            self.app.post_message(done(error=error, crashed=True))
        else:
            self.app.post_message(done(result=result))

    def finished(self) -> None:
        self.busy = None
