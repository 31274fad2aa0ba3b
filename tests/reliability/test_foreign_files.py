"""Issue 12 case 5: a save is recognised by its own stamp, never by table names; anything else, and
a damaged save with a valid -wal beside it, is refused and left byte-for-byte as found (with its
-wal; its -shm index may be rebuilt); read-only commands never write to a save."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.reliability.conftest import cli, play_venture
from worldforge_savedb.db import SaveFileError, connect, db_path


def _digest(folder: Path, rebuilt: str = "") -> dict[str, str]:
    """Each file's hash; `rebuilt` (the -shm, SQLite's index of the WAL, which a read-only
    connection may rebuild) counts by name only."""
    return {
        p.name: "" if p.name == rebuilt else hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


@pytest.mark.parametrize("table", ["events", "runs", "memories"])
def test_another_apps_database_with_our_table_names_is_refused_untouched(tmp_path, table) -> None:
    db = db_path(tmp_path)
    raw = sqlite3.connect(db)
    raw.execute(f"CREATE TABLE {table} (run_id TEXT, x TEXT)")
    raw.execute(f"INSERT INTO {table} VALUES ('a', 'their data')")
    raw.commit()
    raw.close()
    before = _digest(tmp_path)
    with pytest.raises(SaveFileError, match="no WorldForge stamp"):
        connect(db)
    for args in (
        ("runs",),
        ("memory", "show", "--run", "a"),
        ("simulate", "--pitch", "Bike repair"),
    ):
        res = cli(tmp_path, *args)
        assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert _digest(tmp_path) == before  # no tables added, no WAL mode, no -wal or -shm


def test_a_damaged_save_with_a_valid_wal_is_left_as_found(tmp_path) -> None:
    src = tmp_path / "src"
    run_id = play_venture(src, stop_after=3)
    live = db_path(src)
    holder = sqlite3.connect(live)  # keep a WAL with committed frames beside the file
    holder.execute("PRAGMA wal_autocheckpoint=0")
    holder.execute("UPDATE runs SET updated = updated || ' ' WHERE run_id = ?", (run_id,))
    holder.commit()
    save = tmp_path / "save"
    save.mkdir()
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{live}{suffix}").exists():
            shutil.copyfile(f"{live}{suffix}", save / f"worldforge.db{suffix}")
    holder.close()
    assert (save / "worldforge.db-wal").stat().st_size > 0
    data = bytearray((save / "worldforge.db").read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for i in range(2 * page, min(len(data), 6 * page)):  # smash pages 3-6 (the b-trees)
        data[i] = 0xA5
    (save / "worldforge.db").write_bytes(bytes(data))
    before = _digest(save, rebuilt="worldforge.db-shm")
    res = cli(save, "memory", "show", "--run", run_id)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "damaged" in res.stderr and ".recover" in res.stderr
    res = cli(save, "simulate", "--pitch", "Bike repair bookings")
    assert res.returncode == 2 and "damaged" in res.stderr
    assert _digest(save, rebuilt="worldforge.db-shm") == before  # the -wal is still there


def test_read_only_commands_never_write_the_save(tmp_path) -> None:
    run_id = play_venture(tmp_path, stop_after=5)
    db = db_path(tmp_path)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    for args in (
        ("runs",),
        ("memory", "show", "--run", run_id),
        ("memory", "audit", "--run", run_id),
        ("memory", "recall", "--run", run_id, "--query", "price"),
        ("memory", "prune", "--dry-run", "--run", run_id),
        ("replay", run_id, "--verify"),
    ):
        res = cli(tmp_path, *args)
        assert res.returncode == 0, (args, res.stderr)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    wal = Path(f"{db}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
