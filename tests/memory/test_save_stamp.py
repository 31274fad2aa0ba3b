"""The stamp a save is judged by is its newest committed one, read by SQLite in the same snapshot
as the damage check (`worldforge_savedb.stamp.inspect`), even while it is only in the -wal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from worldforge_savedb.db import SCHEMA_VERSION, SaveFileError, connect, db_path
from worldforge_savedb.stamp import inspect


def _holder(path: Path) -> sqlite3.Connection:
    """Another process's connection that keeps its commits in the -wal (no checkpoint)."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA wal_autocheckpoint=0")
    return holder


def test_a_newer_stamp_still_in_the_wal_is_refused_and_left_as_found(tmp_path: Path) -> None:
    path = db_path(tmp_path)
    connect(path).close()
    holder = _holder(path)
    try:
        holder.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")  # a newer build migrated it
        assert Path(f"{path}-wal").stat().st_size > 0
        assert int.from_bytes(path.read_bytes()[60:64], "big") == SCHEMA_VERSION  # file: older
        look = inspect(path)
        assert look is not None and look.version == SCHEMA_VERSION + 1 and look.problem == "ok"
        wal = Path(f"{path}-wal").read_bytes()
        with pytest.raises(SaveFileError, match="newer WorldForge"):
            connect(path)
        assert Path(f"{path}-wal").read_bytes() == wal
    finally:
        holder.close()


def test_a_foreign_stamp_still_in_the_wal_is_refused(tmp_path: Path) -> None:
    path = db_path(tmp_path)
    connect(path).close()
    holder = _holder(path)
    try:
        holder.execute("PRAGMA application_id=1196444487")  # another application took it over
        with pytest.raises(SaveFileError, match="another application"):
            connect(path)
    finally:
        holder.close()


def test_damage_and_stamp_come_from_one_look(tmp_path: Path) -> None:
    path = db_path(tmp_path)
    conn = connect(path)
    conn.execute("CREATE TABLE t (x BLOB)")
    conn.executemany("INSERT INTO t VALUES (randomblob(3000))", [()] * 50)
    conn.close()  # the last connection checkpoints: one self-contained file
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[2 * page : 6 * page] = b"\xa5" * (4 * page)  # smash b-tree pages, keep page 1
    path.write_bytes(bytes(data))
    look = inspect(path)
    assert look is not None and look.problem != "ok"
    with pytest.raises(SaveFileError, match="is damaged"):
        connect(path)
    assert path.read_bytes() == bytes(data)
