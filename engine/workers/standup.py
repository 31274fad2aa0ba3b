"""The standup after each fork: three workers speak in turn, each reading the prior turns and the
CEO's last decision and running one tool; the CEO may reply (a binding procedural memory)."""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from engine.game.economy import runway_text
from engine.game.models import GameState, Receipt, StandupTurn
from engine.game.rules import RULES, decided_words
from engine.language.fence import DATA_RULE, data_block
from engine.language.grammar import count
from engine.routing import Router, RouteRequest, RouteResult
from engine.writing.phrases import Voice
from worldforge_textkit import clip
from worldforge_textkit.numbers import in_books, money
from worldforge_textkit.scrub import scrub

if TYPE_CHECKING:
    from pydantic import BaseModel

    from knowledge import Knowledge
    from memory.contract import MemoryBackend


@functools.cache
def line_contract() -> type[BaseModel]:
    """A model's standup answer, `StandupLine` (pydantic, built only when a model is asked)."""
    from pydantic import BaseModel, Field

    class StandupLine(BaseModel):
        line: str = Field(description="one spoken line, at most 40 words")

    return StandupLine


# The simulated workers' lines, per tool (hand-written fragments; engine.writing.phrases fills them).
LINES = {
    "recall_memory": (
        (
            "I went back over our {notes}; the newest is your call to {decision}, so the "
            "{next_beat} work drops what does not serve {customer}."
        ),
        (
            "Our {notes} agree with you: we {decision}, and in the {next_beat} work I will say no "
            "to anything that pulls us away from {customer}."
        ),
        (
            "Reading our {notes} again, {rival} keeps coming up; we {decision} and let them chase "
            "the rest while the {next_beat} work starts."
        ),
    ),
    "watch_burn": (
        "Burn is {burn} a month and we have {runway}; {decision_cost}",
        "At {burn} a month we have {runway}. {decision_cost}",
        "{cap_runway} at {burn} a month; {decision_cost}",
    ),
    "search_knowledge": (
        "For {customer}, the playbook on {topic} backs this: {advice}",
        "Our playbook on {topic} says much the same for {customer}: {advice}",
        "I checked the playbook on {topic} before the {next_beat} work with {customer}: {advice}",
    ),
    # the playbook had nothing on this decision: said plainly, never as a topic
    "search_knowledge_miss": (
        (
            "The playbook says nothing on this for {customer} yet, so the {next_beat} work keeps "
            "to what we can prove."
        ),
        "Nothing in our playbook covers this call; for {customer} we keep to what we can prove.",
    ),
}
COSTS = (
    "I will keep the {next_beat} plan for {customer} inside that.",
    "every new cost in the {next_beat} work for {customer} has to pay for itself.",
    "the {next_beat} work for {customer} starts with what we can afford.",
)


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


def _slots(state: GameState, receipt: Receipt) -> dict[str, str]:
    e = state.economics
    decided = decided_words(receipt.rule_id) or f"go with “{clip(receipt.decided, 80)}”"
    nxt = next((s for s in state.stages if s.status == "pending"), None)
    months = f"{e.runway_months:.1f}".rstrip("0").rstrip(".")
    runway = (
        "no end to the runway (profitable)"
        if e.profitable
        else f"{months} month{'' if months == '1' else 's'} of runway"
    )
    return {
        "decision": decided,
        "customer": state.niche or state.founder.customer,
        "rival": state.antagonist.name,
        "burn": money(e.monthly_burn_usd),
        "runway": runway,
        "cap_runway": runway[:1].upper() + runway[1:],
        "next_beat": nxt.beat if nxt else "final",
        "notes": "notes",
        "topic": "the wedge",
        "advice": "keep to what we can prove.",
    }


# A section titled as an order reads as a topic by its -ing form: "the playbook on map the
# field" (played) is "the playbook on mapping the field".
_ORDER_TOPIC = {"Map": "Mapping"}


def _topic(title: str) -> str:
    """'Rivals and Competitive Pressure / Staying calm under pressure' -> 'staying calm under
    pressure' (a playbook's section, never its file path); 'Map the field' -> 'mapping the
    field'."""
    part = title.split("/")[-1].strip()
    head, _, rest = part.partition(" ")
    part = f"{_ORDER_TOPIC[head]} {rest}" if head in _ORDER_TOPIC and rest else part
    return part[:1].lower() + part[1:] if part[1:2].islower() else part


def _parts(text: str) -> list[str]:
    """A playbook section's sentences and list items, in order."""
    cut = re.split(r"(?<=[.!?;])\s+(?=[A-Z])|\s*(?:^|\s)[-*•]\s+", " ".join(text.split()))
    return [p.strip() for p in cut if p.strip()]


def _advice(text: str, opening: str) -> str:
    """The sentence or list item of the section that the rule's record names by its opening
    words ("Pricing follows position | A position as the cheaper …"): advice that fits the
    decision, never the section's first line whatever the option was."""
    first = next((p for p in _parts(text) if p.startswith(opening)), "")
    first = clip(first.rstrip(";") + ("" if first.endswith((".", "!", "?")) else "."), 160)
    head = first.split(" ", 1)[0]
    lower = head[1:].islower() or (len(head) == 1 and head != "I")
    return first[:1].lower() + first[1:] if lower else first


def run_standup(
    state: GameState,
    receipt: Receipt,
    *,
    router: Router,
    memory: MemoryBackend,
    knowledge: Knowledge,
) -> tuple[list[StandupTurn], list[RouteResult]]:
    turns: list[StandupTurn] = []
    results: list[RouteResult] = []
    tools = ("recall_memory", "watch_burn", "search_knowledge")
    for i, (wid, title) in enumerate(speakers(state, receipt.stage_id)):
        tool = tools[i % 3]
        tool_lines = tool
        slots = _slots(state, receipt)
        if tool == "recall_memory":
            n = len(memory.recall(receipt.decided, game_day=state.day, budget_tokens=200).items)
            result = f"{count(n, 'note')} recalled"
            slots["notes"] = count(n, "note") if n != 1 else "one note"
        elif tool == "watch_burn":
            e = state.economics
            result = f"burn {money(e.monthly_burn_usd)} a month, {runway_text(e)}"
        else:
            rule = RULES.get(receipt.rule_id)
            section, _, opening = (rule.playbook if rule else "").partition(" | ")
            hit = knowledge.index.section(section) if section else None
            result = _topic(hit.title) if hit else "no playbook section"
            if hit:
                slots["topic"], slots["advice"] = result, _advice(in_books(hit.text), opening)
            else:
                tool_lines = "search_knowledge_miss"

        def simulate(
            tool: str = tool_lines, slots: dict[str, str] = slots, i: int = i
        ) -> dict[str, Any]:
            v = Voice(slots, f"{state.seed}:standup:{receipt.stage_id}:{i}")
            slots["decision_cost"] = v.pick("cost", COSTS)
            return {"line": v.pick("line", LINES[tool])}

        prior = "\n".join(f"{t.speaker}: {t.line}" for t in turns) or "(you speak first)"
        res = router.call(
            RouteRequest(
                role="npc",
                call_key=f"{receipt.stage_id}/standup-{i}",
                max_output_tokens=200,
                # Esc cancels the whole action: the decision before the standup is undone too
                on_cancel="raise",
                system=(
                    f"You are {title} at the company in the data block, speaking at a standup. One "
                    'line, at most 40 words, reacting to the CEO\'s decision. Answer as JSON {"line": '
                    "…}. " + DATA_RULE
                ),
                user=data_block(
                    "standup_data",
                    f"Company: {state.founder.company}\nCEO decision: {receipt.decided}\n"
                    f"Your tool {tool}: {result}\nEarlier turns:\n{prior}",
                ),
                contract=line_contract,
            ),
            simulate,
        )
        line = clip(" ".join(scrub(str(res.output["line"])).split()), 320)
        turns.append(
            StandupTurn(
                speaker=title,
                role=wid,
                line=line,
                tool=tool,
                tool_result=result,
                served_by=res.served_by,
            )
        )
        results.append(res)
    return turns, results
