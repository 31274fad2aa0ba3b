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

The run's data plane (guarded calls, queries, session tokens, documents, the audit queue) is
`memory.cosmos.partition`, which the lifecycle steps and recall use too.

`azure-cosmos` is imported under `memory.cosmos` only, and that only when MEMORY_BACKEND=cosmos.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import cast

from azure.core.credentials import TokenCredential
from azure.cosmos import CosmosClient, exceptions

from memory import lifecycle
from memory.cosmos import lifecycle as cosmos_lifecycle
from memory.cosmos import recall as cosmos_recall
from memory.cosmos.client import (
    LIVE,
    ORIGIN,
    CosmosConfig,
    CosmosUnavailable,
    MemoryDoc,
    doc_to_record,
    param,
    ttl_seconds,
)
from memory.cosmos.partition import Embedder, Partition, text_fields
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
        self.partition = Partition(
            config, run_id, credential=credential, client=client, embedder=embedder, create=create
        )

    def store_label(self) -> str:
        return ORIGIN

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
        self.partition.log(operation, memory_ids, reason, game_day=game_day, event_id=event_id)

    def flush_cloud(self) -> None:
        """Send the queued audit documents (`memory.cosmos.partition.Partition.flush`)."""
        self.partition.flush()

    # -- the write policy's repository (`memory.writes.PolicyStore`) ------------------------------
    def transaction(self) -> AbstractContextManager[object]:
        return nullcontext()  # each write is one request; the policy's reads come first

    def insert(self, note: NewNote) -> MemoryRecord:
        try:
            return doc_to_record(self.partition.create(self.partition.new_doc(note)))
        except exceptions.CosmosResourceExistsError:
            if note.memory_id:
                raise
            self.partition.reread()  # another writer took the id: read the run's sequence again
            return doc_to_record(self.partition.create(self.partition.new_doc(note)))

    def restatement(self, norm: str, kind: Kind) -> MemoryRecord | None:
        same = self.partition.docs(
            f"c.norm = @norm AND c.kind = @kind AND {LIVE}",
            [param("@norm", norm), param("@kind", kind)],
        )
        return doc_to_record(same[0]) if same else None

    def worker_context(
        self, norm: str, stage_id: str
    ) -> tuple[MemoryRecord | None, list[MemoryRecord]]:
        """One query: the restatement and the stage's worker notes together."""
        docs = self.partition.docs(
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
        doc = self.partition.read[rec.id]
        old = doc.get("expiresDay")
        expiry = None if old is None or expires_day is None else max(old, expires_day)
        weight = max(float(doc["importance"]), importance)
        out = self.partition.replace(
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
        doc = self.partition.read[rec.id]
        weight = max(float(doc["importance"]), w.importance)
        self.partition.replace(
            doc,
            {
                **text_fields(w.text),
                "kind": w.kind,
                "importance": weight,
                "expiresDay": expires_day,
                "gameDay": game_day,
                "ttl": ttl_seconds(w.kind, weight, game_day, expires_day),
            },
        )

    def update(self, memory_id: str, change: Change) -> None:
        """ETag-conditional replace of a document read by the pass that planned `change`."""
        changed = cast(MemoryDoc, {_FIELDS[k]: v for k, v in change.items()})
        self.partition.replace(self.partition.read[memory_id], changed)

    def delete(self, memory_ids: Sequence[str]) -> None:
        for memory_id in memory_ids:
            self.partition.delete(self.partition.read[memory_id])

    # -- reads ---------------------------------------------------------------------------------
    def get(self, memory_id: str, *, run_id: str | None = None) -> MemoryRecord:
        """One record of this run by id (KeyError when absent)."""
        self.authorize(run_id)
        docs = self.partition.docs("c.id = @id", [param("@id", memory_id)])
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
        return [doc_to_record(d) for d in self.partition.docs(" AND ".join(where), params)]

    def counts(self, *, run_id: str | None = None) -> dict[str, int]:
        """Live (provisional + active) memories per kind, every kind present."""
        self.authorize(run_id)
        out = dict.fromkeys(KINDS, 0)
        for row in self.partition.query(
            "SELECT c.kind FROM c WHERE c.runId = @run AND " + LIVE, []
        ):
            out[row["kind"]] = out.get(row["kind"], 0) + 1
        return out

    def candidates(self, query: str, terms: Sequence[str], game_day: int) -> Candidates:
        """Every note of the run (one query; BM25 counts them all), and `VectorDistance`'s
        closeness where the container has a vector policy (`memory.cosmos.recall`)."""
        return cosmos_recall.candidates(self.partition, query, terms, game_day)

    def audit(self, *, limit: int | None = None, run_id: str | None = None) -> list[AuditRecord]:
        """This run's content-free audit trail, oldest first (queued rows are sent first)."""
        self.authorize(run_id)
        self.flush_cloud()
        rows = self.partition.query(
            "SELECT * FROM c WHERE c.runId = @run ORDER BY c.seq",
            [],
            container=self.partition.audit_container,
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
        return cosmos_lifecycle.consolidate(self.partition, req, game_day=game_day, dry_run=dry_run)

    def forget_run(self, run_id: str | None = None, *, compact: bool = True) -> ForgetReport:
        """Delete every memory document of the run (the content-free audit survives)."""
        self.authorize(run_id)
        return cosmos_lifecycle.forget_run(self.partition)

    def compact(self) -> bool:
        """Nothing to compact on the service side (deleted documents are gone)."""
        return True

    def ping(self) -> bool:
        """One cheap query: True when the memories container answers."""
        try:
            self.partition.query("SELECT VALUE COUNT(1) FROM c WHERE c.runId = @run", [])
        except CosmosUnavailable:
            return False
        return True

    def import_record(self, rec: MemoryRecord, *, keep_id: bool = False) -> MemoryRecord:
        """Write a record the local store kept during an outage: under its own id when `keep_id`
        and Cosmos has no document by that id (its sequence then counts past it, so the id is never
        given to another text), else under a new id in this run."""
        if keep_id:
            doc = self.partition.new_doc(NewNote.copy_of(rec, keep_id=True))
            local_seq = int(rec.id[4:]) if rec.id[4:].isdigit() else 0
            doc["seq"] = max(int(doc["seq"]), local_seq)
            self.partition.count_past(int(doc["seq"]))
            try:
                return doc_to_record(self.partition.create(doc))
            except exceptions.CosmosResourceExistsError:
                self.partition.reread()
        return self.insert(NewNote.copy_of(rec, keep_id=False))

    def restore(self, records: Sequence[MemoryRecord], extra: dict[str, dict[str, object]]) -> int:
        """Make the run's partition hold exactly `records` (the save's mirror of it): each is
        written whole under its own id and sequence, status, reinforcement and supersession
        included (`extra`: the fields a record does not carry, by id: worker, reviewer,
        consolidatedInto), and any other document of the run is deleted. Returns the notes
        written. Used when Cosmos comes back holding less than the run wrote (restarted empty,
        recreated, restored from an older backup) or more (an action the player cancelled)."""
        held = {
            d["id"] for d in self.partition.query("SELECT c.id FROM c WHERE c.runId = @run", [])
        }
        for rec in records:
            doc = self.partition.new_doc(NewNote.copy_of(rec, keep_id=True))
            seq = int(rec.id[4:]) if rec.id[4:].isdigit() else int(doc["seq"])
            doc.update(
                {
                    "seq": seq,
                    "ts": rec.ts or doc["ts"],
                    "reinforced": rec.reinforced,
                    "supersededBy": rec.superseded_by,
                }
            )
            doc.update(cast(MemoryDoc, extra.get(rec.id, {})))  # worker, reviewer, consolidatedInto
            self.partition.upsert(doc)
        keep = {r.id for r in records}
        for memory_id in sorted(held - keep):
            self.partition.delete({"id": memory_id}, conditional=False)
        self.partition.reread()  # read the run's sequence again before the next new note
        return len(records)

    def fingerprint(self) -> dict[str, tuple[str, int]]:
        """Each note of the run as (status, reinforced), by id: one small query, after each step,
        to tell whether the container still holds what the run wrote."""
        rows = self.partition.query(
            "SELECT c.id, c.status, c.reinforced FROM c WHERE c.runId = @run", []
        )
        return {str(r["id"]): (str(r["status"]), int(r.get("reinforced") or 0)) for r in rows}

    def known_seq(self) -> int:
        """The highest note sequence this store has seen or given (no request)."""
        return self.partition.known_seq()

    def max_seq(self) -> int:
        """The highest note sequence number in this run's partition (0 for none)."""
        return self.partition.max_seq()


# Record field -> document field, for what a hardening pass changes.
_FIELDS = {
    "status": "status",
    "superseded_by": "supersededBy",
    "reinforced": "reinforced",
    "importance": "importance",
}
