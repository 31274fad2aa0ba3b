"""MemoryStore: one run's binding memory in the shared save file.

Every method joins the caller's transaction (`worldforge_savedb.db.transaction`, re-entrant), checks the
run scope before touching the database, scrubs every text before it is stored (`memory.writes`),
and records a content-free audit row. Writes go straight to SQLite (its triggers keep the FTS5
index and the run's counters); nothing about a run is held in process, so any number of stores
and connections see the same truth. Cloud writes are queued in an outbox and sent only by
`flush_cloud()`.

Recall reads the run's live notes from the covering index `memories_recall` (no row is read);
FTS5 says which of them hold each query term, reading only the run's own doclists (every index
term carries the run's key, see `memory.local.schema`), and how many of the run's notes hold it;
the run's counter row holds its note count and total length. So BM25's statistics are the run's
own, and a run ranks the same in any save, beside any other runs, as its replay does (FTS5's
built-in `bm25()` counts over the whole table). Only the few chosen notes are read whole.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from memory import audit, lifecycle, recall
from memory.guards import STAGE_CAP, CleanWrite
from memory.local.schema import n_terms, norm_key, run_key
from memory.models import (
    FIELDS,
    KINDS,
    WORKER_KINDS,
    AuditRecord,
    ConsolidationResult,
    ForgetReport,
    Kind,
    MemoryRecord,
    NewNote,
)
from memory.writes import PolicyStore
from worldforge_savedb.db import transaction
from worldforge_textkit import normalise

if TYPE_CHECKING:
    from memory.foundry.cloud import CloudMemory

COLUMNS = ", ".join(FIELDS)  # the record's fields are the table's columns
# The run's next sequence number (the counter the triggers keep) names the note unless it has an id.
_INSERT = (
    "INSERT INTO memories (run_id, id, seq, kind, text, n_terms, run_key, norm_key, status, author,"
    " importance, game_day, ts, expires_day, source_ids, stage_id, axis, worker, reviewer, payload)"
    " SELECT :run_id, coalesce(:memory_id, printf('mem-%05d', seq)), seq, :kind, :text, :n_terms,"
    " :run_key, :norm_key, :status, :author, :importance, :game_day, :ts, :expires_day,"
    " :source_ids, :stage_id, :axis, :worker, :reviewer, :payload FROM (SELECT coalesce(max(n), 0)"
    f" + 1 AS seq FROM memory_counters WHERE run_id = :run_id) RETURNING {COLUMNS}"
)
_LIVE = "status IN ('provisional', 'active')"
_NOTES = (
    "SELECT pk, seq, kind, status, game_day, importance, expires_day, axis, n_terms"
    f" FROM memories WHERE run_id = ? AND {_LIVE}"
)
_HOLDERS = "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?"


@lru_cache(maxsize=4096)
def _record(row: tuple[Any, ...]) -> MemoryRecord:
    """The record of a row selected with COLUMNS (JSON decoded, every field checked), cached by
    the row's values: a run's steps re-read unchanged rows (balance read each ~16 times), and a
    changed row is a new key, so nothing goes stale. Records are frozen: one may be handed out twice."""
    fields = dict(zip(FIELDS, row, strict=True))
    fields["source_ids"] = json.loads(fields["source_ids"])
    fields["payload"] = json.loads(fields["payload"]) if fields["payload"] else None
    return MemoryRecord.from_dict(fields)


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


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

    def _rows(self, where: str, *params: object) -> list[MemoryRecord]:
        """This run's records matching `where` (SQL after `run_id = ? AND`), as selected."""
        sql = f"SELECT {COLUMNS} FROM memories WHERE run_id = ? AND {where}"
        return [_record(r) for r in self._tuples(sql, (self.run_id, *params))]

    def _tuples(self, sql: str, params: Sequence[object] | dict[str, object]) -> sqlite3.Cursor:
        """Rows as plain tuples (cheaper than sqlite3.Row, and what `_record` is keyed by)."""
        cursor = self.conn.cursor()
        cursor.row_factory = None
        return cursor.execute(sql, params)

    # -- the write policy's repository (`memory.writes.PolicyStore`) ------------------------------
    def transaction(self) -> AbstractContextManager[object]:
        return transaction(self.conn)

    def insert(self, note: NewNote) -> MemoryRecord:
        """Insert one row (caller holds the transaction)."""
        new = self._tuples(
            _INSERT,
            {
                **vars(note),  # the fields stored as they are (SQLite ignores the others)
                "run_id": self.run_id,
                "n_terms": n_terms(note.text),
                "run_key": self._run_key,
                "norm_key": norm_key(normalise(note.text)),
                "ts": audit.utc_now(),
                "source_ids": json.dumps(list(note.source_ids)),
                "payload": json.dumps(note.payload, sort_keys=True) if note.payload else None,
            },
        ).fetchone()
        rec = _record(new)
        self._queue_cloud_write(rec.id, note.kind, note.text)
        return rec

    def keep_copy(self, rec: MemoryRecord) -> bool:
        """Keep a record another store holds, under its own id; False when this run has it."""
        if self._rows("id = ?", rec.id):
            return False
        with transaction(self.conn):
            self.insert(NewNote.copy_of(rec, keep_id=True))
        return True

    def log(
        self, operation: str, memory_ids: Sequence[str], reason: str, *, game_day: int | None
    ) -> None:
        """One audit row: run, operation code, sorted ids, reason code, time and game day."""
        self.conn.execute(
            "INSERT INTO memory_audit (run_id, operation, memory_ids, reason, ts, game_day)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                self.run_id,
                audit.reason_code(operation),
                json.dumps(sorted(set(memory_ids))),
                audit.reason_code(reason),
                audit.utc_now(),
                game_day,
            ),
        )

    def restatement(self, norm: str, kind: Kind) -> MemoryRecord | None:
        return self._same_text(norm, (kind,))

    def worker_context(
        self, norm: str, stage_id: str
    ) -> tuple[MemoryRecord | None, list[MemoryRecord]]:
        own = self._rows("stage_id = ? AND author = 'worker' ORDER BY seq DESC", stage_id)
        return self._same_text(norm, sorted(WORKER_KINDS)), own

    def _same_text(self, norm: str, kinds: Sequence[str]) -> MemoryRecord | None:
        """The earliest live note of one of `kinds` whose normalised words are `norm`."""
        where = f"norm_key = ? AND {_LIVE} AND kind IN ({_marks(kinds)}) ORDER BY seq"
        same = (r for r in self._rows(where, norm_key(norm), *kinds) if normalise(r.text) == norm)
        return next(same, None)

    def reinforce(
        self, rec: MemoryRecord, importance: float, expires_day: int | None
    ) -> MemoryRecord:
        keep = None if rec.expires_day is None or expires_day is None else expires_day
        row = self.conn.execute(
            "UPDATE memories SET reinforced = reinforced + 1, importance = max(importance, ?),"
            f" expires_day = max(expires_day, ?) WHERE run_id = ? AND id = ? RETURNING {COLUMNS}",
            (importance, keep, self.run_id, rec.id),
        ).fetchone()
        return _record(tuple(row))

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
        sets = ", ".join(f"{field} = ?" for field in change)
        self.conn.execute(
            f"UPDATE memories SET {sets} WHERE run_id = ? AND id = ?",
            (*change.values(), self.run_id, memory_id),
        )

    def delete(self, memory_ids: Sequence[str]) -> None:
        for table, column in (("memories", "id"), ("memory_cloud_outbox", "memory_id")):
            self.conn.execute(
                f"DELETE FROM {table} WHERE run_id = ? AND {column} IN ({_marks(memory_ids)})",
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
        self.authorize(run_id)
        for rec in self._rows("id = ?", memory_id):
            return rec
        raise KeyError(memory_id)

    def read_records(
        self, kinds: list[str] | None, statuses: list[str] | None
    ) -> list[MemoryRecord]:
        where, params = "true", []
        for column, values in (("kind", kinds), ("status", statuses)):
            if values is not None:
                where += f" AND {column} IN ({_marks(values)})"
                params.extend(values)
        return self._rows(where + " ORDER BY seq", *params)

    def counts(self, *, run_id: str | None = None) -> dict[str, int]:
        self.authorize(run_id)
        return dict.fromkeys(KINDS, 0) | dict(
            self.conn.execute(
                f"SELECT kind, count(*) FROM memories WHERE run_id = ? AND {_LIVE} GROUP BY kind",
                (self.run_id,),
            ).fetchall()
        )

    def candidates(self, query: str, terms: Sequence[str], game_day: int) -> recall.Candidates:
        """The run's live notes, the query `terms` each holds and the run's statistics (see the
        module doc); the Foundry tier's hits (only outside a transaction: no network inside a
        step) rank after them."""
        held: dict[int, set[str]] = {}
        df: dict[str, int] = {}
        # a term is letters and digits only, quoted: no query text reaches FTS5 syntax
        for t in terms:
            pks = self.conn.execute(_HOLDERS, (f'"{self._run_key}{t}"',)).fetchall()
            df[t] = len(pks)
            for (pk,) in pks:
                held.setdefault(pk, set()).add(t)
        docs, length = self.conn.execute(
            "SELECT docs, length FROM memory_counters WHERE run_id = ?", (self.run_id,)
        ).fetchone() or (0, 0)
        stats = recall.Stats(docs, length, df)
        none: frozenset[str] = frozenset()
        notes = [
            recall.Note._make((*r, held.get(r[0], none)))
            for r in self._tuples(_NOTES, (self.run_id,))
        ]
        found = recall.Candidates(notes, stats, self._fetch)
        if self.cloud is None or self.conn.in_transaction:
            return found
        return replace(found, extra=self.cloud.search(self.run_id, query, game_day=game_day))

    def _fetch(self, pks: list[int | str]) -> dict[int | str, MemoryRecord]:
        sql = f"SELECT pk, {COLUMNS} FROM memories WHERE pk IN ({_marks(pks)})"
        return {r[0]: _record(r[1:]) for r in self._tuples(sql, pks)}

    def audit(self, *, limit: int | None = None, run_id: str | None = None) -> list[AuditRecord]:
        self.authorize(run_id)
        if limit is not None and limit <= 0:
            return []
        rows = self._tuples(
            "SELECT * FROM (SELECT seq, run_id, operation, memory_ids, reason, ts, game_day"
            " FROM memory_audit WHERE run_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq",
            (self.run_id, -1 if limit is None else limit),
        )
        return [AuditRecord(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6]) for r in rows]

    # -- lifecycle -------------------------------------------------------------------------------
    def fold(
        self, req: lifecycle.Consolidation, *, game_day: int, dry_run: bool
    ) -> ConsolidationResult:
        """The semantic note written and its sources archived (`consolidated_into`), in one
        transaction; a matching retry writes nothing."""
        with transaction(self.conn):
            notes = {
                r[0]: lifecycle.Note(*r[1:])
                for r in self.conn.execute(
                    "SELECT id, kind, status, importance, consolidated_into, text, reviewer"
                    f" FROM memories WHERE run_id = ? AND id IN ({_marks(req.wanted)})",
                    (self.run_id, *req.wanted),
                )
            }
            result = lifecycle.plan_consolidation(req, notes)
            if dry_run or result.status == "already_consolidated":
                return result
            self.insert(req.note(result.importance, game_day))
            self.conn.execute(
                "UPDATE memories SET consolidated_into = ?, status = 'archived' WHERE run_id = ?"
                f" AND id IN ({_marks(req.ids)})",
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
            ids = [
                r[0]
                for r in self.conn.execute(
                    "DELETE FROM memories WHERE run_id = ? RETURNING id", (self.run_id,)
                )
            ]
            for table in ("memory_counters", "memory_cloud_outbox"):
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
        return compact(self.conn)

    def flush_cloud(self) -> None:
        """Send queued cloud operations (call after commit: never inside a transaction)."""
        if self.cloud is None:
            return
        if self.conn.in_transaction:
            raise RuntimeError("flush_cloud must run after the transaction commits")
        self.cloud.flush(self.conn, self.run_id)


def compact(conn: sqlite3.Connection) -> bool:
    """Fold the WAL into the file, VACUUM, and truncate the WAL; True when no reader blocked it."""
    if conn.in_transaction:
        raise RuntimeError("compact must run outside a transaction")
    first = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    conn.execute("VACUUM")
    last = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return bool(first[0] == 0 and last[0] == 0)
