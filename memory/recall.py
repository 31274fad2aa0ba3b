"""Recall, once for every backend: which notes a brief sees, in which order, and the budgeted
`<campaign_memory>` block they are packed into.

Score = recency + importance + relevance, weighted 0.25 / 0.25 / 0.5 and each 0..1: recency
1 / (1 + age / 7 days), importance / 10, relevance BM25 over the run's own notes squashed to
s / (1 + s). Ties go to the later game day, then the later write. Expired notes and binding
decisions that a newer one on the same axis superseded never enter. BM25's statistics (notes,
mean length, notes per term) count every note the run holds, archived ones too.

A backend hands `block` the run's live notes (what each holds of the query) and the run's
statistics (`Candidates`), its own way (the save file from its FTS5 index and counters, Cosmos DB from the
documents), and this one piece of arithmetic ranks them: a run recalls alike, and replays alike,
on either backend.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from operator import attrgetter
from typing import NamedTuple

from memory.models import LIVE_STATUSES, MemoryRecord, RecallResult
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import normalise

W_RELEVANCE, W_RECENCY, W_IMPORTANCE = 0.5, 0.25, 0.25
RECENCY_DAYS = 7.0
BM25_K1, BM25_B = 1.2, 0.75
MAX_QUERY_TERMS = 32
RECENT_SHARE = 0.3
MIN_BUDGET = 160
OPEN, CLOSE = "<campaign_memory>", "</campaign_memory>"
POLICY = (
    "Policy: the newest binding decision wins; provisional notes are unreviewed and yield "
    "to binding decisions."
)
_DELIMITER = re.compile(r"<\s*(/?)\s*campaign_memory\b[^>]*>", re.IGNORECASE)


class Note(NamedTuple):
    """What the ranking reads of one live note (any backend's row or document)."""

    key: int | str  # the backend's handle on the note (a row's pk, a document's id)
    seq: int
    kind: str
    status: str
    game_day: int
    importance: float
    expires_day: int | None
    axis: str | None
    n_terms: int  # how many index terms it has, repeats counted (its length for BM25)
    matched: AbstractSet[str]  # the query terms it holds


@dataclass(frozen=True, eq=False, repr=False)
class Stats(FrozenRecord):
    """BM25's statistics over every note the run holds (archived ones too)."""

    notes: int
    length: int  # their total length in terms
    df: Mapping[str, int]  # how many of them hold each query term


def visible(notes: Sequence[Note], game_day: int) -> list[Note]:
    """Live, unexpired notes, less binding decisions a newer one on their axis superseded."""
    top: dict[str, int] = {}
    for n in notes:
        if n.kind == "procedural" and n.axis is not None and n.status in LIVE_STATUSES:
            top[n.axis] = max(top.get(n.axis, -1), (n.game_day << 32) + n.seq)
    return [
        n
        for n in notes
        if n.status in LIVE_STATUSES
        and (n.expires_day is None or n.expires_day > game_day)
        and not (
            n.kind == "procedural"
            and n.axis is not None
            and (n.game_day << 32) + n.seq < top.get(n.axis, -1)
        )
    ]


def scores(
    shown: Sequence[Note],
    terms: Sequence[str],
    stats: Stats,
    game_day: int,
    *,
    closeness: Mapping[int | str, float] | None = None,
) -> dict[int | str, float]:
    """The score of each visible note for the query `terms`; `closeness` (0..1 by note key, from
    a vector index) raises a note's relevance where higher."""
    held_by = [(t, stats.df[t]) for t in terms if stats.df.get(t)]  # BM25's idf of each term:
    weights = [(t, math.log(1.0 + (stats.notes - df + 0.5) / (df + 0.5))) for t, df in held_by]
    avgdl = stats.length / stats.notes if stats.notes and stats.length else 1.0
    out: dict[int | str, float] = {}
    for n in shown:
        rel = 0.0
        if n.matched and (held := [weight for term, weight in weights if term in n.matched]):
            s = sum(held) * (BM25_K1 + 1)
            s /= 1.0 + BM25_K1 * (1 - BM25_B + BM25_B * n.n_terms / avgdl)
            rel = s / (1.0 + s)
        if closeness and n.key in closeness:
            rel = max(rel, min(1.0, max(0.0, closeness[n.key])))
        base = (
            W_RECENCY / (1.0 + max(0, game_day - n.game_day) / RECENCY_DAYS)
            + (W_IMPORTANCE / 10.0) * n.importance
        )
        out[n.key] = base + W_RELEVANCE * rel
    return out


def select(
    notes: Sequence[Note],
    terms: Sequence[str],
    stats: Stats,
    *,
    game_day: int,
    ranked_n: int,
    newest_n: int,
    closeness: Mapping[int | str, float] | None = None,
) -> tuple[int | str | None, list[int | str], list[int | str]]:
    """(the newest binding decision, the `newest_n` newest notes, the top `ranked_n` by score),
    as keys, from the run's live notes."""
    shown = visible(notes, game_day)
    score = scores(shown, terms, stats, game_day, closeness=closeness)
    age = attrgetter("game_day", "seq")
    rider = max((n for n in shown if n.kind == "procedural"), key=age, default=None)
    newest = heapq.nlargest(newest_n, shown, key=age)
    ranked = heapq.nlargest(ranked_n, ((score[n.key], n.game_day, n.seq, n.key) for n in shown))
    return (
        None if rider is None else rider.key,
        [n.key for n in newest],
        [r[3] for r in ranked],
    )


def check(budget: int, limit: int) -> None:
    """Refuse a budget too small for the block's frame, or no room for any item."""
    if budget < MIN_BUDGET:
        raise ValueError(f"memory budget must be at least {MIN_BUDGET} tokens")
    if limit < 1:
        raise ValueError("recall limit must be at least 1")


def neutralise(text: str) -> str:
    """Stop memory text from opening or closing the `<campaign_memory>` block."""
    return _DELIMITER.sub(lambda m: f"[{m.group(1)}campaign_memory]", text).replace("\n", " ")


def tokens(text: str) -> int:
    """Token estimate used by the budget: ceil(chars / 4), at least 1."""
    return max(1, math.ceil(len(text) / 4))


def render_line(rec: MemoryRecord) -> str:
    """One block line: id, absolute game day, kind and label, neutralised text."""
    label = {"provisional": " (provisional)"}.get(rec.status, "")
    if not label and rec.kind == "procedural":
        label = " (binding)"
    if rec.origin == "foundry-memory":
        label += " (foundry)"
    return f"- [{rec.id}] day {rec.game_day}, {rec.kind}{label}: {neutralise(rec.text)}"


def pack(
    *,
    rider: MemoryRecord | None,
    recent: Sequence[MemoryRecord],
    ranked_items: Sequence[MemoryRecord],
    budget: int,
    limit: int,
) -> RecallResult:
    """Fill the budget: wrapper and policy first, the binding rider, the newest items within a
    reserved share, then the rest by rank; an item that does not fit is skipped, not a stop
    (`budget` and `limit` as `check` allows them)."""
    used = tokens(OPEN) + tokens(POLICY) + tokens(CLOSE)
    chosen: dict[str, MemoryRecord] = {}
    skipped: list[str] = []
    cost: dict[str, int] = {}

    def take(rec: MemoryRecord, ceiling: int) -> bool:
        nonlocal used
        cost[rec.id] = cost.get(rec.id) or tokens(render_line(rec))
        if used + cost[rec.id] > ceiling:
            return False
        chosen[rec.id] = rec
        used += cost[rec.id]
        return True

    if rider is not None:
        take(rider, budget)
    reserve_ceiling = min(budget, used + math.ceil(RECENT_SHARE * (budget - used)))
    for rec in recent:
        if len(chosen) >= limit:
            break
        if rec.id not in chosen:
            take(rec, reserve_ceiling)
    for rec in ranked_items:
        if len(chosen) >= limit:
            break
        if rec.id not in chosen and not take(rec, budget) and rec.id not in skipped:
            skipped.append(rec.id)
    # provisional notes first (labelled), then binding decisions, then the rest, each in turn
    items = sorted(
        chosen.values(),
        key=lambda r: 0 if r.status == "provisional" else 1 + (r.kind != "procedural"),
    )
    lines = [OPEN, POLICY, *(render_line(r) for r in items), CLOSE]
    return RecallResult(
        block="\n".join(lines),
        items=items,
        injected=[{"id": r.id, "kind": r.kind, "status": r.status} for r in items],
        tokens_used=sum(tokens(line) for line in lines),
        budget=budget,
        skipped=skipped,
    )


@dataclass(frozen=True, eq=False, repr=False)
class Candidates(FrozenRecord):
    """What a backend hands the ranking for one query: the run's live notes, its statistics, how
    to read the records of the few chosen (key -> record), a vector index's closeness where one
    is set, and hits from another tier (`extra`: ranked after the run's own, one per text)."""

    notes: Sequence[Note]
    stats: Stats
    fetch: Callable[[list[int | str]], Mapping[int | str, MemoryRecord]]
    closeness: Mapping[int | str, float] | None = None
    extra: Sequence[MemoryRecord] = ()


def block(
    found: Candidates, terms: Sequence[str], *, game_day: int, budget: int, limit: int
) -> RecallResult:
    """The `<campaign_memory>` block of `limit` items at most: `select` ranks the run's live
    notes, the records of the few chosen are read, and `pack` fills the budget with them."""
    rider, recent, ranked = select(
        found.notes,
        terms,
        found.stats,
        game_day=game_day,
        ranked_n=limit * 3,
        newest_n=max(1, math.ceil(RECENT_SHARE * limit)),
        closeness=found.closeness,
    )
    records = found.fetch(list({k: None for k in (rider, *recent, *ranked) if k is not None}))
    ranked_items = [records[k] for k in ranked]
    known = {normalise(r.text) for r in ranked_items} if found.extra else set()
    for rec in found.extra:
        if normalise(rec.text) not in known:
            known.add(normalise(rec.text))
            ranked_items.append(rec)
    return pack(
        rider=None if rider is None else records[rider],
        recent=[records[k] for k in recent],
        ranked_items=ranked_items,
        budget=budget,
        limit=limit,
    )
