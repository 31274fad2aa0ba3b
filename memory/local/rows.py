"""Row <-> record mapping for the `memories` table."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from memory.models import MemoryRecord

COLUMNS = (
    "id, run_id, kind, text, status, author, importance, game_day, ts, expires_day,"
    " source_ids, origin, stage_id, axis, reinforced, superseded_by, payload"
)


def to_record(row: sqlite3.Row | tuple[Any, ...]) -> MemoryRecord:
    """Build a MemoryRecord from a row selected with COLUMNS (in that order)."""
    return MemoryRecord(
        id=row[0],
        run_id=row[1],
        kind=row[2],
        text=row[3],
        status=row[4],
        author=row[5],
        importance=row[6],
        game_day=row[7],
        ts=row[8],
        expires_day=row[9],
        source_ids=json.loads(row[10]),
        origin=row[11],
        stage_id=row[12],
        axis=row[13],
        reinforced=row[14],
        superseded_by=row[15],
        payload=json.loads(row[16]) if len(row) > 16 and row[16] else None,
    )
