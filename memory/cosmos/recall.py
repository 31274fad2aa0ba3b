"""Recall on the Cosmos DB tier: three run-scoped queries (live binding decisions, the newest live
notes, keyword or VectorDistance candidates), ranked by relevance, recency and importance as the
local store weighs them, then packed by `memory.local.recall.pack` (the same budget and delimiters).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from memory.cosmos.client import LIVE, NOT_EXPIRED, doc_to_record, param
from memory.local import recall as budget
from memory.models import RecallResult
from textkit import query_terms

if TYPE_CHECKING:
    from memory.cosmos.store import CosmosMemoryStore

W_RELEVANCE, W_RECENCY, W_IMPORTANCE = budget.W_RELEVANCE, budget.W_RECENCY, budget.W_IMPORTANCE
RECENCY_DAYS = budget.RECENCY_DAYS  # the local store's weights, one definition
CANDIDATES = 200  # keyword or vector candidates fetched per recall (one page)


def recall(
    store: CosmosMemoryStore,
    query: str,
    *,
    game_day: int,
    budget_tokens: int = 700,
    limit: int = 12,
) -> RecallResult:
    """Budgeted `<campaign_memory>` block (three queries: live binding decisions, the newest
    live notes, and keyword or vector candidates), packed by `memory.local.recall.pack`."""
    if budget_tokens < budget.MIN_BUDGET or limit < 1:
        raise ValueError(f"budget must be >= {budget.MIN_BUDGET} tokens and limit >= 1")
    query = query if isinstance(query, str) else str(query)
    day = [param("@day", int(game_day))]
    binding = store._query(
        f"SELECT * FROM c WHERE c.runId = @run AND c.kind = 'procedural' AND {LIVE}"
        f" AND {NOT_EXPIRED} ORDER BY c.seq DESC",
        day,
    )
    hidden = superseded(binding)
    rider = next((d for d in binding if d["id"] not in hidden), None)
    newest_n = max(1, math.ceil(budget.RECENT_SHARE * limit))
    newest = store._query(
        f"SELECT TOP {int(max(newest_n, limit * 3))} * FROM c WHERE c.runId = @run AND {LIVE}"
        f" AND {NOT_EXPIRED} ORDER BY c.seq DESC",
        day,
    )
    newest = [d for d in newest if d["id"] not in hidden]
    found = candidates(store, query, int(game_day))
    scored = rank(found + newest, query, int(game_day), hidden, store.vector_function)
    return budget.pack(
        rider=doc_to_record(rider) if rider else None,
        recent=[doc_to_record(d) for d in newest[:newest_n]],
        ranked_items=[doc_to_record(d) for d in scored[: limit * 3]],
        budget=budget_tokens,
        limit=limit,
    )


def candidates(store: CosmosMemoryStore, query: str, game_day: int) -> list[dict[str, Any]]:
    """Live notes sharing a word with the query (`hits`), ranked by VectorDistance when the
    container has a vector policy and an embedder is set."""
    qwords = sorted(query_terms(query))
    hits = "ARRAY_LENGTH(ARRAY(SELECT VALUE t FROM t IN c.terms WHERE ARRAY_CONTAINS(@q, t)))"
    params = [param("@q", qwords), param("@day", game_day)]
    vector = store._embed(query) if query.strip() else None
    if vector is not None:
        params.append(param("@embedding", vector))
        sql = (
            f"SELECT TOP {CANDIDATES} c AS doc, {hits} AS hits,"
            " VectorDistance(c.embedding, @embedding) AS distance FROM c"
            f" WHERE c.runId = @run AND {LIVE} AND {NOT_EXPIRED}"
            " ORDER BY VectorDistance(c.embedding, @embedding)"
        )
    elif qwords:
        sql = (
            f"SELECT TOP {CANDIDATES} c AS doc, {hits} AS hits FROM c"
            f" WHERE c.runId = @run AND {LIVE} AND {NOT_EXPIRED}"
            " AND EXISTS(SELECT VALUE t FROM t IN c.terms WHERE ARRAY_CONTAINS(@q, t))"
            " ORDER BY c.seq DESC"
        )
    else:
        return []
    out = []
    for row in store._query(sql, params):
        doc = dict(row["doc"])
        doc["_hits"] = int(row.get("hits") or 0)
        if "distance" in row and row["distance"] is not None:
            doc["_distance"] = float(row["distance"])
        out.append(doc)
    return out


def superseded(binding: list[dict[str, Any]]) -> set[str]:
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


def rank(
    docs: list[dict[str, Any]], query: str, day: int, hidden: set[str], vector_function: str = ""
) -> list[dict[str, Any]]:
    """Score = relevance (share of query words matched, or the vector score when higher) +
    recency + importance, weighted as the local store does; ties to the later write.
    VectorDistance gives a similarity for cosine and dot product, a distance for euclidean."""
    qn = len(query_terms(query)) or 1
    unique: dict[str, dict[str, Any]] = {}
    for doc in docs:
        if doc["id"] not in hidden:
            unique.setdefault(doc["id"], doc)
            if "_hits" in doc:
                unique[doc["id"]] = doc

    def score(doc: dict[str, Any]) -> float:
        rel = min(1.0, float(doc.get("_hits", 0)) / qn)
        if "_distance" in doc:
            value = float(doc["_distance"])
            close = 1.0 / (1.0 + max(0.0, value)) if vector_function == "euclidean" else value
            rel = max(rel, min(1.0, max(0.0, close)))
        recency = 1.0 / (1.0 + max(0, day - int(doc["gameDay"])) / RECENCY_DAYS)
        return (
            W_RELEVANCE * rel + W_RECENCY * recency + W_IMPORTANCE * float(doc["importance"]) / 10.0
        )

    return sorted(unique.values(), key=lambda d: (score(d), d["gameDay"], d["seq"]), reverse=True)
