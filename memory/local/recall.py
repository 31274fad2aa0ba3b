"""Recall: SQL picks a run's candidates, and the context budget packs them into one delimited
`<campaign_memory>` block.

`select` ranks in SQLite, with `memory.ranking`'s weights and arithmetic (the one ranking; the
Cosmos tier runs the same one in Python). FTS5 finds the notes holding each query term, reading only the run's own
doclists (every index term carries the run's key, see `memory.local.schema`); BM25 is computed in SQL
from the run's own statistics (notes, mean length, notes per term), so a run ranks the same in any
save, beside any other runs, as its replay does. FTS5's built-in `bm25()` is not used for that
reason: it counts rows and lengths over the whole table. Relevance, recency and importance are
combined in the same statement. Expired notes and binding decisions that a newer one on the same
axis superseded never enter.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Sequence

from memory.local.rows import COLUMNS, to_record
from memory.local.schema import run_key
from memory.models import MemoryRecord, RecallResult
from memory.ranking import (
    BM25_B,
    BM25_K1,
    MAX_QUERY_TERMS,
    RECENCY_DAYS,
    W_IMPORTANCE,
    W_RECENCY,
    W_RELEVANCE,
    idf,
)
from textkit import query_terms

RECENT_SHARE = 0.3
MIN_BUDGET = 160
OPEN, CLOSE = "<campaign_memory>", "</campaign_memory>"
POLICY = (
    "Policy: the newest binding decision wins; provisional notes are unreviewed and yield "
    "to binding decisions."
)

_DELIMITER = re.compile(r"<\s*(/?)\s*campaign_memory\b[^>]*>", re.IGNORECASE)


def neutralise(text: str) -> str:
    """Stop memory text from opening or closing the `<campaign_memory>` block."""
    return _DELIMITER.sub(lambda m: f"[{m.group(1)}campaign_memory]", text).replace("\n", " ")


def tokens(text: str) -> int:
    """Token estimate used by the budget: ceil(chars / 4), at least 1."""
    return max(1, math.ceil(len(text) / 4))


def match_terms(run_id: str, query: str) -> list[str]:
    """One FTS5 query per distinct query term: the term behind the run's key, quoted (terms are
    letters and digits only, so no query text can reach FTS5 syntax)."""
    key = run_key(run_id)
    return [f'"{key}{t}"' for t in query_terms(query, limit=MAX_QUERY_TERMS)]


_LIVE = "status IN ('provisional', 'active')"


def _hits(n: int) -> str:
    """The rows matching each of `n` terms, each with the term's weight."""
    return " UNION ALL ".join(
        f"SELECT rowid AS pk, :w{i} AS t FROM memories_fts WHERE memories_fts MATCH :q{i}"
        for i in range(n)
    )


def _stats_sql(n: int) -> str:
    """The run's notes and their total length (its counter row), then how many hold each term
    (the length of the term's doclist: only the run's own, as the term carries the run's key)."""
    counts = " UNION ALL ".join(
        f"SELECT {i}, count(*), 0 FROM memories_fts WHERE memories_fts MATCH :q{i}"
        for i in range(n)
    )
    return f"SELECT -1, docs, length FROM memory_counters WHERE run_id = :run UNION ALL {counts}"


def _select_sql(n: int) -> str:
    """The run's visible notes (live, unexpired, not superseded on their axis) with their score;
    `parts` picks the newest binding decision (0), the newest notes (1) and the best scores (2).
    Relevance is BM25 with each note holding a term once (notes are short): the sum of the
    matched terms' idf times (k1 + 1) / (1 + k1 (1 - b + b dl / avgdl)), squashed to s / (1 + s).
    """
    hits = (
        f"SELECT pk, sum(t) AS w FROM ({_hits(n)}) GROUP BY pk"
        if n
        else "SELECT NULL AS pk, 0.0 AS w WHERE 0"
    )
    columns = ", ".join("m." + c.strip() for c in COLUMNS.split(","))
    return f"""
WITH axes AS MATERIALIZED (
    SELECT axis, max((game_day << 32) + seq) AS top FROM memories
    WHERE run_id = :run AND kind = 'procedural' AND axis IS NOT NULL AND {_LIVE}
    GROUP BY axis),
hits AS MATERIALIZED ({hits}),
scored AS MATERIALIZED (
    SELECT m.pk, m.kind, m.game_day, m.seq,
           h.w * {BM25_K1 + 1} / (1.0 + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * m.n_terms
                                                   / :avgdl)) AS s,
           {W_RECENCY} / (1.0 + max(0, :day - m.game_day) / {RECENCY_DAYS})
           + {W_IMPORTANCE / 10.0} * m.importance AS base
    FROM memories m LEFT JOIN hits h ON h.pk = m.pk
    WHERE m.run_id = :run AND m.{_LIVE} AND (m.expires_day IS NULL OR m.expires_day > :day)
      AND NOT (m.kind = 'procedural' AND m.axis IS NOT NULL
               AND (m.game_day << 32) + m.seq < (SELECT top FROM axes WHERE axes.axis = m.axis))),
visible AS (
    SELECT pk, kind, game_day, seq,
           base + {W_RELEVANCE} * coalesce(s / (1.0 + s), 0.0) AS score FROM scored),
parts AS (
    SELECT * FROM (SELECT 0 AS part, pk, game_day AS k1, seq AS k2, 0 AS k3 FROM visible
                   WHERE kind = 'procedural' ORDER BY game_day DESC, seq DESC LIMIT 1)
    UNION ALL
    SELECT * FROM (SELECT 1, pk, game_day, seq, 0 FROM visible
                   ORDER BY game_day DESC, seq DESC LIMIT :newest)
    UNION ALL
    SELECT * FROM (SELECT 2, pk, score, game_day, seq FROM visible
                   ORDER BY score DESC, game_day DESC, seq DESC LIMIT :ranked))
SELECT parts.part, m.pk, {columns} FROM parts JOIN memories m ON m.pk = parts.pk
ORDER BY parts.part, parts.k1 DESC, parts.k2 DESC, parts.k3 DESC"""


def _weights(
    conn: sqlite3.Connection, run_id: str, terms: list[str]
) -> tuple[dict[str, object], float]:
    """Query parameters for the terms some note of the run holds (`:q<i>` and its idf `:w<i>`),
    and the run's mean note length. BM25's statistics count every note of the run the index
    holds (archived ones too), so they come from counters instead of a scan."""
    notes, total, df = 0, 0.0, {}
    params: dict[str, object] = {f"q{i}": t for i, t in enumerate(terms)}
    for t, count, length in conn.execute(_stats_sql(len(terms)), {"run": run_id, **params}):
        if t < 0:
            notes, total = count, length
        elif count:
            df[t] = count
    out: dict[str, object] = {}
    for i, t in enumerate(sorted(df)):
        out[f"q{i}"] = terms[t]
        out[f"w{i}"] = idf(notes, df[t])
    return out, (total / notes if notes and total else 1.0)


def select(
    conn: sqlite3.Connection,
    run_id: str,
    query: str,
    *,
    game_day: int,
    ranked_n: int,
    newest_n: int,
) -> tuple[MemoryRecord | None, list[MemoryRecord], list[MemoryRecord]]:
    """(newest binding decision, newest `newest_n` notes, top `ranked_n` by score) of one run.

    Score = recency + importance + relevance, weighted 0.25 / 0.25 / 0.5 and each 0..1: recency
    1 / (1 + age / 7 days), importance / 10, BM25 squashed to s / (1 + s). Ties go to the later
    game day, then the later write. A query with no usable term ranks by recency and importance.
    """
    terms = match_terms(run_id, query)
    weights, avgdl = _weights(conn, run_id, terms) if terms else ({}, 1.0)
    params = {
        "run": run_id,
        "day": game_day,
        "newest": newest_n,
        "ranked": ranked_n,
        "avgdl": avgdl,
        **weights,
    }
    rider: MemoryRecord | None = None
    parts: tuple[list[MemoryRecord], list[MemoryRecord]] = ([], [])
    built: dict[int, MemoryRecord] = {}
    for row in conn.execute(_select_sql(len(weights) // 2), params):
        rec = built.get(row[1])
        if rec is None:
            rec = built[row[1]] = to_record(row[2:])
        if row[0] == 0:
            rider = rec
        else:
            parts[row[0] - 1].append(rec)
    return rider, parts[0], parts[1]


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


def pack(
    *,
    rider: MemoryRecord | None,
    recent: Sequence[MemoryRecord],
    ranked_items: Sequence[MemoryRecord],
    budget: int,
    limit: int,
) -> RecallResult:
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
