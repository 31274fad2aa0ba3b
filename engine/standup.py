"""The standup after each fork: three workers speak in turn, each reading the prior turns and the
CEO's last decision and running one tool; the CEO may reply (a binding procedural memory)."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel, Field

from engine.economy import runway_text
from engine.models import GameState, Receipt, StandupTurn
from engine.routing import Router, RouteRequest, RouteResult
from engine.text import clip
from memory.scrub import scrub


class StandupLine(BaseModel):
    line: str = Field(description="one spoken line, at most 40 words")


OPENERS = {
    "recall_memory": "Memory says {result}; so for us, {decision} means",
    "watch_burn": "Burn check: {result}. With '{decision}',",
    "search_knowledge": "The playbook ({result}) agrees: after '{decision}',",
}
CLOSERS = [
    "we cut anything that does not serve {customer}.",
    "I will re-plan my next deliverable around it today.",
    "the next brief carries it as binding direction.",
    "I will flag any drift at the next gate.",
]


def speakers(state: GameState, stage_id: str) -> list[tuple[str, str]]:
    """Three distinct workers: the one who just shipped, the next owner, then whoever is left."""
    decided = next(i for i, s in enumerate(state.stages) if s.id == stage_id)
    order = [state.stages[decided].worker_id]
    if decided + 1 < len(state.stages):
        order.append(state.stages[decided + 1].worker_id)
    order += ["strategy_lead", "growth_marketer", "retention_ops", "product_builder"]
    by_id = {w.id: w for w in state.org if w.active}
    seen: list[tuple[str, str]] = []
    for wid in order:
        if wid in by_id and wid not in [s for s, _ in seen]:
            seen.append((wid, by_id[wid].title))
    return seen[:3]


def run_standup(state: GameState, receipt: Receipt, *, router: Router, memory: Any,
                knowledge: Any) -> tuple[list[StandupTurn], list[RouteResult]]:
    turns: list[StandupTurn] = []
    results: list[RouteResult] = []
    tools = ("recall_memory", "watch_burn", "search_knowledge")
    for i, (wid, title) in enumerate(speakers(state, receipt.stage_id)):
        tool = tools[i % 3]
        if tool == "recall_memory":
            r = memory.recall(receipt.decided, game_day=state.day, budget_tokens=200)
            result = f"{len(r.items)} notes recalled"
        elif tool == "watch_burn":
            e = state.economics
            result = f"burn ${e.monthly_burn_usd:,.0f}/mo, {runway_text(e)}"
        else:
            hits = knowledge.search(receipt.principle, top_k=1)
            result = hits[0].source if hits else "no playbook hit"
        rng = random.Random(f"{state.seed}:standup:{receipt.stage_id}:{i}")
        decision = clip(receipt.decided, 80)

        def simulate(tool=tool, result=result, rng=rng, decision=decision) -> StandupLine:
            opener = OPENERS[tool].format(result=result, decision=decision)
            return StandupLine(line=f"{opener} {rng.choice(CLOSERS).format(customer=state.founder.customer)}")

        prior = "\n".join(f"{t.speaker}: {t.line}" for t in turns) or "(you speak first)"
        res = router.call(RouteRequest(
            role="npc", call_key=f"{receipt.stage_id}/standup-{i}", max_output_tokens=200,
            system=(f"You are {title} at {state.founder.company}, speaking at a standup. One line, "
                    "at most 40 words, reacting to the CEO's decision. Answer as JSON {\"line\": …}."),
            user=f"CEO decision: {receipt.decided}\nYour tool {tool}: {result}\nEarlier turns:\n{prior}",
            schema_model=StandupLine), simulate)
        line = clip(" ".join(scrub(str(res.output.line)).split()), 320)  # type: ignore[attr-defined]
        turns.append(StandupTurn(speaker=title, role=wid, line=line, tool=tool, tool_result=result,
                                 served_by=res.served_by))
        results.append(res)
    return turns, results
