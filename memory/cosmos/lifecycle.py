"""The Cosmos DB tier's lifecycle: hardening, retention prune, reviewed consolidation in one
transactional batch, forgetting a run. The rules are `memory.lifecycle`'s (one eligibility rule
for prune's dry run and apply, deterministic semantic ids); here they run on documents with
ETag-conditional writes, and every delete is partition-scoped.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from azure.core import MatchConditions
from azure.cosmos import exceptions

from memory import lifecycle
from memory.cosmos.client import LIVE, doc_to_record, param
from memory.guards import note_words as words
from memory.models import (
    WORKER_KINDS,
    ConsolidationResult,
    ForgetReport,
    HardenReport,
    PruneReport,
)

if TYPE_CHECKING:
    from memory.cosmos.store import CosmosMemoryStore

MIN_DUPLICATE_WORDS = 3


def harden(store: CosmosMemoryStore, *, game_day: int) -> HardenReport:
    """Promote surviving provisional notes, archive expired ones and duplicates of an active
    note, supersede older binding decisions on the same axis (one query, then ETag-conditional
    replaces of what changed)."""
    report = HardenReport()
    docs = {d["id"]: d for d in store._docs(LIVE)}
    changes: dict[str, dict[str, Any]] = {}
    active = [d for d in docs.values() if d["status"] == "active"]
    for doc in sorted(docs.values(), key=lambda d: d["seq"]):
        if doc["status"] != "provisional":
            continue
        if doc.get("expiresDay") is not None and doc["expiresDay"] <= game_day:
            changes[doc["id"]] = {"status": "archived"}
            report.archived.append(doc["id"])
            continue
        twin = covering(doc, active)
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
        store._replace(docs[memory_id], change)
    for operation, ids in (
        ("harden_promote", report.promoted),
        ("harden_archive", report.archived),
        ("harden_supersede", report.superseded),
    ):
        if ids:
            store._audit(operation, ids, "hardening-pass", game_day=game_day)
    return report


def prune(store: CosmosMemoryStore, *, game_day: int, dry_run: bool = True) -> PruneReport:
    """Retention: dry run and apply share `memory.lifecycle.prune_blocker`; every delete is
    partition-scoped and ETag-conditional."""
    docs = store._docs()
    protected = {
        s
        for d in docs
        if d["kind"] == "semantic" and d["status"] in ("provisional", "active")
        for s in d.get("sourceIds") or []
    }
    eligible = [
        d
        for d in docs
        if lifecycle.prune_blocker(doc_to_record(d), game_day=game_day, protected=protected) is None
    ]
    ids = [d["id"] for d in eligible]
    if dry_run:
        return PruneReport(status="dry_run", eligible_ids=ids, deleted_count=0)
    for doc in eligible:
        delete(store, doc)
    if ids:
        store._audit("retention_prune", ids, lifecycle.PRUNE_REASON, game_day=game_day)
    return PruneReport(status="applied", eligible_ids=ids, deleted_count=len(ids))


def delete(store: CosmosMemoryStore, doc: dict[str, Any], *, conditional: bool = True) -> None:
    kwargs: dict[str, Any] = {"partition_key": store.run_id}
    if conditional:
        kwargs.update(etag=doc["_etag"], match_condition=MatchConditions.IfNotModified)
    # TTL or another writer deleted it already: the outcome stands
    with contextlib.suppress(exceptions.CosmosResourceNotFoundError):
        store._guard(lambda: store.memories.delete_item(doc["id"], **kwargs), missing_ok=True)
    store._note_write()


def consolidate(
    store: CosmosMemoryStore,
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
    req = lifecycle.consolidation(store.run_id, source_ids, summary, reviewer)
    docs = {
        d["id"]: d for d in store._docs("ARRAY_CONTAINS(@ids, c.id)", [param("@ids", req.wanted)])
    }
    notes = {
        i: lifecycle.Note(
            d["kind"],
            d["status"],
            float(d["importance"]),
            d.get("consolidatedInto"),
            d["text"],
            d.get("reviewer"),
        )
        for i, d in docs.items()
    }
    result = lifecycle.plan_consolidation(req, notes)
    audit_id = f"audit-consolidate-{req.semantic_id}"
    if result.status == "already_consolidated":
        store._audit(
            "consolidate",
            [req.semantic_id, *req.ids],
            "reviewed-consolidation",
            game_day=game_day,
            event_id=audit_id,
        )
        return result
    if dry_run:
        return result
    note = store._new_doc(**req.note(result.importance, game_day))
    ops: list[tuple[Any, ...]] = [("create", (note,))]
    for i in req.ids:
        body = {k: v for k, v in docs[i].items() if not k.startswith("_")}
        body.update(consolidatedInto=req.semantic_id, status="archived", ttl=-1)
        ops.append(("replace", (i, body), {"if_match_etag": docs[i]["_etag"]}))
    store._send_batch(store.memories, ops)
    store._note_write()
    store._audit(
        "consolidate",
        [req.semantic_id, *req.ids],
        "reviewed-consolidation",
        game_day=game_day,
        event_id=audit_id,
    )
    return result.model_copy(update={"status": "consolidated"})


def forget_run(store: CosmosMemoryStore) -> ForgetReport:
    """Delete every memory document of the run (the content-free audit survives)."""
    docs = store._query("SELECT c.id FROM c WHERE c.runId = @run", [])
    for doc in docs:
        delete(store, doc, conditional=False)
    store._seq = None
    store._audit("forget_run", [d["id"] for d in docs], "right-to-deletion", game_day=None)
    return ForgetReport(run_id=store.run_id, deleted=len(docs), compacted=False)


def covering(doc: dict[str, Any], active: list[dict[str, Any]]) -> dict[str, Any] | None:
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
