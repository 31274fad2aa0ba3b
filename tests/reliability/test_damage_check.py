"""Issue 26: the damage check asks SQLite, not the bytes, and nothing in a process drops SQLite's locks.

- After a full disk a checkpoint stops half-way: the file alone looks malformed while file + WAL
  are whole. The save must open (it used to be refused as "damaged ... try .recover").
- A plain open/close of the save file in a process that holds a connection drops SQLite's POSIX
  locks: another process then thinks it is the last, checkpoints and deletes the WAL, and the
  first process's next commit is lost (the "truncated" save two windows left behind).
- The unlocked size-vs-header comparison raced another process's checkpoint; opening while
  another process grows, checkpoints and compacts (checkpoint + VACUUM) the save never refuses it.
- Real damage (a file cut short with no WAL, smashed b-tree pages) is still refused in one line.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from worldforge_savedb.db import SaveFileError, connect, db_path

ROOT = Path(__file__).resolve().parents[2]


def _child(code: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        **kw,
    )


def _new_save(folder: Path) -> Path:
    path = db_path(folder)
    conn = connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS t (x)")
    conn.close()
    return path


def test_a_checkpoint_stopped_by_a_full_disk_leaves_a_save_that_opens(tmp_path: Path) -> None:
    path = _new_save(tmp_path)
    limit = path.stat().st_size + 40_000  # the file may grow by ~10 pages, then the disk is full
    res = _child(f"""
        import os, resource, signal, sqlite3
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails like ENOSPC
        c = sqlite3.connect({str(path)!r}, isolation_level=None)
        c.execute("PRAGMA wal_autocheckpoint=0")
        c.execute("BEGIN")
        for _ in range(300):
            c.execute("INSERT INTO t VALUES (randomblob(3000))")
        c.execute("COMMIT")
        resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
        try:
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            print("checkpointed")
        except sqlite3.OperationalError as err:
            print("checkpoint failed:", err)
        os._exit(0)  # the process ends without closing: the WAL stays beside the file
    """)
    assert "checkpoint failed" in res.stdout, res.stdout + res.stderr
    alone = sqlite3.connect(f"file:{path}?immutable=1", uri=True)  # the old check's view
    with pytest.raises(sqlite3.DatabaseError):
        alone.execute("PRAGMA quick_check").fetchall()
    alone.close()
    conn = connect(path, create=False)  # file + WAL are whole: it opens
    try:
        assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 300
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_a_second_open_in_the_same_process_keeps_the_first_ones_locks(tmp_path: Path) -> None:
    path = _new_save(tmp_path)
    first = connect(path)
    try:
        first.execute("INSERT INTO t VALUES (1)")
        connect(path, create=False).close()  # a list of runs, a watcher, a memory command…
        connect(path, readonly=True).close()
        res = _child(f"""
            import sqlite3
            c = sqlite3.connect({str(path)!r})
            c.execute("SELECT count(*) FROM t").fetchall()
            c.close()  # were it the last connection, it would checkpoint and delete the WAL
        """)
        assert res.returncode == 0, res.stderr
        assert Path(f"{path}-wal").exists(), "another process deleted the WAL this one writes"
        first.execute("INSERT INTO t VALUES (2)")
        res = _child(f"""
            import sqlite3
            print(sqlite3.connect({str(path)!r}).execute("SELECT count(*) FROM t").fetchone()[0])
        """)
        assert res.stdout.strip() == "2", "the first connection's commit was lost"
    finally:
        first.close()


def test_opening_while_another_process_checkpoints_and_compacts_never_refuses(
    tmp_path: Path,
) -> None:
    """The unlocked checks' candidates: size against header during another process's checkpoint,
    and compact() (checkpoint + VACUUM) while this one opens and reads. Bounded by rounds."""
    path = _new_save(tmp_path)
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
                import sys
                from worldforge_savedb.db import connect
                from memory.local.store import compact
                c = connect({str(path)!r})
                for i in range(120):
                    c.execute("BEGIN IMMEDIATE")
                    for _ in range(40):
                        c.execute("INSERT INTO t VALUES (randomblob(2000))")
                    c.execute("COMMIT")
                    if i % 3 == 0:
                        c.execute("DELETE FROM t WHERE rowid % 2 = 0")
                    c.execute("PRAGMA wal_checkpoint(TRUNCATE)") if i % 2 else compact(c)
                c.close()
            """),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.PIPE,
        text=True,
    )
    refusals: list[str] = []
    opens = 0
    try:
        while writer.poll() is None or opens < 20:
            try:
                conn = connect(path, create=False)
                conn.execute("SELECT count(*) FROM t").fetchone()
                conn.close()
            except SaveFileError as err:
                refusals.append(str(err))
            except sqlite3.OperationalError as err:  # busy is not damage; never "damaged"
                assert "locked" in str(err) or "busy" in str(err), err
            opens += 1
            if opens > 400 and writer.poll() is not None:
                break
    finally:
        writer.wait(timeout=120)
    assert writer.returncode == 0, writer.stderr.read() if writer.stderr else ""
    assert refusals == []
    conn = connect(path, create=False)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_a_save_cut_short_is_refused_in_one_line(tmp_path: Path) -> None:
    path = _new_save(tmp_path / "save")
    conn = connect(path)
    conn.execute("BEGIN")
    for _ in range(200):
        conn.execute("INSERT INTO t VALUES (randomblob(3000))")
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 3 // 4])
    Path(f"{path}-wal").unlink(missing_ok=True)
    Path(f"{path}-shm").unlink(missing_ok=True)
    before = path.read_bytes()
    with pytest.raises(SaveFileError) as err:
        connect(path, create=False)
    assert "damaged" in str(err.value) and ".recover" in str(err.value)
    assert "\n" not in str(err.value)
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0


def test_the_save_file_is_never_opened_and_closed_outside_sqlite(tmp_path: Path) -> None:
    """Opening a save twice reads its header through one pinned descriptor, not a new one."""
    path = _new_save(tmp_path)
    from worldforge_savedb import stamp

    key = (path.stat().st_dev, path.stat().st_ino)
    connect(path, create=False).close()
    fd = stamp._pinned[key]
    connect(path, create=False).close()
    assert stamp._pinned[key] == fd
    shutil.rmtree(tmp_path)
    stamp.read_head(Path(__file__))  # a later read prunes descriptors of files that are gone
    assert key not in stamp._pinned


def test_a_damaged_save_is_refused_with_what_can_still_be_read(tmp_path: Path) -> None:
    from engine.errors import SaveError
    from engine.session.savefile import open_save
    from tests.reliability.conftest import play_venture

    play_venture(tmp_path, stop_after=3)
    path = db_path(tmp_path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    conn = sqlite3.connect(path)
    runs_root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name='runs'").fetchone()[0]
    conn.close()
    victims = [n for n in range(2, len(data) // page + 1) if n != runs_root][:4]
    for n in victims:  # smash b-tree pages other than the runs table's
        data[(n - 1) * page : n * page] = b"\xa5" * page
    path.write_bytes(bytes(data))
    with pytest.raises(SaveError) as err:
        open_save(path, create=False)
    line = str(err.value)
    assert "\n" not in line and "damaged" in line
    assert "still readable: 1 venture: Spoke Co (day" in line
