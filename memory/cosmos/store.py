"""Binding memory in Azure Cosmos DB for NoSQL: the store contract (`memory.contract`; guarded writes, budgeted recall, hardening, retention, consolidation, forgetting, audit) on a
distributed engine, after the lab design in `reference/seed-persistent-shared-memory-lab.txt`.

- One long-lived `CosmosClient` per endpoint and credential (`client_for`); DefaultAzureCredential
  unless the user set AZURE_COSMOS_KEY (held in memory only, never written anywhere).
- Partition key `/runId`; memories and the content-free audit in separate containers.
- Every query is parameterised, filters `c.runId = @run` in its own SQL and also passes the
  partition key; the run is checked (`authorize`) before any I/O.
- The session token of each write rides on the next read; every update is ETag-conditional.
- Consolidation is one transactional batch with a deterministic id, so a retry writes nothing.
- A document's `ttl` comes from the memory's retention (`ttl_seconds`).
- Recall ranks and packs with `memory.recall`, the save file's one ranking (`VectorDistance`, when
  the container has a vector policy and an embedder is given, can only raise a note's relevance).

`azure-cosmos` is imported here only, and this module only when MEMORY_BACKEND=cosmos.
"""

from __future__ import annotations

import itertools
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from azure.core import MatchConditions
from azure.core.credentials import TokenCredential
from azure.core.exceptions import AzureError
from azure.cosmos import ContainerProxy, CosmosClient, PartitionKey, exceptions

from memory import audit as audit_codes
from memory import lifecycle
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
from memory.guards import STAGE_CAP, CleanWrite
from memory.lifecycle import Change
from memory.models import (
    KINDS,
    LIVE_STATUSES,
    WORKER_KINDS,
    AuditRecord,
    ConsolidationResult,
    ForgetReport,
    Kind,
    MemoryRecord,
    NewNote,
)
from memory.recall import Candidates
from memory.writes import PolicyStore
from worldforge_textkit import normalise, terms

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


class CosmosMemoryStore(PolicyStore):
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
        credential: TokenCredential | None = None,
        client: CosmosClient | None = None,
        embedder: Embedder | None = None,
        stage_cap: int = STAGE_CAP,
        create: bool | None = None,
    ) -> None:
        super().__init__(run_id, stage_cap=stage_cap)
        self.config = config
        if client is None:
            client, self.counter = client_for(config, credential=credential)
        else:
            self.counter = RequestCounter()
        self.client = client
        self._embedder = embedder
        self._session_token: str | None = None
        self._audit_queue: list[dict[str, Any]] = []
        self._seq: int | None = None
        self._read: dict[str, dict[str, Any]] = {}  # the documents last read, by id (their ETags)
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
    def store_label(self) -> str:
        return ORIGIN

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
        container: ContainerProxy | None = None,
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
        docs = self._query(sql, params)
        self._read = {d["id"]: d for d in docs}
        return docs

    def _next_seq(self) -> int:
        if self._seq is None:
            self._seq = self.max_seq()
        self._seq += 1
        return self._seq

    def _create(self, doc: dict[str, Any]) -> dict[str, Any]:
        out = self._guard(lambda: self.memories.create_item(doc))
        self._note_write()
        return out

    def _upsert(self, doc: dict[str, Any]) -> None:
        self._guard(lambda: self.memories.upsert_item(doc))
        self._note_write()

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

    def log(
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

    def _send_batch(self, container: ContainerProxy, ops: list[tuple[Any, ...]]) -> None:
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
    def _new_doc(self, note: NewNote) -> dict[str, Any]:
        seq = self._next_seq()
        doc: dict[str, Any] = {
            "id": note.memory_id or f"mem-{seq:05d}",
            "runId": self.run_id,
            "seq": seq,
            "kind": note.kind,
            "status": note.status,
            "author": note.author,
            "importance": note.importance,
            "gameDay": note.game_day,
            "ts": audit_codes.utc_now(),
            "expiresDay": note.expires_day,
            "sourceIds": list(note.source_ids),
            "stageId": note.stage_id,
            "axis": note.axis,
            "worker": note.worker,
            "reviewer": note.reviewer,
            "reinforced": 0,
            "supersededBy": None,
            "consolidatedInto": None,
            "payload": note.payload,
            "ttl": ttl_seconds(note.kind, note.importance, note.game_day, note.expires_day),
            **_text_fields(note.text),
        }
        vector = self._embed(note.text)
        if vector is not None:
            doc["embedding"] = vector
        return doc

    # -- the write policy's repository (`memory.writes.PolicyStore`) ------------------------------
    def transaction(self) -> AbstractContextManager[object]:
        return nullcontext()  # each write is one request; the policy's reads come first

    def insert(self, note: NewNote) -> MemoryRecord:
        try:
            return doc_to_record(self._create(self._new_doc(note)))
        except exceptions.CosmosResourceExistsError:
            if note.memory_id:
                raise
            self._seq = None  # another writer took the id: read the run's sequence again
            return doc_to_record(self._create(self._new_doc(note)))

    def restatement(self, norm: str, kind: Kind) -> MemoryRecord | None:
        same = self._docs(
            f"c.norm = @norm AND c.kind = @kind AND {LIVE}",
            [param("@norm", norm), param("@kind", kind)],
        )
        return doc_to_record(same[0]) if same else None

    def worker_context(
        self, norm: str, stage_id: str
    ) -> tuple[MemoryRecord | None, list[MemoryRecord]]:
        """One query: the restatement and the stage's worker notes together."""
        docs = self._docs(
            f"((c.norm = @norm AND c.kind IN ('preference', 'context') AND {LIVE})"
            " OR (c.stageId = @stage AND c.author = 'worker'))",
            [param("@norm", norm), param("@stage", stage_id)],
        )
        same = [
            d
            for d in docs
            if d["norm"] == norm and d["kind"] in WORKER_KINDS and d["status"] in LIVE_STATUSES
        ]
        own = [d for d in docs if d.get("stageId") == stage_id and d["author"] == "worker"]
        own.sort(key=lambda d: d["seq"], reverse=True)
        return (doc_to_record(same[0]) if same else None), [doc_to_record(d) for d in own]

    def reinforce(
        self, rec: MemoryRecord, importance: float, expires_day: int | None
    ) -> MemoryRecord:
        doc = self._read[rec.id]
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
        return doc_to_record(out)

    def rewrite(self, rec: MemoryRecord, w: CleanWrite, *, expires_day: int, game_day: int) -> None:
        doc = self._read[rec.id]
        weight = max(float(doc["importance"]), w.importance)
        self._replace(
            doc,
            {
                **_text_fields(w.text),
                "kind": w.kind,
                "importance": weight,
                "expiresDay": expires_day,
                "gameDay": game_day,
                "ttl": ttl_seconds(w.kind, weight, game_day, expires_day),
            },
        )

    def update(self, memory_id: str, change: Change) -> None:
        """ETag-conditional replace of a document read by the pass that planned `change`."""
        self._replace(self._read[memory_id], {_FIELDS[k]: v for k, v in change.items()})

    def delete(self, memory_ids: Sequence[str]) -> None:
        for memory_id in memory_ids:
            cosmos_lifecycle.delete(self, self._read[memory_id])

    # -- reads ---------------------------------------------------------------------------------
    def get(self, memory_id: str, *, run_id: str | None = None) -> MemoryRecord:
        """One record of this run by id (KeyError when absent)."""
        self.authorize(run_id)
        docs = self._docs("c.id = @id", [param("@id", memory_id)])
        if not docs:
            raise KeyError(memory_id)
        return doc_to_record(docs[0])

    def read_records(
        self, kinds: list[str] | None, statuses: list[str] | None
    ) -> list[MemoryRecord]:
        where, params = [], []
        for column, values in (("kind", kinds), ("status", statuses)):
            if values is not None:
                where.append(f"ARRAY_CONTAINS(@{column}s, c.{column})")
                params.append(param(f"@{column}s", values))
        return [doc_to_record(d) for d in self._docs(" AND ".join(where), params)]

    def counts(self, *, run_id: str | None = None) -> dict[str, int]:
        """Live (provisional + active) memories per kind, every kind present."""
        self.authorize(run_id)
        out = dict.fromkeys(KINDS, 0)
        for row in self._query("SELECT c.kind FROM c WHERE c.runId = @run AND " + LIVE, []):
            out[row["kind"]] = out.get(row["kind"], 0) + 1
        return out

    def candidates(self, query: str, terms: Sequence[str], game_day: int) -> Candidates:
        """Every note of the run (one query; BM25 counts them all), and `VectorDistance`'s
        closeness where the container has a vector policy (`memory.cosmos.recall`)."""
        return cosmos_recall.candidates(self, query, terms, game_day)

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
    def fold(
        self, req: lifecycle.Consolidation, *, game_day: int, dry_run: bool
    ) -> ConsolidationResult:
        """One query, then one transactional batch (`memory.cosmos.lifecycle.consolidate`)."""
        return cosmos_lifecycle.consolidate(self, req, game_day=game_day, dry_run=dry_run)

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
        if keep_id:
            doc = self._new_doc(NewNote.copy_of(rec, keep_id=True))
            local_seq = int(rec.id[4:]) if rec.id[4:].isdigit() else 0
            doc["seq"] = max(int(doc["seq"]), local_seq)
            self._seq = max(self._seq or 0, int(doc["seq"]))
            try:
                return doc_to_record(self._create(doc))
            except exceptions.CosmosResourceExistsError:
                self._seq = None
        return self.insert(NewNote.copy_of(rec, keep_id=False))

    def restore(self, records: Sequence[MemoryRecord], extra: dict[str, dict[str, Any]]) -> int:
        """Make the run's partition hold exactly `records` (the save's mirror of it): each is
        written whole under its own id and sequence, status, reinforcement and supersession
        included (`extra`: the fields a record does not carry, by id: worker, reviewer,
        consolidatedInto), and any other document of the run is deleted. Returns the notes
        written. Used when Cosmos comes back holding less than the run wrote (restarted empty,
        recreated, restored from an older backup) or more (an action the player cancelled)."""
        held = {d["id"] for d in self._query("SELECT c.id FROM c WHERE c.runId = @run", [])}
        for rec in records:
            doc = self._new_doc(NewNote.copy_of(rec, keep_id=True))
            seq = int(rec.id[4:]) if rec.id[4:].isdigit() else int(doc["seq"])
            doc.update(
                seq=seq,
                ts=rec.ts or doc["ts"],
                reinforced=rec.reinforced,
                supersededBy=rec.superseded_by,
                **extra.get(rec.id, {}),
            )
            self._upsert(doc)
        keep = {r.id for r in records}
        for memory_id in sorted(held - keep):
            cosmos_lifecycle.delete(self, {"id": memory_id}, conditional=False)
        self._seq = None  # read the run's sequence again before the next new note
        self._read = {}
        return len(records)

    def fingerprint(self) -> dict[str, tuple[str, int]]:
        """Each note of the run as (status, reinforced), by id: one small query, after each step,
        to tell whether the container still holds what the run wrote."""
        rows = self._query("SELECT c.id, c.status, c.reinforced FROM c WHERE c.runId = @run", [])
        return {str(r["id"]): (str(r["status"]), int(r.get("reinforced") or 0)) for r in rows}

    def known_seq(self) -> int:
        """The highest note sequence this store has seen or given (no request)."""
        return int(self._seq or 0)

    def max_seq(self) -> int:
        """The highest note sequence number in this run's partition (0 for none)."""
        rows: list[Any] = self._query("SELECT VALUE MAX(c.seq) FROM c WHERE c.runId = @run", [])
        return int(rows[0]) if rows and rows[0] is not None else 0


# Record field -> document field, for what a hardening pass changes.
_FIELDS = {
    "status": "status",
    "superseded_by": "supersededBy",
    "reinforced": "reinforced",
    "importance": "importance",
}


def _text_fields(text: str) -> dict[str, Any]:
    """A document's text and what is derived from it: the normalised words (restatements), the
    distinct index terms and their count, repeats counted (BM25's note length, as the save file
    counts it)."""
    found = terms(text)
    return {
        "text": text,
        "norm": normalise(text),
        "terms": sorted(set(found)),
        "nTerms": len(found),
    }
