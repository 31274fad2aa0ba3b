"""The memory tables in the shared save file: memories (+ FTS5 index), id counters, cloud outbox,
and the append-only, content-free audit log. Registered with `memory.db` at import time."""

from __future__ import annotations

import sqlite3

from memory.db import register_schema

_DDL = """
CREATE TABLE IF NOT EXISTS memories (
    pk INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    norm TEXT NOT NULL,
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
    UNIQUE (run_id, id)
);
CREATE INDEX IF NOT EXISTS memories_live ON memories (run_id, status, kind, game_day, seq);
CREATE INDEX IF NOT EXISTS memories_norm ON memories (run_id, norm);
CREATE INDEX IF NOT EXISTS memories_axis ON memories (run_id, kind, axis);
CREATE INDEX IF NOT EXISTS memories_stage ON memories (run_id, stage_id, author);

CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
    text, content='memories', content_rowid='pk', tokenize='porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS memories_fts_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, text) VALUES (new.pk, new.text);
END;
CREATE TRIGGER IF NOT EXISTS memories_fts_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.pk, old.text);
END;
CREATE TRIGGER IF NOT EXISTS memories_fts_au AFTER UPDATE OF text ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.pk, old.text);
    INSERT INTO memories_fts (rowid, text) VALUES (new.pk, new.text);
END;

CREATE TABLE IF NOT EXISTS memory_counters (
    run_id TEXT PRIMARY KEY,
    n INTEGER NOT NULL
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
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL,
    operation TEXT NOT NULL,
    memory_ids TEXT NOT NULL,
    reason TEXT NOT NULL,
    ts TEXT NOT NULL,
    game_day INTEGER
);
CREATE INDEX IF NOT EXISTS memory_audit_run ON memory_audit (run_id, seq);
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


def ensure(conn: sqlite3.Connection) -> None:
    """Create the memory tables if missing (idempotent; runs inside `connect`'s transaction)."""
    for sql in _STATEMENTS:
        conn.execute(sql)


register_schema("memory", ensure)
