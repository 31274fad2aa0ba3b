"""The rival: forged from the founder's archetype and the seed, with a seeded personality that
decides which metric it attacks; after every decision it moves, and it punishes choices that
leave a flank open (a thin moat after breadth, a cold answer while trust is thin). Every move
changes the metric it names, by the amount its narrative states."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.game.economy import arc_stage, bump, recompute
from engine.game.models import Antagonist, AntagonistMove, GameState
from engine.game.rules import RULES
from engine.game.world_words import event_words
from engine.language.grammar import join_prose, possessive
from engine.language.pitch import read_pitch
from worldforge_savedb.records import FrozenRecord

OPPOSITE = {
    "builder": "seller",
    "seller": "builder",
    "designer": "operator",
    "operator": "designer",
}
RIVALS: dict[str, list[tuple[str, str, list[str]]]] = {
    "builder": [
        (
            "The Automation Trust",
            "Everything automated, nobody accountable",
            ["Platform Architect", "Integration Enforcer", "Patent Counsel"],
        ),
        (
            "Stackworks Unlimited",
            "One more feature than you, every week",
            ["Feature Factory Lead", "Bundle Strategist", "API Gatekeeper"],
        ),
        (
            "The Tooling Consortium",
            "Own the tools, own the trade",
            ["Standards Lobbyist", "Tooling Evangelist", "Licence Auditor"],
        ),
    ],
    "seller": [
        (
            "Quota Holdings",
            "Every customer is a number to close",
            ["Enterprise Closer", "Pricing Enforcer", "Channel Lobbyist"],
        ),
        (
            "The Funnel Syndicate",
            "Buy the attention before you earn it",
            ["Ad Buyer", "Lead Broker", "Discount Strategist"],
        ),
        (
            "Pipeline Partners",
            "Relationships rented by the quarter",
            ["Account Executive", "Partner Manager", "Renewal Hunter"],
        ),
    ],
    "designer": [
        (
            "Glossline Studio",
            "Beautiful surfaces, nothing underneath",
            ["Brand Director", "Launch Stylist", "Award Chaser"],
        ),
        (
            "The Pixel Guild",
            "Taste as a barrier to entry",
            ["Design Lead", "Trend Forecaster", "Portfolio Curator"],
        ),
        (
            "Polish & Co.",
            "Never ship until it sparkles",
            ["Creative Director", "Prototype Lead", "Review Board"],
        ),
    ],
    "operator": [
        (
            "Margin Logistics",
            "Squeeze every process until it breaks",
            ["Efficiency Auditor", "Outsourcing Lead", "Cost Controller"],
        ),
        (
            "The Process Bureau",
            "Compliance as a moat",
            ["Compliance Officer", "Procurement Lead", "Contract Lawyer"],
        ),
        (
            "Scaleway Operations",
            "Cheaper at volume, colder at every touch",
            ["Operations Chief", "Automation Lead", "Vendor Manager"],
        ),
    ],
}
# What the rival is doing at each stage of its arc, in the company's world (world_words fields).
ACTIONS = {
    "watching": "is circling {customer} for an opening",
    "probing": "is probing where your proof with {customer} is thinnest",
    "contesting": "is pitching its own {order} head-on to {customer}",
    "crisis": "is undercutting your {order} for {customer} in every channel",
    "endgame": "is moving to take {customer} outright",
}


@dataclass(frozen=True, eq=False, repr=False)
class Personality(FrozenRecord):
    """How a rival plays: the metric its moves attack, how hard, in what words."""

    id: str
    text: str
    metric: str  # the economics field its moves attack
    bite: float  # the base change to that metric per move (share points or meter points)
    verbs: tuple[str, ...]  # what it does, in the company's world (world_words fields, {customer})
    # (rule tag, (field, op, value), why: said in turn, never the same twice running)
    punishes: tuple[str, tuple[str, str, float], tuple[str, ...]]


PERSONALITIES: dict[str, Personality] = {
    p.id: p
    for p in [
        Personality(
            "undercutter",
            "wins on price, takes customers one discount at a time",
            "market_share",
            -0.9,
            (
                "undercuts the price of your {order}",
                "offers {customer} a free month to switch",
                "prices its {order} just under yours again",
            ),
            (
                "wide",
                ("proof", "<", 45),
                (
                    "a thin moat after a wide move",
                    "a wide move with little proof behind it",
                    "reach bought before a moat was built",
                ),
            ),
        ),
        Personality(
            "smear",
            "talks down every promise you make",
            "trust",
            -3.0,
            (
                "tells {customer} that {doubt}",
                "posts a comparison that makes your {copy} look thin",
                "asks {customer} in public whether you will last the year",
            ),
            (
                "cold",
                ("trust", "<", 45),
                (
                    "a cold answer while trust is thin",
                    "a distant answer when customers needed a person",
                    "another cold move while trust is low",
                ),
            ),
        ),
        Personality(
            "poacher",
            "hires your best people away",
            "burn_pressure",
            2.5,
            (
                "hires away your best {staff}",
                "offers your best {staff} more money to leave",
                "recruits from your team at a trade meetup",
            ),
            (
                "premium",
                ("burn_pressure", ">=", 45),
                (
                    "a tired team sold on premium promises",
                    "premium promises kept by a strained team",
                    "a stretched team asked to deliver premium work",
                ),
            ),
        ),
        Personality(
            "copycat",
            "copies what works and ships it first",
            "proof",
            -3.0,
            (
                "copies your {copy}",
                "launches its own {copy} a week after yours",
                "copies your pitch to {customer} word for word",
            ),
            (
                "slow",
                ("velocity", "<", 50),
                (
                    "a slow move that leaves time to copy",
                    "another slow step it had time to copy",
                    "a pace slow enough to copy",
                ),
            ),
        ),
    ]
}
OPS = {"<": lambda a, b: a < b, ">=": lambda a, b: a >= b}
# The rival reads the CEO's pattern: from the PATTERN_FROM-th decision of one kind (a rule tag)
# on, it answers each further one with PATTERN_THREAT more threat per repeat past the first two.
PATTERN = {"from": 3, "threat": 5.0}


def pattern(state: GameState) -> tuple[str, int] | None:
    """The kind of move the CEO has made most (a rule tag) and how often, once it is two or more
    (the earliest-made kind on a tie); None before any pattern shows."""
    made = [t for s in state.stages if s.decision for t in RULES[s.decision.rule_id].tags]
    if not made:
        return None
    counts = {t: made.count(t) for t in made}
    tag = max(counts, key=lambda t: (counts[t], -made.index(t)))
    return (tag, counts[tag]) if counts[tag] >= PATTERN["from"] - 1 else None


def pattern_line(state: GameState) -> str:
    """What the fork says of the rival's read of the CEO ("" before it has one), naming the
    stages it read: "Glossline has read Acme's pattern (2 slow moves, at YOU and NEED): …"."""
    read = pattern(state)
    if read is None:
        return ""
    tag, n = read
    more = PATTERN["threat"] * (n + 1 - (PATTERN["from"] - 1))
    beats = [s.beat for s in state.stages if s.decision and tag in RULES[s.decision.rule_id].tags]
    return (
        f" {state.antagonist.name} has read {possessive(state.founder.company)} pattern "
        f"({n} {tag} moves, at {join_prose(beats)}): another {tag} move draws "
        f"{more:g} more threat."
    )


def world_words(state: GameState) -> dict[str, str]:
    """The company's world for the rival's lines: the offering's words and the rival's target
    (the customer the CEO narrowed to, once named: the rival circles who the work speaks to)."""
    words = event_words(read_pitch(state.founder.pitch).world)
    customer = state.niche or state.antagonist.target_customer or state.founder.customer
    return {**words, "customer": customer}


def doing(state: GameState, arc: str) -> str:
    """What the rival is doing at this stage of its arc, in the company's words."""
    return ACTIONS[arc].format(**world_words(state))


def forge(archetype: str, customer: str, seed: int) -> Antagonist:
    rng = random.Random(f"{seed}:antagonist")
    side = OPPOSITE[archetype]
    name, tagline, org = RIVALS[side][rng.randrange(len(RIVALS[side]))]
    personality = sorted(PERSONALITIES)[rng.randrange(len(PERSONALITIES))]
    return Antagonist(
        name=name,
        archetype=side,
        tagline=tagline,
        org=org,
        target_customer=customer,
        personality=personality,
        personality_text=PERSONALITIES[personality].text,
    )


def move(state: GameState, rule_id: str, stage_id: str) -> AntagonistMove:
    """The rival answers the CEO's decision: threat rises by the rule's pressure plus seeded noise,
    and the personality's metric takes a bite, harder when the choice left its flank open."""
    rule = RULES[rule_id]
    rival = state.antagonist
    p = PERSONALITIES.get(rival.personality, PERSONALITIES["undercutter"])
    rng = random.Random(f"{state.seed}:move:{stage_id}")
    econ = state.economics
    tag, (fld, op, value), whys = p.punishes
    punished = tag in rule.tags and OPS[op](float(getattr(econ, fld)), value)
    bite = p.bite * (1.8 if punished else 1.0) * rng.choice((0.8, 1.0, 1.2))
    if p.metric == "market_share":
        old = econ.market_share
        econ.market_share = round(max(0.0, old + bite), 1)
        changed = round(econ.market_share - old, 1)
    else:
        changed = bump(econ, p.metric, bite)
    read = pattern(state)  # the decision just made counts: it is the one answered
    repeats = read[1] - (PATTERN["from"] - 1) if read and read[0] in rule.tags else 0
    answer = PATTERN["threat"] * max(0, repeats)
    delta = bump(
        econ, "threat", rule.threat + rng.choice((0, 1, 2)) + (3 if punished else 0) + answer
    )
    recompute(econ)
    stage = arc_stage(econ.threat)
    label = {"market_share": "market share", "burn_pressure": "strain"}.get(p.metric, p.metric)
    unit = " pts" if p.metric == "market_share" else ""
    why = whys[sum(bool(m.reaction) for m in state.moves) % len(whys)]
    reaction = f"punishing {why}" if punished else ""
    words = world_words(state)
    # its words turn with each move (never the same twice running); its numbers are the rng's
    verb = p.verbs[(len(state.moves) + state.seed) % len(p.verbs)].format(**words)
    title = f"{rival.name} {verb}" + (" (punishing your choice)" if punished else "")
    hit = f"your {label} {changed:+g}{unit}" if changed else f"your {label} cannot move further"
    narrative = (
        f"{rival.name} {verb}: {hit}"
        + (f", {reaction}" if punished else "")
        + f". It {doing(state, stage)} (threat {econ.threat:.0f}/100)."
    )
    return AntagonistMove(
        day=state.day,
        stage_id=stage_id,
        title=title,
        pressure_type=p.id,
        target_metric=p.metric,
        threat_delta=delta,
        narrative=narrative,
        metric_delta=changed,
        reaction=reaction,
    )
