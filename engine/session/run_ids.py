"""Opaque run ids for saves written before they were opaque.

Earlier builds named a run after its company ("zebracorn-courier-co-299a67"), and the name is
user text (by default the pitch's first words) that then sat in every row of every table, audit
rows included, after the run was forgotten. Opening such a save read-write renames each of its game
runs to a fresh opaque id in every table that has a `run_id` column, in the opening transaction.
"""

from __future__ import annotations

import os
import re
import sqlite3

from worldforge_savedb.db import register_schema

OPAQUE = re.compile(r"run-[0-9a-f]{16}")


def new_run_id() -> str:
    """An opaque run id: random, never derived from the pitch or name (so ids, file names and
    audit rows carry no user text, and two identical runs started at once never collide)."""
    return f"run-{os.urandom(8).hex()}"  # secrets.token_hex(8): the same OS randomness


def table_exists(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the save has the table (a new or older save may not have it yet)."""
    sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
    return conn.execute(sql, (name,)).fetchone() is not None


_APPEND_ONLY = ("memory_audit_no_update", "memory_audit_no_delete")


def run_id_tables(conn: sqlite3.Connection) -> list[str]:
    """Tables with a `run_id` column; those with triggers last, so a trigger that looks up the
    run in another table (the memory counters) finds it already renamed."""
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
        )
    ]
    triggered = {
        r[0] for r in conn.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")
    }
    return sorted(
        (
            t
            for t in tables
            if "run_id" in {r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')}
        ),
        key=lambda t: t in triggered,
    )


def migrate(conn: sqlite3.Connection) -> dict[str, str]:
    """Rename every game run whose id is not opaque; returns old -> new (runs inside `connect`'s
    transaction; the audit log's append-only triggers are lifted for the rename and restored)."""
    if not table_exists(conn, "runs"):
        return {}
    legacy = [
        r[0] for r in conn.execute("SELECT run_id FROM runs") if not OPAQUE.fullmatch(str(r[0]))
    ]
    if not legacy:
        return {}
    renames = {old: new_run_id() for old in legacy}
    triggers = [
        (name, sql)
        for name, sql in conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (?, ?)",
            _APPEND_ONLY,
        )
    ]
    for name, _ in triggers:
        conn.execute(f'DROP TRIGGER "{name}"')
    for table in run_id_tables(conn):
        conn.executemany(
            f'UPDATE "{table}" SET run_id = ? WHERE run_id = ?',
            [(new, old) for old, new in renames.items()],
        )
    conn.executemany(
        "UPDATE runs SET state = json_set(state, '$.run_id', ?) WHERE run_id = ?",
        [(new, new) for new in renames.values()],
    )
    for _, sql in triggers:
        conn.execute(sql)
    return renames


register_schema("run_ids", migrate)
