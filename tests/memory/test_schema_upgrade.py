"""A save written by the previous build (format 1: an in-process recall index fed by revision
counters, no FTS) opens, migrates in place, and recalls, deduplicates and counts as before."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memory.local.store import MemoryStore
from memory.models import NewNote
from worldforge_savedb.db import APPLICATION_ID, SCHEMA_VERSION, connect, db_path

# The memory tables as format 1 wrote them (the columns and triggers the migration must retire).
_FORMAT_1 = """
CREATE TABLE memories (pk INTEGER PRIMARY KEY, run_id TEXT NOT NULL, id TEXT NOT NULL,
    seq INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, norm TEXT NOT NULL,
    norm_key INTEGER, status TEXT NOT NULL, author TEXT NOT NULL, importance REAL NOT NULL,
    game_day INTEGER NOT NULL, ts TEXT NOT NULL, expires_day INTEGER,
    source_ids TEXT NOT NULL DEFAULT '[]', origin TEXT NOT NULL DEFAULT 'local-sqlite',
    stage_id TEXT, axis TEXT, reinforced INTEGER NOT NULL DEFAULT 0, superseded_by TEXT,
    worker TEXT, consolidated_into TEXT, reviewer TEXT, rev INTEGER NOT NULL DEFAULT 0,
    UNIQUE (run_id, id));
CREATE INDEX memories_stage_set ON memories (run_id, stage_id) WHERE stage_id IS NOT NULL;
CREATE TABLE memory_counters (run_id TEXT PRIMARY KEY, n INTEGER NOT NULL,
    rev INTEGER NOT NULL DEFAULT 0, del_rev INTEGER NOT NULL DEFAULT 0,
    token TEXT NOT NULL DEFAULT (lower(hex(randomblob(8)))));
CREATE TRIGGER memories_count_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memory_counters (run_id, n, rev) VALUES (new.run_id, new.seq, max(new.rev, 1))
    ON CONFLICT (run_id) DO UPDATE SET n = max(n, excluded.n), rev = max(rev + 1, excluded.rev);
END;
CREATE TRIGGER memories_rev_au AFTER UPDATE ON memories WHEN new.rev = old.rev BEGIN
    UPDATE memory_counters SET rev = rev + 1 WHERE run_id = new.run_id;
END;
CREATE TRIGGER memories_rev_ad AFTER DELETE ON memories BEGIN
    UPDATE memory_counters SET rev = rev + 1, del_rev = rev + 1 WHERE run_id = old.run_id;
END;
CREATE TABLE memory_cloud_outbox (pk INTEGER PRIMARY KEY, run_id TEXT NOT NULL, op TEXT NOT NULL,
    memory_id TEXT, kind TEXT, text TEXT);
CREATE TABLE memory_audit (seq INTEGER PRIMARY KEY, run_id TEXT NOT NULL,
    operation TEXT NOT NULL, memory_ids TEXT NOT NULL, reason TEXT NOT NULL, ts TEXT NOT NULL,
    game_day INTEGER);
"""
_ROWS = [  # run, id, seq, kind, text, norm, status, axis, game_day
    (
        "run-old",
        "mem-00001",
        1,
        "context",
        "Clinics pay on time",
        "clinics pay on time",
        "active",
        None,
        1,
    ),
    ("run-old", "mem-00002", 2, "procedural", "Depth first", "depth first", "active", "depth", 2),
    (
        "run-other",
        "mem-00001",
        1,
        "context",
        "Clinics in the other run",
        "clinics in the other run",
        "active",
        None,
        1,
    ),
]


def _format_1_save(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.executescript(_FORMAT_1)
    conn.executemany(
        "INSERT INTO memories (run_id, id, seq, kind, text, norm, norm_key, status, author,"
        " importance, game_day, ts, axis, rev) VALUES (?, ?, ?, ?, ?, ?, 42, ?, 'ceo', 5, ?,"
        " '2025-01-01T00:00:00.000Z', ?, 1)",
        [(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[8], r[7]) for r in _ROWS],
    )
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()


def test_format_1_save_migrates_on_open(save_dir: Path) -> None:
    path = db_path(save_dir)
    _format_1_save(path)
    conn = connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    columns = {r[1] for r in conn.execute("PRAGMA table_info(memories)")}
    assert {"n_terms", "run_key", "norm_key"} <= columns
    assert not {"norm", "rev", "terms"} & columns
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert {"memories_fts", "memories_fts_ai", "memories_norm_key"} <= names
    assert not {"memories_rev_au", "memories_rev_ad"} & names
    store = MemoryStore(conn, "run-old")
    found = store.recall("clinic", game_day=3)
    assert [r.id for r in found.items if r.kind == "context"] == ["mem-00001"]  # own run only
    again = store.remember(NewNote("context", "clinics  PAY on time!", author="system", game_day=3))
    assert again.id == "mem-00001" and again.reinforced == 1  # found by its recomputed key
    new = store.remember(NewNote("context", "Farmers want payroll", author="system", game_day=3))
    assert new.id == "mem-00003"  # the counter carried on
    assert "mem-00003" in [r.id for r in store.recall("payroll farmers", game_day=3).items]
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # FTS5 compares its index with the rows it was built from and raises on any difference.
    conn.execute("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)")
    conn.close()


def test_migrated_save_opens_again_unchanged(save_dir: Path) -> None:
    path = db_path(save_dir)
    _format_1_save(path)
    connect(path).close()
    conn = connect(path)
    store = MemoryStore(conn, "run-old")
    assert [r.id for r in store.records()] == ["mem-00001", "mem-00002"]
    assert store.recall("depth", game_day=3).items[0].id == "mem-00002"
    conn.close()


# Format 2 kept each note's index terms in a `terms` column, read by the FTS view and triggers.
_FORMAT_2_INDEX = """
DROP TRIGGER memories_fts_ai; DROP TRIGGER memories_fts_ad; DROP TRIGGER memories_fts_au;
DROP TABLE memories_fts; DROP VIEW memories_fts_src; DROP TABLE memory_index;
ALTER TABLE memories ADD COLUMN terms TEXT NOT NULL DEFAULT '';
CREATE VIEW memories_fts_src AS
    SELECT pk, CASE WHEN terms = '' THEN '' ELSE run_key || replace(terms, ' ', ' ' || run_key)
               END AS terms FROM memories;
CREATE VIRTUAL TABLE memories_fts USING fts5(terms, content = 'memories_fts_src',
    content_rowid = 'pk', detail = none, tokenize = 'unicode61 remove_diacritics 0');
CREATE TRIGGER memories_fts_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', old.pk,
        CASE WHEN old.terms = '' THEN '' ELSE old.run_key || replace(old.terms, ' ',
                                                                     ' ' || old.run_key) END);
END;
"""


def _format_2_save(path: Path) -> None:
    """A save as format 2 left it: rows with their stored terms, the index built from them."""
    from worldforge_textkit import terms

    conn = connect(path)
    store = MemoryStore(conn, "run-two")
    store.remember(NewNote("context", "Clinics pay on time", author="system", game_day=1))
    store.remember(NewNote("context", "Farmers want payroll help", author="system", game_day=2))
    conn.close()
    raw = sqlite3.connect(path)
    raw.executescript(_FORMAT_2_INDEX)
    for pk, text in raw.execute("SELECT pk, text FROM memories").fetchall():
        raw.execute("UPDATE memories SET terms = ? WHERE pk = ?", (" ".join(terms(text)), pk))
    raw.execute("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')")
    raw.execute("PRAGMA user_version=2")
    raw.commit()
    raw.close()


def test_format_2_save_drops_its_stored_terms_and_recalls_as_before(save_dir: Path) -> None:
    path = db_path(save_dir)
    _format_2_save(path)
    conn = connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    assert "terms" not in {r[1] for r in conn.execute("PRAGMA table_info(memories)")}
    store = MemoryStore(conn, "run-two")
    assert [r.id for r in store.recall("payroll", game_day=3).items][:1] == ["mem-00002"]
    conn.execute("DELETE FROM memories WHERE run_id = 'run-two' AND id = 'mem-00001'")
    conn.execute("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)")
    assert [r.id for r in store.recall("clinics", game_day=3).items] == ["mem-00002"]
    conn.close()


def test_an_index_built_by_another_tokenizer_is_rebuilt_at_open(save_dir: Path) -> None:
    """The index terms are derived from the text: a save whose index another tokenizer built
    (another worldforge_textkit) gets its index rebuilt, so deletes name the terms the index holds."""
    path = db_path(save_dir)
    conn = connect(path)
    store = MemoryStore(conn, "run-t")
    store.remember(NewNote("context", "Clinics pay on time", author="system", game_day=1))
    conn.execute("UPDATE memory_index SET tokenizer = 'another'")
    # what another tokenizer would have indexed: other terms than this build derives
    conn.execute(
        "INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', 1, ?)",
        (conn.execute("SELECT terms FROM memories_fts_src WHERE pk = 1").fetchone()[0],),
    )
    conn.execute("INSERT INTO memories_fts (rowid, terms) VALUES (1, 'zzzunrelated')")
    conn.close()
    conn = connect(path)
    from memory.local.schema import tokenizer_id

    assert conn.execute("SELECT tokenizer FROM memory_index").fetchone()[0] == tokenizer_id()
    conn.execute("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)")
    store = MemoryStore(conn, "run-t")
    assert [r.id for r in store.recall("clinics", game_day=2).items] == ["mem-00001"]
    conn.close()


def test_migration_keeps_each_runs_highest_id_after_a_prune(save_dir: Path) -> None:
    """A format-1 run whose newest notes were pruned still never reuses their ids."""
    path = db_path(save_dir)
    _format_1_save(path)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE memory_counters SET n = 7 WHERE run_id = 'run-old'")  # ids 3..7 pruned
    raw.commit()
    raw.close()
    conn = connect(path)
    store = MemoryStore(conn, "run-old")
    new = store.remember(NewNote("context", "Farmers want payroll", author="system", game_day=3))
    assert new.id == "mem-00008"
    assert MemoryStore(conn, "run-other").records()[0].text == "Clinics in the other run"
    conn.close()


# The memory tables reach the save file by registering with `worldforge_savedb` when memory.local.schema is
# imported; every path that opens a save for writing must have imported it, or an older save would
# be stamped current with its memory tables left unmigrated. Each is tried in a fresh process.
_OPENERS = {
    "engine": "from engine.session.savefile import open_save; open_save(sys.argv[1]).close()",
    "cli memory forget": (
        "from worldforge_tui.cli import main; sys.exit(main(['memory', 'forget', 'run-other',"
        " '--yes', '--save-dir', str(pathlib.Path(sys.argv[1]).parent)]))"
    ),
}


@pytest.mark.parametrize("opener", sorted(_OPENERS))
def test_every_opener_migrates_the_memory_tables(save_dir: Path, opener: str) -> None:
    path = db_path(save_dir)
    _format_1_save(path)
    code = f"import pathlib, sys\n{_OPENERS[opener]}"
    proc = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "n_terms" in {r[1] for r in raw.execute("PRAGMA table_info(memories)")}
    raw.close()
    conn = connect(path)
    found = MemoryStore(conn, "run-old").recall("clinic", game_day=3)
    assert [r.id for r in found.items if r.kind == "context"] == ["mem-00001"]
    conn.close()
