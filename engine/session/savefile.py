"""Opening the save file from the engine: `worldforge_savedb.db.connect` checks, migrates and stamps it; this
module maps its refusals to `SaveError` (one clear line with a way forward) and reports on a save.

A refused file is never written to: the checks read the header and pragmas before anything else.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import memory.local.schema  # noqa: F401 - registers the memory tables and their migration
from engine.errors import SaveError, SaveReadOnly
from engine.session.run_ids import table_exists
from worldforge_savedb.db import SCHEMA_VERSION, SaveFileError, SaveReadOnlyError, connect
from worldforge_savedb.records import FrozenRecord


@dataclass(frozen=True, eq=False, repr=False)
class SaveInfo(FrozenRecord):
    """What `inspect_save` found: format version, identity, integrity and how many runs it holds."""

    path: str
    version: int
    current_version: int
    application_id: int
    integrity: str
    runs: int


def open_save(
    path: str | Path, *, create: bool = True, readonly: bool = False
) -> sqlite3.Connection:
    """`worldforge_savedb.db.connect` with its refusals raised as SaveError (newer, foreign, corrupt, truncated)."""
    try:
        return connect(path, create=create, readonly=readonly)
    except SaveReadOnlyError as err:
        raise SaveReadOnly(str(err)) from err
    except SaveFileError as err:
        message = str(err)
        if " is damaged " in message:  # what can still be read, before the way forward
            head, _, tail = message.partition("); ")
            message = f"{head}); {readable_line(Path(path))}; {tail}"
        raise SaveError(message) from err


def open_to_look(path: str | Path) -> tuple[sqlite3.Connection, bool]:
    """The save for a command that only looks, and whether it is read-only: read-write where it
    can be written (an older format is upgraded on the way), else read-only (a read-only dir;
    `worldforge_savedb.db` says how)."""
    try:
        return open_save(path, create=False), False
    except SaveReadOnly:
        return open_save(path, create=False, readonly=True), True


def readable_line(path: Path) -> str:
    """What can still be read from a save refused as damaged, for the refusal's one line."""
    from worldforge_savedb.stamp import salvage

    rows = salvage(path, "SELECT name, day, outcome FROM runs ORDER BY updated DESC")
    if not rows:
        return "no venture in it can be read"
    named = [
        f"{''.join(ch for ch in str(name) if ch.isprintable())[:40]} (day {day}"
        + (", ended)" if outcome else ")")
        for name, day, outcome in rows[:4]
    ]
    more = f" and {len(rows) - 4} more" if len(rows) > 4 else ""
    noun = "venture" if len(rows) == 1 else "ventures"
    return f"still readable: {len(rows)} {noun}: " + ", ".join(named) + more


def integrity(conn: sqlite3.Connection) -> str:
    """`PRAGMA integrity_check` as one line: "ok" or the first problems SQLite names."""
    rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(5)")]
    return "ok" if rows == ["ok"] else "; ".join(rows)[:300]


def inspect_save(path: str | Path) -> SaveInfo:
    """Open an existing save (migrating it if older) and report its version, identity and health."""
    path = Path(path)
    if not path.exists():
        raise SaveError(f"no save file at {path}")
    conn = open_save(path, create=False)
    try:
        has_runs = table_exists(conn, "runs")  # a save from before runs were a table
        runs = conn.execute("SELECT count(*) FROM runs").fetchone()[0] if has_runs else 0
        return SaveInfo(
            path=str(path),
            version=conn.execute("PRAGMA user_version").fetchone()[0],
            current_version=SCHEMA_VERSION,
            application_id=conn.execute("PRAGMA application_id").fetchone()[0],
            integrity=integrity(conn),
            runs=int(runs),
        )
    finally:
        conn.close()
