"""Binding memory in Azure Cosmos DB for NoSQL: the store contract of `memory.store.MemoryStore`
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
  embedder is given), recency and importance, then packs with `memory.recall.pack`, the local
  store's budget and delimiters.

`azure-cosmos` is imported here only, and this module only when MEMORY_BACKEND=cosmos.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from azure.core import MatchConditions
from azure.core.exceptions import AzureError, ServiceRequestError, ServiceResponseError
from azure.cosmos import CosmosClient, PartitionKey, exceptions

from memory import audit as audit_codes
from memory import lifecycle, recall
from memory.guards import NEAR_DUPLICATE, STAGE_CAP, CleanWrite, check_request, clean, similarity
from memory.guards import content_words as words
from memory.models import (
    CRITICAL_KINDS,
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
from memory.store import ScopeError
from textkit import normalise

ORIGIN = "azure-cosmos"
DEFAULT_DATABASE, DEFAULT_MEMORIES, DEFAULT_AUDIT = "worldforge", "memories", "memory-audit"
SECONDS_PER_GAME_DAY = 86_400  # one game day of retention keeps a document one calendar day
W_RELEVANCE, W_RECENCY, W_IMPORTANCE = 0.5, 0.25, 0.25  # as the local store weighs them
RECENCY_DAYS = 7.0
CANDIDATES = 200  # keyword or vector candidates fetched per recall (one page)
MIN_DUPLICATE_WORDS = 3
BATCH_LIMIT = 100  # operations per transactional batch (service limit)
_AUTHORS = ("ceo", "worker", "system")
_STATUSES = ("provisional", "active", "archived", "revoked")
_LIVE = "c.status IN ('provisional', 'active')"
_NOT_EXPIRED = "(IS_NULL(c.expiresDay) OR c.expiresDay > @day)"

Embedder = Callable[[str], list[float]]


class CosmosUnavailable(RuntimeError):
    """Cosmos DB did not answer (connection, timeout, throttled past retries, 5xx, auth): the
    caller may fall back to the local store. The message is a short code, never a secret."""


class StaleWrite(RuntimeError):
    """An ETag-conditional update found the document changed by someone else (HTTP 412)."""


def _unavailable(exc: BaseException) -> CosmosUnavailable:
    if isinstance(exc, exceptions.CosmosHttpResponseError):
        return CosmosUnavailable(f"http-{exc.status_code}")
    return CosmosUnavailable(type(exc).__name__)


def _is_outage(exc: BaseException) -> bool:
    if isinstance(exc, exceptions.CosmosHttpResponseError):
        code = exc.status_code or 0
        return code >= 500 or code in (401, 403, 408, 429) or code == 0
    return isinstance(exc, (ServiceRequestError, ServiceResponseError, AzureError, OSError))


@dataclass(frozen=True)
class CosmosConfig:
    """Where the tier lives; `key` only when the user set one (kept in memory only)."""

    endpoint: str
    database: str = DEFAULT_DATABASE
    memories: str = DEFAULT_MEMORIES
    audit: str = DEFAULT_AUDIT
    key: str | None = field(default=None, repr=False)
    embedding_deployment: str | None = None
    connection_timeout: float = 3.0
    read_timeout: float = 8.0

    @classmethod
    def from_settings(cls, settings: Any) -> CosmosConfig:
        """From `engine.config.Settings` (AZURE_COSMOS_*); raises ValueError without an endpoint."""
        endpoint = getattr(settings, "azure_cosmos_endpoint", None)
        if not endpoint:
            raise ValueError("MEMORY_BACKEND=cosmos needs AZURE_COSMOS_ENDPOINT")
        secret = getattr(settings, "azure_cosmos_key", None)
        timeout = float(getattr(settings, "agent_request_timeout", 8.0) or 8.0)
        return cls(
            endpoint=endpoint,
            database=settings.azure_cosmos_database or DEFAULT_DATABASE,
            memories=settings.azure_cosmos_memory_container or DEFAULT_MEMORIES,
            audit=settings.azure_cosmos_audit_container or DEFAULT_AUDIT,
            key=secret.get_secret_value() if secret is not None else None,
            embedding_deployment=settings.azure_cosmos_embedding_deployment,
            read_timeout=min(timeout, 30.0),
        )


class RequestCounter:
    """Counts HTTP requests the client sends (the bench's round trips per operation)."""

    def __init__(self) -> None:
        self.count = 0

    def on_request(self, request: Any) -> None:
        self.count += 1


_clients: dict[tuple[str, str], tuple[CosmosClient, RequestCounter]] = {}
_clients_lock = threading.Lock()


def client_for(
    config: CosmosConfig, *, credential: Any = None
) -> tuple[CosmosClient, RequestCounter]:
    """The one long-lived client for this endpoint and credential (built on first use)."""
    cache_key = (config.endpoint, "key" if config.key else f"aad:{id(credential)}")
    with _clients_lock:
        found = _clients.get(cache_key)
        if found is not None:
            return found
        counter = RequestCounter()
        if config.key:
            cred: Any = config.key
        elif credential is not None:
            cred = credential
        else:
            from azure.identity import DefaultAzureCredential

            cred = DefaultAzureCredential()
        client = CosmosClient(
            config.endpoint,
            credential=cred,
            consistency_level="Session",
            connection_timeout=config.connection_timeout,
            read_timeout=config.read_timeout,
            retry_total=3,
            retry_backoff_max=10,
            enable_endpoint_discovery=False,
            raw_request_hook=counter.on_request,
            user_agent_suffix="worldforge",
        )
        _clients[cache_key] = (client, counter)
        return client, counter


def drop_clients() -> None:
    """Forget cached clients (tests start servers on new ports)."""
    with _clients_lock:
        _clients.clear()


def ttl_seconds(kind: str, importance: float, game_day: int, expires_day: int | None) -> int:
    """The document TTL from the memory's retention: -1 (never) for binding/profile memories, notes
    without an expiry and notes important enough that prune keeps them; else the retention in
    game days as calendar days, so the service deletes only what prune would delete too."""
    if kind in CRITICAL_KINDS or expires_day is None or importance > lifecycle.PRUNE_MAX_IMPORTANCE:
        return -1
    return max(1, expires_day - game_day) * SECONDS_PER_GAME_DAY


def _doc_to_record(doc: dict[str, Any]) -> MemoryRecord:
    return MemoryRecord(
        id=doc["id"],
        run_id=doc["runId"],
        kind=doc["kind"],
        text=doc["text"],
        status=doc["status"],
        author=doc["author"],
        importance=float(doc["importance"]),
        game_day=int(doc["gameDay"]),
        ts=doc.get("ts") or "",
        expires_day=doc.get("expiresDay"),
        source_ids=list(doc.get("sourceIds") or []),
        origin=ORIGIN,
        stage_id=doc.get("stageId"),
        axis=doc.get("axis"),
        reinforced=int(doc.get("reinforced") or 0),
        superseded_by=doc.get("supersededBy"),
    )


def _p(name: str, value: Any) -> dict[str, Any]:
    return {"name": name, "value": value}


class CosmosMemoryStore:
    """One run's binding memory in Cosmos DB, with the public contract of `MemoryStore`.

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
            self._open(create if create is not None else bool(config.key))
        except exceptions.CosmosHttpResponseError as exc:
            if _is_outage(exc):
                raise _unavailable(exc) from exc
            raise
        except AzureError as exc:
            raise _unavailable(exc) from exc

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

    def _guard(self, fn: Callable[[], Any]) -> Any:
        """Run one SDK call; an outage becomes CosmosUnavailable, a 412 StaleWrite."""
        try:
            return fn()
        except exceptions.CosmosBatchOperationError as exc:
            raise StaleWrite(
                f"transactional batch refused at operation {exc.error_index}: nothing was written"
            ) from exc
        except exceptions.CosmosAccessConditionFailedError as exc:
            raise StaleWrite("the document changed since it was read") from exc
        except exceptions.CosmosHttpResponseError as exc:
            if exc.status_code == 412:
                raise StaleWrite("the document changed since it was read") from exc
            if _is_outage(exc):
                raise _unavailable(exc) from exc
            raise
        except AzureError as exc:
            raise _unavailable(exc) from exc

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
                    query=sql, parameters=[_p("@run", self.run_id), *params], **kwargs
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
        return self._embedder(text) if self.vector_enabled and self._embedder else None

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
    ) -> dict[str, Any]:
        seq = self._next_seq()
        doc: dict[str, Any] = {
            "id": memory_id or f"mem-{seq:05d}",
            "runId": self.run_id,
            "seq": seq,
            "kind": kind,
            "text": text,
            "norm": normalise(text),
            "terms": sorted(words(text)),
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
            "ttl": ttl_seconds(kind, importance, game_day, expires_day),
        }
        vector = self._embed(text)
        if vector is not None:
            doc["embedding"] = vector
        return doc

    def _insert(self, **fields: Any) -> MemoryRecord:
        doc = self._new_doc(**fields)
        try:
            return _doc_to_record(self._create(doc))
        except exceptions.CosmosResourceExistsError:
            if fields.get("memory_id"):
                raise
            self._seq = None  # another writer took the id: read the run's sequence again
            return _doc_to_record(self._create(self._new_doc(**fields)))

    def _reinforce(
        self, doc: dict[str, Any], importance: float, expires_day: int | None
    ) -> MemoryRecord:
        old = doc.get("expiresDay")
        expiry = None if old is None or expires_day is None else max(old, expires_day)
        weight = max(float(doc["importance"]), importance)
        out = self._replace(
            doc,
            {
                "reinforced": int(doc.get("reinforced") or 0) + 1,
                "importance": weight,
                "expiresDay": expiry,
                "ttl": ttl_seconds(doc["kind"], weight, doc["gameDay"], expiry),
            },
        )
        return _doc_to_record(out)

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
    ) -> MemoryRecord:
        """Framework, CEO and system writes (two requests: the restatement query, the write)."""
        if kind not in KINDS:
            raise ValueError(f"unknown memory kind {kind!r}")
        if author not in _AUTHORS or status not in _STATUSES:
            raise ValueError("unknown author or status")
        if kind == "procedural" and author == "worker":
            raise PermissionError("workers cannot write binding (procedural) memory")
        body = clean(text)
        if not body:
            raise ValueError("memory text is empty after cleaning")
        weight = importance if math.isfinite(importance) else 5.0
        weight = min(10.0, max(0.0, float(weight)))
        axis_key = clean(axis, limit=64).lower() if axis else None
        if kind != "procedural":
            same = self._docs(
                f"c.norm = @norm AND c.kind = @kind AND {_LIVE}",
                [_p("@norm", normalise(body)), _p("@kind", kind)],
            )
            if same:
                rec = self._reinforce(same[0], weight, expires_day)
                self._audit("remember", [rec.id], "reinforced", game_day=game_day)
                return rec
        rec = self._insert(
            kind=kind,
            text=body,
            status=status,
            author=author,
            importance=weight,
            game_day=int(game_day),
            expires_day=expires_day,
            source_ids=[clean(s, limit=64) for s in source_ids],
            stage_id=stage_id,
            axis=axis_key,
        )
        self._audit("remember", [rec.id], f"written-{kind}", game_day=game_day)
        return rec

    def worker_write(
        self, req: MemoryWriteRequest | dict, *, worker: str, stage_id: str, game_day: int
    ) -> WriteDisposition:
        """Every guard on one worker request (two requests: one query for restatement, the
        stage's notes and the cap together, then the write)."""
        checked = check_request(req)
        if not isinstance(checked, CleanWrite):
            reason, kind = checked
            self._audit("worker_write", [], "rejected-" + reason.split(":")[0], game_day=game_day)
            return WriteDisposition(status="rejected", reason=reason, kind=kind)
        d = self._guarded_write(
            checked, worker=clean(worker, limit=64), stage_id=stage_id, game_day=int(game_day)
        )
        suffix = ("-" + d.reason.split(":")[0]) if d.status == "rejected" and d.reason else ""
        self._audit(
            "worker_write",
            [d.memory_id] if d.memory_id else [],
            d.status + suffix,
            game_day=game_day,
        )
        return d

    def _guarded_write(
        self, w: CleanWrite, *, worker: str, stage_id: str, game_day: int
    ) -> WriteDisposition:
        expires = game_day + w.ttl_days
        norm = normalise(w.text)
        docs = self._docs(
            f"((c.norm = @norm AND c.kind IN ('preference', 'context') AND {_LIVE})"
            " OR (c.stageId = @stage AND c.author = 'worker'))",
            [_p("@norm", norm), _p("@stage", stage_id)],
        )
        same = [
            d
            for d in docs
            if d["norm"] == norm
            and d["kind"] in WORKER_KINDS
            and d["status"] in ("provisional", "active")
        ]
        if same:
            rec = self._reinforce(same[0], w.importance, expires)
            return WriteDisposition(
                status="reinforced",
                memory_id=rec.id,
                kind=rec.kind,
                reason="exact restatement of an existing note",
            )
        own = [d for d in docs if d.get("stageId") == stage_id and d["author"] == "worker"]
        for doc in sorted(
            (d for d in own if d["status"] in ("provisional", "active")),
            key=lambda d: d["seq"],
            reverse=True,
        ):
            if similarity(doc["text"], w.text) >= NEAR_DUPLICATE:
                weight = max(float(doc["importance"]), w.importance)
                self._replace(
                    doc,
                    {
                        "text": w.text,
                        "norm": norm,
                        "terms": sorted(words(w.text)),
                        "kind": w.kind,
                        "importance": weight,
                        "expiresDay": expires,
                        "gameDay": game_day,
                        "ttl": ttl_seconds(w.kind, weight, game_day, expires),
                    },
                )
                return WriteDisposition(
                    status="superseded",
                    memory_id=doc["id"],
                    kind=w.kind,
                    reason="replaced a near-duplicate note from this stage",
                )
        if len(own) >= self.stage_cap:
            return WriteDisposition(
                status="rejected",
                kind=w.kind,
                reason=f"stage-cap: at most {self.stage_cap} notes per stage",
            )
        rec = self._insert(
            kind=w.kind,
            text=w.text,
            status="provisional",
            author="worker",
            importance=w.importance,
            game_day=game_day,
            expires_day=expires,
            source_ids=(),
            stage_id=stage_id,
            axis=None,
            worker=worker,
        )
        return WriteDisposition(status="written", memory_id=rec.id, kind=w.kind)

    # -- reads ---------------------------------------------------------------------------------
    def get(self, memory_id: str, *, run_id: str | None = None) -> MemoryRecord:
        """One record of this run by id (KeyError when absent)."""
        self.authorize(run_id)
        docs = self._docs("c.id = @id", [_p("@id", memory_id)])
        if not docs:
            raise KeyError(memory_id)
        return _doc_to_record(docs[0])

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
                params.append(_p(f"@{column}s", list(values)))
        return [_doc_to_record(d) for d in self._docs(" AND ".join(where), params)]

    def counts(self, *, run_id: str | None = None) -> dict[str, int]:
        """Live (provisional + active) memories per kind, every kind present."""
        self.authorize(run_id)
        out = dict.fromkeys(KINDS, 0)
        for row in self._query("SELECT c.kind FROM c WHERE c.runId = @run AND " + _LIVE, []):
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
        """Budgeted `<campaign_memory>` block (three queries: live binding decisions, the newest
        live notes, and keyword or vector candidates), packed by `memory.recall.pack`."""
        self.authorize(run_id)
        if budget_tokens < recall.MIN_BUDGET or limit < 1:
            raise ValueError(f"budget must be >= {recall.MIN_BUDGET} tokens and limit >= 1")
        query = query if isinstance(query, str) else str(query)
        day = [_p("@day", int(game_day))]
        binding = self._query(
            f"SELECT * FROM c WHERE c.runId = @run AND c.kind = 'procedural' AND {_LIVE}"
            f" AND {_NOT_EXPIRED} ORDER BY c.seq DESC",
            day,
        )
        hidden = _superseded(binding)
        rider = next((d for d in binding if d["id"] not in hidden), None)
        newest_n = max(1, math.ceil(recall.RECENT_SHARE * limit))
        newest = self._query(
            f"SELECT TOP {int(max(newest_n, limit * 3))} * FROM c WHERE c.runId = @run AND {_LIVE}"
            f" AND {_NOT_EXPIRED} ORDER BY c.seq DESC",
            day,
        )
        newest = [d for d in newest if d["id"] not in hidden]
        candidates = self._candidates(query, int(game_day))
        scored = _rank(candidates + newest, query, int(game_day), hidden, self.vector_function)
        return recall.pack(
            rider=_doc_to_record(rider) if rider else None,
            recent=[_doc_to_record(d) for d in newest[:newest_n]],
            ranked_items=[_doc_to_record(d) for d in scored[: limit * 3]],
            budget=budget_tokens,
            limit=limit,
        )

    def _candidates(self, query: str, game_day: int) -> list[dict[str, Any]]:
        """Live notes sharing a word with the query (`hits`), ranked by VectorDistance when the
        container has a vector policy and an embedder is set."""
        qwords = sorted(words(query))
        hits = "ARRAY_LENGTH(ARRAY(SELECT VALUE t FROM t IN c.terms WHERE ARRAY_CONTAINS(@q, t)))"
        params = [_p("@q", qwords), _p("@day", game_day)]
        vector = self._embed(query) if query.strip() else None
        if vector is not None:
            params.append(_p("@embedding", vector))
            sql = (
                f"SELECT TOP {CANDIDATES} c AS doc, {hits} AS hits,"
                " VectorDistance(c.embedding, @embedding) AS distance FROM c"
                f" WHERE c.runId = @run AND {_LIVE} AND {_NOT_EXPIRED}"
                " ORDER BY VectorDistance(c.embedding, @embedding)"
            )
        elif qwords:
            sql = (
                f"SELECT TOP {CANDIDATES} c AS doc, {hits} AS hits FROM c"
                f" WHERE c.runId = @run AND {_LIVE} AND {_NOT_EXPIRED}"
                " AND EXISTS(SELECT VALUE t FROM t IN c.terms WHERE ARRAY_CONTAINS(@q, t))"
                " ORDER BY c.seq DESC"
            )
        else:
            return []
        out = []
        for row in self._query(sql, params):
            doc = dict(row["doc"])
            doc["_hits"] = int(row.get("hits") or 0)
            if "distance" in row and row["distance"] is not None:
                doc["_distance"] = float(row["distance"])
            out.append(doc)
        return out

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

    # -- lifecycle -----------------------------------------------------------------------------
    def harden(self, *, game_day: int) -> HardenReport:
        """Promote surviving provisional notes, archive expired ones and duplicates of an active
        note, supersede older binding decisions on the same axis (one query, then ETag-conditional
        replaces of what changed)."""
        report = HardenReport()
        docs = {d["id"]: d for d in self._docs(_LIVE)}
        changes: dict[str, dict[str, Any]] = {}
        active = [d for d in docs.values() if d["status"] == "active"]
        for doc in sorted(docs.values(), key=lambda d: d["seq"]):
            if doc["status"] != "provisional":
                continue
            if doc.get("expiresDay") is not None and doc["expiresDay"] <= game_day:
                changes[doc["id"]] = {"status": "archived"}
                report.archived.append(doc["id"])
                continue
            twin = _covering(doc, active)
            if twin is not None:
                changes[doc["id"]] = {"status": "archived", "supersededBy": twin["id"]}
                bump = changes.setdefault(twin["id"], {})
                bump["reinforced"] = int(bump.get("reinforced", twin.get("reinforced") or 0)) + 1
                bump["importance"] = max(
                    float(bump.get("importance", twin["importance"])), float(doc["importance"])
                )
                report.archived.append(doc["id"])
            else:
                changes[doc["id"]] = {"status": "active"}
                active.append({**doc, "status": "active"})
                report.promoted.append(doc["id"])
        by_axis: dict[str, list[dict[str, Any]]] = {}
        for doc in docs.values():
            if doc["kind"] == "procedural" and doc.get("axis"):
                by_axis.setdefault(doc["axis"], []).append(doc)
        for group in by_axis.values():
            group.sort(key=lambda d: (d["gameDay"], d["id"]))
            for older in group[:-1]:
                changes.setdefault(older["id"], {}).update(
                    status="archived", supersededBy=group[-1]["id"]
                )
                report.superseded.append(older["id"])
        for memory_id, change in changes.items():
            self._replace(docs[memory_id], change)
        for operation, ids in (
            ("harden_promote", report.promoted),
            ("harden_archive", report.archived),
            ("harden_supersede", report.superseded),
        ):
            if ids:
                self._audit(operation, ids, "hardening-pass", game_day=game_day)
        return report

    def prune(self, *, game_day: int, dry_run: bool = True) -> PruneReport:
        """Retention: dry run and apply share `memory.lifecycle.prune_blocker`; every delete is
        partition-scoped and ETag-conditional."""
        docs = self._docs()
        protected = {
            s
            for d in docs
            if d["kind"] == "semantic" and d["status"] in ("provisional", "active")
            for s in d.get("sourceIds") or []
        }
        eligible = [
            d
            for d in docs
            if lifecycle.prune_blocker(_doc_to_record(d), game_day=game_day, protected=protected)
            is None
        ]
        ids = [d["id"] for d in eligible]
        if dry_run:
            return PruneReport(status="dry_run", eligible_ids=ids, deleted_count=0)
        for doc in eligible:
            self._delete(doc)
        if ids:
            self._audit("retention_prune", ids, lifecycle.PRUNE_REASON, game_day=game_day)
        return PruneReport(status="applied", eligible_ids=ids, deleted_count=len(ids))

    def _delete(self, doc: dict[str, Any], *, conditional: bool = True) -> None:
        kwargs: dict[str, Any] = {"partition_key": self.run_id}
        if conditional:
            kwargs.update(etag=doc["_etag"], match_condition=MatchConditions.IfNotModified)
        try:
            self._guard(lambda: self.memories.delete_item(doc["id"], **kwargs))
        except exceptions.CosmosResourceNotFoundError:
            pass  # TTL or another writer deleted it already: the outcome stands
        self._note_write()

    def consolidate(
        self,
        source_ids: Sequence[str],
        *,
        summary: str,
        reviewer: str,
        game_day: int,
        dry_run: bool = False,
    ) -> ConsolidationResult:
        """Fold episodic notes into one reviewed semantic note: one query reads the sources and
        any earlier result, then one transactional batch creates the note (deterministic id) and
        archives every source on its ETag. A retry writes nothing but the audit event."""
        ids = sorted({clean(s, limit=64) for s in source_ids if clean(s, limit=64)})
        if not 2 <= len(ids) <= lifecycle.MAX_CONSOLIDATION_SOURCES:
            raise ValueError(
                f"consolidation needs 2..{lifecycle.MAX_CONSOLIDATION_SOURCES} distinct sources"
            )
        text, who = clean(summary), clean(reviewer, limit=64)
        if not text:
            raise ValueError("consolidation summary is empty")
        if not who:
            raise ValueError("consolidation needs a reviewer")
        sem = lifecycle.semantic_id(self.run_id, ids)
        rows = {
            d["id"]: d for d in self._docs("ARRAY_CONTAINS(@ids, c.id)", [_p("@ids", [sem, *ids])])
        }
        missing = [i for i in ids if i not in rows]
        if missing:
            raise ValueError(f"unknown memory id(s): {', '.join(missing)}")
        audit_id = f"audit-consolidate-{sem}"
        targets = {rows[i].get("consolidatedInto") for i in ids}
        if targets == {sem}:
            existing = rows.get(sem)
            if existing is None or existing["text"] != text or existing.get("reviewer") != who:
                raise ValueError("retry does not match the existing consolidation")
            self._audit(
                "consolidate",
                [sem, *ids],
                "reviewed-consolidation",
                game_day=game_day,
                event_id=audit_id,
            )
            return ConsolidationResult(
                status="already_consolidated",
                semantic_memory_id=sem,
                source_memory_ids=ids,
                text=text,
                importance=float(existing["importance"]),
                reviewer=who,
            )
        if targets != {None}:
            raise ValueError("a source is already consolidated into another note")
        sources = [rows[i] for i in ids]
        if any(s["kind"] not in lifecycle.EPISODIC_KINDS for s in sources):
            raise ValueError("only preference, context and chat_summary notes can be consolidated")
        if any(s["status"] not in ("provisional", "active") for s in sources):
            raise ValueError("only live notes can be consolidated")
        importance = round(sum(float(s["importance"]) for s in sources) / len(sources), 2)
        result = ConsolidationResult(
            status="dry_run",
            semantic_memory_id=sem,
            source_memory_ids=ids,
            text=text,
            importance=importance,
            reviewer=who,
        )
        if dry_run:
            return result
        note = self._new_doc(
            kind="semantic",
            text=text,
            status="active",
            author="ceo",
            importance=importance,
            game_day=game_day,
            expires_day=None,
            source_ids=ids,
            stage_id=None,
            axis=None,
            memory_id=sem,
            reviewer=who,
        )
        ops: list[tuple[Any, ...]] = [("create", (note,))]
        for s in sources:
            body = {k: v for k, v in s.items() if not k.startswith("_")}
            body.update(consolidatedInto=sem, status="archived", ttl=-1)
            ops.append(("replace", (s["id"], body), {"if_match_etag": s["_etag"]}))
        self._send_batch(self.memories, ops)
        self._note_write()
        self._audit(
            "consolidate",
            [sem, *ids],
            "reviewed-consolidation",
            game_day=game_day,
            event_id=audit_id,
        )
        return result.model_copy(update={"status": "consolidated"})

    def forget_run(self, run_id: str | None = None, *, compact: bool = True) -> ForgetReport:
        """Delete every memory document of the run (the content-free audit survives)."""
        self.authorize(run_id)
        docs = self._query("SELECT c.id FROM c WHERE c.runId = @run", [])
        for doc in docs:
            self._delete(doc, conditional=False)
        self._seq = None
        self._audit("forget_run", [d["id"] for d in docs], "right-to-deletion", game_day=None)
        return ForgetReport(run_id=self.run_id, deleted=len(docs), compacted=False)

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

    def import_record(self, rec: MemoryRecord) -> MemoryRecord:
        """Write a record the local store kept during an outage (a new id in this run)."""
        return self._insert(
            kind=rec.kind,
            text=rec.text,
            status=rec.status,
            author=rec.author,
            importance=rec.importance,
            game_day=rec.game_day,
            expires_day=rec.expires_day,
            source_ids=rec.source_ids,
            stage_id=rec.stage_id,
            axis=rec.axis,
        )


def _superseded(binding: list[dict[str, Any]]) -> set[str]:
    """Older live binding decisions on an axis that has a newer live one (never injected)."""
    by_axis: dict[str, list[dict[str, Any]]] = {}
    for doc in binding:
        if doc.get("axis"):
            by_axis.setdefault(doc["axis"], []).append(doc)
    hidden: set[str] = set()
    for group in by_axis.values():
        group.sort(key=lambda d: (d["gameDay"], d["seq"]))
        hidden.update(d["id"] for d in group[:-1])
    return hidden


def _covering(doc: dict[str, Any], active: list[dict[str, Any]]) -> dict[str, Any] | None:
    """An active note of the same kind group that already says everything `doc` says (the rule of
    `memory.lifecycle.harden`): same normalised words, or a superset of its content words."""
    mine = words(doc["text"])
    if len(mine) < MIN_DUPLICATE_WORDS:
        mine = set()
    group = WORKER_KINDS if doc["kind"] in WORKER_KINDS else frozenset({doc["kind"]})
    for other in sorted(active, key=lambda d: d["seq"]):
        if other["id"] == doc["id"] or other["kind"] not in group:
            continue
        if other["norm"] == doc["norm"] or (mine and mine <= words(other["text"])):
            return other
    return None


def _rank(
    docs: list[dict[str, Any]], query: str, day: int, hidden: set[str], vector_function: str = ""
) -> list[dict[str, Any]]:
    """Score = relevance (share of query words matched, or the vector score when higher) +
    recency + importance, weighted as the local store does; ties to the later write.
    VectorDistance gives a similarity for cosine and dot product, a distance for euclidean."""
    qn = len(words(query)) or 1
    unique: dict[str, dict[str, Any]] = {}
    for doc in docs:
        if doc["id"] not in hidden:
            unique.setdefault(doc["id"], doc)
            if "_hits" in doc:
                unique[doc["id"]] = doc

    def score(doc: dict[str, Any]) -> float:
        rel = min(1.0, doc.get("_hits", 0) / qn)
        if "_distance" in doc:
            value = doc["_distance"]
            close = 1.0 / (1.0 + max(0.0, value)) if vector_function == "euclidean" else value
            rel = max(rel, min(1.0, max(0.0, close)))
        recency = 1.0 / (1.0 + max(0, day - int(doc["gameDay"])) / RECENCY_DAYS)
        return (
            W_RELEVANCE * rel + W_RECENCY * recency + W_IMPORTANCE * float(doc["importance"]) / 10.0
        )

    return sorted(unique.values(), key=lambda d: (score(d), d["gameDay"], d["seq"]), reverse=True)
