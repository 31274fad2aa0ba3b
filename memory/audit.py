"""The content-free audit log's codes: operation and reason codes and the time of a row; never
memory text. Each store appends its rows its own way (the save file's `memory_audit` table refuses
UPDATE and DELETE by trigger; Cosmos DB keeps a container of its own); they outlive a forgotten run.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache

_CODE = re.compile(r"[^a-z0-9_\-:.]")


def utc_now() -> str:
    """ISO-8601 UTC timestamp with milliseconds, e.g. 2025-01-02T03:04:05.678Z (metadata only;
    never used for ranking)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@lru_cache(maxsize=512)
def reason_code(reason: str) -> str:
    """Force a reason into a short machine code so free text can never leak into the audit."""
    return _CODE.sub("-", reason.lower())[:48] or "unspecified"
