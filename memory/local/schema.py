"""The memory tables in the shared save file: memories with their FTS5 index, per-run counters, the
cloud outbox, and the append-only, content-free audit log. Registered with `memory.local.db` at import.

Recall runs on SQLite FTS5. The index is external-content (it stores no text of its own, only the
term index) and kept in step with `memories` by triggers. Every term is stored behind its run's key
(`run_key`, six characters from a hash of the run id), so a query for run A's terms reads only run
A's doclists: a recall's cost follows the run's size, not the save's. `terms` holds the note's
index terms (the shared `textkit` tokenizer: folded, stemmed, no stopwords); the view
`memories_fts_src` puts the run key in front of each, for the index and for its 'delete' commands.
"""

from __future__ import annotations

import sqlite3
from base64 import b32encode
from hashlib import blake2b

from memory.local.db import register_migration, register_schema
from textkit import normalise, terms

_DDL = """
CREATE TABLE IF NOT EXISTS memories (
    pk INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    terms TEXT NOT NULL DEFAULT '',
    n_terms INTEGER NOT NULL DEFAULT 0,
    run_key TEXT NOT NULL DEFAULT '',
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
    payload TEXT,
    UNIQUE (run_id, id)
);
-- Recall reads a run's live notes through this index alone (scores need no row fetch).
CREATE INDEX IF NOT EXISTS memories_recall ON memories (run_id, status, game_day, seq, importance,
    expires_day, kind, axis, n_terms);
-- Exact restatement: a 64-bit key of the normalised words, looked up within the run.
CREATE INDEX IF NOT EXISTS memories_norm_key ON memories (run_id, norm_key);
-- Stage lookups only ever ask for a stage, so rows without one stay out.
CREATE INDEX IF NOT EXISTS memories_stage_set ON memories (run_id, stage_id)
    WHERE stage_id IS NOT NULL;

CREATE VIEW IF NOT EXISTS memories_fts_src AS
    SELECT pk, CASE WHEN terms = '' THEN '' ELSE run_key || replace(terms, ' ', ' ' || run_key)
               END AS terms
    FROM memories;
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
    terms, content = 'memories_fts_src', content_rowid = 'pk', detail = none,
    tokenize = 'unicode61 remove_diacritics 0');
CREATE TRIGGER IF NOT EXISTS memories_fts_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, terms) SELECT pk, terms FROM memories_fts_src
        WHERE pk = new.pk;
END;
CREATE TRIGGER IF NOT EXISTS memories_fts_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', old.pk,
        CASE WHEN old.terms = '' THEN '' ELSE old.run_key || replace(old.terms, ' ',
                                                                     ' ' || old.run_key) END);
END;
CREATE TRIGGER IF NOT EXISTS memories_fts_au AFTER UPDATE OF terms, run_key ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', old.pk,
        CASE WHEN old.terms = '' THEN '' ELSE old.run_key || replace(old.terms, ' ',
                                                                     ' ' || old.run_key) END);
    INSERT INTO memories_fts (rowid, terms) SELECT pk, terms FROM memories_fts_src
        WHERE pk = new.pk;
END;

-- Per run: the highest sequence number, so ids are never reused while the run lives (a prune
-- deletes rows; forgetting the run deletes the counter too, and ids start again), and the number
-- of indexed notes and their total length in terms, BM25's statistics for the run.
CREATE TABLE IF NOT EXISTS memory_counters (
    run_id TEXT PRIMARY KEY,
    n INTEGER NOT NULL,
    docs INTEGER NOT NULL DEFAULT 0,
    length INTEGER NOT NULL DEFAULT 0
);
CREATE TRIGGER IF NOT EXISTS memories_count_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memory_counters (run_id, n, docs, length) VALUES (new.run_id, new.seq, 1,
                                                                  new.n_terms)
    ON CONFLICT (run_id) DO UPDATE SET n = max(n, excluded.n), docs = docs + 1,
                                       length = length + excluded.length;
END;
CREATE TRIGGER IF NOT EXISTS memories_count_ad AFTER DELETE ON memories BEGIN
    UPDATE memory_counters SET docs = docs - 1, length = length - old.n_terms
        WHERE run_id = old.run_id;
END;
CREATE TRIGGER IF NOT EXISTS memories_count_au AFTER UPDATE OF n_terms ON memories BEGIN
    UPDATE memory_counters SET length = length - old.n_terms + new.n_terms
        WHERE run_id = new.run_id;
END;

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


def run_key(run_id: str) -> str:
    """Six characters (a-z, 2-7) from a hash of the run id, in front of every index term of the
    run. Two runs sharing a key would only share doclists: rows are still filtered by run id."""
    digest = blake2b(run_id.encode(), digest_size=5).digest()
    return b32encode(digest).decode().lower()[:6]


def norm_key(norm: str) -> int:
    """A signed 64-bit key of a `normalise`d text, for the restatement index."""
    return int.from_bytes(blake2b(norm.encode(), digest_size=8).digest(), "big", signed=True)


def index_terms(text: str) -> tuple[str, int]:
    """What `memories.terms` and `n_terms` hold for a text: its index terms, space-separated,
    and how many there are (the note's length for BM25)."""
    found = terms(text)
    return " ".join(found), len(found)


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

# Everything earlier builds kept for their in-process recall index and write queue (revisions,
# freshness tokens, the normalised text) or for an older FTS table, dropped when a save migrates.
_RETIRED = (
    "DROP TRIGGER IF EXISTS memories_rev_ai",
    "DROP TRIGGER IF EXISTS memories_rev_au",
    "DROP TRIGGER IF EXISTS memories_rev_ad",
    "DROP TRIGGER IF EXISTS memories_count_ai",
    "DROP TRIGGER IF EXISTS memories_count_ad",
    "DROP TRIGGER IF EXISTS memories_count_au",
    "DROP TRIGGER IF EXISTS memories_fts_ai",
    "DROP TRIGGER IF EXISTS memories_fts_ad",
    "DROP TRIGGER IF EXISTS memories_fts_au",
    "DROP TABLE IF EXISTS memories_fts",
    "DROP VIEW IF EXISTS memories_fts_src",
    "DROP INDEX IF EXISTS memories_norm",
    "DROP INDEX IF EXISTS memories_stage",
    "DROP INDEX IF EXISTS memories_rev",
    "DROP INDEX IF EXISTS memories_live",
    "DROP INDEX IF EXISTS memories_axis",
    "DROP INDEX IF EXISTS memory_audit_run",
    "DROP INDEX IF EXISTS memories_normkey",
)
_DROPPED_COLUMNS = (
    ("memories", "norm"),
    ("memories", "rev"),
    ("memory_counters", "rev"),
    ("memory_counters", "del_rev"),
    ("memory_counters", "token"),
)


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}


def migrate_to_fts(conn: sqlite3.Connection) -> None:
    """Format 2: recall moved from an in-process index to FTS5. Fill each old row's index terms,
    run key and restatement key, drop what only the old index needed; `ensure` then builds the
    FTS index from the rows."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "memories" not in tables:
        return
    for sql in _RETIRED:
        conn.execute(sql)
    have = _columns(conn, "memories")
    for column, decl in (
        ("terms", "TEXT NOT NULL DEFAULT ''"),
        ("n_terms", "INTEGER NOT NULL DEFAULT 0"),
        ("run_key", "TEXT NOT NULL DEFAULT ''"),
        ("norm_key", "INTEGER"),
    ):
        if column not in have:
            conn.execute(f"ALTER TABLE memories ADD COLUMN {column} {decl}")
    conn.executemany(
        "UPDATE memories SET terms = ?, n_terms = ?, run_key = ?, norm_key = ? WHERE pk = ?",
        [
            (*index_terms(text), run_key(run), norm_key(normalise(text)), pk)
            for pk, run, text in conn.execute("SELECT pk, run_id, text FROM memories").fetchall()
        ],
    )
    for table, column in _DROPPED_COLUMNS:
        if table in tables and column in _columns(conn, table):
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    if "memory_counters" in tables:
        have = _columns(conn, "memory_counters")
        for column in ("docs", "length"):
            if column not in have:
                conn.execute(
                    f"ALTER TABLE memory_counters ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0"
                )
        conn.execute(
            "INSERT INTO memory_counters (run_id, n, docs, length)"
            " SELECT run_id, max(seq), count(*), total(n_terms) FROM memories WHERE true"
            " GROUP BY run_id ON CONFLICT (run_id) DO UPDATE SET n = max(n, excluded.n),"
            " docs = excluded.docs, length = excluded.length"
        )


def ensure(conn: sqlite3.Connection) -> None:
    """Create the memory tables if missing (idempotent; runs inside `connect`'s transaction). An
    FTS index created beside existing rows is built from them."""
    had_index = (
        conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'memories_fts'").fetchone()
        is not None
    )
    for sql in _STATEMENTS:
        conn.execute(sql)
    if "payload" not in _columns(conn, "memories"):  # saves from before typed directions
        conn.execute("ALTER TABLE memories ADD COLUMN payload TEXT")
    if not had_index:
        conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')")


register_migration(2, migrate_to_fts)
register_schema("memory", ensure)
