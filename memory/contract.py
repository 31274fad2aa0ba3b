"""The memory contract: what every store of a run's binding memory offers the engine.

`MemoryBackend` is a `typing.Protocol`. The local store (`memory.local.store.MemoryStore`), the
Cosmos DB store (`memory.cosmos.store.CosmosMemoryStore`) and the failover between them
(`memory.cosmos.failover.FailoverMemory`) each implement it, and the engine holds a store only as
a `MemoryBackend`, so mypy sees a method missing or mistyped on any path. Nothing here imports a
backend (or the Cosmos SDK).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from memory.models import (
    AuditRecord,
    ConsolidationResult,
    ForgetReport,
    HardenReport,
    MemoryRecord,
    NewNote,
    PruneReport,
    RecallResult,
    WriteDisposition,
)

# A backend change the session records as a MEMORY_BACKEND event: (one-line message, payload).
Notice = tuple[str, dict[str, object]]


class ScopeError(PermissionError):
    """A store bound to one run was asked about another; raised before any query."""


class MemoryBackend(Protocol):
    """One run's binding memory: guarded writes, lifecycle, budgeted recall, retention, audit."""

    @property
    def run_id(self) -> str:
        """The run this store is bound to; every other run is refused (`ScopeError`)."""
        ...

    # -- scope and labels ------------------------------------------------------------------------
    def authorize(self, run_id: str | None) -> str:
        """Return the bound run id; raise ScopeError (before any I/O) for any other run."""
        ...

    def store_label(self) -> str:
        """Where this store's memories go now, for labels ("local-sqlite", "azure-cosmos", …)."""
        ...

    def drain_notices(self) -> list[Notice]:
        """Backend changes (an outage, a recovery) since the last call; [] for a plain store."""
        ...

    # -- writes ----------------------------------------------------------------------------------
    def remember(self, note: NewNote) -> MemoryRecord:
        """Framework, CEO and system writes; procedural (binding) only from the CEO or system.
        `note.payload` is a binding note's structured content (scrubbed and bounded like the text)."""
        ...

    def worker_write(
        self,
        req: Mapping[str, object],
        *,
        worker: str,
        stage_id: str,
        game_day: int,
    ) -> WriteDisposition:
        """Apply every guard to one worker request and say exactly what happened to it."""
        ...

    # -- reads -----------------------------------------------------------------------------------
    def get(self, memory_id: str, *, run_id: str | None = None) -> MemoryRecord:
        """One record of this run by id (KeyError when absent)."""
        ...

    def records(
        self,
        *,
        kinds: Iterable[str] | None = None,
        statuses: Iterable[str] | None = None,
        run_id: str | None = None,
    ) -> list[MemoryRecord]:
        """This run's records in write order, optionally filtered by kind and status."""
        ...

    def counts(self, *, run_id: str | None = None) -> dict[str, int]:
        """Live (provisional + active) memories per kind, every kind present."""
        ...

    def recall(
        self,
        query: str,
        *,
        game_day: int,
        budget_tokens: int = 700,
        limit: int = 12,
        run_id: str | None = None,
    ) -> RecallResult:
        """Budgeted `<campaign_memory>` block for a brief; the newest binding decision rides along."""
        ...

    def audit(self, *, limit: int | None = None, run_id: str | None = None) -> list[AuditRecord]:
        """This run's content-free audit trail, oldest first."""
        ...

    # -- lifecycle -------------------------------------------------------------------------------
    def harden(self, *, game_day: int) -> HardenReport:
        """After each fork: promote, archive duplicates and expired notes, supersede bindings."""
        ...

    def prune(self, *, game_day: int, dry_run: bool = True) -> PruneReport:
        """Retention: the dry run and the real one list the same notes (`lifecycle.prunable`)."""
        ...

    def consolidate(
        self,
        source_ids: Sequence[str],
        *,
        summary: str,
        reviewer: str,
        game_day: int,
        dry_run: bool = False,
    ) -> ConsolidationResult:
        """Fold several episodic notes into one reviewed semantic note (deterministic id); the
        sources are kept, archived. A retry writes nothing."""
        ...

    def forget_run(self, run_id: str | None = None, *, compact: bool = True) -> ForgetReport:
        """Delete every memory of this run (the content-free audit survives)."""
        ...

    def forget_note(self, memory_id: str, *, game_day: int) -> ForgetReport:
        """Delete one note of this run (KeyError when it is none of the run's); the content-free
        audit row names its id."""
        ...

    def forget_pending(self) -> bool:
        """True while a forget of this run waits for a remote tier to answer (queued, sent later)."""
        ...

    def compact(self) -> bool:
        """Give deleted content's space back; True when nothing old was kept alive."""
        ...

    def rewound(self) -> None:
        """The save's copy of the run was put back as it stood before an action the player
        cancelled: a remote copy is made to hold what the save holds again."""
        ...

    def flush_cloud(self) -> None:
        """Send queued remote work (call after the step's transaction commits)."""
        ...
