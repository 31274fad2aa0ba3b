"""Row <-> record mapping for the `memories` table."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from memory.models import FIELDS, MemoryRecord

COLUMNS = ", ".join(FIELDS)  # the record's fields are the table's columns, in order


def to_record(row: sqlite3.Row | tuple[Any, ...]) -> MemoryRecord:
    """A MemoryRecord from a row selected with COLUMNS (in that order; JSON decoded, checked)."""
    fields = dict(zip(FIELDS, row, strict=False))
    fields["source_ids"] = json.loads(fields["source_ids"])
    fields["payload"] = json.loads(fields["payload"]) if fields.get("payload") else None
    return MemoryRecord.from_dict(fields)
