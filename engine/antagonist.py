"""The rival: forged from the founder's archetype and the seed; moves after every decision."""

from __future__ import annotations

import random

from engine.economy import arc_stage
from engine.models import Antagonist, AntagonistMove, GameState
from engine.rules import RULES

OPPOSITE = {"builder": "seller", "seller": "builder", "designer": "operator", "operator": "designer"}
RIVALS: dict[str, list[tuple[str, str, list[str]]]] = {
    "builder": [
        ("The Automation Trust", "Everything automated, nobody accountable",
         ["Platform Architect", "Integration Enforcer", "Patent Counsel"]),
        ("Stackworks Unlimited", "One more feature than you, every week",
         ["Feature Factory Lead", "Bundle Strategist", "API Gatekeeper"]),
        ("The Tooling Consortium", "Own the tools, own the trade",
         ["Standards Lobbyist", "Tooling Evangelist", "Licence Auditor"]),
    ],
    "seller": [
        ("Quota Holdings", "Every customer is a number to close",
         ["Enterprise Closer", "Pricing Enforcer", "Channel Lobbyist"]),
        ("The Funnel Syndicate", "Buy the attention before you earn it",
         ["Ad Buyer", "Lead Broker", "Discount Strategist"]),
        ("Pipeline Partners", "Relationships rented by the quarter",
         ["Account Executive", "Partner Manager", "Renewal Hunter"]),
    ],
    "designer": [
        ("Glossline Studio", "Beautiful surfaces, nothing underneath",
         ["Brand Director", "Launch Stylist", "Award Chaser"]),
        ("The Pixel Guild", "Taste as a barrier to entry",
         ["Design Lead", "Trend Forecaster", "Portfolio Curator"]),
        ("Polish & Co.", "Never ship until it sparkles",
         ["Creative Director", "Prototype Lead", "Review Board"]),
    ],
    "operator": [
        ("Margin Logistics", "Squeeze every process until it breaks",
         ["Efficiency Auditor", "Outsourcing Lead", "Cost Controller"]),
        ("The Process Bureau", "Compliance as a moat",
         ["Compliance Officer", "Procurement Lead", "Contract Lawyer"]),
        ("Scaleway Operations", "Cheaper at volume, colder at every touch",
         ["Operations Chief", "Automation Lead", "Vendor Manager"]),
    ],
}
ACTIONS = {
    "watching": "is circling your market for an opening",
    "probing": "is probing where your proof is thinnest",
    "contesting": "is contesting your customers head-on",
    "crisis": "is undercutting you in every channel",
    "endgame": "is moving to take the market outright",
}


def forge(archetype: str, customer: str, seed: int) -> Antagonist:
    rng = random.Random(f"{seed}:antagonist")
    side = OPPOSITE[archetype]
    name, tagline, org = RIVALS[side][rng.randrange(len(RIVALS[side]))]
    return Antagonist(name=name, archetype=side, tagline=tagline, org=org, target_customer=customer)


def move(state: GameState, rule_id: str, stage_id: str) -> AntagonistMove:
    """The rival answers the CEO's decision: threat rises by the rule's pressure plus seeded noise."""
    rule = RULES[rule_id]
    rng = random.Random(f"{state.seed}:move:{stage_id}")
    delta = float(rule.threat + rng.choice((0, 1, 2)))
    econ = state.economics
    econ.threat = min(100.0, econ.threat + delta)
    stage = arc_stage(econ.threat)
    title = f"{state.antagonist.name} answers '{rule.principle}'"
    narrative = (f"{state.antagonist.name} {ACTIONS[stage]}, aiming at your {rule.pressure_metric.replace('_', ' ')} "
                 f"(threat {econ.threat:.0f}/100).")
    return AntagonistMove(day=state.day, stage_id=stage_id, title=title,
                          pressure_type=rule.pressure_type, target_metric=rule.pressure_metric,
                          threat_delta=delta, narrative=narrative)
