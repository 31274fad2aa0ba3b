"""Save files: version and identity stamped, older saves migrate, bad files refused and left untouched."""

from __future__ import annotations

import hashlib
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import SaveError
from engine.play.headless import Plan, play
from engine.session.api import GameSession
from engine.session.replay import verify
from engine.session.savefile import inspect_save, integrity, open_save
from tests.reliability.conftest import play_venture
from worldforge_savedb.db import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    SQLITE_MAGIC,
    SaveFileError,
    connect,
)
from worldforge_tui.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _pragma(path: Path, name: str) -> int:
    raw = sqlite3.connect(path)
    try:
        return raw.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        raw.close()


def _set_pragma(path: Path, name: str, value: int) -> None:
    raw = sqlite3.connect(path)
    try:
        raw.execute(f"PRAGMA {name}={value}")
        raw.commit()
    finally:
        raw.close()  # the last connection checkpoints and removes the WAL: one self-contained file


# ---------------------------------------------------------------- bad files, one way to make each


def _newer(good: Path, target: Path) -> None:
    shutil.copy(good, target)
    _set_pragma(target, "user_version", SCHEMA_VERSION + 7)


def _foreign_app(good: Path, target: Path) -> None:
    shutil.copy(good, target)
    _set_pragma(target, "application_id", 0x47504B47)  # a GeoPackage's id


def _foreign_sqlite(good: Path, target: Path) -> None:
    raw = sqlite3.connect(target)
    raw.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT, taken TEXT)")
    raw.execute("INSERT INTO photos (path, taken) VALUES ('a.jpg', '2024-01-01')")
    raw.commit()
    raw.close()


def _text_file(good: Path, target: Path) -> None:
    target.write_text("name,score\nada,3\n", encoding="utf-8")


def _truncated(good: Path, target: Path) -> None:
    data = good.read_bytes()
    target.write_bytes(data[: len(data) // 2])


def _truncated_header(good: Path, target: Path) -> None:
    target.write_bytes(good.read_bytes()[:40])


def _corrupt_pages(good: Path, target: Path) -> None:
    data = bytearray(good.read_bytes())
    noise = random.Random(3).randbytes(8192)
    data[4096 : 4096 + len(noise)] = noise  # pages 2-3: table b-trees right after the schema page
    target.write_bytes(bytes(data))


def _corrupt_header(good: Path, target: Path) -> None:
    data = bytearray(good.read_bytes())
    data[16:18] = b"\x00\x03"  # an impossible page size
    target.write_bytes(bytes(data))


BAD_FILES: dict[str, Callable[[Path, Path], None]] = {
    "newer": _newer,
    "foreign-app-id": _foreign_app,
    "foreign-sqlite": _foreign_sqlite,
    "text-file": _text_file,
    "truncated": _truncated,
    "truncated-header": _truncated_header,
    "corrupt-pages": _corrupt_pages,
    "corrupt-header": _corrupt_header,
}


@pytest.fixture(params=sorted(BAD_FILES))
def bad_save(request, played_save, tmp_path) -> tuple[Path, str, str]:
    """(save dir holding a bad worldforge.db, a run id, the kind of damage)."""
    good, run_id = played_save
    save_dir = tmp_path / "bad"
    save_dir.mkdir()
    BAD_FILES[request.param](good, save_dir / "worldforge.db")
    return save_dir, run_id, request.param


# ---------------------------------------------------------------- tests


def test_a_new_save_is_stamped_and_healthy(played_save):
    good, _ = played_save
    assert _pragma(good, "application_id") == APPLICATION_ID
    assert _pragma(good, "user_version") == SCHEMA_VERSION
    info = inspect_save(good)
    assert (info.version, info.integrity, info.runs) == (SCHEMA_VERSION, "ok", 1)


def test_bad_save_gives_one_clear_error_and_is_never_written(bad_save, capsys):
    save_dir, run_id, kind = bad_save
    db = save_dir / "worldforge.db"
    before = _digest(db)
    calls: list[Callable[[], object]] = [
        lambda: GameSession.load(run_id, save_dir=save_dir),
        lambda: GameSession.list_runs(save_dir),
        lambda: GameSession.start_venture(
            pitch="Tool rental lockers for apartments", save_dir=save_dir
        ),
        lambda: inspect_save(db),
    ]
    for call in calls:
        with pytest.raises(SaveError) as info:
            call()
        message = str(info.value)
        assert "\n" not in message and "--save-dir" in message and "move it aside" in message
    for argv in (
        ["simulate", "--pitch", "Tool rental lockers for apartments", "--save-dir", str(save_dir)],
        ["replay", run_id, "--verify", "--save-dir", str(save_dir)],
        ["memory", "show", "--run", run_id, "--save-dir", str(save_dir)],
    ):
        assert cli_main(argv) == 2, (kind, argv)
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and err.startswith("worldforge: error:") and "--save-dir" in err
        assert "Traceback" not in err
    assert _digest(db) == before, f"{kind}: the refused save was modified"
    assert not (save_dir / "worldforge.db-wal").exists() or kind == "newer"


def test_cli_process_exit_code_and_suggestion(played_save, tmp_path):
    """The real entry point: exit 2, one line on stderr naming a way forward, file untouched."""
    save_dir = tmp_path / "foreign"
    save_dir.mkdir()
    _foreign_sqlite(played_save[0], save_dir / "worldforge.db")
    before = _digest(save_dir / "worldforge.db")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "worldforge_tui.cli",
            "simulate",
            "--pitch",
            "Meal plans for night shift nurses",
            "--save-dir",
            str(save_dir),
        ],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "move it aside or use --save-dir" in lines[0]
    assert _digest(save_dir / "worldforge.db") == before


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=st.binary(min_size=1, max_size=6000), magic=st.booleans())
def test_random_bytes_are_refused_and_kept(tmp_path, body, magic):
    path = tmp_path / "rand" / "worldforge.db"
    path.parent.mkdir(exist_ok=True)
    data = (SQLITE_MAGIC + body) if magic else body
    path.write_bytes(data)
    try:
        with pytest.raises(SaveFileError):
            connect(path, create=False).close()
        assert path.read_bytes() == data
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


def test_an_empty_file_is_a_new_save(tmp_path):
    """A process killed while creating the save leaves a zero-length file; it opens as new."""
    (tmp_path / "worldforge.db").write_bytes(b"")
    run_id = play_venture(tmp_path, stop_after=3)
    assert [r.run_id for r in GameSession.list_runs(tmp_path)] == [run_id]


# ---------------------------------------------------------------- migration


def _downgrade_to_unversioned(db: Path) -> None:
    """Rewrite a current save into the shape of the first, unversioned builds: no application id
    or user_version, the memory tables without the revision columns and with their FTS5 index."""
    raw = sqlite3.connect(db, isolation_level=None)
    try:
        raw.execute("BEGIN")
        for (name,) in raw.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('trigger', 'index')"
            " AND name LIKE 'memor%' AND sql IS NOT NULL"
        ).fetchall():
            kind = raw.execute("SELECT type FROM sqlite_master WHERE name=?", (name,)).fetchone()[0]
            raw.execute(f"DROP {kind.upper()} {name}")
        for table, keep_out in (
            ("memories", {"rev"}),
            ("memory_counters", {"rev", "del_rev", "token"}),
        ):
            cols = [r[1] for r in raw.execute(f"PRAGMA table_info({table})")]
            for col in cols:
                if col in keep_out:
                    raw.execute(f"ALTER TABLE {table} DROP COLUMN {col}")
        raw.execute("DROP TABLE IF EXISTS memories_fts")  # today's index, replaced by the old one
        raw.execute("DROP VIEW IF EXISTS memories_fts_src")
        raw.execute("CREATE INDEX memories_live ON memories (run_id, status, kind, game_day, seq)")
        raw.execute(
            "CREATE VIRTUAL TABLE memories_fts USING fts5(text, content='memories', "
            "content_rowid='pk', tokenize='porter unicode61')"
        )
        raw.execute("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')")
        raw.execute(
            "CREATE TRIGGER memories_fts_ai AFTER INSERT ON memories BEGIN "
            "INSERT INTO memories_fts (rowid, text) VALUES (new.pk, new.text); END"
        )
        raw.execute("PRAGMA application_id=0")
        raw.execute("PRAGMA user_version=0")
        raw.execute("COMMIT")
    finally:
        raw.close()


def test_an_older_save_migrates_on_open_and_plays_on(tmp_path):
    run_id = play_venture(tmp_path, stop_after=9)  # mid-venture: stage 3 waiting
    db = tmp_path / "worldforge.db"
    _downgrade_to_unversioned(db)
    assert (_pragma(db, "user_version"), _pragma(db, "application_id")) == (0, 0)
    # Unstamped, it is recognised by nothing but table names: refused, and left as found.
    before = db.read_bytes()
    with pytest.raises(SaveError, match="no WorldForge stamp"):
        GameSession.load(run_id, save_dir=tmp_path)
    assert db.read_bytes() == before
    _set_pragma(db, "application_id", APPLICATION_ID)  # the player adopts it, as the line says
    session = GameSession.load(run_id, save_dir=tmp_path)
    try:
        assert _pragma(db, "user_version") == SCHEMA_VERSION
        assert _pragma(db, "application_id") == APPLICATION_ID
        cols = {r[1] for r in session.conn.execute("PRAGMA table_info(memories)")}
        assert {"n_terms", "run_key"} <= cols  # the recall index's columns came with the migration
        session.conn.execute(
            "INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)"
        )  # raises if the index misses a row
        play(session, Plan(path="B" * 8))
        assert session.state.phase == "ended"
        assert verify(session.conn, run_id).ok
        assert integrity(session.conn) == "ok"
    finally:
        session.close()


def test_open_save_maps_the_refusal_to_save_error(tmp_path):
    path = tmp_path / "worldforge.db"
    path.write_text("not a database", encoding="utf-8")
    with pytest.raises(SaveError, match="not a WorldForge save"):
        open_save(path, create=False)
    assert path.read_text(encoding="utf-8") == "not a database"
