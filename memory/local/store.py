"""MemoryStore: one run's binding memory in the shared save file.

Every method joins the caller's transaction (`memory.local.db.transaction`, re-entrant), checks the
run scope before touching the database, scrubs every text before it is stored (`memory.writes`),
and records a content-free audit row. Writes go straight to SQLite (its triggers keep the FTS5
index and the run's counter); recall reads the covering index and the FTS5 doclists
(`memory.local.recall`). Nothing about a run is held in process, so any number of stores and
connections see the same truth. Cloud writes are queued in an outbox and sent only by
`flush_cloud()`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING

from memory import audit, lifecycle, recall
from memory.contract import Notice
from memory.guards import STAGE_CAP, CleanWrite
from memory.local import recall as local_recall
from memory.local.db import transaction
from memory.local.rows import COLUMNS, to_record
from memory.local.schema import n_terms, norm_key, run_key
from memory.models import (
    KINDS,
    AuditRecord,
    ConsolidationResult,
    ForgetReport,
    Kind,
    MemoryRecord,
    NewNote,
)
from memory.writes import PolicyStore
from textkit import normalise

if TYPE_CHECKING:
    from memory.foundry.cloud import CloudMemory

_INSERT = (
    "INSERT INTO memories (run_id, id, seq, kind, text, n_terms, run_key, norm_key, status,"
    " author, importance, game_day, ts, expires_day, source_ids, origin, stage_id, axis, worker,"
    " reviewer, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'local-sqlite', ?, ?, ?,"
    " ?, ?)"
)


class MemoryStore(PolicyStore):
    """Binding memory for one run in the save file (implements `memory.contract.MemoryBackend`)."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        run_id: str,
        *,
        cloud: CloudMemory | None = None,
        stage_cap: int = STAGE_CAP,
    ) -> None:
        super().__init__(run_id, stage_cap=stage_cap)
        self.conn = conn
        self.cloud = cloud
        self._run_key = run_key(run_id)

    def store_label(self) -> str:
        """Where this store's memories go, for labels: the cloud tier only while it is not parked."""
        return (
            "foundry-memory" if self.cloud is not None and self.cloud.available else "local-sqlite"
        )

    def drain_notices(self) -> list[Notice]:
        """The save file never changes backend: nothing to report."""
        return []

    def forget_pending(self) -> bool:
        """A forget in the save file is done at once: nothing waits."""
        return False

    # -- the write policy's repository (`memory.writes.PolicyStore`) ------------------------------
    def transaction(self) -> AbstractContextManager[object]:
        return transaction(self.conn)

    def insert(self, note: NewNote) -> MemoryRecord:
        """Insert one row (caller holds the transaction); its id follows the run's counter."""
        row = self.conn.execute(
            "SELECT n FROM memory_counters WHERE run_id = ?", (self.run_id,)
        ).fetchone()
        seq = (row[0] if row else 0) + 1
        mid = note.memory_id or f"mem-{seq:05d}"
        self.conn.execute(
            _INSERT,
            (
                self.run_id,
                mid,
                seq,
                note.kind,
                note.text,
                n_terms(note.text),
                self._run_key,
                norm_key(normalise(note.text)),
                note.status,
                note.author,
                note.importance,
                note.game_day,
                audit.utc_now(),
                note.expires_day,
                json.dumps(list(note.source_ids)),
                note.stage_id,
                note.axis,
                note.worker,
                note.reviewer,
                json.dumps(note.payload, sort_keys=True) if note.payload else None,
            ),
        )
        self._queue_cloud_write(mid, note.kind, note.text)
        return self.get(mid)

    def keep_copy(self, rec: MemoryRecord) -> bool:
        """Keep a record another store holds, under its own id; False when this run has it."""
        try:
            self.get(rec.id)
        except KeyError:
            with transaction(self.conn):
                self.insert(NewNote.copy_of(rec, keep_id=True))
            return True
        return False

    def log(
        self, operation: str, memory_ids: Sequence[str], reason: str, *, game_day: int | None
    ) -> None:
        audit.append(self.conn, self.run_id, operation, memory_ids, reason, game_day=game_day)

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
        return self._same_text(norm, ("context", "preference")), [to_record(r) for r in own]

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
        keep = None if rec.expires_day is None or expires_day is None else expires_day
        self.conn.execute(
            "UPDATE memories SET reinforced = reinforced + 1, importance = max(importance, ?),"
            " expires_day = max(expires_day, ?) WHERE run_id = ? AND id = ?",
            (importance, keep, self.run_id, rec.id),
        )
        return self.get(rec.id)

    def rewrite(self, rec: MemoryRecord, w: CleanWrite, *, expires_day: int, game_day: int) -> None:
        self.conn.execute(
            "UPDATE memories SET text = ?, n_terms = ?, norm_key = ?, kind = ?,"
            " importance = max(importance, ?), expires_day = ?, game_day = ?"
            " WHERE run_id = ? AND id = ?",
            (
                w.text,
                n_terms(w.text),
                norm_key(normalise(w.text)),
                w.kind,
                w.importance,
                expires_day,
                game_day,
                self.run_id,
                rec.id,
            ),
        )
        self._queue_cloud_write(rec.id, w.kind, w.text)

    def update(self, memory_id: str, change: lifecycle.Change) -> None:
        self.conn.execute(
            "UPDATE memories SET status = coalesce(?, status), superseded_by = coalesce(?,"
            " superseded_by), reinforced = coalesce(?, reinforced), importance = coalesce(?,"
            " importance) WHERE run_id = ? AND id = ?",
            (
                change.get("status"),
                change.get("superseded_by"),
                change.get("reinforced"),
                change.get("importance"),
                self.run_id,
                memory_id,
            ),
        )

    def delete(self, memory_ids: Sequence[str]) -> None:
        marks = ",".join("?" * len(memory_ids))
        for table in ("memories", "memory_cloud_outbox"):
            column = "id" if table == "memories" else "memory_id"
            self.conn.execute(
                f"DELETE FROM {table} WHERE run_id = ? AND {column} IN ({marks})",
                (self.run_id, *memory_ids),
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

    def read_records(
        self, kinds: list[str] | None, statuses: list[str] | None
    ) -> list[MemoryRecord]:
        sql = f"SELECT {COLUMNS} FROM memories WHERE run_id = ?"
        params: list[object] = [self.run_id]
        for column, values in (("kind", kinds), ("status", statuses)):
            if values is not None:
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

    def candidates(self, query: str, terms: Sequence[str], game_day: int) -> recall.Candidates:
        """The save file's notes for the ranking; the Foundry tier's hits (only outside a
        transaction: no network inside a step) rank after them."""
        found = local_recall.candidates(self.conn, self.run_id, terms)
        if self.cloud is None or self.conn.in_transaction:
            return found
        hits = self.cloud.search(self.run_id, query, game_day=game_day)
        return replace(found, extra=hits)

    def audit(self, *, limit: int | None = None, run_id: str | None = None) -> list[AuditRecord]:
        """This run's content-free audit trail, oldest first."""
        self.authorize(run_id)
        return audit.read(self.conn, self.run_id, limit=limit)

    # -- lifecycle -------------------------------------------------------------------------------
    def fold(
        self, req: lifecycle.Consolidation, *, game_day: int, dry_run: bool
    ) -> ConsolidationResult:
        """The semantic note written and its sources archived (`consolidated_into`), in one
        transaction; a matching retry writes nothing."""
        with transaction(self.conn):
            marks = ",".join("?" * len(req.wanted))
            notes = {
                r[0]: lifecycle.Note(*r[1:])
                for r in self.conn.execute(
                    "SELECT id, kind, status, importance, consolidated_into, text, reviewer"
                    f" FROM memories WHERE run_id = ? AND id IN ({marks})",
                    (self.run_id, *req.wanted),
                )
            }
            result = lifecycle.plan_consolidation(req, notes)
            if dry_run or result.status == "already_consolidated":
                return result
            self.insert(req.note(result.importance, game_day))
            self.conn.execute(
                "UPDATE memories SET consolidated_into = ?, status = 'archived' WHERE run_id = ?"
                f" AND id IN ({','.join('?' * len(req.ids))})",
                (req.semantic_id, self.run_id, *req.ids),
            )
            ids = [req.semantic_id, *req.ids]
            self.log("consolidate", ids, "reviewed-consolidation", game_day=game_day)
        return replace(result, status="consolidated")

    def forget_run(self, run_id: str | None = None, *, compact: bool = True) -> ForgetReport:
        """Delete every memory, counter and queued cloud write of the run, and merge the FTS index
        so no segment keeps the run's terms (secure_delete zeroes the freed pages; `compact` then
        clears the WAL); the content-free audit survives. Compacts afterwards unless a transaction
        is open (then call `compact()` after commit)."""
        self.authorize(run_id)
        with transaction(self.conn):
            ids = [r[0] for r in self.conn.execute(_IDS, (self.run_id,))]
            for table in ("memories", "memory_counters", "memory_cloud_outbox"):
                self.conn.execute(f"DELETE FROM {table} WHERE run_id = ?", (self.run_id,))
            # An FTS5 'delete' only marks the run's terms deleted; merging every segment drops them.
            self.conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')")
            if self.cloud is not None:
                self.conn.execute(
                    "INSERT INTO memory_cloud_outbox (run_id, op) VALUES (?, 'delete_scope')",
                    (self.run_id,),
                )
            self.log("forget_run", ids, "right-to-deletion", game_day=None)
        report = ForgetReport(run_id=self.run_id, deleted=len(ids), compacted=False)
        if compact and not self.conn.in_transaction:
            report.compacted = self.compact()
        return report

    def compact(self) -> bool:
        """Fold the WAL into the file, VACUUM, and truncate the WAL; True when no reader kept old
        pages alive (must run outside a transaction)."""
        return compact(self.conn)

    def flush_cloud(self) -> None:
        """Send queued cloud operations (call after commit: never inside a transaction)."""
        if self.cloud is None:
            return
        if self.conn.in_transaction:
            raise RuntimeError("flush_cloud must run after the transaction commits")
        self.cloud.flush(self.conn, self.run_id)


_IDS = "SELECT id FROM memories WHERE run_id = ? ORDER BY seq"


def compact(conn: sqlite3.Connection) -> bool:
    """Fold the WAL into the file, VACUUM, and truncate the WAL; True when no reader blocked it."""
    if conn.in_transaction:
        raise RuntimeError("compact must run outside a transaction")
    first = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    conn.execute("VACUUM")
    last = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return bool(first[0] == 0 and last[0] == 0)
