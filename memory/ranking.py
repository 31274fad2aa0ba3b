"""One recall ranking for every backend: which notes a brief sees, in which order.

Score = recency + importance + relevance, weighted 0.25 / 0.25 / 0.5 and each 0..1: recency
1 / (1 + age / 7 days), importance / 10, relevance BM25 over the run's own notes squashed to
s / (1 + s). Ties go to the later game day, then the later write. Expired notes and binding
decisions that a newer one on the same axis superseded never enter. BM25's statistics (notes,
mean length, notes per term) count every note the run holds, archived ones too.

The save file ranks in one SQL statement (`memory.local.recall`, for speed) built from these
constants; `select` below is the same arithmetic in Python, in the same order of operations, for
a backend that hands over its notes (Cosmos DB). A test writes the same notes to both and
compares what each recalls, so a run replays alike on either.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from textkit import query_terms

W_RELEVANCE, W_RECENCY, W_IMPORTANCE = 0.5, 0.25, 0.25
RECENCY_DAYS = 7.0
BM25_K1, BM25_B = 1.2, 0.75
MAX_QUERY_TERMS = 32
LIVE = ("provisional", "active")


@dataclass(frozen=True)
class Note:
    """What the ranking reads of one note (any backend's row or document)."""

    id: str
    seq: int
    kind: str
    status: str
    game_day: int
    importance: float
    expires_day: int | None
    axis: str | None
    terms: frozenset[str]  # its index terms (`textkit.terms`), as a set
    n_terms: int  # how many index terms it has, repeats counted (its length for BM25)


def idf(notes: int, df: int) -> float:
    """BM25's inverse document frequency of a term `df` of the run's `notes` hold."""
    return math.log(1.0 + (notes - df + 0.5) / (df + 0.5))


def visible(notes: Sequence[Note], game_day: int) -> list[Note]:
    """Live, unexpired notes, less binding decisions a newer one on their axis superseded."""
    top: dict[str, int] = {}
    for n in notes:
        if n.kind == "procedural" and n.axis is not None and n.status in LIVE:
            top[n.axis] = max(top.get(n.axis, -1), (n.game_day << 32) + n.seq)
    return [
        n
        for n in notes
        if n.status in LIVE
        and (n.expires_day is None or n.expires_day > game_day)
        and not (
            n.kind == "procedural"
            and n.axis is not None
            and (n.game_day << 32) + n.seq < top.get(n.axis, -1)
        )
    ]


def scores(
    notes: Sequence[Note],
    query: str,
    game_day: int,
    *,
    closeness: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Every visible note's score (`notes` is all the run holds: its statistics come from them).
    `closeness` (0..1 by note id, from a vector index) raises a note's relevance where higher."""
    terms = query_terms(query, limit=MAX_QUERY_TERMS)
    df = {i: sum(t in n.terms for n in notes) for i, t in enumerate(terms)}
    weights = [(terms[i], idf(len(notes), df[i])) for i in sorted(df) if df[i]]
    total = sum(n.n_terms for n in notes)
    avgdl = total / len(notes) if notes and total else 1.0
    out: dict[str, float] = {}
    for n in visible(notes, game_day):
        w = 0.0
        hit = False
        for term, weight in weights:
            if term in n.terms:
                w, hit = w + weight, True
        base = (
            W_RECENCY / (1.0 + max(0, game_day - n.game_day) / RECENCY_DAYS)
            + (W_IMPORTANCE / 10.0) * n.importance
        )
        rel = 0.0
        if hit:
            s = w * (BM25_K1 + 1) / (1.0 + BM25_K1 * (1 - BM25_B + BM25_B * n.n_terms / avgdl))
            rel = s / (1.0 + s)
        if closeness and n.id in closeness:
            rel = max(rel, min(1.0, max(0.0, closeness[n.id])))
        out[n.id] = base + W_RELEVANCE * rel
    return out


def select(
    notes: Sequence[Note],
    query: str,
    *,
    game_day: int,
    ranked_n: int,
    newest_n: int,
    closeness: Mapping[str, float] | None = None,
) -> tuple[str | None, list[str], list[str]]:
    """(the newest binding decision, the `newest_n` newest notes, the top `ranked_n` by score),
    as ids, from all the notes a run holds."""
    score = scores(notes, query, game_day, closeness=closeness)
    shown = [n for n in notes if n.id in score]
    newest = sorted(shown, key=lambda n: (n.game_day, n.seq), reverse=True)
    rider = next((n.id for n in newest if n.kind == "procedural"), None)
    ranked = sorted(shown, key=lambda n: (score[n.id], n.game_day, n.seq), reverse=True)
    return rider, [n.id for n in newest[:newest_n]], [n.id for n in ranked[:ranked_n]]
