"""Recall: rank a run's injectable memories and pack them into a budgeted `<campaign_memory>` block.

Ranking mixes three terms on the same 0..1 scale: text relevance (FTS5 bm25, squashed r/(1+r)),
recency in game days (1 / (1 + age/7)) and importance (/10). No wall clock is involved.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence

from memory.models import MemoryRecord, RecallResult
from memory.rows import INJECTABLE, prefixed, to_record
from memory.text import fts_query, neutralise, query_terms, tokens

W_RELEVANCE, W_RECENCY, W_IMPORTANCE = 0.5, 0.25, 0.25
RECENCY_DAYS = 7.0
RECENT_SHARE = 0.3
MIN_BUDGET = 160
OPEN, CLOSE = "<campaign_memory>", "</campaign_memory>"
POLICY = ("Policy: the newest binding decision wins; provisional notes are unreviewed and yield "
          "to binding decisions.")

_SCORE = (f"({W_RECENCY} / (1.0 + max(0, :day - m.game_day) / {RECENCY_DAYS})"
          f" + {W_IMPORTANCE} * m.importance / 10.0")


def _ranked_sql(with_text: bool) -> str:
    if with_text:
        return (f"SELECT {prefixed()}, {_SCORE} + {W_RELEVANCE} * coalesce(f.r / (1.0 + f.r), 0))"
                " AS score FROM memories m LEFT JOIN (SELECT rowid AS pk, -bm25(memories_fts) AS r"
                " FROM memories_fts WHERE memories_fts MATCH :q) f ON f.pk = m.pk"
                f" WHERE {INJECTABLE}"
                " ORDER BY score DESC, m.game_day DESC, m.seq DESC LIMIT :n")
    return (f"SELECT {prefixed()}, {_SCORE}) AS score FROM memories m"
            f" WHERE {INJECTABLE}"
            " ORDER BY score DESC, m.game_day DESC, m.seq DESC LIMIT :n")


_RANKED_TEXT = _ranked_sql(True)
_RANKED_PLAIN = _ranked_sql(False)
_NEWEST = (f"SELECT {prefixed()} FROM memories m WHERE {INJECTABLE}"
           " ORDER BY m.game_day DESC, m.seq DESC LIMIT :n")
_NEWEST_BINDING = (f"SELECT {prefixed()} FROM memories m WHERE {INJECTABLE}"
                   " AND m.kind = 'procedural' ORDER BY m.game_day DESC, m.seq DESC LIMIT 1")


def ranked(conn: sqlite3.Connection, run_id: str, query: str, game_day: int,
           n: int) -> list[MemoryRecord]:
    """Top `n` injectable records of the run by combined score (ties: newest first)."""
    terms = query_terms(query)
    sql = _RANKED_TEXT if terms else _RANKED_PLAIN
    params = {"run": run_id, "day": game_day, "n": n}
    if terms:
        params["q"] = fts_query(terms)
    rows = conn.execute(sql, params)
    return [to_record(r) for r in rows]


def newest(conn: sqlite3.Connection, run_id: str, game_day: int, n: int) -> list[MemoryRecord]:
    """The `n` most recent injectable records (by game day, then write order)."""
    return [to_record(r) for r in conn.execute(_NEWEST, {"run": run_id, "day": game_day, "n": n})]


def newest_binding(conn: sqlite3.Connection, run_id: str, game_day: int) -> MemoryRecord | None:
    """The newest injectable procedural (binding) memory, which always rides along."""
    row = conn.execute(_NEWEST_BINDING, {"run": run_id, "day": game_day}).fetchone()
    return to_record(row) if row else None


def render_line(rec: MemoryRecord) -> str:
    """One block line: id, absolute game day, kind and label, neutralised text."""
    if rec.status == "provisional":
        label = " (provisional)"
    elif rec.kind == "procedural":
        label = " (binding)"
    else:
        label = ""
    if rec.origin == "foundry-memory":
        label += " (foundry)"
    return f"- [{rec.id}] day {rec.game_day}, {rec.kind}{label}: {neutralise(rec.text)}"


def _block_order(chosen: list[MemoryRecord]) -> list[MemoryRecord]:
    provisional = [r for r in chosen if r.status == "provisional"]
    binding = [r for r in chosen if r.status != "provisional" and r.kind == "procedural"]
    rest = [r for r in chosen if r.status != "provisional" and r.kind != "procedural"]
    return provisional + binding + rest


def pack(*, rider: MemoryRecord | None, recent: Sequence[MemoryRecord],
         ranked_items: Sequence[MemoryRecord], budget: int, limit: int) -> RecallResult:
    """Fill the budget: wrapper and policy first, the binding rider, the newest items within a
    reserved share, then the rest by rank; an item that does not fit is skipped, not a stop."""
    if budget < MIN_BUDGET:
        raise ValueError(f"memory budget must be at least {MIN_BUDGET} tokens")
    if limit < 1:
        raise ValueError("recall limit must be at least 1")
    used = tokens(OPEN) + tokens(POLICY) + tokens(CLOSE)
    chosen: list[MemoryRecord] = []
    seen: set[str] = set()
    skipped: list[str] = []
    cost: dict[str, int] = {}

    def fits(rec: MemoryRecord, ceiling: int) -> bool:
        cost[rec.id] = cost.get(rec.id) or tokens(render_line(rec))
        return used + cost[rec.id] <= ceiling

    def take(rec: MemoryRecord) -> None:
        nonlocal used
        chosen.append(rec)
        seen.add(rec.id)
        used += cost[rec.id]

    if rider is not None and fits(rider, budget):
        take(rider)
    reserve_ceiling = used + math.ceil(RECENT_SHARE * (budget - used))
    for rec in recent:
        if len(chosen) >= limit:
            break
        if rec.id not in seen and fits(rec, min(reserve_ceiling, budget)):
            take(rec)
    for rec in ranked_items:
        if len(chosen) >= limit:
            break
        if rec.id in seen:
            continue
        if fits(rec, budget):
            take(rec)
        elif rec.id not in skipped:
            skipped.append(rec.id)
    items = _block_order(chosen)
    lines = [OPEN, POLICY, *(render_line(r) for r in items), CLOSE]
    return RecallResult(
        block="\n".join(lines),
        items=items,
        injected=[{"id": r.id, "kind": r.kind, "status": r.status} for r in items],
        tokens_used=sum(tokens(line) for line in lines),
        budget=budget,
        skipped=skipped,
    )
