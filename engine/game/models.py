"""The game's records: company economics, org, stages, dilemmas, receipts, outcome, state.

Plain stdlib dataclasses (keyword-only, so fields keep the saved JSON's order whatever their
defaults): the engine builds and trusts them, and building them costs no pydantic import on the
headless path. Untrusted JSON (a save read from disk) is validated into them at the boundary
(`engine.session.saves`, pydantic's TypeAdapter, imported there only). `==` and `repr` come
from `worldforge_savedb.records.Record`, as `@dataclass` would write them."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

from engine.game import ARCHETYPES as ARCHETYPES  # re-exported: the game's one list
from worldforge_savedb.records import Record
from worldforge_textkit.json_types import JsonObject

if TYPE_CHECKING:
    from engine.language.pitch import PitchReading

Archetype = Literal["builder", "seller", "designer", "operator"]
OwnerRole = Literal["strategist", "designer", "marketer", "ops"]
Phase = Literal["brief", "gate", "fork", "ended"]
StageStatus = Literal["pending", "active", "approved", "decided"]
Hint = Literal["reasoning", "creative", "fast", "human"]  # how a worker's calls are routed
WorkerKind = Literal["human", "digital_worker", "hybrid"]


def _float_fields(record: Any) -> None:
    """A whole number given to a `float` field is stored as a float (40 → 40.0), as the models did
    when they were pydantic's: the saved JSON and event payloads keep reading `40.0`."""
    for f in fields(record):
        if f.type == "float" and type(getattr(record, f.name)) is int:
            setattr(record, f.name, float(getattr(record, f.name)))


@dataclass(kw_only=True, eq=False, repr=False)
class Economics(Record):
    """The company's numbers. Money in USD; meters 0–100; runway derived from treasury and net burn."""

    treasury_usd: float
    monthly_burn_usd: float
    monthly_revenue_usd: float = 0.0
    market_share: float = 0.0
    addressable_market_usd: float
    arpu_usd: float = 220.0
    paying_customers: int = 0
    runway_months: float = 0.0
    proof: float
    trust: float
    velocity: float
    burn_pressure: float
    autonomy: float
    threat: float = 10.0
    overhead_usd: float = 0.0  # non-payroll monthly costs (supplier contracts), part of the burn

    def __post_init__(self) -> None:
        _float_fields(self)

    def numbers(self) -> dict[str, float]:
        return {f.name: float(getattr(self, f.name)) for f in fields(self)}

    @property
    def profitable(self) -> bool:
        """Revenue covers burn: there is no runway to count down."""
        return self.monthly_revenue_usd >= self.monthly_burn_usd

    def shown(self) -> dict[str, float | bool | None]:
        """The numbers as every output shows them (JSON, report card, event payloads): a
        profitable company has no runway (`runway_months` null) and says `profitable: true`."""
        out: dict[str, float | bool | None] = dict(self.numbers())
        if self.profitable:
            out["runway_months"] = None
        out["profitable"] = self.profitable
        return out


@dataclass(kw_only=True, eq=False, repr=False)
class Worker(Record):
    """One worker of the org: its role, lifecycle, how it thinks and its monthly cost."""

    id: str
    title: str
    kind: WorkerKind = "digital_worker"
    lifecycle: str
    hint: Hint = "reasoning"
    monthly_cost_usd: float
    reports_to: str | None = None
    spawned_by: str | None = None  # rule id that added this role
    active: bool = True

    def __post_init__(self) -> None:
        _float_fields(self)


@dataclass(kw_only=True, eq=False, repr=False)
class OrgDelta(Record):
    """How a decision changed the org: the role it added or removed, the monthly cost."""

    added_role_id: str | None = None
    added_role_title: str | None = None
    monthly_cost_usd: float = 0.0
    removed_role_id: str | None = None
    removed_role_title: str | None = None

    def __post_init__(self) -> None:
        _float_fields(self)


@dataclass(kw_only=True, eq=False, repr=False)
class Stage(Record):
    """One chapter of the venture: its goal, the worker who ships it and how it went."""

    id: str
    beat: str
    number: int
    title: str
    base_goal: str
    goal: str
    success_metric: str
    owner_role: OwnerRole
    worker_id: str
    worker_title: str
    handover: str = ""  # why another role's worker ships it this venture (engine.game.world)
    status: StageStatus = "pending"
    score: int | None = None
    drift: bool = False
    redos: int = 0
    decision: StageDecision | None = None


@dataclass(kw_only=True, eq=False, repr=False)
class StageDecision(Record):
    """The CEO's answer at a stage's fork: rule, option, how an own answer was read."""

    rule_id: str
    option: str  # "A", "B" or "own"
    text: str
    interpreted: JsonObject | None = (
        None  # how an own answer was read (engine.language.reader.pick)
    )
    variant: str = ""  # the dilemma it answered (engine/game/dilemmas.py DECK)
    title: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class Option(Record):
    """One of a fork's two choices: its text, trade-off, rule and shown effect."""

    key: Literal["A", "B"]
    text: str
    tradeoff: str
    rule_id: str
    effect_line: str = ""
    hint: str = ""  # what the size of the effect depends on, e.g. "revenue grows with trust"
    archetype: str | None = None  # set when only this founder archetype gets the option
    binds: str = ""  # what choosing it binds the next worker to, in words ("price $10 a walk")
    later: str = ""  # what it does later, and when ("at stage 6 (Take): trust -6")
    # what choosing it does to a later option (a later rule's `after` names it), from that record:
    # "makes TAKE's 'automate the support path …' dearer: the bots meet its bugs"
    ahead: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class Dilemma(Record):
    """The fork the CEO faces after a stage: the question and its two options."""

    stage_id: str
    title: str
    axis: str
    prompt: str
    options: list[Option]
    family: str = ""
    variant: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class Directive(Record):
    """The newest binding decision: what the next artifact must visibly follow."""

    memory_id: str | None = None
    source: Literal["decision", "rejection", "standup", "founding"]
    rule_id: str | None = None
    text: str
    keywords: list[str] = field(default_factory=list)
    stage_id: str | None = None
    game_day: int = 0
    reading: JsonObject | None = None  # what a rejection or reply asks to change
    standing_text: str | None = None  # the fork decision that stays binding under it


@dataclass(kw_only=True, eq=False, repr=False)
class Rubric(Record):
    """The gate's verdict on one artifact: dimensions, checks, compliance, final score."""

    dimensions: dict[str, int]
    checks: dict[str, bool]
    floor: int
    compliance: int
    drift: bool
    final: int
    notes: list[str] = field(default_factory=list)
    flaws: list[dict[str, str]] = field(default_factory=list)  # {kind, note} in plain words
    # recalled directions the artifact broke: {axis, direction, did, memory_id, line}
    violations: list[JsonObject] = field(default_factory=list)


@dataclass(kw_only=True, eq=False, repr=False)
class StageRun(Record):
    """What one worker run produced (an attempt at a stage)."""

    stage_id: str
    attempt: int
    worker_id: str
    worker_title: str
    role: OwnerRole
    artifact: JsonObject
    rubric: Rubric
    served_by: str
    model: str
    fallback_reason: str | None = None
    memory_injected: list[JsonObject] = field(default_factory=list)
    memory_block: str = ""
    knowledge_hits: list[JsonObject] = field(default_factory=list)
    tools_called: list[JsonObject] = field(default_factory=list)
    memory_dispositions: list[JsonObject] = field(default_factory=list)
    directive: Directive | None = None
    changes: list[str] = field(default_factory=list)  # what changed since the rejected attempt
    binding: list[JsonObject] = field(default_factory=list)  # the recalled directions


@dataclass(kw_only=True, eq=False, repr=False)
class Receipt(Record):
    """What one decision did: economics before and after, org change, memory written."""

    stage_id: str
    rule_id: str
    option: str
    decided: str
    summary: str
    principle: str
    economics_delta: dict[str, float | None]
    before: Economics
    after: Economics
    org_delta: OrgDelta
    memory_written: list[JsonObject] = field(default_factory=list)
    next_brief: dict[str, str] | None = None
    matched_by: str = "option"
    notes: list[str] = field(default_factory=list)  # standing orders and costs that came due
    effect_line: str = ""  # the same line the option showed before the choice
    later: str = ""  # its later effect, as the option showed it (engine.game.pending)


@dataclass(kw_only=True, eq=False, repr=False)
class StandupTurn(Record):
    """One line of a stand-up: who spoke, the tool they used and what it returned."""

    speaker: str
    role: str
    line: str
    tool: str
    tool_result: str
    served_by: str = "simulation"


@dataclass(kw_only=True, eq=False, repr=False)
class Antagonist(Record):
    """The rival company: its name, archetype, org and the customer it goes after."""

    name: str
    archetype: str
    tagline: str
    org: list[str]
    target_customer: str
    personality: str = "steady"
    personality_text: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class AntagonistMove(Record):
    """One move of the rival: the metric it pressed, by how much, and why."""

    day: int
    stage_id: str
    title: str
    pressure_type: str
    target_metric: str
    threat_delta: float
    narrative: str
    metric_delta: float = 0.0  # how far the named metric moved
    reaction: str = ""  # which of your choices the rival punished, if any

    def __post_init__(self) -> None:
        _float_fields(self)


@dataclass(kw_only=True, eq=False, repr=False)
class EventChoice(Record):
    """One of a world event's two small choices."""

    key: Literal["A", "B"]
    text: str
    effect_line: str = ""


@dataclass(kw_only=True, eq=False, repr=False)
class WorldEvent(Record):
    """A seeded happening between stages: a visible consequence, sometimes a small choice."""

    kind: str
    title: str
    text: str
    after_stage: str
    day: int
    effect_line: str = ""
    applied: dict[str, float] = field(default_factory=dict)
    options: list[EventChoice] = field(default_factory=list)
    default: Literal["A", "B"] | None = None
    choice: str | None = None


@dataclass(kw_only=True, eq=False, repr=False)
class Reshape(Record):
    """A change to the venture's sequence of stages (engine.game.shape): a stage added after a
    fork, with its own fork, or a stage still to come skipped; the board says why."""

    kind: str
    after_stage: str  # the stage whose fork it followed
    day: int
    stage_id: str  # the stage added or skipped
    beat: str
    number: int  # the added stage's number, or the skipped stage's number before it went
    line: str  # what the board shows ("Stage 6 added: …", "TAKE skipped: …")


@dataclass(kw_only=True, eq=False, repr=False)
class Outcome(Record):
    """How the venture ended: victory or defeat, why, the day, its ending and score."""

    result: Literal["victory", "defeat"]
    reason: str
    day: int
    ending: str = ""  # the ending's id (engine/game/endings.py)
    title: str = ""
    score: int = 0  # 0-100 from the final company
    grade: str = ""
    stage: int = 0  # the stage (1-8) the venture ended in


@dataclass(kw_only=True, eq=False, repr=False)
class Founder(Record):
    """The venture as founded: CEO, company, pitch, archetype and customer."""

    name: str
    company: str
    pitch: str
    archetype: Archetype
    customer: str
    keywords: list[str]
    # what the player confirmed on the new-venture form beside the customer ("" = as read)
    offering: str = ""
    place: str = ""
    problem: str = ""
    currency: str = "USD"  # the books' currency (USD, GBP, EUR); a save from before it is USD

    def reading(self) -> PitchReading:
        """The pitch as the workers write about it: its reading, with the confirmed fields."""
        from engine.language.pitch import confirmed, read_pitch

        return confirmed(
            read_pitch(self.pitch),
            customer=self.customer,
            offering=self.offering,
            place=self.place,
            problem=self.problem,
        )


@dataclass(kw_only=True, eq=False, repr=False)
class GameState(Record):
    """The whole persisted state of one run (saved as JSON after every command)."""

    rules_version: int = 1  # saves made before the rules-as-dilemma-deck game carry 1
    run_id: str
    seed: int
    founder: Founder
    day: int = 0
    phase: Phase = "brief"
    stage_index: int = 0
    stages: list[Stage]
    org: list[Worker]
    economics: Economics
    antagonist: Antagonist
    moves: list[AntagonistMove] = field(default_factory=list)
    current: StageRun | None = None
    dilemma: Dilemma | None = None
    receipts: list[Receipt] = field(default_factory=list)
    standup: list[StandupTurn] = field(default_factory=list)
    standup_answered: bool = False
    directive: Directive | None = None
    flags: list[str] = field(default_factory=list)
    history: list[tuple[int, float]] = field(default_factory=list)  # (day, treasury)
    outcome: Outcome | None = None
    niche: str | None = None  # the customer the CEO narrowed to ("focus on X")
    orders: list[JsonObject] = field(default_factory=list)  # standing orders from a reply
    planted: list[JsonObject] = field(default_factory=list)  # approved flaws not yet due
    pending: list[JsonObject] = field(default_factory=list)  # decisions' later effects
    rejected: JsonObject | None = None  # the last rejected artifact (a redo starts from it)
    world_events: list[WorldEvent] = field(default_factory=list)
    pending_event: WorldEvent | None = None  # an event whose small choice waits for the CEO
    reshaped: list[Reshape] = field(default_factory=list)  # stages added or skipped (shape.py)

    @property
    def stage(self) -> Stage | None:
        return self.stages[self.stage_index] if self.stage_index < len(self.stages) else None
