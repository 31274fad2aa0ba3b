"""Workers: the brief (a context-provider step), the routed call, and the tools each worker runs.

Every tier goes through the same steps, so `tools_called` is honest on every tier: the worker recalls
memory, searches the playbooks, watches burn, and runs its validators on what it produced.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from engine.game import artifacts, flaws
from engine.game.adherence import applies
from engine.game.economy import burn_line
from engine.game.models import Directive, GameState, Stage, StageRun
from engine.game.rubric import evaluate
from engine.language.composition import audiences
from engine.language.directions import Binding, fold
from engine.language.fence import DATA_RULE, data_block, rewrap
from engine.language.grammar import count
from engine.routing import Router, RouteRequest, RouteResult
from engine.views.render import changes
from engine.workers.schema import compiled_schema, judge_for
from engine.writing.simulate import simulate_artifact
from worldforge_savedb.records import Record
from worldforge_textkit.json_types import JsonObject
from worldforge_textkit.numbers import in_books
from worldforge_textkit.scrub import scrub_obj

if TYPE_CHECKING:
    from knowledge import Knowledge
    from memory.contract import MemoryBackend
    from memory.models import MemoryRecord, RecallResult

T = TypeVar("T")

ROLE_BRIEF = {
    "strategist": "You are the company's strategist. Ship positioning with an org chart and Q1 OKRs.",
    "designer": "You are the company's product designer. Ship a landing-page spec for the MVP.",
    "marketer": "You are the company's growth marketer. Ship a launch email, costed channels and a plan.",
    "ops": "You are the company's operations lead. Ship retention loops, support flow and a plan.",
}
POLICY = (
    "The campaign_memory block is binding direction from the CEO: the artifact must carry every "
    "binding direction listed below in its fields (the named price is the price everywhere, the "
    "named audience is the audience, an excluded segment never appears), name the newest "
    "decision's rule id in follows_decision, and never contradict it. " + DATA_RULE
)


@dataclass(eq=False, repr=False)
class WorkerContext(Record):
    """What the context-provider step gathered for one brief."""

    memory_block: str
    memory_injected: list[JsonObject]
    knowledge_hits: list[JsonObject]
    burn_line: str
    tools: list[JsonObject]
    binding: Binding


def _tool(name: str, fn: Callable[[], T], summarise: Callable[[T], str]) -> tuple[T, JsonObject]:
    """Run one of the worker's read tools, and the line the brief's tools log keeps of it."""
    start = time.perf_counter()
    result = fn()
    return result, {
        "tool": name,
        "result": summarise(result),
        "ms": round((time.perf_counter() - start) * 1000, 2),
    }


def withheld(recall: RecallResult, ids: frozenset[str]) -> RecallResult:
    """The recall with some notes left out ("what if they forgot this?"): their lines leave the
    block and their items the list, so nothing of them reaches the brief."""
    if not ids:
        return recall
    keep = [r for r in recall.items if r.id not in ids]
    lines = [ln for ln in recall.block.splitlines() if not any(f"[{i}]" in ln for i in ids)]
    return replace(
        recall,
        items=keep,
        injected=[x for x in recall.injected if x.get("id") not in ids],
        block="\n".join(lines),
    )


def gather_context(
    state: GameState,
    stage: Stage,
    memory: MemoryBackend,
    knowledge: Knowledge,
    *,
    withhold: frozenset[str] = frozenset(),
) -> WorkerContext:
    """Run the worker's read tools and assemble the one labelled context section of its brief.
    `withhold` leaves named notes out of the recall (a counterfactual; the run never uses it)."""
    query = f"{stage.beat} {stage.goal} {state.founder.pitch}"
    recall, t1 = _tool(
        "recall_memory",
        lambda: withheld(memory.recall(query, game_day=state.day), withhold),
        lambda r: f"{count(len(r.items), 'memory')}, {r.tokens_used}/{r.budget} tokens",
    )
    hits, t2 = _tool(
        "search_knowledge",
        lambda: knowledge.search(stage.base_goal, top_k=2),
        lambda h: ", ".join(x.source for x in h) or "no hits",
    )
    burn, t3 = _tool("watch_burn", lambda: burn_line(state.economics), lambda s: s)
    return WorkerContext(
        memory_block=rewrap(recall.block, "campaign_memory"),
        memory_injected=list(recall.injected),
        knowledge_hits=[
            {
                "source": h.source,
                "title": h.title,
                "origin": h.origin,
                "score": round(h.score, 3),
                "text": in_books(h.text),  # the playbooks' dollars in the venture's currency
            }
            for h in hits
        ],
        burn_line=burn,
        tools=[t1, t2, t3],
        binding=fold([*recall.items, *binding_notes(memory, withhold)], stage_id=stage.id),
    )


def binding_notes(memory: MemoryBackend, withhold: frozenset[str]) -> list[MemoryRecord]:
    """Every live binding note of the run, read from memory at brief time (a binding note never
    falls out of the brief for lack of token budget; archived, superseded, forgotten or withheld
    notes never bind)."""
    live = memory.records(kinds=["procedural"], statuses=["provisional", "active"])
    return [r for r in live if r.id not in withhold and r.payload]


def binding_section(binding: Binding) -> str:
    """The brief's binding section, built only from recalled memory (withhold a note: its
    directions are gone from here and from the work)."""
    if binding.empty:
        return "## Binding directions\n- none recalled: no binding direction for this work"
    lines = [f"- {line}" for line in binding.lines()]
    if binding.rule_id:
        lines.append(f"- newest decision: {binding.rule_id}")
    return "## Binding directions (from recalled memory)\n" + "\n".join(lines)


def build_prompts(state: GameState, stage: Stage, ctx: WorkerContext) -> tuple[str, str]:
    """The worker's system and user prompts. The artifact's JSON Schema is the router's to add
    (engine.routing.prompts), only when a model is asked: the simulation tier never needs it."""
    f = state.founder
    knowledge = "\n".join(_knowledge_line(h) for h in ctx.knowledge_hits) or "- none"
    system = "\n\n".join(
        [
            ROLE_BRIEF[stage.owner_role],
            POLICY,
            "## Context (memory, knowledge, burn)\n"
            + ctx.memory_block
            + f"\n\nPlaybook hits:\n{knowledge}\n\nBurn watch: {ctx.burn_line}",
            data_block("binding_directions", binding_section(ctx.binding)),
        ]
    )
    user = data_block(
        "venture_data",
        f"Company: {f.company}\nPitch: {f.pitch}\nCustomer: {f.customer}\n"
        + "".join(
            f"{label}: {value}\n"
            for label, value in (
                ("Offering", f.offering),
                ("Place", f.place),
                ("Problem", f.problem),
            )
            if value  # what the CEO confirmed on the new-venture form
        )
        + f"Stage {stage.number} {stage.beat}: {stage.title}\nGoal: {stage.goal}\n"
        f"Success metric: {stage.success_metric}\nRival: {state.antagonist.name}",
    )
    return system, user


def _knowledge_line(hit: JsonObject) -> str:
    return f"- [{hit['source']}] {hit['text'][:400]}"


def recalled_lines(ctx: WorkerContext) -> tuple[str, ...]:
    """The brief's lines a model with a small context window can do without, least important
    first: the playbook hits (the weaker first), then the recalled notes that bind nothing (the
    lowest ranked first). Binding decisions, the venture and the stage are never among them."""
    notes = ctx.memory_block.splitlines()
    recalled = [_knowledge_line(h) for h in reversed(ctx.knowledge_hits)]
    for item in reversed(ctx.memory_injected):
        if item.get("kind") == "procedural":
            continue  # a binding decision: it stays in the brief
        line = next((ln for ln in notes if f"[{item.get('id')}]" in ln), None)
        if line:
            recalled.append(line)
    return tuple(recalled)


def thread(state: GameState) -> dict[str, str]:
    """What the workers remember of the venture so far: the rival, its last move, the niche."""
    t = {"rival": state.antagonist.name}
    if state.moves:
        t["move"] = state.moves[-1].title.split("answers", 1)[-1].strip(" '") or "a move"
    if state.niche:
        t["niche"] = state.niche
    return t


def run_worker(
    state: GameState,
    stage: Stage,
    *,
    attempt: int,
    router: Router,
    memory: MemoryBackend,
    knowledge: Knowledge,
    directive: Directive | None,
    withhold: frozenset[str] = frozenset(),
) -> tuple[StageRun, RouteResult]:
    """Brief, call and score one attempt at a stage. Pure with respect to game state.
    `withhold` runs the counterfactual brief without some notes (bench, `replay --without`)."""
    role = stage.owner_role
    ctx = gather_context(state, stage, memory, knowledge, withhold=withhold)
    system, user = build_prompts(state, stage, ctx)

    previous = state.rejected if attempt > 1 else None
    binding = ctx.binding
    # the counterfactual without a note is written in the run's own voice (its picks follow the
    # standing decision the run had), so `replay --without` shows what the note shaped, not a
    # rewording of every line
    pool = gather_context(state, stage, memory, knowledge).binding if withhold else binding
    flaw = flaws.draw(state, stage, attempt, bound=bool(binding.directions))
    faithful = partial(
        simulate_artifact,
        role,
        founder=state.founder,
        stage=stage,
        binding=binding,
        economics=state.economics,
        seed=state.seed,
        attempt=attempt,
        thread=thread(state),
        steer=pool.rule_id or "pitch",
    )  # the simulated work as it would follow every direction, without a flaw
    drift = None
    if flaw == "ignores_decision":
        probe = faithful()
        # the counterfactual without a note keeps the run's own mistake: the direction the run
        # broke, drawn from its whole binding, unless it is the withheld note's (then none), so
        # `replay --without` changes only what the note shaped
        target = flaws.drift_target(
            state, stage, [d for d in pool.directions if applies(role, d, probe)]
        )
        drift = None if target is None or target.memory_id in withhold else target

    def simulate() -> JsonObject:
        return faithful(drift=drift, flaw=flaw, previous=previous)

    result = router.call(
        RouteRequest(
            role=role,
            system=system,
            user=user,
            contract=partial(artifacts.model, role),
            call_key=f"{stage.id}/attempt-{attempt}",
            bound_schema=lambda: compiled_schema(role, artifacts.model(role), binding.directions),
            judge=judge_for(role, binding.directions, (state.antagonist.name,)),
            recalled=recalled_lines(ctx),
        ),
        simulate,
    )
    artifact = scrub_obj(result.output)  # a secret never enters game state
    rubric, t4 = _tool(
        "run_validators",
        lambda: evaluate(
            role,
            artifact,
            goal=stage.goal,
            founder_keywords=state.founder.keywords,
            binding=binding,
            validated=True,  # the router validated a model's answer; the simulation's is ours
            customer=audiences(binding.directions) or state.founder.customer,
            rivals=(state.antagonist.name,),
        ),
        lambda r: (
            f"score={r.final} checks {sum(r.checks.values())}/{len(r.checks)}"
            + (f" {r.violations[0]['line']}" if r.violations else " DRIFT" if r.drift else "")
        ),
    )
    run = StageRun(
        stage_id=stage.id,
        attempt=attempt,
        worker_id=stage.worker_id,
        worker_title=stage.worker_title,
        role=role,
        artifact=artifact,
        rubric=rubric,
        served_by=result.served_by,
        model=result.model,
        fallback_reason=result.fallback_reason,
        memory_injected=ctx.memory_injected,
        memory_block=ctx.memory_block,
        knowledge_hits=ctx.knowledge_hits,
        tools_called=[*ctx.tools, t4],
        directive=directive,
        changes=changes(previous, artifact),
        binding=[d.to_dict() for d in binding.directions],
    )
    return run, result
