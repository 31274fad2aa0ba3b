"""Opening the save file from the engine: `memory.local.db.connect` checks, migrates and stamps it; this
module maps its refusals to `SaveError` (one clear line with a way forward) and reports on a save.

A refused file is never written to: the checks read the header and pragmas before anything else.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pydantic import BaseModel

from engine.errors import SaveError
from memory.local.db import APPLICATION_ID, SCHEMA_VERSION, SaveFileError, connect


class SaveInfo(BaseModel):
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
    """`memory.local.db.connect` with its refusals raised as SaveError (newer, foreign, corrupt, truncated)."""
    try:
        return connect(path, create=create, readonly=readonly)
    except SaveFileError as err:
        raise SaveError(str(err)) from err


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
        has_runs = (
            conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='runs'"
            ).fetchone()
            is not None
        )
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


__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "SaveInfo", "inspect_save", "integrity", "open_save"]
