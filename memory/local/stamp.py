"""Is this file our save? Decided from its own stamp, without letting SQLite touch it.

A save carries WorldForge's application id and its format version (`PRAGMA application_id` /
`user_version`, bytes 68 and 60 of the database header). Both are read from the file's bytes (and
from the newest committed copy of page 1 in its `-wal`, when one is there), never from table names,
so any other SQLite file (one that happens to have a table called `events`, say) is refused as it
is. The damage check runs on a read-only, immutable view of the file, or on a copy when a `-wal`
is beside it, so a refused file, its `-wal` and its `-shm` are left byte-for-byte as found (a
normal connection would fold the WAL into the file and delete it when it closes).
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

WAL_HEADER = 32
FRAME_HEADER = 24


def _page1_from_wal(wal: Path) -> bytes | None:
    """The newest committed copy of page 1's header in a WAL file (None when there is none)."""
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


CHECKS = 3  # a view taken while another process writes can look torn: damage must persist


def quick_check(path: Path) -> str:
    """`PRAGMA quick_check(1)` on views of the file that cannot change it (`_view_check`). A view
    is not a locked snapshot, so a problem counts only when it is seen again on fresh views."""
    problem = "ok"
    for attempt in range(CHECKS):
        try:
            problem = _view_check(path)
        except sqlite3.DatabaseError as err:
            problem = str(err)
        if problem == "ok":
            return problem
        time.sleep(0.02 * (attempt + 1))
    return problem


def _view_check(path: Path) -> str:
    """The file alone, immutable (~1 ms); only if that looks damaged and a WAL is beside it, the
    file with its WAL on a copy (the WAL may hold the newer, intact pages)."""
    problem = _check(path.absolute().as_uri() + "?immutable=1")
    wal = Path(f"{path}-wal")
    if problem == "ok" or not (wal.exists() and wal.stat().st_size > 0):
        return problem
    with tempfile.TemporaryDirectory(prefix="worldforge-check-") as tmp:
        copy = Path(tmp) / "save.db"
        shutil.copyfile(path, copy)
        try:
            shutil.copyfile(wal, Path(f"{copy}-wal"))
        except FileNotFoundError:  # checkpointed and removed meanwhile: check the file again
            return _check(path.absolute().as_uri() + "?immutable=1")
        return _check(copy.as_uri())


PAGE_CHECK_BUDGET_S = 0.025


def _check(uri: str) -> str:
    """quick_check within PAGE_CHECK_BUDGET_S: a game's save (a few MB at ~1 ms/MB) is checked
    whole; a very large one as far as the budget reaches, so opening it stays fast (SQLite still
    reports damage on any page when it is read)."""
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    timer = threading.Timer(PAGE_CHECK_BUDGET_S, conn.interrupt)
    timer.start()
    try:
        return str(conn.execute("PRAGMA quick_check(1)").fetchall()[0][0])
    except sqlite3.OperationalError as err:
        if "interrupt" in str(err).lower():
            return "ok"  # out of budget: no damage found so far
        raise
    finally:
        timer.cancel()
        timer.join()
        conn.close()
