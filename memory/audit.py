"""The content-free audit log: ids, operation, reason code and time; never memory text.

Rows are append-only (triggers refuse UPDATE/DELETE) and survive a run being forgotten.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache

from memory.models import AuditRecord

_CODE = re.compile(r"[^a-z0-9_\-:.]")


def utc_now() -> str:
    """ISO-8601 UTC timestamp with milliseconds, e.g. 2025-01-02T03:04:05.678Z (metadata only;
    never used for ranking)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@lru_cache(maxsize=512)
def reason_code(reason: str) -> str:
    """Force a reason into a short machine code so free text can never leak into the audit."""
    return _CODE.sub("-", reason.lower())[:48] or "unspecified"


def append(
    conn: sqlite3.Connection,
    run_id: str,
    operation: str,
    memory_ids: Sequence[str],
    reason: str,
    *,
    game_day: int | None = None,
    ts: str | None = None,
) -> None:
    """Append one audit row (caller holds the transaction): run, operation code, sorted ids,
    reason code, time (default now) and game day."""
    conn.execute(
        "INSERT INTO memory_audit (run_id, operation, memory_ids, reason, ts, game_day)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            run_id,
            reason_code(operation),
            json.dumps(sorted(set(memory_ids))),
            reason_code(reason),
            ts or utc_now(),
            game_day,
        ),
    )


def read(conn: sqlite3.Connection, run_id: str, *, limit: int | None = None) -> list[AuditRecord]:
    """Audit rows for one run, oldest first (the last `limit` when given)."""
    sql = (
        "SELECT seq, run_id, operation, memory_ids, reason, ts, game_day FROM memory_audit"
        " WHERE run_id = ? ORDER BY seq"
    )
    rows = conn.execute(sql, (run_id,)).fetchall()
    if limit is not None:
        rows = rows[-limit:] if limit > 0 else []
    return [
        AuditRecord(
            seq=r[0],
            run_id=r[1],
            operation=r[2],
            memory_ids=json.loads(r[3]),
            reason=r[4],
            ts=r[5],
            game_day=r[6],
        )
        for r in rows
    ]
