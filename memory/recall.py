"""The context budget: pack ranked memories into one delimited `<campaign_memory>` block.

Ranking lives in `memory.index` (BM25 relevance + game-day recency + importance, all 0..1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from memory.models import MemoryRecord, RecallResult
from memory.text import neutralise, tokens

RECENT_SHARE = 0.3
MIN_BUDGET = 160
OPEN, CLOSE = "<campaign_memory>", "</campaign_memory>"
POLICY = ("Policy: the newest binding decision wins; provisional notes are unreviewed and yield "
          "to binding decisions.")

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
