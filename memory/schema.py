"""The memory tables in the shared save file: memories, per-run counters and revisions, the cloud
outbox, and the append-only, content-free audit log. Registered with `memory.db` at import time."""

from __future__ import annotations

import sqlite3

from memory.db import register_schema
from memory.text import norm_key

_DDL = """
CREATE TABLE IF NOT EXISTS memories (
    pk INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    norm TEXT NOT NULL,
    norm_key INTEGER,
    status TEXT NOT NULL,
    author TEXT NOT NULL,
    importance REAL NOT NULL,
    game_day INTEGER NOT NULL,
    ts TEXT NOT NULL,
    expires_day INTEGER,
    source_ids TEXT NOT NULL DEFAULT '[]',
    origin TEXT NOT NULL DEFAULT 'local-sqlite',
    stage_id TEXT,
    axis TEXT,
    reinforced INTEGER NOT NULL DEFAULT 0,
    superseded_by TEXT,
    worker TEXT,
    consolidated_into TEXT,
    reviewer TEXT,
    rev INTEGER NOT NULL DEFAULT 0,
    UNIQUE (run_id, id)
);
-- Exact restatement is answered by the run's in-process index (`memory.index`), so `norm_key` (a
-- 64-bit key of the normalised words) is kept filled but not indexed: a random key would dirty one
-- index page per insert. Stage lookups only ever ask for a stage, so rows without one stay out.
CREATE INDEX IF NOT EXISTS memories_stage_set ON memories (run_id, stage_id)
    WHERE stage_id IS NOT NULL;

-- Every change to a run's memories bumps its revision, so an in-process recall index can tell
-- (with one indexed read) whether it is current and reload only the rows that changed (a scan of
-- the run's rows; no index on `rev`, which would cost a page per run on every commit). Inserts
-- carry their sequence number and revision (counter + 1) in the row itself, and this trigger
-- creates or advances the run's counter row, so a write is one statement; updates are stamped
-- by the update trigger.
CREATE TRIGGER IF NOT EXISTS memories_count_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memory_counters (run_id, n, rev) VALUES (new.run_id, new.seq, max(new.rev, 1))
    ON CONFLICT (run_id) DO UPDATE SET n = max(n, excluded.n), rev = max(rev + 1, excluded.rev);
END;
CREATE TRIGGER IF NOT EXISTS memories_rev_au AFTER UPDATE ON memories WHEN new.rev = old.rev BEGIN
    UPDATE memory_counters SET rev = rev + 1 WHERE run_id = new.run_id;
    UPDATE memories SET rev = (SELECT rev FROM memory_counters WHERE run_id = new.run_id)
        WHERE pk = new.pk;
END;
CREATE TRIGGER IF NOT EXISTS memories_rev_ad AFTER DELETE ON memories BEGIN
    UPDATE memory_counters SET rev = rev + 1, del_rev = rev + 1 WHERE run_id = old.run_id;
END;

CREATE TABLE IF NOT EXISTS memory_counters (
    run_id TEXT PRIMARY KEY,
    n INTEGER NOT NULL,
    rev INTEGER NOT NULL DEFAULT 0,
    del_rev INTEGER NOT NULL DEFAULT 0,
    token TEXT NOT NULL DEFAULT (lower(hex(randomblob(8))))
);

CREATE TABLE IF NOT EXISTS memory_cloud_outbox (
    pk INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    op TEXT NOT NULL,
    memory_id TEXT,
    kind TEXT,
    text TEXT
);
CREATE INDEX IF NOT EXISTS memory_cloud_outbox_run ON memory_cloud_outbox (run_id, pk);

CREATE TABLE IF NOT EXISTS memory_audit (
    seq INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    operation TEXT NOT NULL,
    memory_ids TEXT NOT NULL,
    reason TEXT NOT NULL,
    ts TEXT NOT NULL,
    game_day INTEGER
);
CREATE TRIGGER IF NOT EXISTS memory_audit_no_update BEFORE UPDATE ON memory_audit BEGIN
    SELECT RAISE(ABORT, 'memory_audit is append-only');
END;
CREATE TRIGGER IF NOT EXISTS memory_audit_no_delete BEFORE DELETE ON memory_audit BEGIN
    SELECT RAISE(ABORT, 'memory_audit is append-only');
END;
"""


def _statements(script: str) -> list[str]:
    """Split a DDL script into complete statements (trigger bodies keep their inner semicolons)."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    return out


_STATEMENTS = _statements(_DDL)


# Save files written by earlier builds: an FTS5 index, wider indexes (full normalised text, its key,
# every row's stage, the revision) and the insert trigger that only bumped the revision (the counter row
# is now advanced by `memories_count_ai`).
_RETIRED = ("DROP TRIGGER IF EXISTS memories_rev_ai", "DROP INDEX IF EXISTS memories_norm",
            "DROP INDEX IF EXISTS memories_stage", "DROP INDEX IF EXISTS memories_rev",
            "DROP TRIGGER IF EXISTS memories_fts_ai", "DROP TRIGGER IF EXISTS memories_fts_ad",
            "DROP TRIGGER IF EXISTS memories_fts_au", "DROP TABLE IF EXISTS memories_fts",
            "DROP INDEX IF EXISTS memories_live", "DROP INDEX IF EXISTS memories_axis",
            "DROP INDEX IF EXISTS memory_audit_run", "DROP INDEX IF EXISTS memories_normkey")
_ADDED_COLUMNS = (("memories", "rev", "INTEGER NOT NULL DEFAULT 0"),
                  ("memories", "norm_key", "INTEGER"),
                  ("memory_counters", "rev", "INTEGER NOT NULL DEFAULT 0"),
                  ("memory_counters", "del_rev", "INTEGER NOT NULL DEFAULT 0"),
                  ("memory_counters", "token", "TEXT NOT NULL DEFAULT 'v1'"))


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring an older save file's memory tables to the current shape (additive)."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "memories" not in tables:
        return
    for table, column, decl in _ADDED_COLUMNS:
        if table in tables and column not in {r[1] for r in conn.execute(
                f"PRAGMA table_info({table})")}:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
            if column == "norm_key":
                conn.executemany("UPDATE memories SET norm_key = ? WHERE pk = ?",
                                 [(norm_key(n), pk) for pk, n in
                                  conn.execute("SELECT pk, norm FROM memories").fetchall()])
    for sql in _RETIRED:
        conn.execute(sql)


def ensure(conn: sqlite3.Connection) -> None:
    """Create the memory tables if missing (idempotent; runs inside `connect`'s transaction)."""
    _migrate(conn)
    for sql in _STATEMENTS:
        conn.execute(sql)


register_schema("memory", ensure)
