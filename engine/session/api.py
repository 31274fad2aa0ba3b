"""The game session: the one command API every front end uses (CLI, TUI, tests, benchmarks).

Each command does its slow work (model calls) before touching the save file, then changes the state
and persists it with its events and memories in one transaction; on any error the transaction rolls
back and the state is reloaded from the last committed step, so nothing is half-written.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from engine.config import load_settings
from engine.errors import GameError, SaveError
from engine.game.models import GameState
from engine.logs import log_event, log_exception, logged
from engine.routing import Router
from engine.routing.deadline import ActionDeadline
from engine.routing.types import CallCancelled
from engine.session import commands, memory_commands, steps
from engine.session import lease as leases
from engine.session.commands import Command, Kind, Record
from engine.session.events import Event, insert_events, list_events, next_event_id
from engine.session.founding import RULES_VERSION, found_state, knowledge_for, validate_start
from engine.session.lease import Holder, Lease, RunBusyError
from engine.session.memory_backend import memory_for
from engine.session.run_ids import new_run_id
from engine.session.savefile import open_save, open_to_look
from engine.session.saves import RunSummary, list_runs, load_run, resolve_save_dir, save_run
from engine.session.steps import Step
from memory.contract import MemoryBackend
from worldforge_savedb.db import db_path, transaction
from worldforge_textkit.numbers import books

if TYPE_CHECKING:
    from engine.session.checkpoint import Checkpoint
    from engine.views.read_model import ReadModel
    from engine.views.snapshot import Snapshot
    from knowledge import Knowledge


def refuse_old_rules(state: GameState) -> None:
    """A venture saved under an older rules generation cannot go on (or replay) under these rules."""
    if state.rules_version != RULES_VERSION:
        raise SaveError(
            f"run {state.run_id!r} was played under rules version "
            f"{state.rules_version}; this build plays version {RULES_VERSION}: "
            "start a new venture (the old one stays in the save file)"
        )


T = TypeVar("T")


class RunForgotten(TypedDict):
    """What forgetting a whole run deleted (the CLI's --json)."""

    run_id: str
    memories: int
    events: int
    reports_deleted: list[str]
    compacted: bool
    cosmos_pending: bool


P = TypeVar("P")
R = TypeVar("R")
C = TypeVar("C", bound="Command[Any, Any]")


class GameSession:
    """One venture in one save file. Not thread-safe: one command at a time (the TUI runs commands
    in a single worker group)."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        state: GameState,
        inputs: list[Record],
        *,
        router: Router,
        knowledge: Knowledge,
        save_dir: Path,
        memory: MemoryBackend | None = None,
        lease: Lease | Holder | None = None,
        explore: bool = False,
    ):
        self.conn = conn
        # An exploring copy (balance plays every fork path with them) keeps no log: its steps
        # write memory, which the workers read, but build no events, save no state and run no
        # standups, whose lines nothing in the game reads. It plays every path as a saved session
        # does (tests/engine/test_replay_balance.py); after an error it is not used again.
        self.explore = explore
        # One writer per run: a Lease lets this session write; a Holder means another live window
        # has the run and this one only watches (`read_only`, `refresh`).
        self.lease = lease if isinstance(lease, Lease) else None
        self.holder = lease if isinstance(lease, Holder) else None
        self.state = state
        self.inputs = inputs
        self.router = router
        self.knowledge = knowledge
        self.save_dir = save_dir
        self.memory = memory or memory_for(router.settings, conn, state.run_id)
        self._listeners: list[Callable[[Event], None]] = [log_event]
        self._lock = threading.RLock()
        self._next_id: int | None = None
        self._seen_event_id = next_event_id(conn, state.run_id) - 1 if inputs else 0
        self.forgotten = False  # set once the run is found deleted elsewhere (watchers)
        self._heartbeat: leases.Heartbeat | None = None
        self._acting = False  # a player action is running (its follow-ups join it)
        self._beat()

    # ---------------------------------------------------------------- construction
    @classmethod
    def start_venture(
        cls,
        *,
        pitch: str,
        name: str | None = None,
        archetype: str = "builder",
        seed: int = 7,
        save_dir: str | Path | None = None,
        router: Router | None = None,
        knowledge: Knowledge | None = None,
        conn: sqlite3.Connection | None = None,
        run_id: str | None = None,
        reading: Mapping[str, str | None] | None = None,
        currency: str | None = None,
    ) -> GameSession:
        """Found a company: validate input, charter the org, forge the rival, design the world.

        `reading`: the pitch fields the player confirmed (customer, offering, place, problem);
        `currency`: the books' currency ("GBP"), None for the pitch's own (else US dollars)."""
        start = validate_start(pitch, name, archetype, seed, reading, currency)
        directory = resolve_save_dir(save_dir)
        own_conn = conn is None
        conn = conn or open_save(db_path(directory))
        try:
            run_id = run_id or new_run_id()
            settings = load_settings() if router is None else router.settings
            router = router or Router(settings)
            knowledge = knowledge or knowledge_for(settings)
            state = found_state(start, run_id)
            lease = leases.acquire(conn, run_id, new=True)
            if isinstance(lease, Holder):  # only an id collision could get here
                raise RunBusyError(leases.busy_line(run_id, lease))
            session = cls(
                conn, state, [], router=router, knowledge=knowledge, save_dir=directory, lease=lease
            )
            with books(start.currency):
                session._commit(start.record(), steps.found)
            return session
        except BaseException:
            if own_conn:
                conn.close()
            raise

    @classmethod
    def load(
        cls,
        run_id: str,
        *,
        save_dir: str | Path | None = None,
        router: Router | None = None,
        knowledge: Knowledge | None = None,
        play: bool = True,
    ) -> GameSession:
        """The saved run, to play (`play`: refused when an older rules version played it) or
        for what a player may do with any run they own: forget, prune, export (`play=False`)."""
        directory = resolve_save_dir(save_dir)
        if not db_path(directory).exists():
            raise GameError(f"no saves in {directory}")
        # to play, the save must be writable; to look (export), a read-only save dir will do
        if play:
            conn, read_only = open_save(db_path(directory), create=False), False
        else:
            conn, read_only = open_to_look(db_path(directory))
        try:
            state, inputs = load_run(conn, run_id)
            if play:
                refuse_old_rules(state)
            lease: Lease | Holder | None = None
            if not read_only:  # a read-only save dir: this session only looks
                lease = leases.acquire(conn, run_id)
            if isinstance(lease, Lease):  # re-read under the lease: the state it expects
                state, inputs = load_run(conn, run_id)
            settings = load_settings() if router is None else router.settings
            router = router or Router(settings)
            return cls(
                conn,
                state,
                inputs,
                router=router,
                knowledge=knowledge or knowledge_for(settings),
                save_dir=directory,
                lease=lease,
            )
        except BaseException:
            conn.close()
            raise

    @staticmethod
    def list_runs(save_dir: str | Path | None = None) -> list[RunSummary]:
        path = db_path(resolve_save_dir(save_dir))
        if not path.exists():
            return []
        conn, _ = open_to_look(path)
        try:
            return list_runs(conn)
        finally:
            conn.close()

    def _beat(self) -> None:
        """Keep the lease's heartbeat going while this session holds it (file saves only)."""
        if self._heartbeat is not None:
            self._heartbeat.stop()
            self._heartbeat = None
        row = self.conn.execute("PRAGMA database_list").fetchone()
        if self.lease is not None and row is not None and row[2]:
            self._heartbeat = leases.Heartbeat(str(row[2]), self.lease)

    def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.stop()
        if self.lease is not None:
            # a closed or locked file: the lease stays and goes stale when this process ends
            with contextlib.suppress(sqlite3.Error):
                leases.release(self.conn, self.lease)
            self.lease = None
        self.conn.close()

    # ---------------------------------------------------------------- one writer
    @property
    def read_only(self) -> bool:
        """True when another live window holds the run: this session only watches it."""
        return self.lease is None

    def read_only_line(self) -> str:
        if self.forgotten:
            return (
                f"run {self.state.run_id} was forgotten in another window or command; "
                "this window shows what was left and saves nothing"
            )
        holder = self.holder or leases.current_holder(self.conn, self.state.run_id)
        if holder is None:
            return f"run {self.state.run_id} is open read-only here; reopen it to play"
        return leases.busy_line(self.state.run_id, holder)

    def _writable(self) -> None:
        if self.lease is None:
            raise RunBusyError(self.read_only_line())

    def refresh(self) -> list[Event]:
        """For a watching window: reload the run's state and return the events written since."""
        last = self._seen_event_id
        try:
            self.state, self.inputs = load_run(self.conn, self.state.run_id)
        except GameError:
            self.forgotten = True  # forgotten meanwhile: keep the last view, never write it
            return []
        fresh = self.events(after_id=last)
        if fresh:
            self._seen_event_id = fresh[-1].id
        return fresh

    def try_take_over(self, *, confirmed: bool = False) -> bool:
        """A watching window asks for the lease again (the writer may have closed). `confirmed`:
        the player agreed to take it from a holder whose heartbeat went silent (stopped, hung)."""
        if self.lease is not None:
            return True
        if self.forgotten:
            return False
        try:
            got = leases.acquire(self.conn, self.state.run_id, take_over=confirmed)
        except leases.StaleStateError:
            self.forgotten = True
            return False
        if isinstance(got, Holder):
            self.holder = got
            return False
        self.lease, self.holder = got, None
        self.state, self.inputs = load_run(self.conn, self.state.run_id)
        self._next_id = None
        self._beat()
        return True

    # ---------------------------------------------------------------- plumbing
    def add_listener(self, fn: Callable[[Event], None]) -> None:
        self._listeners.append(fn)

    def events(self, after_id: int = 0) -> list[Event]:
        out = list_events(self.conn, self.state.run_id, after_id)
        if out:
            self._seen_event_id = max(self._seen_event_id, out[-1].id)
        return out

    def _commit(self, record: Record | None, step_fn: Callable[[Step], T]) -> T:
        """Run one step on the state inside one transaction; on failure reload the last committed
        state. `record` is the command as replay will re-issue it (None: not a player input)."""
        with self._lock:
            self._writable()
            assert self.lease is not None
            work = self.state
            if self._next_id is None:
                self._next_id = next_event_id(self.conn, work.run_id)
            step = Step(
                work,
                self.memory,
                next_event_id=self._next_id,
                runtime=self.router.runtime_label(),
                store_label=self.memory_store_label,
                log=not self.explore,
            )
            try:
                with transaction(self.conn):
                    if self.explore:
                        new_version = self.lease.version + 1
                    else:
                        new_version = leases.advance(self.conn, self.lease)
                    result = step_fn(step)
                    steps.note_memory_backend(step)
                    steps.check_end(step)
                    inputs = self.inputs + ([record] if record else [])
                    if not self.explore:
                        insert_events(self.conn, step.events)
                        save_run(self.conn, work, inputs)
            except BaseException:
                self._next_id = None
                if self.inputs and not self.explore:
                    with contextlib.suppress(SaveError):  # gone (forgotten): its own line stands
                        self.state = load_run(self.conn, work.run_id)[0]
                raise
            self.inputs = inputs
            self.lease.version = new_version
            self._next_id = step.next_event_id
            self._seen_event_id = step.next_event_id - 1
        try:
            self.memory.flush_cloud()
        except Exception as exc:  # noqa: BLE001 - the step committed: never report it as not done
            log_exception(exc, {"after": "committed step", "sending": "memory to the cloud tier"})
        for event in step.events:
            for fn in list(self._listeners):
                fn(event)
        return result

    def memory_store_label(self) -> str:
        return self.memory.store_label()

    def can(self, action: str) -> bool:
        """Whether the command called `action` may run now (see engine.session.commands)."""
        return commands.can(self.state, action)

    def allowed(self) -> dict[str, bool]:
        """What the player may do now: each player command's name, and whether it may run."""
        return {c.name: c.allowed(self.state) for c in commands.player()}

    def mark(self) -> Callable[[], None]:
        """Mark where an exploring session stands (`worldforge balance` at a fork); the function
        returned takes it back there, so another branch plays from the same point: the save's rows
        (an SQLite savepoint, rolled back: what the branch wrote to memory is gone), the state (a
        deep copy taken now, by a pickle round trip: 0.4 ms against 1.1 ms through the save's JSON
        and its validation), and the inputs, event counter and lease version it had reached."""
        import pickle  # balance's alone: a venture that explores nothing never loads it

        assert self.explore and self.lease is not None  # only a session that keeps no log
        lease, frozen = self.lease, pickle.dumps(self.state, pickle.HIGHEST_PROTOCOL)
        counters = (self.inputs, self._next_id, self._seen_event_id, lease.version)
        self.conn.execute("SAVEPOINT fork")

        def back() -> None:
            self.conn.execute("ROLLBACK TO fork")
            self.conn.execute("RELEASE fork")
            self.state = pickle.loads(frozen)  # our own bytes, taken just above
            self.inputs, self._next_id, self._seen_event_id, lease.version = counters

        return back

    # ---------------------------------------------------------------- any command
    def execute(self, command: Command[P, R], *, replaying: bool = False) -> R:
        """Run one command: its lead-in, its refusal or input check, its model work outside the
        transaction, then what it applies inside one, recorded; then its follow-up. Replaying
        re-issues a recorded command as it was recorded, without check or follow-up (each
        follow-up was recorded as a step of its own).

        A command issued from outside (not a lead-in or follow-up of another) is one player
        action: every model call it makes, follow-ups included, shares one deadline
        (AGENT_REQUEST_TIMEOUT, `engine.routing.deadline`), and when the player cancels it (Esc)
        the run goes back to where it stood before it (`engine.session.checkpoint`)."""
        if replaying or self._acting:
            return self._execute(command, replaying=replaying)
        action = ActionDeadline.start(self.router.settings.agent_request_timeout)
        # only a model call can be cancelled: the simulator's actions need no copy
        mark = None
        if self.router.runtime_label() not in ("simulation", "replay") and not self.explore:
            from engine.session.checkpoint import Checkpoint

            mark = Checkpoint.take(self.conn, self.state.run_id)
        self._acting = True
        try:
            with self.router.acting(action):
                return self._execute(command)
        except CallCancelled:
            if mark is not None:
                self._undo(mark)
            raise
        finally:
            self._acting = False

    def _undo(self, mark: Checkpoint) -> None:
        """Put the run back as it stood at `mark` (a cancelled action), state and log included."""
        with self._lock:
            mark.restore(self.conn)
            self.state, self.inputs = load_run(self.conn, mark.run_id)
            self._next_id = None
            self._seen_event_id = next_event_id(self.conn, mark.run_id) - 1
            self.memory.rewound()

    def _execute(self, command: Command[P, R], *, replaying: bool = False) -> R:
        with logged(self, command.name), books(self.state.founder.currency):
            self._writable()
            lead = command.lead_in(self.state)
            if lead is not None:
                lead.issue(self, replaying=replaying)
                if self.state.phase == "ended":
                    return command.when_ended()
            command.refuse(self.state)
            if not replaying:
                command.check(self.state)
            with self._lock:
                prepared = command.prepare(self)
            result = self._commit(command.record(), lambda step: command.apply(step, prepared))
            return result if replaying else command.finish(self, result)

    def suggest(self, command: C) -> tuple[C, str]:
        """A model tier's suggestions for the unread parts of a command's words (a rejection, a
        standup reply: engine.workers.suggest), before the player confirms it: the command with
        them, to preview and confirm (its preview marks each with its model; it binds them only
        when issued), and the one line that says what was suggested or why nothing was. Any
        other command, the simulation tier or words that read whole: unchanged, "" and nothing
        asked. The call has an action's deadline and cancel (Esc), and writes nothing."""
        if not isinstance(command, commands.Worded):
            return command, ""
        action = ActionDeadline.start(self.router.settings.agent_request_timeout)
        with books(self.state.founder.currency), self.router.acting(action):
            return command.suggest(self)

    def give(self, kind: Kind[R], said: str = "") -> R:
        """A player's command from what they said or pressed ("" for nothing): the one generic
        path the TUI, the headless driver, scripts and tests take (`session.give(Reject, "…")`),
        typed by the command's result. The refusal comes first, so input typed in a phase that
        refuses the command is never judged; then the input is typed, then run."""
        self._writable()
        with books(self.state.founder.currency):
            kind.refuse(self.state)
            return kind.from_said(said).issue(self)

    # ---------------------------------------------------------------- the run itself
    def forget_run(self) -> RunForgotten:
        """Right to deletion: the run's row, events, memories, lease and exported reports go; only
        content-free audit rows (opaque ids) stay. The session is closed afterwards."""
        run_id = self.state.run_id
        with logged(self, "forget_run"), self._lock:
            self._writable()
            assert self.lease is not None
            with transaction(self.conn):
                leases.advance(self.conn, self.lease)  # refuses if the run changed meanwhile
                report = self.memory.forget_run(compact=False)
                from engine.session.events import forget_run as forget_events
                from engine.session.saves import delete_run

                events = forget_events(self.conn, run_id)
                delete_run(self.conn, run_id)
                leases.forget(self.conn, run_id)
            self.lease = None
            self.forgotten = True
            report.compacted = self.memory.compact()
            removed = memory_commands.delete_reports(self.save_dir, run_id)
            cosmos_pending = self.memory.forget_pending()
            self.conn.close()
        return {
            "run_id": run_id,
            "memories": report.deleted,
            "events": events,
            "reports_deleted": [str(p) for p in removed],
            "compacted": report.compacted,
            "cosmos_pending": cosmos_pending,
        }

    # ---------------------------------------------------------------- replay
    def apply_recorded(self, record: Record) -> None:
        """Re-issue one recorded command as it was recorded, without its automatic follow-ups (the
        redo after a rejection and the standup after a decision are recorded as their own steps);
        a standup recorded after the venture ended has nothing to re-derive and is passed over."""
        if record.get("cmd") == "standup" and self.state.phase == "ended":
            return
        commands.from_record(record).issue(self, replaying=True)

    # ---------------------------------------------------------------- views
    def read_model(self) -> ReadModel:
        """What a view reads of this session: state, allowed commands, memory, the event log."""
        from engine.views.read_model import ReadModel

        return ReadModel(
            state=self.state,
            allowed=self.allowed(),
            store_label=self.memory_store_label(),
            memory=self.memory.records(),
            memory_counts=self.memory.counts(),
            events=self.events,
        )

    def snapshot(self) -> Snapshot:
        """Everything a front end draws, in one model (loaded on first use: headless runs never draw)."""
        from engine.views.snapshot import build_snapshot

        with books(self.state.founder.currency):
            return build_snapshot(self.read_model())

    def export_report(self, path: str | Path | None = None) -> Path:
        """The report card as Markdown. Refused (one line, nothing written) once the run was
        forgotten, here or in any other window or command: a forget is final."""
        from engine.views.report import write_report

        self._still_saved()
        try:
            with books(self.state.founder.currency):
                out = write_report(self.read_model(), self.save_dir, path)
        except OSError as err:  # a read-only save dir, a full disk, a missing folder
            where = err.filename or path or "the save dir's reports/"
            raise SaveError(
                f"the report could not be written to {where} ({err.strerror or err}): "
                "export with --out FILE, or --out - to print it"
            ) from None
        try:
            self._still_saved()
        except SaveError:  # forgotten while it was being written: it goes too
            out.unlink(missing_ok=True)
            raise
        return out

    def _still_saved(self) -> None:
        """Raise the one forgotten line unless the save still holds this run."""
        from engine.session.saves import run_exists

        if not self.forgotten:
            try:
                self.forgotten = not run_exists(self.conn, self.state.run_id)
            except sqlite3.ProgrammingError:  # this window forgot it and closed the save
                self.forgotten = True
        if self.forgotten:
            raise SaveError(
                f"run {self.state.run_id} was forgotten: nothing of it is written again"
            )
