"""Recall on the Cosmos DB tier: the run's notes in one run-scoped query, for `memory.recall` to rank
and pack (the save file's one ranking, budget and delimiters), so a run recalls the same
notes in the same order on either backend, and its replay matches.

With a vector policy and an embedder, one more query asks `VectorDistance` for the candidates,
whose closeness can only raise a note's relevance (the save file has no vectors: that is the one
way the two backends can rank apart, and only when embeddings are configured).
"""

from __future__ import annotations

from collections.abc import Sequence

from memory import recall as ranking
from memory.cosmos.client import LIVE, NOT_EXPIRED, doc_to_record, param
from memory.cosmos.partition import Partition
from memory.models import LIVE_STATUSES

CANDIDATES = 200  # vector candidates fetched per recall (one page)


def candidates(
    run: Partition, query: str, terms: Sequence[str], game_day: int
) -> ranking.Candidates:
    """The run's documents as the ranking reads them: every note counts in the statistics
    (archived ones too), the live ones are ranked."""
    docs = {d["id"]: d for d in run.docs()}
    held = {i: frozenset(d.get("terms") or ()) for i, d in docs.items()}
    # `nTerms` is missing on documents written before it was stored: distinct terms stand in
    length = {i: int(d.get("nTerms", len(held[i]))) for i, d in docs.items()}
    stats = ranking.Stats(
        notes=len(docs),
        length=sum(length.values()),
        df={t: sum(t in h for h in held.values()) for t in terms},
    )
    notes = [
        ranking.Note(
            key=i,
            seq=int(d["seq"]),
            kind=d["kind"],
            status=d["status"],
            game_day=int(d["gameDay"]),
            importance=float(d["importance"]),
            expires_day=d.get("expiresDay"),
            axis=d.get("axis"),
            n_terms=length[i],
            matched=held[i].intersection(terms),
        )
        for i, d in docs.items()
        if d["status"] in LIVE_STATUSES
    ]
    return ranking.Candidates(
        notes,
        stats,
        lambda keys: {k: doc_to_record(docs[str(k)]) for k in keys},
        closeness=closeness(run, query, game_day),
    )


def closeness(run: Partition, query: str, game_day: int) -> dict[int | str, float] | None:
    """0..1 by note id from `VectorDistance`, or None without a vector policy and an embedder.
    VectorDistance gives a similarity for cosine and dot product, a distance for euclidean."""
    vector = run.embed(query) if query.strip() else None
    if vector is None:
        return None
    sql = (
        f"SELECT TOP {CANDIDATES} c AS doc, VectorDistance(c.embedding, @embedding) AS distance"
        f" FROM c WHERE c.runId = @run AND {LIVE} AND {NOT_EXPIRED}"
        " ORDER BY VectorDistance(c.embedding, @embedding)"
    )
    params = [param("@embedding", vector), param("@day", game_day)]
    out: dict[int | str, float] = {}
    for row in run.query(sql, params):
        if row.get("distance") is None:
            continue
        value = float(row["distance"])
        out[row["doc"]["id"]] = (
            1.0 / (1.0 + max(0.0, value)) if run.vector_function == "euclidean" else value
        )
    return out
