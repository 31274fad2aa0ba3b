"""The records at the memory boundary: notes, worker write requests, dispositions, recall, reports.

Plain dataclasses, so the headless path builds no pydantic model. `to_dict()` (every record's) is
the JSON-ready copy events, snapshots and the CLI print; `from_dict` checks what comes from outside
the process (a save's rows and Cosmos documents) and raises ValueError on anything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args

from worldforge_savedb.records import FrozenRecord, Record

Kind = Literal["user_profile", "procedural", "chat_summary", "preference", "context", "semantic"]
Status = Literal["provisional", "active", "archived", "revoked"]
Author = Literal["ceo", "worker", "system"]

KINDS: tuple[str, ...] = get_args(Kind)
STATUSES: tuple[str, ...] = get_args(Status)
AUTHORS: tuple[str, ...] = get_args(Author)
LIVE_STATUSES: tuple[str, ...] = ("provisional", "active")
WORKER_KINDS: frozenset[str] = frozenset({"preference", "context"})
CRITICAL_KINDS: frozenset[str] = frozenset({"procedural", "user_profile"})
# What a player reads for each kind (one, many): the kind names themselves are ids, never shown.
KIND_WORDS: dict[str, tuple[str, str]] = {
    "procedural": ("binding decision", "binding decisions"),
    "user_profile": ("founder profile", "founder profile"),
    "semantic": ("reviewed note", "reviewed notes"),
    "chat_summary": ("stage summary", "stage summaries"),
    "preference": ("worker preference", "worker preferences"),
    "context": ("worker context", "worker context"),
}


def kind_words(kind: object, many: bool = False) -> str:
    """How a memory kind reads to a player ("stage summaries"); an unknown kind as "note(s)"."""
    one, more = KIND_WORDS.get(str(kind), ("note", "notes"))
    return more if many else one


MAX_TEXT = 400

_NONE = type(None)


@dataclass(frozen=True, eq=False, repr=False)
class MemoryRecord(FrozenRecord):
    """One stored memory, scoped to one run (frozen: a store may hand the same record out twice)."""

    id: str
    run_id: str
    kind: Kind
    text: str
    status: Status
    author: Author
    importance: float
    game_day: int
    ts: str
    expires_day: int | None = None
    source_ids: list[str] = field(default_factory=list)
    origin: str = "local-sqlite"
    stage_id: str | None = None
    axis: str | None = None
    reinforced: int = 0
    superseded_by: str | None = None
    # Structured content of a binding note (engine.language.directions: the typed directions a CEO
    # input was read into); scrubbed like the text, never shown as raw JSON.
    payload: dict[str, Any] | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MemoryRecord:
        """A record from data another process wrote: ValueError unless every field has its type."""
        try:
            given = {f: data[f] for f in FIELDS if f in data}
            rec = cls(**given | {"importance": float(given["importance"])})
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a memory record: {err}") from None
        bad = [name for name, types in _TYPES.items() if not isinstance(getattr(rec, name), types)]
        if not all(isinstance(s, str) for s in rec.source_ids):
            bad.append("source_ids")
        for name, allowed in (("kind", KINDS), ("status", STATUSES), ("author", AUTHORS)):
            if getattr(rec, name) not in allowed:
                bad.append(name)
        if bad:
            raise ValueError(f"memory record {rec.id!r} has a bad {', '.join(bad)}")
        return rec


FIELDS = tuple(f.name for f in fields(MemoryRecord))
_TYPES: dict[str, type | tuple[type, ...]] = {
    **dict.fromkeys(("id", "run_id", "text", "ts", "origin"), str),
    **dict.fromkeys(("stage_id", "axis", "superseded_by"), (str, _NONE)),
    **dict.fromkeys(("game_day", "reinforced"), int),
    "expires_day": (int, _NONE),
    "source_ids": list,
    "payload": (dict, _NONE),
}


@dataclass(frozen=True, eq=False, repr=False)
class NewNote(FrozenRecord):
    """A note to write. `remember` takes one (and guards it); every store's `insert` takes one
    already guarded and cleaned, its id following the run's counter unless `memory_id` names one."""

    kind: Kind
    text: str
    author: Author
    game_day: int
    importance: float = 5.0
    status: Status = "active"
    expires_day: int | None = None
    source_ids: tuple[str, ...] = ()
    stage_id: str | None = None
    axis: str | None = None
    payload: dict[str, Any] | None = None
    worker: str | None = None
    memory_id: str | None = None
    reviewer: str | None = None

    @classmethod
    def copy_of(cls, rec: MemoryRecord, *, keep_id: bool) -> NewNote:
        """A record another store kept, to write again here (under its own id when `keep_id`):
        every field the two share."""
        shared = {f.name: getattr(rec, f.name) for f in fields(cls) if f.name in FIELDS}
        shared["source_ids"] = tuple(rec.source_ids)
        return cls(**shared, memory_id=rec.id if keep_id else None)


@dataclass(eq=False, repr=False)
class WriteDisposition(Record):
    """The framework's answer to one write request; a worker may claim "saved" only on `written`."""

    status: Literal["written", "reinforced", "superseded", "rejected"]
    memory_id: str | None = None
    reason: str | None = None
    kind: str | None = None


@dataclass(eq=False, repr=False)
class RecallResult(Record):
    """The `<campaign_memory>` block for a brief plus exactly what went into it."""

    block: str
    items: list[MemoryRecord]
    injected: list[dict[str, str]]
    tokens_used: int
    budget: int
    skipped: list[str]


@dataclass(eq=False, repr=False)
class HardenReport(Record):
    """What one hardening pass changed (ids only)."""

    promoted: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)


@dataclass(eq=False, repr=False)
class PruneReport(Record):
    """Retention result; dry run and apply come from the same eligibility rule."""

    status: Literal["dry_run", "applied"]
    eligible_ids: list[str]  # deleted (expired, neither binding, a profile nor important)
    deleted_count: int
    # expired notes the retention rule keeps: archived (no longer live), never deleted
    archived_ids: list[str] = field(default_factory=list)


@dataclass(eq=False, repr=False)
class ConsolidationResult(Record):
    """Outcome of folding several notes into one reviewed semantic note."""

    status: Literal["dry_run", "consolidated", "already_consolidated"]
    semantic_memory_id: str
    source_memory_ids: list[str]
    text: str
    importance: float
    reviewer: str


@dataclass(eq=False, repr=False)
class ForgetReport(Record):
    """Outcome of deleting a run's memories (right to deletion)."""

    run_id: str
    deleted: int
    compacted: bool


@dataclass(eq=False, repr=False)
class AuditRecord(Record):
    """A content-free audit row: who did what to which ids, never the text."""

    seq: int
    run_id: str
    operation: str
    memory_ids: list[str]
    reason: str
    ts: str
    game_day: int | None = None
