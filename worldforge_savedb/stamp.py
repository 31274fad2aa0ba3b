"""Is this file our save, and is it whole? Both asked of SQLite, in one read snapshot.

A save carries WorldForge's application id and its format version (`PRAGMA application_id` /
`user_version`), never recognised by table names, so any other SQLite file (one that happens to
have a table called `events`, say) is refused before anything writes to it. `inspect` reads the
stamp and runs `PRAGMA quick_check` inside one read transaction: of a normal read-only connection
(`mode=ro`, with the WAL, under SQLite's locks), so it sees one committed snapshot, the newest stamp
included, even while another process writes or checkpoints, and every `DatabaseError` counts. A
read-only connection never checkpoints or deletes the WAL, so a refused file and its `-wal` are
left as found (its `-shm` index may be rebuilt). A file with no -wal beside it is checked from its
bytes in memory, so a refused file does not get an empty -wal and -shm created beside it.

The bytes are read through one descriptor per file that this process keeps open (`read_head`):
closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's included,
so a plain open/close of the save while a connection is open lets another process believe it is
the last one, checkpoint and delete the WAL that this process still writes into (the lost writes
and the "truncated" save two windows once left behind; tests/reliability/test_damage_check.py).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

_pinned: dict[tuple[int, int], int] = {}
_pinned_lock = threading.Lock()


def read_head(path: Path, count: int = 100) -> tuple[int, bytes]:
    """(size, first `count` bytes) of the file, read through a descriptor this process keeps open
    for the file's lifetime (closing one would drop SQLite's locks on it; see the module doc).
    Raises FileNotFoundError / OSError like `open`."""
    with _pinned_lock:
        st = os.stat(path)  # stat opens nothing; a pinned inode cannot be reused while pinned
        fd = _pinned.get((st.st_dev, st.st_ino))
        if fd is None:
            _prune()
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            now = os.fstat(fd)
            _pinned[(now.st_dev, now.st_ino)] = fd  # replaced meanwhile: pin the new one
        return os.fstat(fd).st_size, os.pread(fd, count, 0)


def _prune() -> None:
    """Close pinned descriptors of files that no longer exist anywhere (unlinked: no lock on
    them matters any more), so a long test run or many save dirs do not pile descriptors up."""
    for key, fd in list(_pinned.items()):
        try:
            gone = os.fstat(fd).st_nlink == 0
        except OSError:
            gone = True
        if gone:
            del _pinned[key]
            with contextlib.suppress(OSError):
                os.close(fd)


PAGE_CHECK_BUDGET_S = 0.025
BUSY_WORDS = ("locked", "busy")
CHECKS = 3  # a save locked by a writer's recovery is asked again before the check gives up


# A save without a WAL up to this size is checked in memory. The copy is made before the budget's
# timer starts, so this stays near what a game's save holds: a 54 MB save took 0.6 s to open.
IN_MEMORY_MAX = 8 * 1024 * 1024
SALVAGE_MAX = 64 * 1024 * 1024  # what `salvage` reads of a damaged save without a WAL


class Look(NamedTuple):
    """What one read snapshot of a save says: its stamp (`app_id` None when SQLite could not read
    it) and "ok" or what SQLite says is wrong."""

    app_id: int | None
    version: int
    problem: str


def inspect(path: Path, *, budget_s: float = PAGE_CHECK_BUDGET_S) -> Look | None:
    """The save's stamp and health from one snapshot (file and WAL); None when SQLite could not
    lock it, asked `CHECKS` times (another process held it exclusively: being busy is not damage).

    `PRAGMA quick_check(1)` runs within `budget_s`: a game's save (a few MB at ~1 ms/MB) is checked
    whole; a very large one as far as the budget reaches, so opening stays fast (SQLite still
    reports damage on any page when it is read). With no `-wal` beside it the file alone is the
    database, checked in memory from the pinned descriptor's bytes; damage seen that way is
    confirmed through SQLite's own connection whenever a -wal has appeared meanwhile (another
    process started writing)."""
    size, _ = read_head(path, 0)
    if not _wal(path).exists() and size <= IN_MEMORY_MAX:
        look = _look(lambda: _memory_copy(path, size), budget_s)
        if look is not None and (look.problem == "ok" or not _wal(path).exists()):
            return look
    for attempt in range(CHECKS):
        look = _look(lambda: read_only(path, timeout=2.0), budget_s)
        if look is not None:
            return look
        time.sleep(0.05 * (attempt + 1))
    return None


def _wal(path: Path) -> Path:
    return Path(f"{path}-wal")


def read_only(path: Path, *, timeout: float) -> sqlite3.Connection:
    """A connection that cannot write the save (SQLite `mode=ro`, with its WAL)."""
    return sqlite3.connect(
        path.absolute().as_uri() + "?mode=ro", uri=True, isolation_level=None, timeout=timeout
    )


def _memory_copy(path: Path, size: int) -> sqlite3.Connection:
    """Up to `size` bytes of the file in an in-memory database, marked as a rollback-journal
    database (a memory database has no WAL)."""
    _, raw = read_head(path, size)
    data = bytearray(raw)
    if len(data) >= 20 and data[18:20] == b"\x02\x02":
        data[18:20] = b"\x01\x01"
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.deserialize(bytes(data))
    return conn


def _look(view: Callable[[], sqlite3.Connection], budget_s: float) -> Look | None:
    """Stamp and quick_check in one read transaction of `view`; None when the save was busy."""
    conn = None
    try:
        conn = view()
        conn.execute("BEGIN")  # deferred: the snapshot is taken by the first read below
        app_id, version = (conn.execute(f"PRAGMA {p}").fetchone()[0] for p in _STAMP)
        return Look(app_id, version, _timed_check(conn, budget_s))
    except sqlite3.DatabaseError as err:  # every kind: malformed, not a database, I/O, full...
        return None if is_busy(err) else Look(None, 0, str(err) or type(err).__name__)
    finally:
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()  # a read-only connection: it never checkpoints or deletes the WAL


_STAMP = ("application_id", "user_version")


def _timed_check(conn: sqlite3.Connection, budget_s: float) -> str:
    """`PRAGMA quick_check(1)`, interrupted after `budget_s`: "ok" when no damage was found so far."""
    timer = threading.Timer(budget_s, conn.interrupt)
    timer.start()
    try:
        rows = conn.execute("PRAGMA quick_check(1)").fetchall()
        return str(rows[0][0]) if rows else "ok"
    except sqlite3.DatabaseError as err:
        if "interrupt" in str(err).lower():
            return "ok"  # out of budget
        raise
    finally:
        timer.cancel()
        if timer.is_alive():
            timer.join()


def is_busy(err: BaseException) -> bool:
    """True for SQLite's "locked" or "busy": another connection holds the save for now."""
    text = str(err).lower()
    return isinstance(err, sqlite3.OperationalError) and any(w in text for w in BUSY_WORDS)


def salvage(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Rows of `sql` still readable from a save refused as damaged (the same views as the check:
    the bytes in memory without a -wal, a read-only connection with one; nothing is written).
    Rows are read one by one until SQLite stops; [] when nothing can be read."""
    out: list[tuple[object, ...]] = []
    conn: sqlite3.Connection | None = None
    try:
        wal = _wal(path).exists()
        conn = read_only(path, timeout=2.0) if wal else _memory_copy(path, SALVAGE_MAX)
        for row in conn.execute(sql):
            out.append(tuple(row))
    except (sqlite3.DatabaseError, OSError):
        pass
    finally:
        if conn is not None:
            conn.close()
    return out
