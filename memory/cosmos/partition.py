"""One run's partition in Cosmos DB for NoSQL: the data plane every Cosmos step shares.

The guarded SDK call (an outage becomes `CosmosUnavailable`, a 412 `StaleWrite`), the parameterised
run-scoped query with the last write's session token, the run's note sequence, a new note's
document, the ETag-conditional replace and delete, and the queue of content-free audit documents
sent as one transactional batch. The store (`memory.cosmos.store`), its lifecycle steps
(`memory.cosmos.lifecycle`) and its recall (`memory.cosmos.recall`) all stand on this one layer,
so none of them calls another's private members and no two of them import each other.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from azure.core import MatchConditions
from azure.core.credentials import TokenCredential
from azure.core.exceptions import AzureError
from azure.cosmos import ContainerProxy, CosmosClient, PartitionKey, exceptions

from memory import audit as audit_codes
from memory.cosmos.client import (
    AuditDoc,
    CosmosConfig,
    CosmosUnavailable,
    MemoryDoc,
    Param,
    RequestCounter,
    StaleWrite,
    client_for,
    is_outage,
    param,
    ttl_seconds,
    unavailable,
    within,
)
from memory.models import NewNote
from worldforge_textkit import normalise, terms

log = logging.getLogger(f"worldforge.{__name__}")  # the one log file (engine.logs)
BATCH_LIMIT = 100  # operations per transactional batch (service limit)

Embedder = Callable[[str], list[float]]
T = TypeVar("T")


class Partition:
    """The run's documents in the memories container and its audit rows in the audit container.

    Writes land at once; audit rows are queued and sent by `flush()` as one transactional batch.
    """

    def __init__(
        self,
        config: CosmosConfig,
        run_id: str,
        *,
        credential: TokenCredential | None = None,
        client: CosmosClient | None = None,
        embedder: Embedder | None = None,
        create: bool | None = None,
    ) -> None:
        self.run_id = run_id
        self.config = config
        if client is None:
            client, self.counter = client_for(config, credential=credential)
        else:
            self.counter = RequestCounter()
        self.client = client
        self._embedder = embedder
        self._session_token: str | None = None
        self._audit_queue: list[AuditDoc] = []
        self._seq: int | None = None
        self.read: dict[str, MemoryDoc] = {}  # the documents last read, by id (their ETags)
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

    def guard(self, fn: Callable[[], T], *, missing_ok: bool = False) -> T:
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

    def note_write(self) -> None:
        token = self.memories.client_connection.last_response_headers.get("x-ms-session-token")
        if token:
            self._session_token = token

    def query(
        self,
        sql: str,
        params: Sequence[Param],
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
        return self.guard(
            lambda: list(
                target.query_items(
                    query=sql,
                    parameters=[dict(p) for p in (param("@run", self.run_id), *params)],
                    **kwargs,
                )
            )
        )

    def docs(self, where: str = "", params: Sequence[Param] = ()) -> list[MemoryDoc]:
        sql = (
            f"SELECT * FROM c WHERE c.runId = @run{' AND ' + where if where else ''} ORDER BY c.seq"
        )
        docs = cast(list[MemoryDoc], self.query(sql, params))
        self.read = {d["id"]: d for d in docs}
        return docs

    def next_seq(self) -> int:
        if self._seq is None:
            self._seq = self.max_seq()
        self._seq += 1
        return self._seq

    def create(self, doc: MemoryDoc) -> MemoryDoc:
        out = self.guard(lambda: self.memories.create_item(dict(doc)))
        self.note_write()
        return cast(MemoryDoc, out)  # the document as the service stored it

    def upsert(self, doc: MemoryDoc) -> None:
        self.guard(lambda: self.memories.upsert_item(dict(doc)))
        self.note_write()

    def replace(self, doc: MemoryDoc, changes: MemoryDoc) -> MemoryDoc:
        """ETag-conditional replace of one document with `changes` applied."""
        body = {k: v for k, v in doc.items() if not k.startswith("_")} | dict(changes)
        out = self.guard(
            lambda: self.memories.replace_item(
                doc["id"], body, etag=doc["_etag"], match_condition=MatchConditions.IfNotModified
            )
        )
        self.note_write()
        return cast(MemoryDoc, out)

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

    def flush(self) -> None:
        """Send queued audit documents as transactional batches of creates (deterministic ids are
        upserted one by one, so a retried consolidation restores its audit event)."""
        queue, self._audit_queue = self._audit_queue, []
        fixed = [d for d in queue if d["id"].startswith("audit-")]
        plain = [d for d in queue if not d["id"].startswith("audit-")]
        try:
            for start in range(0, len(plain), BATCH_LIMIT):
                ops = [("create", (d,)) for d in plain[start : start + BATCH_LIMIT]]
                self.send_batch(self.audit_container, ops)
            for d in fixed:
                self._upsert_audit(d)
        except BaseException:
            self._audit_queue = queue + self._audit_queue
            raise

    def send_batch(self, container: ContainerProxy, ops: list[tuple[Any, ...]]) -> None:
        self.guard(lambda: container.execute_item_batch(ops, partition_key=self.run_id))

    def _upsert_audit(self, doc: AuditDoc) -> None:
        self.guard(lambda: self.audit_container.upsert_item(dict(doc)))

    def embed(self, text: str) -> list[float] | None:
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
    def new_doc(self, note: NewNote) -> MemoryDoc:
        seq = self.next_seq()
        doc: MemoryDoc = {
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
            **text_fields(note.text),
        }
        vector = self.embed(note.text)
        if vector is not None:
            doc["embedding"] = vector
        return doc

    def known_seq(self) -> int:
        """The highest note sequence this store has seen or given (no request)."""
        return int(self._seq or 0)

    def max_seq(self) -> int:
        """The highest note sequence number in this run's partition (0 for none)."""
        rows: list[Any] = self.query("SELECT VALUE MAX(c.seq) FROM c WHERE c.runId = @run", [])
        return int(rows[0]) if rows and rows[0] is not None else 0

    def count_past(self, seq: int) -> None:
        """A note was written under sequence `seq`: the next new note counts past it."""
        self._seq = max(self._seq or 0, seq)

    def reread(self) -> None:
        """Forget the sequence and the documents last read: the next new note reads the run's
        sequence again (another writer took an id, or the partition was rewritten)."""
        self._seq = None
        self.read = {}

    def delete(self, doc: MemoryDoc, *, conditional: bool = True) -> None:
        """Delete one document of the run, on the ETag it was read with when `conditional`."""
        kwargs: dict[str, Any] = {"partition_key": self.run_id}
        if conditional:
            kwargs.update(etag=doc["_etag"], match_condition=MatchConditions.IfNotModified)
        # TTL or another writer deleted it already: the outcome stands
        with contextlib.suppress(exceptions.CosmosResourceNotFoundError):
            self.guard(lambda: self.memories.delete_item(doc["id"], **kwargs), missing_ok=True)
        self.note_write()


def text_fields(text: str) -> MemoryDoc:
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
