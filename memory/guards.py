"""Framework guards for worker in-flight memory writes (the worker never applies its own).

`check_request` turns untrusted input into a clean, clamped write or a rejection reason; the store
then applies the stateful guards (restatement, near-duplicate, per-stage cap).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, cast

import worldforge_textkit
from memory.models import (
    AUTHORS,
    KINDS,
    MAX_TEXT,
    STATUSES,
    WORKER_KINDS,
    Kind,
    NewNote,
)
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit.scrub import scrub

DEFAULT_IMPORTANCE = 5.0
DEFAULT_TTL_DAYS = 7
MAX_TTL_DAYS = 30
STAGE_CAP = 3
NEAR_DUPLICATE = 0.6

_INSTRUCTION = re.compile(
    r"\b(ignore|disregard|forget|override)\b.{0,40}\b(instructions?|directions?|rules?|decisions?|"
    r"prompt|policy|ceo)\b"
    r"|\byou are now\b|\b(system|developer) (prompt|message)\b|\bnew (instructions?|directives?)\b"
    r"|\bbinding (decision|direction|rule)\b|\bact as\b|\bfrom now on\b"
    r"|</?\s*campaign_memory|\[/?campaign_memory\]|^\s*(system|assistant|user)\s*:",
    re.IGNORECASE,
)


def clean(text: object, *, limit: int = MAX_TEXT) -> str:
    """What any memory text becomes before it is stored: secrets scrubbed, then the toolkit's
    cleaning (control and format characters out, whitespace folded), clamped to `limit`."""
    return worldforge_textkit.clean(scrub(text if isinstance(text, str) else str(text)), limit)


@lru_cache(maxsize=2048)  # a hardening pass compares each new note with every active one
def note_words(text: str) -> frozenset[str]:
    """A note's folded words minus stopwords, for duplicate checks; numbers and short words count
    ("$25 a month" and "$30 a month" are two notes), unlike `worldforge_textkit.content_words`."""
    return frozenset(
        w
        for w in worldforge_textkit.words(worldforge_textkit.fold(text))
        if w not in worldforge_textkit.STOPWORDS
    )


def similarity(a: str, b: str) -> float:
    """Jaccard overlap of content words, 0..1 (1 for two empty texts)."""
    wa, wb = note_words(a), note_words(b)
    if not wa and not wb:
        return 1.0
    return len(wa & wb) / len(wa | wb)


@dataclass(frozen=True, eq=False, repr=False)
class CleanWrite(FrozenRecord):
    """A worker write that passed the stateless guards (`memory.writes` places it)."""

    kind: Kind
    text: str
    importance: float
    ttl_days: int

    def note(self, *, worker: str, stage_id: str, game_day: int) -> NewNote:
        """The new note, provisional, as every store's `insert` takes it."""
        return NewNote(
            kind=self.kind,
            text=self.text,
            status="provisional",
            author="worker",
            importance=self.importance,
            game_day=game_day,
            expires_day=game_day + self.ttl_days,
            stage_id=stage_id,
            worker=worker,
        )


def _finite(value: float | None, default: float, low: float, high: float) -> float:
    if value is None or not math.isfinite(value):
        return default
    return min(high, max(low, float(value)))


def check_write(note: NewNote) -> NewNote:
    """The guards on a framework, CEO or system write (`remember`): the note cleaned and clamped,
    or ValueError / PermissionError (procedural, i.e. binding, never from a worker; the store
    picks the id)."""
    if note.kind not in KINDS:
        raise ValueError(f"unknown memory kind {note.kind!r}")
    if note.author not in AUTHORS or note.status not in STATUSES:
        raise ValueError("unknown author or status")
    if note.kind == "procedural" and note.author == "worker":
        raise PermissionError("workers cannot write binding (procedural) memory")
    if note.memory_id is not None:
        raise ValueError("remember picks the note's id")
    body = clean(note.text)
    if not body:
        raise ValueError("memory text is empty after cleaning")
    return replace(
        note,
        text=body,
        importance=_finite(note.importance, DEFAULT_IMPORTANCE, 0.0, 10.0),
        game_day=int(note.game_day),
        source_ids=tuple(clean(s, limit=64) for s in note.source_ids),
        axis=clean(note.axis, limit=64).lower() if note.axis else None,
        payload=check_payload(note.payload),
    )


MAX_PAYLOAD_CHARS = 4000


def check_payload(payload: dict[str, Any] | None) -> dict[str, Any] | None:
    """A binding note's structured payload, as every store keeps it: JSON data only, every string
    cleaned and scrubbed like a note's text, at most MAX_PAYLOAD_CHARS once encoded (over that it
    is refused with ValueError, never cut into invalid data)."""
    if not payload:
        return None
    if not isinstance(payload, dict):
        raise TypeError("a memory payload is a JSON object")
    out = {clean(str(k), limit=64): _clean_data(v) for k, v in payload.items()}
    if len(json.dumps(out, sort_keys=True)) > MAX_PAYLOAD_CHARS:
        raise ValueError(f"memory payload over {MAX_PAYLOAD_CHARS} characters")
    return out


def _clean_data(value: object) -> object:
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {clean(str(k), limit=64): _clean_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean_data(v) for v in value]
    return clean(str(value))


def check_request(raw: object) -> CleanWrite | tuple[str, str | None]:
    """Check and clamp one worker request (an item of `artifact.memory_writes`: kind and text
    strings, importance a number and ttl_days a whole number, numeric strings counting, either
    absent; a smuggled scope, run or status is ignored): a CleanWrite or (rejection reason, kind)."""
    data = raw if isinstance(raw, Mapping) else {}
    kind, text = data.get("kind"), data.get("text")
    try:
        if not isinstance(kind, str) or not isinstance(text, str):
            raise ValueError("a worker note needs a kind and a text")
        importance, ttl = _number(data.get("importance")), _whole(data.get("ttl_days"))
    except ValueError:
        return "invalid-request", kind if isinstance(kind, str) else None
    kind = kind.strip().lower()
    if kind not in WORKER_KINDS:
        return ("kind-not-allowed: workers write preference or context notes only", kind[:32])
    text = clean(text)
    if not text:
        return "empty-text", kind
    if _INSTRUCTION.search(text):
        return "instruction-like: a worker note records a finding, never a directive", kind
    ttl = min(MAX_TTL_DAYS, max(1, DEFAULT_TTL_DAYS if ttl is None else ttl))
    importance = _finite(importance, DEFAULT_IMPORTANCE, 0.0, 10.0)
    return CleanWrite(kind=cast(Kind, kind), text=text, importance=importance, ttl_days=ttl)


def _number(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"not a number: {value!r}")
    return float(value)  # ValueError for a string that is not a number


def _whole(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    number = _number(value)
    if number is not None and not number.is_integer():
        raise ValueError(f"not a whole number: {value!r}")
    return None if number is None else int(number)
