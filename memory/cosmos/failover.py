"""MEMORY_BACKEND=cosmos in a game: Cosmos DB first, the local store when it does not answer.

`FailoverMemory` implements the store contract (`memory.contract.MemoryBackend`). Every call goes to `CosmosMemoryStore`; when Cosmos is
unreachable (connection, timeout, throttling past retries, 5xx, auth, SDK missing) the call is
served by the run's local SQLite store instead, the outage is labelled (`store_label`, and a
notice the session turns into a MEMORY_BACKEND event), and every memory the local store writes
meanwhile goes into an outbox in the save file, in the step's own transaction. After each step
(`flush_cloud`) a parked tier is probed again (at most every `retry_seconds`); once it answers,
the outbox is sent (each record gets a new id in the run's Cosmos partition) and Cosmos serves
again. Every write Cosmos serves is mirrored into the local store (never queued), so an outage's
briefs recall what Cosmos would have, and a run through an outage replays exactly (`replay
--verify` re-derives memory on a local store). A run that began before the mirror gets the live
binding decisions and founder profile, as last seen in Cosmos, copied in when an outage starts.

The outbox always drains (issue 26): it lives in the save file, not in the session, so whichever
later session or command first reaches Cosmos (any run of the save) sends it before it serves
anything, and a note written locally keeps its id in Cosmos (the local counter is moved past
Cosmos's when an outage starts, and seeded copies keep Cosmos's ids, so an id is never given to
two texts). A run forgotten while Cosmos does not answer leaves a tombstone that outlives the
run's row: the local copy is gone at once, the Cosmos copy is deleted by the first session or
command that reaches Cosmos, and until then the forget says "Cosmos copy pending".
"""

from __future__ import annotations

import functools
import json
import logging
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from memory.contract import MemoryBackend, Notice
from memory.local.store import MemoryStore
from memory.models import (
    LIVE_STATUSES,
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
from worldforge_savedb.db import register_schema, transaction

log = logging.getLogger(f"worldforge.{__name__}")  # the one log file (engine.logs)

RETRY_SECONDS = 15.0
SEED_KINDS = ["procedural", "user_profile"]
T = TypeVar("T")


class Primary(MemoryBackend, Protocol):
    """What the failover needs of the remote store beyond the contract (`CosmosMemoryStore`)."""

    def ping(self) -> bool: ...

    def import_record(self, rec: MemoryRecord, *, keep_id: bool = False) -> MemoryRecord: ...

    def known_seq(self) -> int: ...

    def max_seq(self) -> int: ...

    def restore(
        self, records: Sequence[MemoryRecord], extra: dict[str, dict[str, object]]
    ) -> int: ...

    def fingerprint(self) -> dict[str, tuple[str, int]]: ...


def _ensure_outbox(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS memory_cosmos_outbox (pk INTEGER PRIMARY KEY,"
        " run_id TEXT NOT NULL, op TEXT NOT NULL, memory_id TEXT)"
    )
    conn.execute(
        "CREATE TABLE IF NOT EXISTS memory_cosmos_tombstones (run_id TEXT PRIMARY KEY,"
        " since TEXT NOT NULL)"
    )
    # A run whose every Cosmos write the save has mirrored since its notes matched Cosmos's (a
    # new run, or one found equal): its mirror is what Cosmos should hold (`_reconcile`).
    conn.execute(
        "CREATE TABLE IF NOT EXISTS memory_cosmos_mirror (run_id TEXT PRIMARY KEY,"
        " since TEXT NOT NULL)"
    )


def _queued(conn: sqlite3.Connection, sql: str, *params: object) -> list[tuple[object, ...]]:
    """Rows of the outbox, tombstone or mirror tables; [] on a save from before them (nothing
    queued, nothing pending, no mirror known complete)."""
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError:
        return []


def pending_forgets(conn: sqlite3.Connection) -> list[str]:
    """Runs forgotten locally whose Cosmos copy is still to be deleted (read-only)."""
    rows = _queued(conn, "SELECT run_id FROM memory_cosmos_tombstones ORDER BY since")
    return [str(r[0]) for r in rows]


register_schema("memory_cosmos_outbox", _ensure_outbox)


class FailoverMemory:
    """Cosmos DB with the local store as the fallback and an outbox to catch up."""

    def __init__(
        self,
        local: MemoryStore,
        connect: Callable[[], Primary],
        *,
        retry_seconds: float = RETRY_SECONDS,
        connect_for: Callable[[str], Primary] | None = None,
    ) -> None:
        self.local = local
        self.conn = local.conn
        self._connect = connect
        self.cosmos: Primary | None = None
        self.parked_reason: str | None = None
        self._parked_at = 0.0
        self.retry_seconds = retry_seconds
        self._notices: list[Notice] = []
        self._binding: dict[str, MemoryRecord] = {}  # live binding/profile records in Cosmos
        self._seeded: set[str] = set()
        self._connect_for = connect_for  # a store for another run of the save (draining)
        self._cosmos_seq = 0  # the highest note sequence Cosmos held when we connected
        self._check_due = False  # a step ended: check what Cosmos holds before it serves again

    # -- state -----------------------------------------------------------------------------------
    def _primary(self) -> Primary | None:
        """The Cosmos store, connected on first use; None while parked. The first use after a
        step first checks that Cosmos still holds what the run wrote (`_check`)."""
        if self.parked_reason is not None:
            return None
        if self.cosmos is not None and self._check_due:
            self._check_due = False
            if self._unless_outage(functools.partial(self._check, self.cosmos)) is None:
                return None
        if self.cosmos is None:
            try:
                self.cosmos = self._connect()
                self._drain(self.cosmos)  # what earlier sessions left, before serving anything
                resent = self._reconcile(self.cosmos)
                if resent is not None:
                    self._notices.append(_resent_notice(resent))
                live = self.cosmos.records(kinds=SEED_KINDS, statuses=["provisional", "active"])
                self._binding = {r.id: r for r in live}
                self._cosmos_seq = self.cosmos.max_seq()
            except Exception as exc:  # noqa: BLE001  (no SDK, bad settings, no answer: play locally)
                self._park(outage_reason(exc))
                return None
        return self.cosmos

    def _unless_outage(self, call: Callable[[], T]) -> tuple[T] | None:
        """`(call(),)` when Cosmos answered; None after an outage, which parks it (the local store
        serves meanwhile). Every other error is the caller's."""
        try:
            return (call(),)
        except Exception as exc:
            if not _outage(exc):
                raise
            self._park(str(exc))
            return None

    def _park(self, reason: str) -> None:
        if self.parked_reason is None:
            log.warning("cosmos memory parked: %s", reason)
            known = self.cosmos.known_seq() if self.cosmos is not None else 0
            self._counter_past(max(self._cosmos_seq, known))
            seeded = self._seed()
            message = (
                f"Memory on the local store: azure-cosmos unavailable ({reason}); "
                "writes will sync when it answers"
            )
            payload = {
                "backend": "local-sqlite",
                "reason": reason,
                "state": "fallback",
                "seeded": seeded,
            }
            self._notices.append((message, payload))
        self.parked_reason = reason
        self._parked_at = time.monotonic()
        if reason == "http-404":
            self.cosmos = None  # database or container gone: reconnect (recreate with a key)

    def _seed(self) -> int:
        """Copy the live binding decisions and profile known from Cosmos into the local store, so
        briefs keep their binding direction during the outage (not queued: Cosmos has them)."""
        count = 0
        for rec in list(self._binding.values()):
            if rec.id in self._seeded:
                continue
            # under Cosmos's own id (one id, one text); an earlier session may have seeded it
            count += self.local.keep_copy(rec)
            self._seeded.add(rec.id)
        return count

    def _counter_past(self, seq: int) -> None:
        """Move the run's local note counter past Cosmos's, so a note written during the outage
        gets an id Cosmos never gave (and keeps it when it is sent)."""
        if seq <= 0:
            return
        self._write(
            functools.partial(
                self.conn.execute,
                "INSERT INTO memory_counters (run_id, n) VALUES (?, ?) ON CONFLICT (run_id)"
                " DO UPDATE SET n = max(n, excluded.n)",
                (self.run_id, seq),
            )
        )

    def store_label(self) -> str:
        if self.parked_reason is None:
            return "azure-cosmos"
        return f"local-sqlite (azure-cosmos down: {self.parked_reason})"

    @property
    def run_id(self) -> str:
        return self.local.run_id

    def drain_notices(self) -> list[Notice]:
        """Backend changes since the last call, as (message, payload) for MEMORY_BACKEND events."""
        out, self._notices = self._notices, []
        return out

    def authorize(self, run_id: str | None) -> str:
        return self.local.authorize(run_id)

    # -- the contract, served by Cosmos or (while it is out) by the local store ------------------
    def _mirror(self, call: Callable[[MemoryBackend], object]) -> None:
        """A write Cosmos served, applied to the local store too (not queued: Cosmos has it). The
        two stores share the write policy, ids and ranking, so the local copy stays what Cosmos
        holds: a brief written during an outage recalls what Cosmos would have recalled, which is
        what `replay --verify` re-derives (with only the seeded binding notes, that brief lost the
        rest of the run's memory and the run failed verify there)."""
        try:
            call(self.local)
        except Exception:  # a mirror that fails leaves an outage's briefs shorter, nothing else
            log.exception("cosmos memory: the local mirror of a write failed")

            # the mirror no longer holds all Cosmos holds: never make Cosmos equal to it
            def unmark() -> None:
                _ensure_outbox(self.conn)
                self.conn.execute(
                    "DELETE FROM memory_cosmos_mirror WHERE run_id = ?", (self.run_id,)
                )

            self._write(unmark)

    def _serve(self, call: Callable[[MemoryBackend], T], *, mirror: bool = False) -> tuple[T, bool]:
        """`call` on Cosmos (and, for a write, `mirror`ed on the local store); on an outage (or
        while parked) on the local store. The flag says whether the local store served it (its
        writes then go into the outbox)."""
        primary = self._primary()
        served = None if primary is None else self._unless_outage(functools.partial(call, primary))
        if served is not None:
            if mirror:
                self._mirror(call)
            return served[0], False
        return call(self.local), True

    def remember(self, note: NewNote) -> MemoryRecord:
        def write(m: MemoryBackend) -> MemoryRecord:
            return m.remember(note)

        rec, local = self._serve(write, mirror=True)
        if local:
            self._outbox("write", rec.id)
        elif rec.kind in SEED_KINDS:
            self._binding[rec.id] = rec
        return rec

    def worker_write(
        self,
        req: Mapping[str, object],
        *,
        worker: str,
        stage_id: str,
        game_day: int,
    ) -> WriteDisposition:
        def write(m: MemoryBackend) -> WriteDisposition:
            return m.worker_write(req, worker=worker, stage_id=stage_id, game_day=game_day)

        d, local = self._serve(write, mirror=True)
        if local and d.memory_id:
            self._outbox("write", d.memory_id)
        return d

    def get(self, memory_id: str, *, run_id: str | None = None) -> MemoryRecord:
        return self._serve(lambda m: m.get(memory_id, run_id=run_id))[0]

    def records(
        self,
        *,
        kinds: Iterable[str] | None = None,
        statuses: Iterable[str] | None = None,
        run_id: str | None = None,
    ) -> list[MemoryRecord]:
        kinds = None if kinds is None else list(kinds)  # a retry on the local store reads it again
        statuses = None if statuses is None else list(statuses)
        return self._serve(lambda m: m.records(kinds=kinds, statuses=statuses, run_id=run_id))[0]

    def counts(self, *, run_id: str | None = None) -> dict[str, int]:
        return self._serve(lambda m: m.counts(run_id=run_id))[0]

    def recall(
        self,
        query: str,
        *,
        game_day: int,
        budget_tokens: int = 700,
        limit: int = 12,
        run_id: str | None = None,
    ) -> RecallResult:
        return self._serve(
            lambda m: m.recall(
                query, game_day=game_day, budget_tokens=budget_tokens, limit=limit, run_id=run_id
            )
        )[0]

    def audit(self, *, limit: int | None = None, run_id: str | None = None) -> list[AuditRecord]:
        return self._serve(lambda m: m.audit(limit=limit, run_id=run_id))[0]

    def harden(self, *, game_day: int) -> HardenReport:
        report, local = self._serve(lambda m: m.harden(game_day=game_day), mirror=True)
        if not local:
            for memory_id in (*report.archived, *report.superseded):
                self._binding.pop(memory_id, None)
        return report

    def prune(self, *, game_day: int, dry_run: bool = True) -> PruneReport:
        report, local = self._serve(
            lambda m: m.prune(game_day=game_day, dry_run=dry_run), mirror=not dry_run
        )
        if not dry_run and not local:
            for memory_id in report.archived_ids:  # an expired binding note archived
                self._binding.pop(memory_id, None)
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
        def fold(m: MemoryBackend) -> ConsolidationResult:
            return m.consolidate(
                source_ids, summary=summary, reviewer=reviewer, game_day=game_day, dry_run=dry_run
            )

        return self._serve(fold, mirror=not dry_run)[0]

    def forget_note(self, memory_id: str, *, game_day: int) -> ForgetReport:
        self._binding.pop(memory_id, None)
        return self._serve(lambda m: m.forget_note(memory_id, game_day=game_day), mirror=True)[0]

    def forget_run(self, run_id: str | None = None, *, compact: bool = True) -> ForgetReport:
        """Delete the run's memories here at once (local copies and seeds included) and in Cosmos
        when it answers; otherwise leave a tombstone (in the caller's transaction) that any later
        session or command sends. `forget_pending()` says which it was."""
        self.local.authorize(run_id)
        primary = self._primary()  # first: an outage met here seeds the local store, cleared next
        report = self.local.forget_run(compact=False)
        self._binding.clear()  # so an outage the Cosmos forget meets seeds nothing back
        forget = None if primary is None else functools.partial(primary.forget_run, compact=False)
        remote = None if forget is None else self._unless_outage(forget)
        with transaction(self.conn):
            self._clear(self.run_id)
            if remote is None:  # Cosmos did not answer: its copy is deleted when it does
                self.conn.execute(
                    "INSERT OR REPLACE INTO memory_cosmos_tombstones (run_id, since)"
                    " VALUES (?, datetime('now'))",
                    (self.run_id,),
                )
        if remote is not None:
            report.deleted = max(report.deleted, remote[0].deleted)
        return report

    def forget_pending(self) -> bool:
        """True while the run's Cosmos copy waits for Cosmos to answer (a tombstone is queued)."""
        return self.run_id in pending_forgets(self.conn)

    def _clear(self, run_id: str) -> None:
        """Drop the run's queued writes and its tombstone (caller holds the transaction)."""
        _ensure_outbox(self.conn)
        self.conn.execute("DELETE FROM memory_cosmos_outbox WHERE run_id = ?", (run_id,))
        self.conn.execute("DELETE FROM memory_cosmos_tombstones WHERE run_id = ?", (run_id,))
        self.conn.execute("DELETE FROM memory_cosmos_mirror WHERE run_id = ?", (run_id,))

    def compact(self) -> bool:
        """The save file's space (Cosmos has nothing to compact)."""
        return self.local.compact()

    def _outbox(self, op: str, memory_id: str | None) -> None:
        with transaction(self.conn):
            _ensure_outbox(self.conn)
            self.conn.execute(
                "INSERT INTO memory_cosmos_outbox (run_id, op, memory_id) VALUES (?, ?, ?)",
                (self.run_id, op, memory_id),
            )

    # -- catching up -----------------------------------------------------------------------------
    def flush_cloud(self) -> None:
        """After each step: send Cosmos's queued audit rows, or, while parked, probe again and
        send the outbox once it answers. Either way, the first use of Cosmos in the next step
        checks first that it still holds what the run wrote (`_check`)."""
        self.local.flush_cloud()
        if self.parked_reason is None:
            primary = self._primary()
            if primary is not None:
                self._unless_outage(functools.partial(self._send, primary))
        elif time.monotonic() - self._parked_at >= self.retry_seconds:
            self.retry()
        self._check_due = True

    def _send(self, primary: Primary) -> None:
        """Cosmos's queued audit rows, then whatever this save queued for it (any run)."""
        primary.flush_cloud()
        if self._waiting():
            self._drain(primary)

    def retry(self) -> bool:
        """Probe Cosmos now; when it answers, sync the outbox and serve from it again."""
        try:
            if self.cosmos is None:
                self.cosmos = self._connect()
            if not self.cosmos.ping():
                raise ConnectionError("no-answer")
            synced = self._drain(self.cosmos)
            resent = self._reconcile(self.cosmos)
            self.cosmos.flush_cloud()
        except Exception as exc:
            if not (_outage(exc) or isinstance(exc, (ImportError, ValueError, ConnectionError))):
                raise
            self.parked_reason = outage_reason(exc)
            self._parked_at = time.monotonic()
            self.cosmos = None  # reconnect next time: a deleted database is recreated (key auth)
            return False
        self.parked_reason = None
        message = f"Memory back on azure-cosmos: {synced} local write(s) synced"
        payload: dict[str, object] = {"backend": "azure-cosmos", "synced": synced}
        if resent is not None:
            message, extra = _resent_notice(resent)
            payload |= extra
        self._notices.append((message, payload | {"state": "restored"}))
        return True

    # -- what Cosmos should hold -----------------------------------------------------------------
    def _reconcile(self, primary: Primary) -> tuple[int, int] | None:
        """Before Cosmos serves this run again: does it hold what the run wrote? The save's mirror
        says (every write Cosmos served was mirrored, every write during an outage is local).
        When the run's notes in Cosmos differ from the mirror's (a container restarted empty,
        deleted and recreated, restored from an older backup, or holding an action the player
        cancelled), Cosmos is made to hold the mirror's notes again, whole, before it serves.
        Returns (notes Cosmos held, notes re-sent) when it re-sent, else None. A run whose mirror
        is not known complete (begun before the mirror, or a mirror write failed) is left as it
        is: its mirror might hold less than Cosmos."""
        mine = {r.id: r for r in self.local.records() if not _expired(r)}
        held = {r.id: r for r in primary.records()}
        if {i: _content(r) for i, r in mine.items()} == {i: _content(r) for i, r in held.items()}:
            self._mark_complete()
            return None
        if not self._mirror_complete():
            log.warning(
                "cosmos memory: run holds %d notes there, %d here; the save's copy is not known"
                " complete, so Cosmos is left as it is",
                len(held),
                len(mine),
            )
            return None
        extra = {
            str(r[0]): {"worker": r[1], "reviewer": r[2], "consolidatedInto": r[3]}
            for r in self.conn.execute(
                "SELECT id, worker, reviewer, consolidated_into FROM memories WHERE run_id = ?",
                (self.run_id,),
            )
        }
        same = sum(1 for i, r in held.items() if i in mine and _content(mine[i]) == _content(r))
        sent = primary.restore(list(mine.values()), extra)
        self._binding = {
            i: r for i, r in mine.items() if r.kind in SEED_KINDS and r.status in LIVE_STATUSES
        }
        log.warning(
            "cosmos memory: held %d of %d notes as written; re-sent %d", same, len(mine), sent
        )
        self._seeded.clear()
        return same, sent

    def rewound(self) -> None:
        """An action the player cancelled was undone in the save: Cosmos, which served its
        writes, is made to hold the save's notes again (or, while it does not answer, when it
        next does: every reconnect compares)."""
        primary = self._primary()
        if primary is not None:
            self._unless_outage(functools.partial(self._reconcile, primary))

    def _check(self, primary: Primary) -> None:
        """One small query: when the run's notes in Cosmos are not the mirror's (emptied,
        recreated or restored from a backup between steps, with no outage seen), re-send them."""
        if primary.fingerprint() == self._fingerprint():
            if not self._mirror_complete():
                self._mark_complete()
        elif self._mirror_complete():
            resent = self._reconcile(primary)
            if resent is not None:
                self._notices.append(_resent_notice(resent))

    def _mark_complete(self) -> None:
        """From now on the mirror holds all Cosmos holds of the run (a new run: both empty).
        Never for a forgotten run (its audit says so): nothing of it is written again."""

        def mark() -> None:
            _ensure_outbox(self.conn)  # a save made before this process imported this module
            self.conn.execute(
                "INSERT OR IGNORE INTO memory_cosmos_mirror (run_id, since)"
                " SELECT ?, datetime('now') WHERE NOT EXISTS (SELECT 1 FROM memory_audit"
                " WHERE run_id = ? AND operation = 'forget_run')",
                (self.run_id, self.run_id),
            )

        self._write(mark)

    def _fingerprint(self) -> dict[str, tuple[str, int]]:
        """The mirror's notes as `Primary.fingerprint` gives Cosmos's."""
        return {r.id: (r.status, r.reinforced) for r in self.local.records() if not _expired(r)}

    def _mirror_complete(self) -> bool:
        sql = "SELECT 1 FROM memory_cosmos_mirror WHERE run_id = ?"
        return bool(_queued(self.conn, sql, self.run_id))

    def _waiting(self) -> bool:
        """Anything queued in this save for Cosmos (any run)?"""
        sql = (
            "SELECT 1 WHERE EXISTS (SELECT 1 FROM memory_cosmos_outbox)"
            " OR EXISTS (SELECT 1 FROM memory_cosmos_tombstones)"
        )
        return bool(_queued(self.conn, sql))

    def _drain(self, primary: Primary) -> int:
        """Send what the save holds for Cosmos, whoever queued it: tombstones first (a forgotten
        run's documents are deleted), then each run's queued writes. Returns this run's notes sent.
        A read-only command leaves the queue to the next one that may write."""
        if not self._waiting():
            return 0
        for run_id in pending_forgets(self.conn):
            store = primary if run_id == self.run_id else self._store_for(run_id)
            if store is None:
                continue
            store.forget_run(compact=False)
            if not self._write(functools.partial(self._clear, run_id)):
                return 0
        synced = 0
        for (run_id,) in self.conn.execute(
            "SELECT DISTINCT run_id FROM memory_cosmos_outbox ORDER BY run_id"
        ).fetchall():
            store = primary if run_id == self.run_id else self._store_for(run_id)
            if store is not None:
                sent = self._sync(store, run_id)
                synced += sent if run_id == self.run_id else 0
        return synced

    def _store_for(self, run_id: str) -> Primary | None:
        return self._connect_for(run_id) if self._connect_for is not None else None

    def _write(self, fn: Callable[[], object]) -> bool:
        """Run `fn` in a write transaction; False on a read-only connection."""
        try:
            with transaction(self.conn):
                fn()
        except sqlite3.OperationalError as err:
            if "readonly" in str(err).replace(" ", "").lower():
                return False
            raise
        return True

    def _sync(self, primary: Primary, run_id: str) -> int:
        local = self.local if run_id == self.run_id else MemoryStore(self.conn, run_id)
        rows = self.conn.execute(
            "SELECT pk, op, memory_id FROM memory_cosmos_outbox WHERE run_id = ? ORDER BY pk",
            (run_id,),
        ).fetchall()
        sent: set[str] = set()
        for pk, op, memory_id in rows:
            if op == "forget":  # a queued forget from before tombstones
                primary.forget_run(compact=False)
                sent.clear()
            elif memory_id not in sent:
                try:
                    rec = local.get(memory_id)
                except KeyError:
                    rec = None  # pruned or forgotten locally since: nothing to send
                if rec is not None:
                    primary.import_record(rec, keep_id=True)
                sent.add(memory_id)
            done = functools.partial(
                self.conn.execute, "DELETE FROM memory_cosmos_outbox WHERE pk = ?", (pk,)
            )
            if not self._write(done):
                break
        return len(sent)

    def pending(self) -> int:
        """Outbox rows waiting for Cosmos."""
        _ensure_outbox(self.conn)
        return int(
            self.conn.execute(
                "SELECT count(*) FROM memory_cosmos_outbox WHERE run_id = ?", (self.run_id,)
            ).fetchone()[0]
        )


def _content(rec: MemoryRecord) -> tuple[object, ...]:
    """What a note is, as recall and the lifecycle read it (not when or where it was written)."""
    return (
        rec.kind,
        rec.text,
        rec.status,
        rec.author,
        rec.importance,
        rec.game_day,
        rec.expires_day,
        tuple(rec.source_ids),
        rec.stage_id,
        rec.axis,
        rec.reinforced,
        rec.superseded_by,
        json.dumps(rec.payload, sort_keys=True),
    )


def _expired(rec: MemoryRecord) -> bool:
    """A note the service has deleted by its TTL (calendar time since it was written): not
    re-sent, as the service would delete it again and prune deletes it here too."""
    from memory.cosmos.client import ttl_seconds  # a primary answered: the SDK is loaded

    ttl = ttl_seconds(rec.kind, rec.importance, rec.game_day, rec.expires_day)
    if ttl < 0 or not rec.ts:
        return False
    try:
        written = datetime.fromisoformat(rec.ts)
    except ValueError:
        return False
    if written.tzinfo is None:
        written = written.replace(tzinfo=UTC)
    return (datetime.now(UTC) - written).total_seconds() > ttl


def _resent_notice(resent: tuple[int, int]) -> Notice:
    held, sent = resent
    return (
        (
            f"Memory on azure-cosmos held {held} of this run's {sent} notes as written: "
            f"all {sent} re-sent from the save before it serves again"
        ),
        {"backend": "azure-cosmos", "state": "resent", "held": held, "resent": sent},
    )


def _outage(exc: BaseException) -> bool:
    """True for `memory.cosmos.client.CosmosUnavailable` (checked without importing the SDK)."""
    module = sys.modules.get("memory.cosmos.client")
    return module is not None and isinstance(exc, module.CosmosUnavailable)


def outage_reason(exc: BaseException) -> str:
    """Why a Cosmos store could not be reached, in a few words for a label or a status line."""
    if isinstance(exc, ImportError):
        return "azure-cosmos not installed: pip install 'worldforge-tui[cosmos]'"
    if isinstance(exc, ValueError):
        return str(exc)[:120]
    text = str(exc)
    return text[:40] if text and " " not in text[:40] else type(exc).__name__
