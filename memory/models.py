"""Pydantic models at the memory boundary: records, worker write requests, dispositions, recall."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

Kind = Literal["user_profile", "procedural", "chat_summary", "preference", "context", "semantic"]
Status = Literal["provisional", "active", "archived", "revoked"]
Author = Literal["ceo", "worker", "system"]
Origin = Literal["local-sqlite", "foundry-memory"]

KINDS: tuple[str, ...] = get_args(Kind)
STATUSES: tuple[str, ...] = get_args(Status)
AUTHORS: tuple[str, ...] = get_args(Author)
LIVE_STATUSES: tuple[str, ...] = ("provisional", "active")
WORKER_KINDS: frozenset[str] = frozenset({"preference", "context"})
BINDING_KINDS: frozenset[str] = frozenset({"procedural"})
CRITICAL_KINDS: frozenset[str] = frozenset({"procedural", "user_profile"})
MAX_TEXT = 400


class MemoryRecord(BaseModel):
    """One stored memory, scoped to one run."""

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
    source_ids: list[str] = Field(default_factory=list)
    origin: str = "local-sqlite"
    stage_id: str | None = None
    axis: str | None = None
    reinforced: int = 0
    superseded_by: str | None = None
    # Structured content of a binding note (engine.game.directions: the typed directions a CEO
    # input was read into); scrubbed like the text, never shown as raw JSON.
    payload: dict[str, Any] | None = None


@dataclass(frozen=True)
class NewNote:
    """A note to write, as every store's `insert` takes it (already guarded and cleaned); its id
    follows the run's counter unless `memory_id` names one."""

    kind: Kind
    text: str
    status: Status
    author: Author
    importance: float
    game_day: int
    expires_day: int | None = None
    source_ids: tuple[str, ...] = ()
    stage_id: str | None = None
    axis: str | None = None
    worker: str | None = None
    memory_id: str | None = None
    reviewer: str | None = None
    payload: dict[str, Any] | None = None

    @classmethod
    def copy_of(cls, rec: MemoryRecord, *, keep_id: bool) -> NewNote:
        """A record another store kept, to write again here (under its own id when `keep_id`)."""
        return cls(
            kind=rec.kind,
            text=rec.text,
            status=rec.status,
            author=rec.author,
            importance=rec.importance,
            game_day=rec.game_day,
            expires_day=rec.expires_day,
            source_ids=tuple(rec.source_ids),
            stage_id=rec.stage_id,
            axis=rec.axis,
            memory_id=rec.id if keep_id else None,
            payload=rec.payload,
        )


class MemoryWriteRequest(BaseModel):
    """What a worker puts in `artifact.memory_writes`; any smuggled scope/run/status is ignored."""

    model_config = ConfigDict(extra="ignore")

    kind: str
    text: str
    importance: float | None = None
    ttl_days: int | None = None


class WriteDisposition(BaseModel):
    """The framework's answer to one write request; a worker may claim "saved" only on `written`."""

    status: Literal["written", "reinforced", "superseded", "rejected"]
    memory_id: str | None = None
    reason: str | None = None
    kind: str | None = None


class RecallResult(BaseModel):
    """The `<campaign_memory>` block for a brief plus exactly what went into it."""

    block: str
    items: list[MemoryRecord]
    injected: list[dict[str, Any]]
    tokens_used: int
    budget: int
    skipped: list[str]


class HardenReport(BaseModel):
    """What one hardening pass changed (ids only)."""

    promoted: list[str] = Field(default_factory=list)
    archived: list[str] = Field(default_factory=list)
    superseded: list[str] = Field(default_factory=list)


class PruneReport(BaseModel):
    """Retention result; dry run and apply come from the same eligibility rule."""

    status: Literal["dry_run", "applied"]
    eligible_ids: list[str]
    deleted_count: int


class ConsolidationResult(BaseModel):
    """Outcome of folding several notes into one reviewed semantic note."""

    status: Literal["dry_run", "consolidated", "already_consolidated"]
    semantic_memory_id: str
    source_memory_ids: list[str]
    text: str
    importance: float
    reviewer: str


class ForgetReport(BaseModel):
    """Outcome of deleting a run's memories (right to deletion)."""

    run_id: str
    deleted: int
    compacted: bool


class AuditRecord(BaseModel):
    """A content-free audit row: who did what to which ids, never the text."""

    seq: int
    run_id: str
    operation: str
    memory_ids: list[str]
    reason: str
    ts: str
    game_day: int | None = None
