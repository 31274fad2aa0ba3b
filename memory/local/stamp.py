"""Is this file our save, and is it whole? The stamp from its bytes; the damage check from SQLite.

A save carries WorldForge's application id and its format version (`PRAGMA application_id` /
`user_version`, bytes 68 and 60 of the database header). Both are read from the file's bytes (and
from the newest committed copy of page 1 in its `-wal`, when one is there), never from table names,
so any other SQLite file (one that happens to have a table called `events`, say) is refused before
SQLite opens it.

The bytes are read through one descriptor per file that this process keeps open (`read_head`):
closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's included,
so a plain open/close of the save while a connection is open lets another process believe it is
the last one, checkpoint and delete the WAL that this process still writes into (the lost writes
and the "truncated" save two windows once left behind; tests/reliability/test_damage_check.py).

Whether the file is damaged is asked of SQLite, never of the bytes: a normal read-only connection
(`mode=ro`, with the WAL, under SQLite's locks) runs `PRAGMA quick_check` inside one read
transaction, so it sees one committed snapshot even while another process writes or checkpoints,
and every `DatabaseError` it raises counts. A read-only connection never checkpoints or deletes the
WAL, so a refused file and its `-wal` are left as found (its `-shm` index may be rebuilt). A file
with no -wal beside it is checked from its bytes in memory (`quick_check`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from pathlib import Path

WAL_HEADER = 32
FRAME_HEADER = 24

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


def _page1_from_wal(wal: Path) -> bytes | None:
    """The newest committed copy of page 1's header in a WAL file (None when there is none).
    SQLite takes no locks on the -wal file itself, so opening and closing it here is safe."""
    try:
        with wal.open("rb") as fh:
            head = fh.read(WAL_HEADER)
            if len(head) < WAL_HEADER or head[:4] not in (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83"):
                return None
            page_size = int.from_bytes(head[8:12], "big")
            page_size = 65536 if page_size == 1 else page_size
            salts = head[16:24]
            committed: bytes | None = None
            pending: bytes | None = None
            offset = WAL_HEADER
            while True:
                fh.seek(offset)
                frame = fh.read(FRAME_HEADER)
                if len(frame) < FRAME_HEADER or frame[8:16] != salts:
                    break
                page_no = int.from_bytes(frame[0:4], "big")
                if page_no == 1:
                    pending = fh.read(100)
                if int.from_bytes(frame[4:8], "big") and pending is not None:
                    committed = pending  # a commit frame: what came before it is durable
                offset += FRAME_HEADER + page_size
            return committed
    except OSError:
        return None


def read_stamp(path: Path, head: bytes) -> tuple[int, int]:
    """(application_id, user_version) of the save whose first 100 bytes are `head`."""
    newest = _page1_from_wal(Path(f"{path}-wal"))
    source = newest if newest is not None and len(newest) >= 72 else head
    return int.from_bytes(source[68:72], "big"), int.from_bytes(source[60:64], "big")


PAGE_CHECK_BUDGET_S = 0.025
BUSY_WORDS = ("locked", "busy")
CHECKS = 3  # a save locked by a writer's recovery is asked again before the check gives up


# A save without a WAL up to this size is checked in memory. The copy is made before the budget's
# timer starts, so this stays near what a game's save holds: a 54 MB save took 0.6 s to open.
IN_MEMORY_MAX = 8 * 1024 * 1024
SALVAGE_MAX = 64 * 1024 * 1024  # what `salvage` reads of a damaged save without a WAL


def quick_check(path: Path, *, budget_s: float = PAGE_CHECK_BUDGET_S) -> str:
    """Return "ok" or what SQLite says is wrong with the save (file and WAL, one locked snapshot).

    `PRAGMA quick_check(1)` within `budget_s`: a game's save (a few MB at ~1 ms/MB) is checked
    whole; a very large one as far as the budget reaches, so opening stays fast (SQLite still
    reports damage on any page when it is read). A save SQLite cannot lock now (another process
    holds it exclusively for a moment) is asked again, then passed: being busy is not damage.

    With no `-wal` beside it the file alone is the database: it is read through the pinned
    descriptor and checked in memory, so a refused file does not get an empty -wal and -shm
    created beside it. Damage seen that way is confirmed through SQLite's own connection
    whenever a -wal has appeared meanwhile (another process started writing)."""
    if not Path(f"{path}-wal").exists():
        problem = _memory_check(path, budget_s)
        if problem in ("ok", None) or not Path(f"{path}-wal").exists():
            return problem or "ok"
    for attempt in range(CHECKS):
        problem = _read_check(path, budget_s)
        if problem is not None:
            return problem
        time.sleep(0.05 * (attempt + 1))
    return "ok"


def _memory_check(path: Path, budget_s: float) -> str | None:
    """The file's bytes, deserialized into an in-memory database and checked (None: too large
    to copy, or deserialize is missing: use the connection)."""
    size, _ = read_head(path, 0)
    if size > IN_MEMORY_MAX:
        return None
    _, raw = read_head(path, size)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        if not hasattr(conn, "deserialize"):
            return None
        conn.deserialize(_rollback_mode(raw))
        return _timed_check(conn, budget_s)
    except sqlite3.DatabaseError as err:
        return _detail(err)
    finally:
        conn.close()


def _read_check(path: Path, budget_s: float) -> str | None:
    """One check; None when the save was busy."""
    try:
        conn = sqlite3.connect(
            path.absolute().as_uri() + "?mode=ro", uri=True, isolation_level=None, timeout=2.0
        )
    except sqlite3.DatabaseError as err:
        return None if _busy(err) else _detail(err)
    try:
        conn.execute("BEGIN")  # deferred: the snapshot is taken by the first read below
        return _timed_check(conn, budget_s)
    except sqlite3.DatabaseError as err:  # every kind: malformed, not a database, I/O, full...
        return None if _busy(err) else _detail(err)
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.close()  # a read-only connection: it never checkpoints or deletes the WAL


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


def _rollback_mode(raw: bytes) -> bytes:
    """The file's bytes marked as a rollback-journal database: a memory database has no WAL."""
    data = bytearray(raw)
    if len(data) >= 20 and data[18:20] == b"\x02\x02":
        data[18:20] = b"\x01\x01"
    return bytes(data)


def _busy(err: sqlite3.DatabaseError) -> bool:
    return isinstance(err, sqlite3.OperationalError) and any(
        w in str(err).lower() for w in BUSY_WORDS
    )


def _detail(err: BaseException) -> str:
    return str(err) or type(err).__name__


def salvage(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Rows of `sql` still readable from a save refused as damaged (the same views as the check:
    the bytes in memory without a -wal, a read-only connection with one; nothing is written).
    Rows are read one by one until SQLite stops; [] when nothing can be read."""
    out: list[tuple[object, ...]] = []
    conn: sqlite3.Connection | None = None
    try:
        if Path(f"{path}-wal").exists():
            conn = sqlite3.connect(path.absolute().as_uri() + "?mode=ro", uri=True, timeout=2.0)
        else:
            _, raw = read_head(path, SALVAGE_MAX)
            conn = sqlite3.connect(":memory:")
            conn.deserialize(_rollback_mode(raw))
        for row in conn.execute(sql):
            out.append(tuple(row))
    except (sqlite3.DatabaseError, OSError, AttributeError):
        pass
    finally:
        if conn is not None:
            conn.close()
    return out
