"""The write policy and the lifecycle passes, once for every backend.

A framework, CEO or system write (`remember`) reinforces the live note of its kind with the same
words, else becomes a new note (binding decisions always do). A worker write (`worker_write`)
passes the stateless guards (`memory.guards.check_request`), then reinforces an exact
restatement, else supersedes the newest live near-duplicate from its own stage, else is refused
past the stage cap, else is written provisional. Every outcome leaves one content-free audit row.
Hardening and retention apply `memory.lifecycle`'s rules to the run's records.

`PolicyStore` is the base of every store bound to one run: the policy, the passes and the run scope
here, and the few reads and writes they need as abstract methods each backend implements its own
way (SQL for the save file, queries and ETag-conditional replaces for Cosmos DB).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager

from memory import lifecycle, recall
from memory.contract import Notice, ScopeError
from memory.guards import (
    NEAR_DUPLICATE,
    STAGE_CAP,
    CleanWrite,
    check_request,
    check_write,
    clean,
    similarity,
)
from memory.models import (
    LIVE_STATUSES,
    ConsolidationResult,
    ForgetReport,
    HardenReport,
    Kind,
    MemoryRecord,
    NewNote,
    PruneReport,
    RecallResult,
    WriteDisposition,
)
from worldforge_textkit import normalise, query_terms


class PolicyStore(ABC):
    """One run's store: scope, `remember` and `worker_write` here; the repository below."""

    run_id: str
    stage_cap: int = STAGE_CAP

    def __init__(self, run_id: str, *, stage_cap: int = STAGE_CAP) -> None:
        if not isinstance(run_id, str) or not run_id.strip():
            raise ValueError("a memory store needs a run id")
        self.run_id = run_id
        self.stage_cap = stage_cap

    def authorize(self, run_id: str | None) -> str:
        if run_id is not None and run_id != self.run_id:
            raise ScopeError(f"memory store is bound to run {self.run_id!r}, not {run_id!r}")
        return self.run_id

    def drain_notices(self) -> list[Notice]:
        return []  # outages and recoveries are the failover's to report (memory.cosmos.failover)

    def forget_pending(self) -> bool:
        return False  # a forget a store served is done at once

    def rewound(self) -> None:
        return None  # the save holds the run as it stands: nothing else to put back

    # -- the repository: what each backend gives the policy -------------------------------------
    @abstractmethod
    def transaction(self) -> AbstractContextManager[object]:
        """One write's reads and writes together (a no-op where the service has none)."""

    @abstractmethod
    def restatement(self, norm: str, kind: Kind) -> MemoryRecord | None:
        """The earliest live note of `kind` whose normalised words are `norm`."""

    @abstractmethod
    def worker_context(
        self, norm: str, stage_id: str
    ) -> tuple[MemoryRecord | None, list[MemoryRecord]]:
        """(the earliest live worker-kind note with these words, every worker note of the stage
        in any status, newest first): one read where the backend can."""

    @abstractmethod
    def reinforce(
        self, rec: MemoryRecord, importance: float, expires_day: int | None
    ) -> MemoryRecord:
        """Count one more restatement: the higher importance, the later expiry; the new record."""

    @abstractmethod
    def rewrite(self, rec: MemoryRecord, w: CleanWrite, *, expires_day: int, game_day: int) -> None:
        """Replace a near-duplicate's text and kind with the new write's."""

    @abstractmethod
    def insert(self, note: NewNote) -> MemoryRecord:
        """A new note with the next id of the run (or the id it names)."""

    @abstractmethod
    def update(self, memory_id: str, change: lifecycle.Change) -> None:
        """Set a few fields of one note, as a hardening pass planned them."""

    @abstractmethod
    def delete(self, memory_ids: Sequence[str]) -> None:
        """Delete these notes of the run (retention)."""

    @abstractmethod
    def read_records(
        self, kinds: list[str] | None, statuses: list[str] | None
    ) -> list[MemoryRecord]:
        """The run's records in write order, of these kinds and statuses (None: any)."""

    @abstractmethod
    def fold(
        self, req: lifecycle.Consolidation, *, game_day: int, dry_run: bool
    ) -> ConsolidationResult:
        """Consolidate as `lifecycle.plan_consolidation` says, the backend's way."""

    @abstractmethod
    def candidates(self, query: str, terms: Sequence[str], game_day: int) -> recall.Candidates:
        """What the ranking needs of the run for one query (`memory.recall.Candidates`)."""

    @abstractmethod
    def log(
        self, operation: str, memory_ids: Sequence[str], reason: str, *, game_day: int | None
    ) -> None:
        """One content-free audit row."""

    # -- the policy ------------------------------------------------------------------------------
    def forget_note(self, memory_id: str, *, game_day: int) -> ForgetReport:
        """Delete one note of this run (KeyError when it is none of the run's): the next brief
        is built without it; the content-free audit row names its id."""
        if not any(r.id == memory_id for r in self.read_records(None, None)):
            raise KeyError(memory_id)
        self.delete([memory_id])
        self.log("forget_note", [memory_id], "ceo-forgot-note", game_day=game_day)
        return ForgetReport(run_id=self.run_id, deleted=1, compacted=False)

    def remember(self, note: NewNote) -> MemoryRecord:
        note = check_write(note)
        with self.transaction():
            same = None
            if note.kind != "procedural":  # a binding decision is always a new note
                same = self.restatement(normalise(note.text), note.kind)
            if same is not None:
                rec = self.reinforce(same, note.importance, note.expires_day)
                self.log("remember", [rec.id], "reinforced", game_day=note.game_day)
                return rec
            rec = self.insert(note)
            self.log("remember", [rec.id], f"written-{note.kind}", game_day=note.game_day)
        return rec

    def worker_write(
        self,
        req: Mapping[str, object],
        *,
        worker: str,
        stage_id: str,
        game_day: int,
    ) -> WriteDisposition:
        checked = check_request(req)
        with self.transaction():
            if not isinstance(checked, CleanWrite):
                reason, kind = checked
                self.log("worker_write", [], "rejected-" + reason.split(":")[0], game_day=game_day)
                return WriteDisposition(status="rejected", reason=reason, kind=kind)
            d = self._place(checked, clean(worker, limit=64), stage_id, int(game_day))
            suffix = ("-" + d.reason.split(":")[0]) if d.status == "rejected" and d.reason else ""
            ids = [d.memory_id] if d.memory_id else []
            self.log("worker_write", ids, d.status + suffix, game_day=game_day)
        return d

    def _place(self, w: CleanWrite, worker: str, stage_id: str, game_day: int) -> WriteDisposition:
        """Reinforce, supersede, refuse past the cap, or write: the first that applies."""
        expires = game_day + w.ttl_days
        same, own = self.worker_context(normalise(w.text), stage_id)
        if same is not None:
            self.reinforce(same, w.importance, expires)
            why = "exact restatement of an existing note"
            return WriteDisposition("reinforced", same.id, reason=why, kind=same.kind)
        for rec in own:
            if rec.status in LIVE_STATUSES and similarity(rec.text, w.text) >= NEAR_DUPLICATE:
                self.rewrite(rec, w, expires_day=expires, game_day=game_day)
                why = "replaced a near-duplicate note from this stage"
                return WriteDisposition("superseded", rec.id, reason=why, kind=w.kind)
        if len(own) >= self.stage_cap:
            why = f"stage-cap: at most {self.stage_cap} notes per stage"
            return WriteDisposition("rejected", reason=why, kind=w.kind)
        rec = self.insert(w.note(worker=worker, stage_id=stage_id, game_day=game_day))
        return WriteDisposition("written", rec.id, kind=w.kind)

    def recall(
        self,
        query: str,
        *,
        game_day: int,
        budget_tokens: int = 700,
        limit: int = 12,
        run_id: str | None = None,
    ) -> RecallResult:
        """Ranked by `memory.recall` over what the backend reads (`candidates`)."""
        self.authorize(run_id)
        recall.check(budget_tokens, limit)
        query = query if isinstance(query, str) else str(query)
        terms = query_terms(query, limit=recall.MAX_QUERY_TERMS)
        found = self.candidates(query, terms, int(game_day))
        return recall.block(found, terms, game_day=int(game_day), budget=budget_tokens, limit=limit)

    def records(
        self,
        *,
        kinds: Iterable[str] | None = None,
        statuses: Iterable[str] | None = None,
        run_id: str | None = None,
    ) -> list[MemoryRecord]:
        self.authorize(run_id)
        return self.read_records(
            None if kinds is None else list(kinds), None if statuses is None else list(statuses)
        )

    # -- the lifecycle passes --------------------------------------------------------------------
    def harden(self, *, game_day: int) -> HardenReport:
        with self.transaction():
            live = self.records(statuses=LIVE_STATUSES)
            report, changes = lifecycle.plan_harden(live, game_day=game_day)
            for memory_id, change in changes.items():
                self.update(memory_id, change)
            for operation, ids in (
                ("harden_promote", report.promoted),
                ("harden_archive", report.archived),
                ("harden_supersede", report.superseded),
            ):
                if ids:
                    self.log(operation, ids, "hardening-pass", game_day=game_day)
        return report

    def prune(self, *, game_day: int, dry_run: bool = True) -> PruneReport:
        with self.transaction():
            records = self.records()
            eligible = lifecycle.prunable(records, game_day=game_day)
            expired = lifecycle.expired_live(records, game_day=game_day, deleted=eligible)
            report = PruneReport(
                status="dry_run" if dry_run else "applied",
                eligible_ids=eligible,
                deleted_count=0 if dry_run else len(eligible),
                archived_ids=expired,
            )
            if dry_run:
                return report
            if eligible:
                self.delete(eligible)
                self.log("retention_prune", eligible, lifecycle.PRUNE_REASON, game_day=game_day)
            for memory_id in expired:
                self.update(memory_id, {"status": "archived"})
            if expired:
                self.log("retention_archive", expired, lifecycle.EXPIRY_REASON, game_day=game_day)
        return report

    def consolidate(
        self,
        source_ids: Sequence[str],
        *,
        summary: str,
        reviewer: str,
        game_day: int,
        dry_run: bool = False,
    ) -> ConsolidationResult:
        req = lifecycle.consolidation(self.run_id, source_ids, summary, reviewer)
        return self.fold(req, game_day=game_day, dry_run=dry_run)
