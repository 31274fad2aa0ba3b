"""MEMORY_BACKEND=cosmos in a game: Cosmos DB first, the local store when it does not answer.

`FailoverMemory` has the store contract. Every call goes to `CosmosMemoryStore`; when Cosmos is
unreachable (connection, timeout, throttling past retries, 5xx, auth, SDK missing) the call is
served by the run's local SQLite store instead, the outage is labelled (`store_label`, and a
notice the session turns into a MEMORY_BACKEND event), and every memory the local store writes
meanwhile goes into an outbox in the save file, in the step's own transaction. After each step
(`flush_cloud`) a parked tier is probed again (at most every `retry_seconds`); once it answers,
the outbox is sent (each record gets a new id in the run's Cosmos partition) and Cosmos serves
again. The run's live binding decisions and founder profile, as last seen in Cosmos, are copied
into the local store when an outage starts, so briefs keep their binding direction; other notes
written to Cosmos before the outage are not in briefs until it answers again.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
import time
from collections.abc import Callable
from typing import Any

from memory.local.db import register_schema, transaction
from memory.local.store import MemoryStore

log = logging.getLogger(f"worldforge.{__name__}")  # the one log file (engine.logs)

RETRY_SECONDS = 15.0
SEED_KINDS = ["procedural", "user_profile"]
_WRITES = ("remember", "worker_write")
_LOCAL_ONLY = ("compact",)


def _ensure_outbox(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS memory_cosmos_outbox (pk INTEGER PRIMARY KEY,"
        " run_id TEXT NOT NULL, op TEXT NOT NULL, memory_id TEXT)"
    )


register_schema("memory_cosmos_outbox", _ensure_outbox)


class FailoverMemory:
    """Cosmos DB with the local store as the fallback and an outbox to catch up."""

    def __init__(
        self,
        local: MemoryStore,
        connect: Callable[[], Any],
        *,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        self.local = local
        self.run_id = local.run_id
        self.conn = local.conn
        self._connect = connect
        self.cosmos: Any = None
        self.parked_reason: str | None = None
        self._parked_at = 0.0
        self.retry_seconds = retry_seconds
        self._notices: list[tuple[str, dict[str, Any]]] = []
        self._binding: dict[str, Any] = {}  # live binding/profile records known in Cosmos
        self._seeded: set[str] = set()

    # -- state -----------------------------------------------------------------------------------
    def _primary(self) -> Any:
        """The Cosmos store, connected on first use; None while parked."""
        if self.parked_reason is not None:
            return None
        if self.cosmos is None:
            try:
                self.cosmos = self._connect()
                live = self.cosmos.records(kinds=SEED_KINDS, statuses=["provisional", "active"])
                self._binding = {r.id: r for r in live}
            except Exception as exc:  # noqa: BLE001  (no SDK, bad settings, no answer: play locally)
                self._park(_reason(exc))
                return None
        return self.cosmos

    def _park(self, reason: str) -> None:
        if self.parked_reason is None:
            log.warning("cosmos memory parked: %s", reason)
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

    def _seed(self) -> int:
        """Copy the live binding decisions and profile known from Cosmos into the local store, so
        briefs keep their binding direction during the outage (not queued: Cosmos has them)."""
        count = 0
        for rec in list(self._binding.values()):
            if rec.id in self._seeded:
                continue
            self.local.remember(
                rec.kind,
                rec.text,
                author=rec.author,
                game_day=rec.game_day,
                importance=rec.importance,
                stage_id=rec.stage_id,
                axis=rec.axis,
                source_ids=rec.source_ids,
                status=rec.status,
                payload=rec.payload,
            )
            self._seeded.add(rec.id)
            count += 1
        return count

    def _track(self, name: str, result: Any) -> None:
        """Keep `_binding` current from what Cosmos answered."""
        if name == "remember" and result.kind in SEED_KINDS:
            self._binding[result.id] = result
        elif name == "harden":
            for memory_id in (*result.archived, *result.superseded):
                self._binding.pop(memory_id, None)
        elif name == "forget_run":
            self._binding.clear()

    def store_label(self) -> str:
        if self.parked_reason is None:
            return "azure-cosmos"
        return f"local-sqlite (azure-cosmos down: {self.parked_reason})"

    def drain_notices(self) -> list[tuple[str, dict[str, Any]]]:
        """Backend changes since the last call, as (message, payload) for MEMORY_BACKEND events."""
        out, self._notices = self._notices, []
        return out

    def authorize(self, run_id: str | None) -> str:
        return self.local.authorize(run_id)

    # -- the contract, delegated -----------------------------------------------------------------
    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        primary = self._primary()
        if primary is not None:
            try:
                result = getattr(primary, name)(*args, **kwargs)
            except Exception as exc:
                if not _outage(exc):
                    raise
                self._park(str(exc))
            else:
                self._track(name, result)
                return result
        result = getattr(self.local, name)(*args, **kwargs)
        if name in _WRITES:
            memory_id = getattr(result, "memory_id", None) if name == "worker_write" else result.id
            if memory_id:
                self._outbox("write", memory_id)
        elif name == "forget_run":
            self._outbox("forget", None)
        return result

    def _outbox(self, op: str, memory_id: str | None) -> None:
        with transaction(self.conn):
            _ensure_outbox(self.conn)
            self.conn.execute(
                "INSERT INTO memory_cosmos_outbox (run_id, op, memory_id) VALUES (?, ?, ?)",
                (self.run_id, op, memory_id),
            )

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in _LOCAL_ONLY:
            return getattr(self.local, name)
        return lambda *args, **kwargs: self._call(name, *args, **kwargs)

    # -- catching up -----------------------------------------------------------------------------
    def flush_cloud(self) -> None:
        """After each step: send Cosmos's queued audit rows, or, while parked, probe again and
        send the outbox once it answers."""
        self.local.flush_cloud()
        if self.parked_reason is None:
            primary = self._primary()
            if primary is not None:
                try:
                    primary.flush_cloud()
                except Exception as exc:
                    if not _outage(exc):
                        raise
                    self._park(str(exc))
            return
        if time.monotonic() - self._parked_at < self.retry_seconds:
            return
        self.retry()

    def retry(self) -> bool:
        """Probe Cosmos now; when it answers, sync the outbox and serve from it again."""
        try:
            if self.cosmos is None:
                self.cosmos = self._connect()
            if not self.cosmos.ping():
                raise ConnectionError("no-answer")
            synced = self._sync(self.cosmos)
            self.cosmos.flush_cloud()
        except Exception as exc:
            if not (_outage(exc) or isinstance(exc, (ImportError, ValueError, ConnectionError))):
                raise
            self.parked_reason = _reason(exc)
            self._parked_at = time.monotonic()
            return False
        self.parked_reason = None
        self._notices.append(
            (
                f"Memory back on azure-cosmos: {synced} local write(s) synced",
                {"backend": "azure-cosmos", "synced": synced, "state": "restored"},
            )
        )
        return True

    def _sync(self, primary: Any) -> int:
        _ensure_outbox(self.conn)
        rows = self.conn.execute(
            "SELECT pk, op, memory_id FROM memory_cosmos_outbox WHERE run_id = ? ORDER BY pk",
            (self.run_id,),
        ).fetchall()
        sent: set[str] = set()
        for pk, op, memory_id in rows:
            if op == "forget":
                primary.forget_run()
                sent.clear()
            elif memory_id not in sent:
                try:
                    rec = self.local.get(memory_id)
                except KeyError:
                    rec = None  # pruned or forgotten locally since: nothing to send
                if rec is not None:
                    primary.import_record(rec)
                sent.add(memory_id)
            with transaction(self.conn):
                self.conn.execute("DELETE FROM memory_cosmos_outbox WHERE pk = ?", (pk,))
        return len(sent)

    def pending(self) -> int:
        """Outbox rows waiting for Cosmos."""
        _ensure_outbox(self.conn)
        return int(
            self.conn.execute(
                "SELECT count(*) FROM memory_cosmos_outbox WHERE run_id = ?", (self.run_id,)
            ).fetchone()[0]
        )


def _outage(exc: BaseException) -> bool:
    """True for `memory.cosmos.client.CosmosUnavailable` (checked without importing the SDK)."""
    module = sys.modules.get("memory.cosmos.client")
    return module is not None and isinstance(exc, module.CosmosUnavailable)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ImportError):
        return "azure-cosmos not installed: pip install 'worldforge-tui[cosmos]'"
    if isinstance(exc, ValueError):
        return str(exc)[:120]
    text = str(exc)
    return text[:40] if text and " " not in text[:40] else type(exc).__name__
