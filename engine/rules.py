"""The consequence rules as data, and the one function that applies a rule to the company.

A rule is a row: adding a rule is adding a row (and a test). Deltas are in meter points; revenue
deltas become market share; each rule may add a role and may consolidate (retire) one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.economy import ROLE_COST_BY_LIFECYCLE, recompute, sync_burn
from engine.models import Economics, GameState, OrgDelta, Worker
from engine.text import has_phrase, slug

DELTA_FIELDS = ("proof", "trust", "velocity", "burn_pressure", "autonomy")
CONSOLIDATION_DIVIDEND = {"proof": 4.0, "velocity": 3.0, "autonomy": 2.0}


@dataclass(frozen=True)
class Rule:
    id: str
    axis: str
    keywords: tuple[str, ...]
    delta: tuple[float, float, float, float, float]  # proof, trust, velocity, burn_pressure, autonomy
    revenue_delta: float
    consolidates: bool
    role_title: str
    role_lifecycle: str
    role_hint: str
    role_kind: str
    summary: str
    principle: str
    pressure_type: str
    pressure_metric: str
    threat: float
    flag: str | None = None
    tags: tuple[str, ...] = field(default=())


RULES: dict[str, Rule] = {r.id: r for r in [
    Rule("strategist.depth", "depth_vs_breadth", ("depth", "niche", "painful workflow", "moat"),
         (9, 7, -4, 3, 1), 400, True, "Niche Research Analyst", "discovery", "reasoning",
         "digital_worker", "The company narrows to one customer segment and owns its hardest workflow.",
         "Beachhead strategy", "market", "velocity", 4),
    Rule("strategist.breadth", "depth_vs_breadth", ("breadth", "broad", "several workflows", "reach"),
         (2, -3, 10, 5, 4), 250, False, "Adjacent Market Scout", "positioning", "reasoning",
         "digital_worker", "The company maps adjacent segments quickly, trading proof for reach.",
         "Optionality versus focus", "trust", "trust", 7, "competitor_leakage"),
    Rule("designer.ship", "speed_vs_quality", ("ship", "70", "learn from real users", "this week"),
         (6, -4, 12, -1, 5), 700, False, "Release Feedback Monitor", "mvp", "creative",
         "digital_worker", "The first version goes out now and real users shape the next one.",
         "Build, measure, learn", "technical", "trust", 8, "competitor_friction"),
    Rule("designer.polish", "speed_vs_quality", ("polish", "95", "three more weeks", "quality"),
         (3, 10, -7, 8, -1), 300, False, "Quality Assurance Guard", "mvp", "creative",
         "digital_worker", "The launch waits for a finished product; quality becomes the promise.",
         "Quality as a moat", "market", "velocity", 5),
    Rule("marketer.adoption", "volume_vs_value", ("adoption", "low price", "grassroots", "volume"),
         (5, 1, 11, 6, 4), 1500, False, "Community Growth Agent", "gtm", "creative",
         "digital_worker", "A low price buys grassroots adoption and a louder community.",
         "Land-grab pricing", "financial", "burn_pressure", 8, "competitor_pricing_clash"),
    Rule("marketer.runway", "volume_vs_value",
         ("runway", "bigger accounts", "enterprise", "fewer"),
         (4, 7, -5, -4, 1), 2000, True, "Enterprise Deal Desk", "gtm", "creative",
         "digital_worker", "Fewer, larger accounts extend the runway at the cost of reach.",
         "Move upmarket", "cultural", "autonomy", 5),
    Rule("ops.automate", "leverage_vs_trust", ("automate", "automation", "margin"),
         (2, -5, 7, -7, 12), 500, True, "Support Automation Agent", "ops", "fast",
         "digital_worker", "Support runs on automation; margin improves and the human touch thins.",
         "Operating leverage", "operational", "trust", 9, "competitor_churn_risk"),
    Rule("ops.human_loop", "leverage_vs_trust",
         ("human in the loop", "protect the promise", "steward"),
         (4, 10, -3, 8, -3), 1000, False, "Customer Steward", "ops", "fast",
         "hybrid", "A person stays in the support loop; the promise holds and costs rise.",
         "Trust over margin", "financial", "burn_pressure", 7),
    Rule("ops.shareholder", "ownership", ("shareholder", "venture capital", "blitzscale", "investors"),
         (15, -10, 30, 20, -25), 4000, False, "Growth Capital Controller", "ops", "fast",
         "digital_worker", "Outside capital arrives with growth targets and a board seat.",
         "Blitzscaling", "cultural", "autonomy", 12, "competitor_consolidation"),
    Rule("ops.cooperative", "ownership", ("cooperative", "co-op", "mutual aid", "worker-owned"),
         (-5, 30, -10, -15, 30), 800, True, "Cooperative Liaison", "ops", "fast",
         "digital_worker", "Workers and customers become owners; growth slows and trust deepens.",
         "Stakeholder ownership", "market", "velocity", 6, "coop_alliance_active"),
    Rule("custom.default", "custom", (), (3, 3, -1, 1, 1), 300, False, "Constraint Guard", "ops",
         "fast", "digital_worker", "The CEO's own direction becomes the constraint every worker follows.",
         "Constraint-driven strategy", "market", "proof", 4),
]}

RULES_BY_ROLE: dict[str, tuple[str, str]] = {
    "strategist": ("strategist.depth", "strategist.breadth"),
    "designer": ("designer.ship", "designer.polish"),
    "marketer": ("marketer.adoption", "marketer.runway"),
    "ops": ("ops.automate", "ops.human_loop"),
    "final": ("ops.shareholder", "ops.cooperative"),
}


def match_own_answer(text: str, allowed: tuple[str, ...]) -> str:
    """Resolve free text to a rule: exactly one allowed rule whose keyword occurs as whole words.

    Ambiguous or no match gives `custom.default` (never the first rule by accident).
    """
    hits = [rid for rid in allowed if any(has_phrase(text, kw) for kw in RULES[rid].keywords)]
    return hits[0] if len(hits) == 1 else "custom.default"


def rule_delta(rule: Rule) -> dict[str, float]:
    d = dict(zip(DELTA_FIELDS, (float(x) for x in rule.delta), strict=True))
    if rule.consolidates:
        for k, v in CONSOLIDATION_DIVIDEND.items():
            d[k] += v
    return d


def effect_line(rule: Rule) -> str:
    """A short preview of a rule's effect, e.g. 'Proof +13, Trust +7, … burn +5,250/mo'."""
    parts = [f"{k.replace('_', ' ').capitalize()} {v:+g}" for k, v in rule_delta(rule).items() if v]
    parts.append(f"revenue {rule.revenue_delta:+,.0f}/mo")
    parts.append(f"adds {rule.role_title} ({ROLE_COST_BY_LIFECYCLE[rule.role_lifecycle]:,.0f}/mo)")
    return ", ".join(parts)


def apply_rule(state: GameState, rule_id: str, stage_id: str) -> tuple[Economics, Economics, OrgDelta, dict[str, float]]:
    """Apply one rule to the company in place; return before, after, org delta and the meter delta."""
    rule = RULES[rule_id]
    before = state.economics.model_copy()
    econ = state.economics
    delta = rule_delta(rule)
    cost = ROLE_COST_BY_LIFECYCLE[rule.role_lifecycle]
    stage = next(s for s in state.stages if s.id == stage_id)
    role_id = f"role_{slug(stage_id, 20)}_{slug(rule.id, 30)}".replace("-", "_")
    state.org.append(Worker(id=role_id, title=rule.role_title, kind=rule.role_kind,  # type: ignore[arg-type]
                            lifecycle=rule.role_lifecycle, hint=rule.role_hint,  # type: ignore[arg-type]
                            monthly_cost_usd=cost, reports_to=stage.worker_id, spawned_by=rule.id))
    org_delta = OrgDelta(added_role_id=role_id, added_role_title=rule.role_title, monthly_cost_usd=cost)
    if rule.consolidates:
        spawned = [w for w in state.org if w.active and w.spawned_by and w.id != role_id]
        same_hint = [w for w in spawned if w.hint == rule.role_hint]
        retired = (same_hint or spawned or [None])[0]
        if retired is not None:
            retired.active = False
            org_delta.removed_role_id, org_delta.removed_role_title = retired.id, retired.title
    for k, v in delta.items():
        setattr(econ, k, min(100.0, max(0.0, getattr(econ, k) + v)))
    econ.market_share = round(min(100.0, econ.market_share
                                  + rule.revenue_delta / econ.addressable_market_usd * 100), 2)
    if rule.flag and rule.flag not in state.flags:
        state.flags.append(rule.flag)
    sync_burn(state)
    recompute(econ)
    return before, econ.model_copy(), org_delta, delta
