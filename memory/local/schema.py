"""The memory tables in the shared save file: memories with their FTS5 index, per-run counters, the
cloud outbox, and the append-only, content-free audit log; registered with the save file (`worldforge_savedb`),
which makes them, and migrates them from older formats, in every save.

Recall runs on SQLite FTS5. The index is external-content (it stores no text of its own, only the
term index) and kept in step with `memories` by triggers. Every term is stored behind its run's key
(`run_key`, six characters from a hash of the run id), so a query for run A's terms reads only run
A's doclists: a recall's cost follows the run's size, not the save's. A note's index terms (the
shared `worldforge_textkit` tokenizer: folded, stemmed, no stopwords; each once, as the index keeps no counts)
are not stored in the row: the SQL function `memory_index_terms(run_key, text)`, registered on
every connection `worldforge_savedb` opens, derives them for the index, its 'delete' commands and a
'rebuild', through the view `memories_fts_src`. A save remembers which tokenizer built its index
(`memory_index`); another one rebuilds the index at open, so a delete never names terms the index
was not given.
"""

from __future__ import annotations

import sqlite3
from base64 import b32encode
from functools import lru_cache
from hashlib import blake2b
from pathlib import Path

import worldforge_textkit
from worldforge_savedb.db import register_function, register_schema
from worldforge_textkit import normalise, terms

_DDL = """
CREATE TABLE IF NOT EXISTS memories (
    pk INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
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
    SELECT pk, memory_index_terms(run_key, text) AS terms FROM memories;
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
    terms, content = 'memories_fts_src', content_rowid = 'pk', detail = none, columnsize = 0,
    tokenize = 'unicode61 remove_diacritics 0');
CREATE TRIGGER IF NOT EXISTS memories_fts_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, terms) VALUES (new.pk,
        memory_index_terms(new.run_key, new.text));
END;
CREATE TRIGGER IF NOT EXISTS memories_fts_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', old.pk,
        memory_index_terms(old.run_key, old.text));
END;
CREATE TRIGGER IF NOT EXISTS memories_fts_au AFTER UPDATE OF text, run_key ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, terms) VALUES ('delete', old.pk,
        memory_index_terms(old.run_key, old.text));
    INSERT INTO memories_fts (rowid, terms) VALUES (new.pk,
        memory_index_terms(new.run_key, new.text));
END;
-- A renamed run (engine.session.run_ids) moves its notes' index terms behind its new key.
CREATE TRIGGER IF NOT EXISTS memories_rekey_au AFTER UPDATE OF run_id ON memories BEGIN
    UPDATE memories SET run_key = memory_run_key(new.run_id) WHERE pk = new.pk;
END;
-- Which tokenizer built the index (`tokenizer_id`); one row.
CREATE TABLE IF NOT EXISTS memory_index (tokenizer TEXT NOT NULL);

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


@lru_cache(maxsize=512)  # a note's terms are counted on write, then indexed by the trigger
def _terms(text: str) -> tuple[str, ...]:
    return tuple(terms(text))


def n_terms(text: str) -> int:
    """What `memories.n_terms` holds: how many index terms a text has, repeats counted (the
    note's length for BM25)."""
    return len(_terms(text))


def memory_index_terms(key: str | None, text: str | None) -> str:
    """The FTS5 column of a note (the SQL function of that name): each distinct index term of
    `text` behind the run's key, space-separated."""
    if not key or not text:
        return ""
    return " ".join(key + t for t in dict.fromkeys(_terms(text)))


@lru_cache(maxsize=1)
def tokenizer_id() -> str:
    """Names the tokenizer that derives index terms: a hash of the `worldforge_textkit` package's source. A
    save whose index another tokenizer built is rebuilt at open (`ensure`)."""
    digest = blake2b(digest_size=8)
    for source in sorted(Path(worldforge_textkit.__file__).parent.glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()


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


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}


def migrate(conn: sqlite3.Connection) -> None:
    """Any older format to 3 (format 2 moved recall from an in-process index to FTS5; format 3
    derives the index terms instead of storing them, a second copy of every note's words and a
    quarter of the file). Every index, trigger and view of the memory tables and the FTS index go;
    `memories` and `memory_counters` are set aside and made anew by `ensure`, so no retired column
    survives; the rows come back through the new triggers (which index and count them) with their
    derived columns, and each run's counter keeps the highest id it gave out."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "memories" not in tables:
        return
    for kind, name in conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger', 'view')"
        " AND sql IS NOT NULL AND (tbl_name IN ('memories', 'memory_counters', 'memory_audit')"
        " OR name = 'memories_fts_src')"
    ).fetchall():
        conn.execute(f"DROP {kind.upper()} IF EXISTS {name}")
    conn.execute("DROP TABLE IF EXISTS memories_fts")
    old = sorted({"memories", "memory_counters"} & tables)
    for table in old:
        conn.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
    ensure(conn)
    # the derived columns as `MemoryStore.insert` computes them (memory_run_key: every connection's)
    conn.create_function("memory_n_terms", 1, n_terms, deterministic=True)
    conn.create_function("memory_norm_key", 1, lambda t: norm_key(normalise(t)), deterministic=True)
    derived = {"n_terms", "run_key", "norm_key"}
    names = ", ".join(sorted(_columns(conn, "old_memories") & _columns(conn, "memories") - derived))
    conn.execute(
        f"INSERT INTO memories ({names}, n_terms, run_key, norm_key) SELECT {names},"
        " memory_n_terms(text), memory_run_key(run_id), memory_norm_key(text) FROM old_memories"
    )
    if "memory_counters" in old:
        conn.execute(
            "INSERT INTO memory_counters (run_id, n) SELECT run_id, n FROM old_memory_counters"
            " WHERE true ON CONFLICT (run_id) DO UPDATE SET n = max(n, excluded.n)"
        )
    for table in old:
        conn.execute(f"DROP TABLE old_{table}")


def ensure(conn: sqlite3.Connection) -> None:
    """Create the memory tables if missing (idempotent; runs inside `connect`'s transaction). An
    FTS index created beside existing rows, or built by another tokenizer, is built from them."""
    had_index = (
        conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'memories_fts'").fetchone()
        is not None
    )
    for sql in _STATEMENTS:
        conn.execute(sql)
    built_by = conn.execute("SELECT tokenizer FROM memory_index").fetchone()
    tokenizer = tokenizer_id()
    if not had_index or built_by is None or built_by[0] != tokenizer:
        if had_index or conn.execute("SELECT 1 FROM memories LIMIT 1").fetchone():
            conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')")
        conn.execute("DELETE FROM memory_index")
        conn.execute("INSERT INTO memory_index (tokenizer) VALUES (?)", (tokenizer,))


register_function("memory_index_terms", 2, memory_index_terms)
register_function("memory_run_key", 1, run_key)
register_schema("memory", ensure, migrate=migrate)
