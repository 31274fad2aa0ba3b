"""One writer per run: a lease row in the save file, and the run's state version.

Opening a run for play takes its lease (holder pid, host, process start, a random token). Another
window finds the lease held by a live process and opens the run read-only. A lease whose holder
process is gone (same host, pid dead or reused) is stale and is taken over inside the same write
transaction, so two processes racing for it cannot both win. Every committed step of a run checks,
inside its transaction, that it still holds the lease and that the run's version is the one it
loaded, then bumps the version: a writer never overwrites newer state, it refuses in one line.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.errors import GameError
from engine.session.saves import run_exists
from worldforge_savedb.db import register_schema, transaction
from worldforge_savedb.records import FrozenRecord, Record


class RunBusyError(GameError):
    """The run is held by another live window or process; this one may only watch it."""


class StaleStateError(GameError):
    """The run changed (or was forgotten) since this window loaded it; nothing was written."""


FORGOTTEN = "this run was forgotten or removed elsewhere; nothing was saved"


BEAT_S = 5.0  # a holder writes its heartbeat this often (its own connection, `Heartbeat`)
EXPIRY_S = 30.0  # a holder silent this long may be taken over, once the player confirms


def _ensure(conn: sqlite3.Connection) -> None:
    conn.execute("""CREATE TABLE IF NOT EXISTS run_leases (
        run_id TEXT PRIMARY KEY, version INTEGER NOT NULL DEFAULT 0,
        holder_token TEXT, holder_pid INTEGER, holder_host TEXT, holder_proc TEXT,
        holder_since TEXT, holder_beat REAL)""")
    columns = {r[1] for r in conn.execute("PRAGMA table_info(run_leases)")}
    if "holder_beat" not in columns:  # additive: saves from before heartbeats
        conn.execute("ALTER TABLE run_leases ADD COLUMN holder_beat REAL")


register_schema("run_leases", _ensure)


def _proc_start(pid: int) -> str:
    """The process's start time in clock ticks since boot (Linux), "" where unknown: tells a
    live holder from a new process that reused its pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[-1].split()[19] if ")" in stat else ""


def _host_name() -> str:
    """This machine's name, as socket.gethostname() gives it (uname's node name where there is
    one: importing socket costs every venture more than the lease itself)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()


HOST = _host_name()[:64]


@dataclass(frozen=True, eq=False, repr=False)
class Holder(FrozenRecord):
    """Who holds a run's lease."""

    token: str
    pid: int
    host: str
    proc: str
    since: str
    beat: float | None = None  # time.time() of its last heartbeat (None: before heartbeats)

    def describe(self) -> str:
        when = self.since[:16].replace("T", " ")
        return f"pid {self.pid} on {self.host}, since {when} UTC"

    def silent_for(self) -> float:
        return 0.0 if self.beat is None else max(0.0, time.time() - self.beat)

    def expired(self) -> bool:
        """No heartbeat for EXPIRY_S: stopped (SIGSTOP), hung or gone without a trace. It may be
        taken over, but only when the player confirms (`acquire(take_over=True)`)."""
        return self.beat is not None and self.silent_for() > EXPIRY_S

    def alive(self) -> bool:
        """False when we can tell: same host and the pid is gone, reused by a newer process, or is
        this process (a newer session here takes over; the older one then refuses to write). A
        holder on another host is presumed alive."""
        if self.host != HOST:
            return True
        if self.pid == os.getpid():
            return False  # an older session of this very process: the newer one takes over
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        except OSError:
            return False
        now = _proc_start(self.pid)
        return not (self.proc and now and now != self.proc)


def _holder(row: sqlite3.Row | tuple[Any, ...] | None) -> Holder | None:
    if row is None or row[0] is None:
        return None
    return Holder(
        token=row[0],
        pid=int(row[1] or 0),
        host=str(row[2] or ""),
        proc=str(row[3] or ""),
        since=str(row[4] or ""),
        beat=float(row[5]) if len(row) > 5 and row[5] is not None else None,
    )


_HOLDER_COLS = "holder_token, holder_pid, holder_host, holder_proc, holder_since, holder_beat"


def current_holder(conn: sqlite3.Connection, run_id: str) -> Holder | None:
    """The live holder of the run's lease, if any (a stale one counts as none)."""
    h = _holder(
        conn.execute(
            f"SELECT {_HOLDER_COLS} FROM run_leases WHERE run_id = ?", (run_id,)
        ).fetchone()
    )
    return h if h is not None and h.alive() else None


def version(conn: sqlite3.Connection, run_id: str) -> int | None:
    """The run's committed state version (None once the run is forgotten or never leased)."""
    row = conn.execute("SELECT version FROM run_leases WHERE run_id = ?", (run_id,)).fetchone()
    return None if row is None else int(row[0])


@dataclass(eq=False, repr=False)
class Lease(Record):
    """This process's hold on one run: its token and the state version it last saw."""

    run_id: str
    token: str
    version: int


def acquire(
    conn: sqlite3.Connection, run_id: str, *, new: bool = False, take_over: bool = False
) -> Lease | Holder:
    """Take the run's lease (a stale one is taken over): the Lease, or the live Holder who has it.

    Only for a run the save holds (`new`: the run being founded in this very transaction's
    caller); a run forgotten meanwhile raises StaleStateError, so a window that still shows it
    can never write it back."""
    token = os.urandom(12).hex()  # secrets.token_hex(12), without importing secrets
    pid = os.getpid()
    with transaction(conn):
        if not new and not run_exists(conn, run_id):
            raise StaleStateError(FORGOTTEN)
        row = conn.execute(
            f"SELECT version, {_HOLDER_COLS} FROM run_leases WHERE run_id = ?", (run_id,)
        ).fetchone()
        if row is not None:
            other = _holder(tuple(row)[1:])
            if other is not None and other.alive() and not (take_over and other.expired()):
                return other
        since = datetime.now(UTC).isoformat(timespec="seconds")
        conn.execute(
            f"""INSERT INTO run_leases (run_id, version, {_HOLDER_COLS}) VALUES (?, 0, ?,?,?,?,?,?)
                ON CONFLICT(run_id) DO UPDATE SET holder_token=excluded.holder_token,
                holder_pid=excluded.holder_pid, holder_host=excluded.holder_host,
                holder_proc=excluded.holder_proc, holder_since=excluded.holder_since,
                holder_beat=excluded.holder_beat""",
            (run_id, token, pid, HOST, _proc_start(pid), since, time.time()),
        )
        now = conn.execute("SELECT version FROM run_leases WHERE run_id = ?", (run_id,)).fetchone()
    return Lease(run_id=run_id, token=token, version=int(now[0]))


def release(conn: sqlite3.Connection, lease: Lease) -> None:
    """Give the lease back (only if still ours); the version stays."""
    with transaction(conn):
        conn.execute(
            f"UPDATE run_leases SET ({_HOLDER_COLS}) = (NULL, NULL, NULL, NULL, NULL, NULL)"
            " WHERE run_id = ? AND holder_token = ?",
            (lease.run_id, lease.token),
        )


def advance(conn: sqlite3.Connection, lease: Lease) -> int:
    """Inside the writer's transaction: check the lease is still ours and the version is the one we
    expect, then bump it; raise (so the transaction rolls back) otherwise. Returns the new version."""
    row = conn.execute(
        f"SELECT version, {_HOLDER_COLS} FROM run_leases WHERE run_id = ?", (lease.run_id,)
    ).fetchone()
    if row is None or (lease.version > 0 and not run_exists(conn, lease.run_id)):
        raise StaleStateError(FORGOTTEN)
    holder = _holder(tuple(row)[1:])
    if holder is None or holder.token != lease.token:
        who = f" ({holder.describe()})" if holder is not None else ""
        raise RunBusyError(f"this window no longer holds the run{who}; reopen it to continue")
    if int(row[0]) != lease.version:
        raise StaleStateError(
            f"the run changed elsewhere (version {row[0]}, this window has "
            f"{lease.version}); nothing was saved: reopen it"
        )
    conn.execute(
        "UPDATE run_leases SET version = version + 1, holder_beat = ? WHERE run_id = ?",
        (time.time(), lease.run_id),
    )
    return lease.version + 1


def forget(conn: sqlite3.Connection, run_id: str) -> None:
    """Drop the run's lease row (the run is being deleted); joins the caller's transaction."""
    conn.execute("DELETE FROM run_leases WHERE run_id = ?", (run_id,))


def busy_line(run_id: str, holder: Holder) -> str:
    """The one line a refused writer shows."""
    if holder.expired():
        return (
            f"run {run_id} is held by {holder.describe()}, silent for "
            f"{holder.silent_for():.0f} s (stopped or hung?); confirm a take-over to play it "
            "here (that window then saves nothing)"
        )
    return (
        f"run {run_id} is open in another window ({holder.describe()}); close it there first "
        "(this window can only watch)"
    )


class Heartbeat:
    """Writes the holder's heartbeat every BEAT_S on a connection of its own (a daemon thread), so
    a stopped or hung holder goes silent and can be taken over; ends when the lease is no longer
    this holder's."""

    def __init__(self, path: str, lease: Lease) -> None:
        self.path, self.lease = path, lease
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lease-heartbeat", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(BEAT_S):
            try:
                conn = sqlite3.connect(self.path, timeout=2.0, isolation_level=None)
                try:
                    cur = conn.execute(
                        "UPDATE run_leases SET holder_beat = ? WHERE run_id = ? AND holder_token = ?",
                        (time.time(), self.lease.run_id, self.lease.token),
                    )
                    if cur.rowcount == 0:
                        return  # taken over or released: nothing more to beat for
                finally:
                    conn.close()
            except sqlite3.Error:
                continue  # busy or gone for a moment: the next beat tries again

    def stop(self) -> None:
        self._stop.set()
