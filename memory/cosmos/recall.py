"""Recall on the Cosmos DB tier: the run's notes in one run-scoped query, ranked by the one
ranking (`memory.ranking.select`, the arithmetic the save file's SQL runs), then packed by
`memory.local.recall.pack` (the same budget and delimiters). So a run recalls the same notes in
the same order on either backend, and its replay matches.

With a vector policy and an embedder, one more query asks `VectorDistance` for the candidates,
whose closeness can only raise a note's relevance (the save file has no vectors: that is the one
way the two backends can rank apart, and only when embeddings are configured).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from memory import ranking
from memory.cosmos.client import LIVE, NOT_EXPIRED, doc_to_record, param
from memory.local import recall as budget
from memory.models import RecallResult

if TYPE_CHECKING:
    from memory.cosmos.store import CosmosMemoryStore

CANDIDATES = 200  # vector candidates fetched per recall (one page)


def note(doc: dict[str, Any]) -> ranking.Note:
    """What the ranking reads of one document (`nTerms` is missing on documents written before
    it was stored: their distinct terms stand in)."""
    terms = frozenset(doc.get("terms") or ())
    return ranking.Note(
        id=doc["id"],
        seq=int(doc["seq"]),
        kind=doc["kind"],
        status=doc["status"],
        game_day=int(doc["gameDay"]),
        importance=float(doc["importance"]),
        expires_day=doc.get("expiresDay"),
        axis=doc.get("axis"),
        terms=terms,
        n_terms=int(doc.get("nTerms", len(terms))),
    )


def recall(
    store: CosmosMemoryStore,
    query: str,
    *,
    game_day: int,
    budget_tokens: int = 700,
    limit: int = 12,
) -> RecallResult:
    """Budgeted `<campaign_memory>` block: every note of the run (one query; BM25 counts them
    all), ranked by `memory.ranking`, packed by `memory.local.recall.pack`."""
    if budget_tokens < budget.MIN_BUDGET or limit < 1:
        raise ValueError(f"budget must be >= {budget.MIN_BUDGET} tokens and limit >= 1")
    query = query if isinstance(query, str) else str(query)
    docs = {d["id"]: d for d in store._docs()}
    rider, recent, ranked = ranking.select(
        [note(d) for d in docs.values()],
        query,
        game_day=int(game_day),
        ranked_n=limit * 3,
        newest_n=max(1, math.ceil(budget.RECENT_SHARE * limit)),
        closeness=closeness(store, query, int(game_day)),
    )
    return budget.pack(
        rider=doc_to_record(docs[rider]) if rider else None,
        recent=[doc_to_record(docs[i]) for i in recent],
        ranked_items=[doc_to_record(docs[i]) for i in ranked],
        budget=budget_tokens,
        limit=limit,
    )


def closeness(store: CosmosMemoryStore, query: str, game_day: int) -> dict[str, float] | None:
    """0..1 by note id from `VectorDistance`, or None without a vector policy and an embedder.
    VectorDistance gives a similarity for cosine and dot product, a distance for euclidean."""
    vector = store._embed(query) if query.strip() else None
    if vector is None:
        return None
    sql = (
        f"SELECT TOP {CANDIDATES} c AS doc, VectorDistance(c.embedding, @embedding) AS distance"
        f" FROM c WHERE c.runId = @run AND {LIVE} AND {NOT_EXPIRED}"
        " ORDER BY VectorDistance(c.embedding, @embedding)"
    )
    params = [param("@embedding", vector), param("@day", game_day)]
    out: dict[str, float] = {}
    for row in store._query(sql, params):
        if row.get("distance") is None:
            continue
        value = float(row["distance"])
        out[row["doc"]["id"]] = (
            1.0 / (1.0 + max(0.0, value)) if store.vector_function == "euclidean" else value
        )
    return out
