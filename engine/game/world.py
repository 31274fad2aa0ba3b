"""The world: the eight stages, who owns them, who ships them this venture (a handover), stage
references, and adaptation after decisions."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.errors import InputError
from engine.game.economy import meter_shown
from engine.game.models import Economics, GameState, OwnerRole, Stage, Worker
from engine.language.grammar import count
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit.numbers import money, months_said

# id, beat, title, goal, success metric, owner role
StageRow = tuple[str, str, str, str, str, str]
STAGE_TABLE: list[StageRow] = [
    (
        "stage_1_you",
        "YOU",
        "The Skills You Already Have",
        "Name the founder's lived skills, constraints and unfair advantages",
        "Three founder assets and three constraints, each with evidence",
        "strategist",
    ),
    (
        "stage_2_need",
        "NEED",
        "The Need Nobody Meets",
        "Identify the unmet customer need and the core trade-off behind it",
        "Ten urgent needs validated and one core trade-off named",
        "strategist",
    ),
    (
        "stage_3_go",
        "GO",
        "Crossing Into the Market",
        "Position the promise against the rival's market logic",
        "One sharp positioning statement and an ideal-customer wedge",
        "strategist",
    ),
    (
        "stage_4_search",
        "SEARCH",
        "Building the First Loop",
        "Specify a low-overhead MVP landing page and the first digital-worker templates",
        "A working prototype loop with a first paying signal",
        "designer",
    ),
    (
        "stage_5_find",
        "FIND",
        "The Traction Signal",
        "Choose adoption channels and a proof the rival cannot fake",
        "Three reachable channels and one proof-backed launch motion",
        "marketer",
    ),
    (
        "stage_6_take",
        "TAKE",
        "The Operating Toll",
        "Account for burn, support load and rivalry",
        "A runway and support plan that keeps trust above 80 percent",
        "ops",
    ),
    (
        "stage_7_return",
        "RETURN",
        "Bringing the Loop Home",
        "Return the system to its community, workforce and governance",
        "A worker-owned operating cadence and a stakeholder ledger",
        "ops",
    ),
    (
        "stage_8_change",
        "CHANGE",
        "The Ownership Question",
        "Settle growth capital against cooperative ownership",
        "A decision the community and the team both sign",
        "ops",
    ),
]
# The stages a venture may gain after a fork (engine.game.shape), each with a fork of its own
# (engine.game.dilemmas.DECK); not in every venture, so never in STAGE_IDS.
ADDED_TABLE: list[StageRow] = [
    (
        "stage_x_bridge",
        "BRIDGE",
        "Bridging the Gap",
        "Find the months the plan still needs before the cash runs out",
        "Runway for the rest of the plan from a named source",
        "ops",
    ),
    (
        "stage_x_hold",
        "HOLD",
        "Holding the Wedge",
        "Keep the first customers the rival is raiding",
        "The first customers kept and the wedge defended",
        "marketer",
    ),
]
ADDED_BY_ID = {row[0]: row for row in ADDED_TABLE}
OWNER_WORKER = {
    "strategist": "strategy_lead",
    "designer": "product_builder",
    "marketer": "growth_marketer",
    "ops": "retention_ops",
}
STAGE_IDS = [row[0] for row in STAGE_TABLE]


@dataclass(frozen=True, eq=False, repr=False)
class Handover(FrozenRecord):
    """A venture's shape: the stage's usual worker is gone by then, and the worker of `role` ships
    it (its artifact contract and its weight in the stage's outcome are that role's), for the
    reason the board shows from day 0."""

    stage_id: str
    role: OwnerRole
    why: str


HANDOVERS: tuple[Handover, ...] = (
    Handover(
        "stage_3_go",
        "marketer",
        "The Strategy Lead is lent to a partner bid for GO; the Growth Marketer positions it.",
    ),
    Handover(
        "stage_4_search",
        "strategist",
        "The Product Builder is hired away before SEARCH; the Strategy Lead specifies the MVP.",
    ),
    Handover(
        "stage_5_find",
        "designer",
        "The Growth Marketer quits before FIND; the Product Builder runs the launch.",
    ),
    Handover(
        "stage_6_take",
        "marketer",
        "The Retention & Ops Worker is out for TAKE; the Growth Marketer carries support.",
    ),
    Handover(
        "stage_7_return",
        "strategist",
        "The Retention & Ops Worker moves to support full time; the Strategy Lead ships RETURN.",
    ),
)
HANDOVER_CHANCE = 0.6  # the share of ventures in which one worker leaves and another ships


def handover_for(seed: int, archetype: str) -> Handover | None:
    """The venture's handover (or none), drawn from its seed and founder archetype."""
    rng = random.Random(f"{seed}:{archetype}:handover")
    if rng.random() >= HANDOVER_CHANCE:
        return None
    return HANDOVERS[rng.randrange(len(HANDOVERS))]


def build_stages(
    org: list[Worker], handover: Handover | None = None, company: str = ""
) -> list[Stage]:
    """The eight stages, each owned by its role's worker (or, with a handover, the stand-in
    role's); a goal names the company it is for until the first fork adapts it (adapt_pending)."""
    by_id = {w.id: w for w in org}
    stages = []
    for n, (sid, beat, title, goal, metric, usual) in enumerate(STAGE_TABLE, start=1):
        moved = handover is not None and handover.stage_id == sid
        role = handover.role if handover is not None and moved else usual
        worker = by_id[OWNER_WORKER[role]]
        stages.append(
            Stage(
                id=sid,
                beat=beat,
                number=n,
                title=title,
                base_goal=goal,
                goal=f"{goal} for {company}" if company else goal,
                success_metric=metric,
                owner_role=role,  # type: ignore[arg-type]
                worker_id=worker.id,
                worker_title=worker.title,
                handover=handover.why if handover is not None and moved else "",
            )
        )
    return stages


def resolve_stage(ref: str) -> str:
    """A stage named by id (`stage_2_need`), beat (`NEED`, any case) or number (`2`: of the
    eight every venture has); a stage some ventures add by id or beat (`HOLD`)."""
    key = ref.strip().lower()
    for n, (sid, beat, *_rest) in enumerate(STAGE_TABLE, start=1):
        if key in (sid, beat.lower(), str(n)):
            return sid
    for sid, beat, *_rest in ADDED_TABLE:
        if key in (sid, beat.lower()):
            return sid
    raise InputError(
        f"unknown stage {ref[:40]!r} (use 1-8, a beat like NEED, or an id like stage_2_need)"
    )


def pressure(econ: Economics) -> str:
    """The pressure the company is under, the first that applies (a key of LENS)."""
    if econ.runway_months <= 0.8:
        return "runway"
    if econ.burn_pressure >= 70:
        return "strain"
    if econ.trust <= 30:
        return "trust"
    if econ.threat >= 60:
        return "threat"
    if econ.proof >= 70:
        return "proof"
    return "hold"


LENS = {
    "runway": "With runway tight, favour moves that pay for themselves quickly",
    "strain": "With the team stretched, favour moves that ease the load",
    "trust": "With trust thin, lead with proof customers can check",
    "threat": "With the rival pressing, defend the wedge before widening it",
    "proof": "With proof in hand, turn it into repeatable scale",
    "hold": "Hold the current advantage",
}


def pressure_lens(econ: Economics) -> str:
    return LENS[pressure(econ)]


def standing(state: GameState) -> str:
    """The company's own numbers behind its pressure, as the goal ends with them ("0.7 months of
    runway left at Meal Kits Co"): the goal names this venture, not only the pressure every venture
    under it shares. Said after the goal's words, so the rubric's targets (its first content
    words) stay the lens's and the goal's."""
    econ = state.economics
    key = pressure(econ)
    if key == "runway":
        return f"{months_said(econ.runway_months)} of runway left at {state.founder.company}"
    if key in ("strain", "trust", "proof"):
        field = "burn_pressure" if key == "strain" else key
        return f"{key} at {meter_shown(field, getattr(econ, field))}/100"
    if key == "threat":
        return f"{state.antagonist.name} at threat {meter_shown('threat', econ.threat)}/100"
    customers = count(round(econ.paying_customers), "paying customer")
    return f"{customers} and {money(econ.monthly_revenue_usd)} a month to hold"


def adapt_pending(state: GameState) -> list[str]:
    """Rewrite the goals of stages not yet begun around the company's pressure, ending with the
    numbers behind it. The CEO's calls are not written into goals: they reach a worker only as
    directions recalled from memory, so a forgotten or withheld note stops binding (the goal is
    game state, which memory cannot forget)."""
    adapted = []
    for stage in state.stages[state.stage_index + 1 :]:
        stage.goal = goal_for(state, stage)
        adapted.append(stage.id)
    return adapted


def restate_goal(state: GameState) -> None:
    """The goal of the stage about to begin, with the numbers an event between stages just moved:
    adapted at the fork, it read "0.8 months of runway left" beside a standup's "0.6 months"
    after a tax bill landed (played)."""
    if 0 < state.stage_index < len(state.stages):
        stage = state.stages[state.stage_index]
        if stage.status == "pending":
            stage.goal = goal_for(state, stage)


def goal_for(state: GameState, stage: Stage) -> str:
    """A stage's goal around the company's pressure now, ending with the numbers behind it."""
    lens, why = pressure_lens(state.economics), standing(state)
    return f"{lens}: {stage.base_goal[0].lower()}{stage.base_goal[1:]} ({why})."
