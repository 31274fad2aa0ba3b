"""The economy: turn-based game days, burn and runway, stage outcomes, market share, defeat checks.

All numbers live in TUNING so balance work edits data, not code. No wall clock: time moves only
when a stage runs, a redo happens or a fork is decided. Every stored number is already rounded the
way it is shown (money to whole dollars, meters and percentages to one decimal), so no output ever
carries float noise and a loaded save continues exactly as the unsaved game would.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

from worldforge_textkit import numbers
from worldforge_textkit.numbers import money

if TYPE_CHECKING:  # the models load where a function builds one: front ends read TUNING and the
    # constants below before the first frame without paying for the pydantic state models
    from engine.game.models import Economics, GameState, Hint, Worker

TUNING: dict[str, float] = {
    "seed_usd": 29_000,
    "arpu_usd": 220,  # the reference a venture's list price is drawn from (engine.game.pricing)
    "market_share_step": 5.0,
    "deal_cash_fraction": 0.65,
    "days_per_stage": 7,
    "days_per_redo": 2,
    "days_per_fork": 2,
    "days_after_final": 2,  # the closing weeks under the new ownership, before the ending
    "threat_start": 10,
    "proof_start": 25,
    "trust_start": 37,
    "velocity_start": 50,
    "burn_pressure_start": 30,
    "autonomy_start": 40,
    "threat_per_day": 0.27,
    "pressure_per_day": 0.48,  # team strain per day at velocity 50, autonomy 0
    "trust_per_day_per_proof": 0.006,  # trust drifts with proof above/below 30
    "pass_score": 70,
    "defeat_from_stage": 3,  # no defeat while the first two stages are played
}

# How hard the clock presses at each stage (index 0-7): the rival's daily climb and the team's
# daily strain, front-loaded so a venture can fall from stage 3 on and the closing weeks ease.
BEAT: dict[str, tuple[float, ...]] = {
    "threat": (1.2, 1.2, 1.2, 1.15, 1.1, 1.0, 0.8, 0.6),
    "strain": (1.2, 1.2, 1.2, 1.1, 1.0, 0.9, 0.7, 0.6),
}

# Monthly cost of a digital worker, by lifecycle: 0.75 of a human median salary.
ROLE_COST_BY_LIFECYCLE: dict[str, float] = {
    "discovery": 5_250,
    "positioning": 8_250,
    "mvp": 7_875,
    "gtm": 5_625,
    "retention": 4_875,
    "ops": 6_375,
    "other": 6_000,
}
ROLE_WEIGHT = {"strategist": 0.7, "designer": 1.0, "marketer": 1.7, "ops": 1.8}
METERS = ("proof", "trust", "velocity", "burn_pressure", "autonomy", "threat")
# Each meter's one name in player-facing text (effect lines, flaw costs, endings, the front ends).
METER_NAMES = {
    "proof": "proof",
    "trust": "trust",
    "velocity": "velocity",
    "burn_pressure": "strain",
    "autonomy": "autonomy",
    "threat": "threat",
}
PROFITABLE_RUNWAY = 99.0  # the stored runway of a company whose revenue covers its burn
MAX_REDOS = 2  # redos a stage allows after rejections; then the CEO must approve
# Threat acceleration by arc stage, and the bite a newly entered arc stage takes.
ARC = [  # (name, threshold, accel, bite)
    ("watching", 0, 0.7, {}),
    ("probing", 20, 1.0, {"velocity": -3}),
    ("contesting", 40, 1.3, {"trust": -2}),
    ("crisis", 60, 1.6, {"burn_pressure": 6, "velocity": -3}),
    ("endgame", 80, 2.0, {"autonomy": -6, "burn_pressure": 4}),
]


def arc_stage(threat: float) -> str:
    return [name for name, lo, _, _ in ARC if threat >= lo][-1]


def bump(econ: Economics, field: str, delta: float) -> float:
    """Move one meter by `delta`, clamped to 0-100 and rounded to one decimal; returns the change."""
    old = float(getattr(econ, field))
    new = round(min(100.0, max(0.0, old + delta)), 1)
    setattr(econ, field, new)
    return round(new - old, 1)


# The founding team: id, title, lifecycle (what its role costs), routing hint. The founder is the
# one human, paid nothing; the digital workers report to the founder.
FOUNDING_ORG: tuple[tuple[str, str, str, Hint], ...] = (
    ("operator", "Founder & Operator", "other", "human"),
    ("strategy_lead", "Strategy & Positioning Lead", "positioning", "reasoning"),
    ("product_builder", "Product Builder", "mvp", "creative"),
    ("growth_marketer", "Growth Marketer", "gtm", "creative"),
    ("retention_ops", "Retention & Ops Worker", "retention", "fast"),
)


def founding_org() -> list[Worker]:
    """The founding team, fresh (FOUNDING_ORG)."""
    from engine.game.models import Worker

    return [
        Worker(
            id=wid,
            title=title,
            kind="human" if hint == "human" else "digital_worker",
            lifecycle=lifecycle,
            hint=hint,
            monthly_cost_usd=0 if hint == "human" else ROLE_COST_BY_LIFECYCLE[lifecycle],
            reports_to=None if hint == "human" else "operator",
        )
        for wid, title, lifecycle, hint in FOUNDING_ORG
    ]


def digital_count(org: list[Worker]) -> int:
    return sum(1 for w in org if w.active and w.kind != "human")


def initial_economics(
    org: list[Worker], start: dict[str, float] | None = None, price: float | None = None
) -> Economics:
    """Day-0 numbers; `start` holds the founder archetype's head start (meter points, cash) and
    `price` the list price a month (engine.game.pricing.list_price; else the reference)."""
    from engine.game.models import Economics

    n = digital_count(org)
    econ = Economics(
        treasury_usd=TUNING["seed_usd"],
        monthly_burn_usd=sum(w.monthly_cost_usd for w in org),
        addressable_market_usd=40_000 + 14_000 * n,
        arpu_usd=float(price or TUNING["arpu_usd"]),
        proof=TUNING["proof_start"],
        trust=TUNING["trust_start"],
        velocity=TUNING["velocity_start"],
        burn_pressure=TUNING["burn_pressure_start"],
        autonomy=TUNING["autonomy_start"],
        threat=TUNING["threat_start"],
    )
    for k, v in (start or {}).items():
        if k == "cash":
            econ.treasury_usd = float(round(econ.treasury_usd + v))
        elif k == "revenue":
            econ.market_share = round(econ.market_share + v / econ.addressable_market_usd * 100, 1)
        else:
            bump(econ, k, v)
    recompute(econ)
    return econ


def org_burn(org: list[Worker], overhead: float) -> float:
    return float(round(sum(w.monthly_cost_usd for w in org if w.active) + overhead))


def sync_burn(state: GameState) -> None:
    state.economics.monthly_burn_usd = org_burn(state.org, state.economics.overhead_usd)


def recompute(econ: Economics) -> None:
    """Derive revenue, customers and runway from share, treasury and burn."""
    econ.market_share = round(min(100.0, max(0.0, econ.market_share)), 1)
    econ.monthly_revenue_usd = float(round(econ.market_share / 100 * econ.addressable_market_usd))
    econ.paying_customers = round(econ.monthly_revenue_usd / econ.arpu_usd)
    econ.treasury_usd = float(round(econ.treasury_usd))
    net = econ.monthly_burn_usd - econ.monthly_revenue_usd
    # Stored for the rules' comparisons only ("runway < 2"): a profitable company's runway is
    # unbounded, kept as PROFITABLE_RUNWAY; outputs show it as profitable (Economics.shown).
    econ.runway_months = (
        PROFITABLE_RUNWAY if net <= 0 else round(max(0.0, econ.treasury_usd) / net, 1)
    )


def runway_text(econ: Economics) -> str:
    return numbers.runway(None if econ.profitable else econ.runway_months)


def burn_line(econ: Economics) -> str:
    """The burn watch a worker's brief carries."""
    return (
        f"treasury {money(econ.treasury_usd)}, burn {money(econ.monthly_burn_usd)}/mo, "
        f"revenue {money(econ.monthly_revenue_usd)}/mo, {runway_text(econ)}"
    )


def advance_days(state: GameState, days: int) -> list[tuple[str, dict[str, float]]]:
    """Move the clock: burn the treasury, climb the threat, strain the team, let trust follow proof;
    return the rival's arc stages newly entered."""
    econ = state.economics
    entered: list[tuple[str, dict[str, float]]] = []
    beat_mult = BEAT["threat"][min(state.stage_index, 7)]
    strain_mult = BEAT["strain"][min(state.stage_index, 7)]
    for _ in range(days):
        state.day += 1
        econ.treasury_usd = float(
            round(econ.treasury_usd - (econ.monthly_burn_usd - econ.monthly_revenue_usd) / 30)
        )
        old = arc_stage(econ.threat)
        accel = next(a for name, _, a, _ in ARC if name == old)
        winning = 1.0 - (0.35 if econ.profitable else 0) - (0.25 if econ.proof >= 60 else 0)
        bump(econ, "threat", TUNING["threat_per_day"] * accel * max(0.3, winning) * beat_mult)
        strain = TUNING["pressure_per_day"] * (econ.velocity / 50) * (1 - econ.autonomy / 160)
        strain *= strain_mult
        bump(econ, "burn_pressure", strain + (0.25 if econ.runway_months < 1 else 0))
        bump(econ, "trust", TUNING["trust_per_day_per_proof"] * (econ.proof - 30))
        new = arc_stage(econ.threat)
        if new != old:
            bite = next(b for name, _, _, b in ARC if name == new)
            for k, v in bite.items():
                bump(econ, k, v)
            entered.append((new, {k: float(v) for k, v in bite.items()}))
        recompute(econ)
    state.history.append((state.day, econ.treasury_usd))
    return entered


def stage_outcome(state: GameState, role: str, score: int) -> dict[str, float]:
    """Book a shipped stage: market share moves with the score, speed and trust; a pass brings
    deal cash."""
    econ = state.economics
    contest = max(0.15, 1 - econ.threat / 130)
    weight = ROLE_WEIGHT[role]
    if score >= TUNING["pass_score"]:
        pull = 0.5 + (econ.velocity + econ.trust) / 200
        gain = score / 100 * weight * contest * TUNING["market_share_step"] * pull
    else:
        gain = -0.4 * weight
    before = econ.monthly_revenue_usd
    econ.market_share += gain  # clamped and rounded by recompute
    recompute(econ)
    added = max(0.0, econ.monthly_revenue_usd - before)
    deal = round(added * TUNING["deal_cash_fraction"])
    econ.treasury_usd += deal
    recompute(econ)
    return {
        "share_gain": round(gain, 1),
        "deal_cash_usd": float(deal),
        "contest": round(contest, 2),
    }


class Line(NamedTuple):
    """A defeat line as data: a value `op` `limit` ends the venture (front ends print it as is)."""

    op: str  # "<=" or ">="
    limit: float

    def __call__(self, value: float) -> bool:
        return value <= self.limit if self.op == "<=" else value >= self.limit


class Defeat(NamedTuple):
    field: str
    test: Line
    kind: str  # the ending it leads to (engine.game.endings)
    reason: str


# Checked in this order after every step from stage `defeat_from_stage` on (engine.session.steps).
DEFEATS = (
    Defeat("treasury_usd", Line("<=", 0), "bankrupt", "Out of cash: payroll could not be met."),
    Defeat("trust", Line("<=", 0), "trust", "Trust collapsed: customers and workers walked away."),
    Defeat("burn_pressure", Line(">=", 100), "burnout", "Strain broke the team."),
    Defeat("threat", Line(">=", 100), "rival", "The rival took the market."),
)


def meter_shown(field: str, value: float) -> int:
    """A meter as every output shows it: whole units, halves rounded up, and never rounded
    across its defeat line (DEFEATS), so the number shown agrees with the rules to the unit: a
    threat of 99.5 (100 loses) shows 99, a trust of 0.4 (0 loses) shows 1."""
    shown = math.floor(value + 0.5)
    for fld, line, _, _ in DEFEATS:
        if fld == field and line(shown) and not line(value):
            shown += 1 if line.op == "<=" else -1
    return shown


def defeat(econ: Economics) -> tuple[str, str] | None:
    """(kind, reason) of the first defeat condition the company meets, else None."""
    for fld, test, kind, reason in DEFEATS:
        if test(getattr(econ, fld)):
            return kind, reason
    return None


def defeat_at(econ: Economics, stage_index: int) -> tuple[str, str] | None:
    """The defeat these numbers mean at this stage: none while the first stages are played."""
    return defeat(econ) if stage_index + 1 >= TUNING["defeat_from_stage"] else None
