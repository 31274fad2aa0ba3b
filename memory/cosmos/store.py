"""Binding memory in Azure Cosmos DB for NoSQL: the store contract of `memory.local.store.MemoryStore`
(guarded writes, budgeted recall, hardening, retention, consolidation, forgetting, audit) on a
distributed engine, after the lab design in `reference/seed-persistent-shared-memory-lab.txt`.

- One long-lived `CosmosClient` per endpoint and credential (`client_for`); DefaultAzureCredential
  unless the user set AZURE_COSMOS_KEY (held in memory only, never written anywhere).
- Partition key `/runId`; memories and the content-free audit in separate containers.
- Every query is parameterised, filters `c.runId = @run` in its own SQL and also passes the
  partition key; the run is checked (`authorize`) before any I/O.
- The session token of each write rides on the next read; every update is ETag-conditional.
- Consolidation is one transactional batch with a deterministic id, so a retry writes nothing.
- A document's `ttl` comes from the memory's retention (`ttl_seconds`).
- Recall ranks by keyword match (and `VectorDistance` when the container has a vector policy and an
  embedder is given), recency and importance, then packs with `memory.local.recall.pack`, the local
  store's budget and delimiters.

`azure-cosmos` is imported here only, and this module only when MEMORY_BACKEND=cosmos.
"""

from __future__ import annotations

import itertools
import logging
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from azure.core import MatchConditions
from azure.core.exceptions import AzureError
from azure.cosmos import CosmosClient, PartitionKey, exceptions

from memory import audit as audit_codes
from memory import writes
from memory.contract import Notice, ScopeError
from memory.cosmos import lifecycle as cosmos_lifecycle
from memory.cosmos import recall as cosmos_recall
from memory.cosmos.client import (
    DEFAULT_AUDIT,
    DEFAULT_DATABASE,
    DEFAULT_MEMORIES,
    LIVE,
    ORIGIN,
    CosmosConfig,
    CosmosUnavailable,
    RequestCounter,
    StaleWrite,
    client_for,
    doc_to_record,
    drop_clients,
    is_outage,
    param,
    ttl_seconds,
    unavailable,
    within,
)
from memory.guards import (
    STAGE_CAP,
    CleanWrite,
)
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
from textkit import normalise, terms

__all__ = [
    "DEFAULT_AUDIT",
    "DEFAULT_DATABASE",
    "DEFAULT_MEMORIES",
    "ORIGIN",
    "CosmosConfig",
    "CosmosMemoryStore",
    "CosmosUnavailable",
    "RequestCounter",
    "StaleWrite",
    "client_for",
    "drop_clients",
    "ttl_seconds",
]

log = logging.getLogger(f"worldforge.{__name__}")  # the one log file (engine.logs)
BATCH_LIMIT = 100  # operations per transactional batch (service limit)

Embedder = Callable[[str], list[float]]
T = TypeVar("T")


class CosmosMemoryStore:
    """One run's binding memory in Cosmos DB (implements `memory.contract.MemoryBackend`).

    The run is this store's partition. Writes land at once; the audit rows of an operation are
    queued and sent by `flush_cloud()` as one transactional batch (the session calls it after
    every step), so a game write costs at most two requests.
    """

    def __init__(
        self,
        config: CosmosConfig,
        run_id: str,
        *,
        credential: Any = None,
        client: CosmosClient | None = None,
        embedder: Embedder | None = None,
        stage_cap: int = STAGE_CAP,
        create: bool | None = None,
    ) -> None:
        if not isinstance(run_id, str) or not run_id.strip():
            raise ValueError("a memory store needs a run id")
        self.run_id = run_id
        self.config = config
        self.stage_cap = stage_cap
        if client is None:
            client, self.counter = client_for(config, credential=credential)
        else:
            self.counter = RequestCounter()
        self.client = client
        self._embedder = embedder
        self._session_token: str | None = None
        self._audit_queue: list[dict[str, Any]] = []
        self._seq: int | None = None
        self._audit_seq = itertools.count(time.time_ns())
        self.vector_enabled = False
        try:
            within(
                config.deadline,
                lambda: self._open(create if create is not None else bool(config.key)),
            )
        except exceptions.CosmosHttpResponseError as exc:
            if is_outage(exc):
                raise unavailable(exc) from exc
            raise
        except AzureError as exc:
            raise unavailable(exc) from exc

    # -- set-up --------------------------------------------------------------------------------
    def _open(self, create: bool) -> None:
        """Bind the database and containers (created when we hold a key and they are missing:
        with Entra ID the data plane cannot create them, so a missing one is an error)."""
        if create:
            db = self.client.create_database_if_not_exists(self.config.database)
            self.memories = db.create_container_if_not_exists(
                self.config.memories, partition_key=PartitionKey(path="/runId"), default_ttl=-1
            )
            self.audit_container = db.create_container_if_not_exists(
                self.config.audit, partition_key=PartitionKey(path="/runId")
            )
        else:
            db = self.client.get_database_client(self.config.database)
            self.memories = db.get_container_client(self.config.memories)
            self.audit_container = db.get_container_client(self.config.audit)
        props = self.memories.read()
        vectors = (props.get("vectorEmbeddingPolicy") or {}).get("vectorEmbeddings") or []
        self.vector_enabled = bool(vectors) and self._embedder is not None
        self.vector_function = str(vectors[0].get("distanceFunction", "cosine")) if vectors else ""

    # -- scope and plumbing --------------------------------------------------------------------
    def authorize(self, run_id: str | None) -> str:
        """Return the bound run id; raise ScopeError (before any I/O) for any other run."""
        if run_id is not None and run_id != self.run_id:
            raise ScopeError(f"memory store is bound to run {self.run_id!r}, not {run_id!r}")
        return self.run_id

    def store_label(self) -> str:
        return ORIGIN

    def drain_notices(self) -> list[Notice]:
        """Outages are the failover's to report (`memory.cosmos.failover`): nothing here."""
        return []

    def _guard(self, fn: Callable[[], T], *, missing_ok: bool = False) -> T:
        """Run one SDK call; an outage (a gone database or container included) becomes
        CosmosUnavailable, a 412 StaleWrite; `missing_ok`: a missing document is re-raised as
        CosmosResourceNotFoundError for the caller to expect."""
        try:
            return within(self.config.deadline, fn)
        except exceptions.CosmosResourceNotFoundError:
            if missing_ok:
                raise
            raise CosmosUnavailable("http-404") from None
        except exceptions.CosmosBatchOperationError as exc:
            raise StaleWrite(
                f"transactional batch refused at operation {exc.error_index}: nothing was written"
            ) from exc
        except exceptions.CosmosAccessConditionFailedError as exc:
            raise StaleWrite("the document changed since it was read") from exc
        except exceptions.CosmosHttpResponseError as exc:
            if exc.status_code == 412:
                raise StaleWrite("the document changed since it was read") from exc
            if is_outage(exc):
                raise unavailable(exc) from exc
            raise
        except AzureError as exc:
            raise unavailable(exc) from exc

    def _note_write(self) -> None:
        token = self.memories.client_connection.last_response_headers.get("x-ms-session-token")
        if token:
            self._session_token = token

    def _query(
        self,
        sql: str,
        params: Sequence[dict[str, Any]],
        *,
        container: Any = None,
        page_size: int | None = None,
    ) -> list[dict[str, Any]]:
        """One parameterised query, already filtered by the run in its SQL; the partition key and
        the last write's session token ride along; every page is read."""
        assert "c.runId = @run" in sql, "every query filters by the run in its own SQL"
        target = self.memories if container is None else container
        kwargs: dict[str, Any] = {"partition_key": self.run_id}
        if self._session_token and target is self.memories:
            kwargs["session_token"] = self._session_token
        if page_size:
            kwargs["max_item_count"] = page_size
        return self._guard(
            lambda: list(
                target.query_items(
                    query=sql, parameters=[param("@run", self.run_id), *params], **kwargs
                )
            )
        )

    def _docs(self, where: str = "", params: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
        sql = (
            f"SELECT * FROM c WHERE c.runId = @run{' AND ' + where if where else ''} ORDER BY c.seq"
        )
        return self._query(sql, params)

    def _next_seq(self) -> int:
        if self._seq is None:
            rows: list[Any] = self._query("SELECT VALUE MAX(c.seq) FROM c WHERE c.runId = @run", [])
            self._seq = int(rows[0]) if rows and rows[0] is not None else 0
        self._seq += 1
        return self._seq

    def _create(self, doc: dict[str, Any]) -> dict[str, Any]:
        out = self._guard(lambda: self.memories.create_item(doc))
        self._note_write()
        return out

    def _replace(self, doc: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
        """ETag-conditional replace of one document with `changes` applied."""
        body = {k: v for k, v in doc.items() if not k.startswith("_")} | changes
        out = self._guard(
            lambda: self.memories.replace_item(
                doc["id"], body, etag=doc["_etag"], match_condition=MatchConditions.IfNotModified
            )
        )
        self._note_write()
        return out

    def _audit(
        self,
        operation: str,
        memory_ids: Sequence[str],
        reason: str,
        *,
        game_day: int | None,
        event_id: str | None = None,
    ) -> None:
        """Queue one content-free audit document (sent by `flush_cloud`)."""
        seq = next(self._audit_seq)
        self._audit_queue.append(
            {
                "id": event_id or uuid.uuid4().hex,
                "runId": self.run_id,
                "seq": seq,
                "operation": audit_codes.reason_code(operation),
                "memoryIds": sorted(set(memory_ids)),
                "reason": audit_codes.reason_code(reason),
                "ts": audit_codes.utc_now(),
                "gameDay": game_day,
            }
        )

    def flush_cloud(self) -> None:
        """Send queued audit documents as transactional batches of creates (deterministic ids are
        upserted one by one, so a retried consolidation restores its audit event)."""
        queue, self._audit_queue = self._audit_queue, []
        fixed = [d for d in queue if d["id"].startswith("audit-")]
        plain = [d for d in queue if not d["id"].startswith("audit-")]
        try:
            for start in range(0, len(plain), BATCH_LIMIT):
                ops = [("create", (d,)) for d in plain[start : start + BATCH_LIMIT]]
                self._send_batch(self.audit_container, ops)
            for d in fixed:
                self._upsert_audit(d)
        except BaseException:
            self._audit_queue = queue + self._audit_queue
            raise

    def _send_batch(self, container: Any, ops: list[tuple[Any, ...]]) -> None:
        self._guard(lambda: container.execute_item_batch(ops, partition_key=self.run_id))

    def _upsert_audit(self, doc: dict[str, Any]) -> None:
        self._guard(lambda: self.audit_container.upsert_item(doc))

    def _embed(self, text: str) -> list[float] | None:
        """The text's vector, or None (no vector policy or embedder, or the embedder failed:
        keyword ranking then carries the recall, and the write goes on without a vector)."""
        if not (self.vector_enabled and self._embedder):
            return None
        try:
            return self._embedder(text)
        except Exception as exc:  # noqa: BLE001  (an embedding outage must not stop memory)
            log.warning("embedding failed, ranking by keywords: %s", type(exc).__name__)
            return None

    # -- writes --------------------------------------------------------------------------------
    def _new_doc(
        self,
        *,
        kind: str,
        text: str,
        status: str,
        author: str,
        importance: float,
        game_day: int,
        expires_day: int | None,
        source_ids: Sequence[str],
        stage_id: str | None,
        axis: str | None,
        worker: str | None = None,
        memory_id: str | None = None,
        reviewer: str | None = None,
        payload: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        seq = self._next_seq()
        doc: dict[str, Any] = {
            "id": memory_id or f"mem-{seq:05d}",
            "runId": self.run_id,
            "seq": seq,
            "kind": kind,
            "text": text,
            "norm": normalise(text),
            "terms": sorted(set(terms(text))),
            "nTerms": len(terms(text)),  # the note's length for BM25, as the save file counts it
            "status": status,
            "author": author,
            "importance": importance,
            "gameDay": game_day,
            "ts": audit_codes.utc_now(),
            "expiresDay": expires_day,
            "sourceIds": list(source_ids),
            "stageId": stage_id,
            "axis": axis,
            "worker": worker,
            "reviewer": reviewer,
            "reinforced": 0,
            "supersededBy": None,
            "consolidatedInto": None,
            "payload": payload,
            "ttl": ttl_seconds(kind, importance, game_day, expires_day),
        }
        vector = self._embed(text)
        if vector is not None:
            doc["embedding"] = vector
        return doc

    def _insert(self, **fields: Any) -> MemoryRecord:
        doc = self._new_doc(**fields)
        try:
            return doc_to_record(self._create(doc))
        except exceptions.CosmosResourceExistsError:
            if fields.get("memory_id"):
                raise
            self._seq = None  # another writer took the id: read the run's sequence again
            return doc_to_record(self._create(self._new_doc(**fields)))

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
        """Framework, CEO and system writes (the policy in `memory.writes`; two requests: the
        restatement query, the write)."""
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
        """Every guard on one worker request (the policy in `memory.writes`; two requests: one
        query for restatement, the stage's notes and the cap together, then the write)."""
        return writes.worker_write(
            _Notes(self),
            req,
            worker=worker,
            stage_id=stage_id,
            game_day=game_day,
            stage_cap=self.stage_cap,
        )

    # -- reads ---------------------------------------------------------------------------------
    def get(self, memory_id: str, *, run_id: str | None = None) -> MemoryRecord:
        """One record of this run by id (KeyError when absent)."""
        self.authorize(run_id)
        docs = self._docs("c.id = @id", [param("@id", memory_id)])
        if not docs:
            raise KeyError(memory_id)
        return doc_to_record(docs[0])

    def records(
        self,
        *,
        kinds: Iterable[str] | None = None,
        statuses: Iterable[str] | None = None,
        run_id: str | None = None,
    ) -> list[MemoryRecord]:
        """This run's records in write order, optionally filtered by kind and status."""
        self.authorize(run_id)
        where, params = [], []
        for column, values in (("kind", kinds), ("status", statuses)):
            if values is not None:
                where.append(f"ARRAY_CONTAINS(@{column}s, c.{column})")
                params.append(param(f"@{column}s", list(values)))
        return [doc_to_record(d) for d in self._docs(" AND ".join(where), params)]

    def counts(self, *, run_id: str | None = None) -> dict[str, int]:
        """Live (provisional + active) memories per kind, every kind present."""
        self.authorize(run_id)
        out = dict.fromkeys(KINDS, 0)
        for row in self._query("SELECT c.kind FROM c WHERE c.runId = @run AND " + LIVE, []):
            out[row["kind"]] = out.get(row["kind"], 0) + 1
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
        """Budgeted `<campaign_memory>` block (three queries; see `memory.cosmos.recall`)."""
        self.authorize(run_id)
        return cosmos_recall.recall(
            self, query, game_day=game_day, budget_tokens=budget_tokens, limit=limit
        )

    def audit(self, *, limit: int | None = None, run_id: str | None = None) -> list[AuditRecord]:
        """This run's content-free audit trail, oldest first (queued rows are sent first)."""
        self.authorize(run_id)
        self.flush_cloud()
        rows = self._query(
            "SELECT * FROM c WHERE c.runId = @run ORDER BY c.seq",
            [],
            container=self.audit_container,
        )
        if limit is not None:
            rows = rows[-limit:] if limit > 0 else []
        return [
            AuditRecord(
                seq=int(r["seq"]) % 2**62,
                run_id=r["runId"],
                operation=r["operation"],
                memory_ids=list(r["memoryIds"]),
                reason=r["reason"],
                ts=r["ts"],
                game_day=r.get("gameDay"),
            )
            for r in rows
        ]

    # -- lifecycle (see memory.cosmos.lifecycle) -------------------------------------------------
    def harden(self, *, game_day: int) -> HardenReport:
        """Promote, archive and supersede as the local store does (ETag-conditional writes)."""
        return cosmos_lifecycle.harden(self, game_day=game_day)

    def prune(self, *, game_day: int, dry_run: bool = True) -> PruneReport:
        """Retention: dry run and apply share `memory.lifecycle.prune_blocker`."""
        return cosmos_lifecycle.prune(self, game_day=game_day, dry_run=dry_run)

    def consolidate(
        self,
        source_ids: Sequence[str],
        *,
        summary: str,
        reviewer: str,
        game_day: int,
        dry_run: bool = False,
    ) -> ConsolidationResult:
        """Reviewed consolidation in one transactional batch; a retry writes nothing."""
        return cosmos_lifecycle.consolidate(
            self, source_ids, summary=summary, reviewer=reviewer, game_day=game_day, dry_run=dry_run
        )

    def forget_run(self, run_id: str | None = None, *, compact: bool = True) -> ForgetReport:
        """Delete every memory document of the run (the content-free audit survives)."""
        self.authorize(run_id)
        return cosmos_lifecycle.forget_run(self)

    def compact(self) -> bool:
        """Nothing to compact on the service side (deleted documents are gone)."""
        return True

    def ping(self) -> bool:
        """One cheap query: True when the memories container answers."""
        try:
            self._query("SELECT VALUE COUNT(1) FROM c WHERE c.runId = @run", [])
        except CosmosUnavailable:
            return False
        return True

    def import_record(self, rec: MemoryRecord, *, keep_id: bool = False) -> MemoryRecord:
        """Write a record the local store kept during an outage: under its own id when `keep_id`
        and Cosmos has no document by that id (its sequence then counts past it, so the id is never
        given to another text), else under a new id in this run."""
        fields: dict[str, Any] = {
            "kind": rec.kind,
            "text": rec.text,
            "status": rec.status,
            "author": rec.author,
            "importance": rec.importance,
            "game_day": rec.game_day,
            "expires_day": rec.expires_day,
            "source_ids": rec.source_ids,
            "stage_id": rec.stage_id,
            "axis": rec.axis,
            "payload": rec.payload,
        }
        if keep_id:
            doc = self._new_doc(**fields, memory_id=rec.id)
            local_seq = int(rec.id[4:]) if rec.id[4:].isdigit() else 0
            doc["seq"] = max(int(doc["seq"]), local_seq)
            self._seq = max(self._seq or 0, int(doc["seq"]))
            try:
                return doc_to_record(self._create(doc))
            except exceptions.CosmosResourceExistsError:
                self._seq = None
        return self._insert(**fields)

    def known_seq(self) -> int:
        """The highest note sequence this store has seen or given (no request)."""
        return int(self._seq or 0)

    def max_seq(self) -> int:
        """The highest note sequence number in this run's partition (0 for none)."""
        rows: list[Any] = self._query("SELECT VALUE MAX(c.seq) FROM c WHERE c.runId = @run", [])
        return int(rows[0]) if rows and rows[0] is not None else 0


class _Notes:
    """Cosmos DB's side of the write policy (`memory.writes.NoteRepository`). The documents a read
    returned are kept by id, so a reinforce or rewrite replaces them ETag-conditionally."""

    def __init__(self, store: CosmosMemoryStore) -> None:
        self.store = store
        self._docs: dict[str, dict[str, Any]] = {}

    def _seen(self, docs: list[dict[str, Any]]) -> list[MemoryRecord]:
        self._docs.update((d["id"], d) for d in docs)
        return [doc_to_record(d) for d in docs]

    def transaction(self) -> AbstractContextManager[Any]:
        return nullcontext()  # each write is one request; the policy's reads come first

    def restatement(self, norm: str, kind: Kind) -> MemoryRecord | None:
        same = self.store._docs(
            f"c.norm = @norm AND c.kind = @kind AND {LIVE}",
            [param("@norm", norm), param("@kind", kind)],
        )
        return next(iter(self._seen(same[:1])), None)

    def worker_context(
        self, norm: str, stage_id: str
    ) -> tuple[MemoryRecord | None, list[MemoryRecord]]:
        docs = self.store._docs(
            f"((c.norm = @norm AND c.kind IN ('preference', 'context') AND {LIVE})"
            " OR (c.stageId = @stage AND c.author = 'worker'))",
            [param("@norm", norm), param("@stage", stage_id)],
        )
        same = [
            d
            for d in docs
            if d["norm"] == norm
            and d["kind"] in WORKER_KINDS
            and d["status"] in ("provisional", "active")
        ]
        own = [d for d in docs if d.get("stageId") == stage_id and d["author"] == "worker"]
        own.sort(key=lambda d: d["seq"], reverse=True)
        return next(iter(self._seen(same[:1])), None), self._seen(own)

    def reinforce(
        self, rec: MemoryRecord, importance: float, expires_day: int | None
    ) -> MemoryRecord:
        doc = self._docs[rec.id]
        old = doc.get("expiresDay")
        expiry = None if old is None or expires_day is None else max(old, expires_day)
        weight = max(float(doc["importance"]), importance)
        out = self.store._replace(
            doc,
            {
                "reinforced": int(doc.get("reinforced") or 0) + 1,
                "importance": weight,
                "expiresDay": expiry,
                "ttl": ttl_seconds(doc["kind"], weight, doc["gameDay"], expiry),
            },
        )
        return doc_to_record(out)

    def rewrite(self, rec: MemoryRecord, w: CleanWrite, *, expires_day: int, game_day: int) -> None:
        doc = self._docs[rec.id]
        weight = max(float(doc["importance"]), w.importance)
        self.store._replace(
            doc,
            {
                "text": w.text,
                "norm": normalise(w.text),
                "terms": sorted(set(terms(w.text))),
                "nTerms": len(terms(w.text)),
                "kind": w.kind,
                "importance": weight,
                "expiresDay": expires_day,
                "gameDay": game_day,
                "ttl": ttl_seconds(w.kind, weight, game_day, expires_day),
            },
        )

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
        self.store._audit(operation, memory_ids, reason, game_day=game_day)
