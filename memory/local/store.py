"""MemoryStore: one run's binding memory in the shared save file.

Every method joins the caller's transaction (`memory.local.db.transaction`, re-entrant), checks the run
scope before touching the database, scrubs every text before it is stored, and records a
content-free audit row. Writes go straight to SQLite (its triggers keep the FTS5 index and the run's
counter); recall is one query (`memory.local.recall.select`). Nothing about a run is held in process, so
any number of stores and connections see the same truth. Cloud writes are queued in an outbox and
sent only by `flush_cloud()`.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from memory import audit, lifecycle, writes
from memory.audit import utc_now
from memory.contract import Notice, ScopeError
from memory.guards import (
    STAGE_CAP,
    CleanWrite,
)
from memory.local import recall
from memory.local.db import transaction
from memory.local.rows import COLUMNS, to_record
from memory.local.schema import n_terms, norm_key, run_key
from memory.models import (
    KINDS,
    WORKER_KINDS,
    AuditRecord,
    Author,
    ConsolidationResult,
    ForgetReport,
    HardenReport,
    Kind,
    MemoryRecord,
    MemoryWriteRequest,
    PruneReport,
    RecallResult,
    Status,
    WriteDisposition,
)
from textkit import normalise

if TYPE_CHECKING:
    from memory.foundry.cloud import CloudMemory

_INSERT = (
    "INSERT INTO memories (run_id, id, seq, kind, text, n_terms, run_key, norm_key, status,"
    " author, importance, game_day, ts, expires_day, source_ids, origin, stage_id, axis, worker,"
    " reviewer, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'local-sqlite', ?, ?, ?,"
    " ?, ?)"
)


class MemoryStore:
    """Binding memory for one run in the save file (implements `memory.contract.MemoryBackend`)."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        run_id: str,
        *,
        cloud: CloudMemory | None = None,
        stage_cap: int = STAGE_CAP,
    ) -> None:
        if not isinstance(run_id, str) or not run_id.strip():
            raise ValueError("a memory store needs a run id")
        self.conn = conn
        self.run_id = run_id
        self.cloud = cloud
        self.stage_cap = stage_cap
        self._run_key = run_key(run_id)

    # -- scope ---------------------------------------------------------------------------------
    def authorize(self, run_id: str | None) -> str:
        """Return the bound run id; raise ScopeError (before any I/O) for any other run."""
        if run_id is not None and run_id != self.run_id:
            raise ScopeError(f"memory store is bound to run {self.run_id!r}, not {run_id!r}")
        return self.run_id

    def store_label(self) -> str:
        """Where this store's memories go, for labels: the cloud tier only while it is not parked."""
        return (
            "foundry-memory" if self.cloud is not None and self.cloud.available else "local-sqlite"
        )

    def drain_notices(self) -> list[Notice]:
        """The save file never changes backend: nothing to report."""
        return []

    # -- writes --------------------------------------------------------------------------------
    def _insert(
        self,
        *,
        kind: Kind,
        text: str,
        status: Status,
        author: Author,
        importance: float,
        game_day: int,
        expires_day: int | None,
        source_ids: Sequence[str],
        stage_id: str | None,
        axis: str | None,
        worker: str | None = None,
        memory_id: str | None = None,
        reviewer: str | None = None,
        norm: str | None = None,
        payload: dict[str, Any] | None = None,
    ) -> MemoryRecord:
        """Insert one row (caller holds the transaction); its id follows the run's counter."""
        row = self.conn.execute(
            "SELECT n FROM memory_counters WHERE run_id = ?", (self.run_id,)
        ).fetchone()
        seq = (row[0] if row else 0) + 1
        mid = memory_id or f"mem-{seq:05d}"
        ts = utc_now()
        sources = list(source_ids)
        key = norm_key(normalise(text) if norm is None else norm)
        self.conn.execute(
            _INSERT,
            (
                self.run_id,
                mid,
                seq,
                kind,
                text,
                n_terms(text),
                self._run_key,
                key,
                status,
                author,
                importance,
                game_day,
                ts,
                expires_day,
                json.dumps(sources),
                stage_id,
                axis,
                worker,
                reviewer,
                json.dumps(payload, sort_keys=True) if payload else None,
            ),
        )
        self._queue_cloud_write(mid, kind, text)
        return self.get(mid)

    def _audit(
        self,
        operation: str,
        memory_ids: Sequence[str],
        reason: str,
        *,
        game_day: int | None,
        ts: str | None = None,
    ) -> None:
        audit.append(
            self.conn, self.run_id, operation, memory_ids, reason, game_day=game_day, ts=ts
        )

    def remember(
        self,
        kind: Kind,
        text: str,
        *,
        author: Author,
        game_day: int,
        importance: float = 5.0,
        stage_id: str | None = None,
        axis: str | None = None,
        source_ids: Sequence[str] = (),
        status: Status = "active",
        expires_day: int | None = None,
        payload: dict[str, Any] | None = None,
    ) -> MemoryRecord:
        """Framework, CEO and system writes (the policy in `memory.writes`)."""
        return writes.remember(
            _Notes(self),
            kind,
            text,
            author=author,
            game_day=game_day,
            importance=importance,
            stage_id=stage_id,
            axis=axis,
            source_ids=source_ids,
            status=status,
            expires_day=expires_day,
            payload=payload,
        )

    def worker_write(
        self,
        req: MemoryWriteRequest | dict[str, Any],
        *,
        worker: str,
        stage_id: str,
        game_day: int,
    ) -> WriteDisposition:
        """Every guard on one worker request (the policy in `memory.writes`)."""
        return writes.worker_write(
            _Notes(self),
            req,
            worker=worker,
            stage_id=stage_id,
            game_day=game_day,
            stage_cap=self.stage_cap,
        )

    def _queue_cloud_write(self, memory_id: str, kind: str, text: str) -> None:
        if self.cloud is not None:
            self.conn.execute(
                "INSERT INTO memory_cloud_outbox (run_id, op, memory_id, kind, text)"
                " VALUES (?, 'write', ?, ?, ?)",
                (self.run_id, memory_id, kind, text),
            )

    # -- reads ---------------------------------------------------------------------------------
    def get(self, memory_id: str, *, run_id: str | None = None) -> MemoryRecord:
        """One record of this run by id (KeyError when absent)."""
        self.authorize(run_id)
        row = self.conn.execute(
            f"SELECT {COLUMNS} FROM memories WHERE run_id = ? AND id = ?", (self.run_id, memory_id)
        ).fetchone()
        if row is None:
            raise KeyError(memory_id)
        return to_record(row)

    def records(
        self,
        *,
        kinds: Iterable[str] | None = None,
        statuses: Iterable[str] | None = None,
        run_id: str | None = None,
    ) -> list[MemoryRecord]:
        """This run's records in write order, optionally filtered by kind and status."""
        self.authorize(run_id)
        sql = f"SELECT {COLUMNS} FROM memories WHERE run_id = ?"
        params: list[object] = [self.run_id]
        for column, wanted in (("kind", kinds), ("status", statuses)):
            if wanted is not None:
                values = list(wanted)
                sql += f" AND {column} IN ({','.join('?' * len(values))})" if values else " AND 0"
                params.extend(values)
        return [to_record(r) for r in self.conn.execute(sql + " ORDER BY seq", params)]

    def counts(self, *, run_id: str | None = None) -> dict[str, int]:
        """Live (provisional + active) memories per kind, every kind present."""
        self.authorize(run_id)
        out = dict.fromkeys(KINDS, 0)
        for kind, n in self.conn.execute(
            "SELECT kind, count(*) FROM memories WHERE run_id = ?"
            " AND status IN ('provisional', 'active') GROUP BY kind",
            (self.run_id,),
        ):
            out[kind] = n
        return out

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
        self.authorize(run_id)
        if budget_tokens < recall.MIN_BUDGET or limit < 1:
            raise ValueError(f"budget must be >= {recall.MIN_BUDGET} tokens and limit >= 1")
        query = query if isinstance(query, str) else str(query)
        rider, recent, ranked = recall.select(
            self.conn,
            self.run_id,
            query,
            game_day=int(game_day),
            ranked_n=limit * 3,
            newest_n=max(1, math.ceil(recall.RECENT_SHARE * limit)),
        )
        ranked = ranked + self._cloud_hits(query, game_day, ranked)
        return recall.pack(
            rider=rider, recent=recent, ranked_items=ranked, budget=budget_tokens, limit=limit
        )

    def _cloud_hits(
        self, query: str, game_day: int, local: list[MemoryRecord]
    ) -> list[MemoryRecord]:
        if self.cloud is None or self.conn.in_transaction:
            return []
        known = {normalise(r.text) for r in local}
        out = []
        for rec in self.cloud.search(self.run_id, query, game_day=game_day):
            if normalise(rec.text) not in known:
                known.add(normalise(rec.text))
                out.append(rec)
        return out

    def audit(self, *, limit: int | None = None, run_id: str | None = None) -> list[AuditRecord]:
        """This run's content-free audit trail, oldest first."""
        self.authorize(run_id)
        return audit.read(self.conn, self.run_id, limit=limit)

    # -- lifecycle (delegated) -----------------------------------------------------------------
    def harden(self, *, game_day: int) -> HardenReport:
        """After each fork: promote surviving provisional notes, archive duplicates and expired
        notes with lineage, supersede older binding decisions on the same axis."""
        with transaction(self.conn):
            return lifecycle.harden(self, game_day=game_day)

    def prune(self, *, game_day: int, dry_run: bool = True) -> PruneReport:
        """Retention: dry run and apply share `lifecycle.prune_blocker`."""
        with transaction(self.conn):
            return lifecycle.prune(self, game_day=game_day, dry_run=dry_run)

    def consolidate(
        self,
        source_ids: Sequence[str],
        *,
        summary: str,
        reviewer: str,
        game_day: int,
        dry_run: bool = False,
    ) -> ConsolidationResult:
        """Fold several notes into one reviewed semantic note; a retry writes nothing."""
        with transaction(self.conn):
            return lifecycle.consolidate(
                self,
                source_ids,
                summary=summary,
                reviewer=reviewer,
                game_day=game_day,
                dry_run=dry_run,
            )

    def forget_run(self, run_id: str | None = None, *, compact: bool = True) -> ForgetReport:
        """Delete every memory of this run; compact the file afterwards unless a transaction is
        open (then call `compact()` after commit)."""
        self.authorize(run_id)
        with transaction(self.conn):
            report = lifecycle.forget(self)
        if compact and not self.conn.in_transaction:
            report.compacted = lifecycle.compact(self.conn)
        return report

    def compact(self) -> bool:
        """Checkpoint the WAL, VACUUM, truncate the WAL; True when no reader kept old pages alive."""
        return lifecycle.compact(self.conn)

    # -- cloud ---------------------------------------------------------------------------------
    def flush_cloud(self) -> None:
        """Send queued cloud operations (call after commit: never inside a transaction)."""
        if self.cloud is None:
            return
        if self.conn.in_transaction:
            raise RuntimeError("flush_cloud must run after the transaction commits")
        self.cloud.flush(self.conn, self.run_id)


class _Notes:
    """The save file's side of the write policy (`memory.writes.NoteRepository`)."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.conn = store.conn
        self.run_id = store.run_id

    def transaction(self) -> AbstractContextManager[Any]:
        return transaction(self.conn)

    def restatement(self, norm: str, kind: Kind) -> MemoryRecord | None:
        return self._same_text(norm, (kind,))

    def worker_context(
        self, norm: str, stage_id: str
    ) -> tuple[MemoryRecord | None, list[MemoryRecord]]:
        own = self.conn.execute(
            f"SELECT {COLUMNS} FROM memories WHERE run_id = ? AND stage_id = ? AND author = 'worker'"
            " ORDER BY seq DESC",
            (self.run_id, stage_id),
        ).fetchall()
        return self._same_text(norm, sorted(WORKER_KINDS)), [to_record(r) for r in own]

    def _same_text(self, norm: str, kinds: Sequence[str]) -> MemoryRecord | None:
        """The earliest live note of one of `kinds` whose normalised words are `norm`."""
        marks = ",".join("?" * len(kinds))
        for row in self.conn.execute(
            f"SELECT {COLUMNS} FROM memories WHERE run_id = ? AND norm_key = ?"
            f" AND status IN ('provisional', 'active') AND kind IN ({marks}) ORDER BY seq",
            (self.run_id, norm_key(norm), *kinds),
        ):
            rec = to_record(row)
            if normalise(rec.text) == norm:
                return rec
        return None

    def reinforce(
        self, rec: MemoryRecord, importance: float, expires_day: int | None
    ) -> MemoryRecord:
        new_expiry = (
            None
            if rec.expires_day is None or expires_day is None
            else max(rec.expires_day, expires_day)
        )
        self.conn.execute(
            "UPDATE memories SET reinforced = reinforced + 1, importance = ?, expires_day = ?"
            " WHERE run_id = ? AND id = ?",
            (max(rec.importance, importance), new_expiry, self.run_id, rec.id),
        )
        return self.store.get(rec.id)

    def rewrite(self, rec: MemoryRecord, w: CleanWrite, *, expires_day: int, game_day: int) -> None:
        self.conn.execute(
            "UPDATE memories SET text = ?, n_terms = ?, norm_key = ?, kind = ?,"
            " importance = ?, expires_day = ?, game_day = ? WHERE run_id = ? AND id = ?",
            (
                w.text,
                n_terms(w.text),
                norm_key(normalise(w.text)),
                w.kind,
                max(rec.importance, w.importance),
                expires_day,
                game_day,
                self.run_id,
                rec.id,
            ),
        )
        self.store._queue_cloud_write(rec.id, w.kind, w.text)

    def insert(self, **fields: Any) -> MemoryRecord:
        return self.store._insert(**fields)

    def audit(
        self,
        operation: str,
        memory_ids: Sequence[str],
        reason: str,
        *,
        game_day: int | None,
        ts: str | None = None,
    ) -> None:
        self.store._audit(operation, memory_ids, reason, game_day=game_day, ts=ts)
