"""The Cosmos DB tier's own lifecycle steps: reviewed consolidation in one transactional batch,
forgetting a run, and the partition-scoped, ETag-conditional delete (hardening and retention run
`memory.lifecycle`'s rules through `memory.writes.PolicyStore` on either backend). Deterministic
semantic ids come from `memory.lifecycle` too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from memory import lifecycle
from memory.cosmos.client import param
from memory.cosmos.partition import Partition
from memory.models import ConsolidationResult, ForgetReport


def consolidate(
    run: Partition, req: lifecycle.Consolidation, *, game_day: int, dry_run: bool
) -> ConsolidationResult:
    """Fold episodic notes into one reviewed semantic note: one query reads the sources and
    any earlier result, then one transactional batch creates the note (deterministic id) and
    archives every source on its ETag. A retry writes nothing but the audit event (under a
    deterministic id, so it restores an event a failed flush lost)."""
    docs = {d["id"]: d for d in run.docs("ARRAY_CONTAINS(@ids, c.id)", [param("@ids", req.wanted)])}
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
    if dry_run and result.status != "already_consolidated":
        return result
    if result.status == "dry_run":
        note = run.new_doc(req.note(result.importance, game_day))
        ops: list[tuple[Any, ...]] = [("create", (note,))]
        for i in req.ids:
            body = {k: v for k, v in docs[i].items() if not k.startswith("_")}
            body.update(consolidatedInto=req.semantic_id, status="archived", ttl=-1)
            ops.append(("replace", (i, body), {"if_match_etag": docs[i]["_etag"]}))
        run.send_batch(run.memories, ops)
        run.note_write()
        result = replace(result, status="consolidated")
    run.log(
        "consolidate",
        [req.semantic_id, *req.ids],
        "reviewed-consolidation",
        game_day=game_day,
        event_id=f"audit-consolidate-{req.semantic_id}",
    )
    return result


def forget_run(run: Partition) -> ForgetReport:
    """Delete every memory document of the run (the content-free audit survives)."""
    docs = run.query("SELECT c.id FROM c WHERE c.runId = @run", [])
    for doc in docs:
        run.delete({"id": doc["id"]}, conditional=False)
    run.reread()
    run.log("forget_run", [d["id"] for d in docs], "right-to-deletion", game_day=None)
    return ForgetReport(run_id=run.run_id, deleted=len(docs), compacted=False)
