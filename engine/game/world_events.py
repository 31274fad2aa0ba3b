"""Seeded events between stages: a key customer churns, a press mention, a hire quits, ...

Each kind is a row: when it can happen, how likely, and its effect as a rule (the same rule
mechanism as decisions, so its effect line is exactly what it applies). Some offer the CEO a small
choice between two rules; unanswered, the default applies when the next stage runs.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from engine.game.models import EventChoice, GameState, WorldEvent
from engine.game.rules import Rule, Scale, apply_rule, effect_line, make_rule, preview
from engine.game.world_words import event_words
from engine.language.grammar import agree, cap, is_plural, possessive
from engine.language.pitch import read_pitch
from worldforge_savedb.records import FrozenRecord

_VERB = re.compile(r"<([a-z]+)>")  # a verb in its singular form (<uses>), made to agree


@dataclass(frozen=True, eq=False, repr=False)
class EventKind(FrozenRecord):
    """A kind of world event: its texts, its weight and when it can happen."""

    id: str
    title: str
    text: str  # names {customer} {rival} {company} {company_s} and the world's words (world_words.FIELDS);
    # so do its choices' texts
    weight: float
    when: tuple[tuple[str, str, float], ...]
    effect: Rule | None = None  # applied at once (no choice)
    choices: tuple[tuple[str, Rule], tuple[str, Rule]] | None = None
    default: str = "A"


def _e(id: str, effects: dict[str, float], *scales: Scale, retires: bool = False) -> Rule:
    return make_rule(f"event.{id}", effects, *scales, retires=retires)


S = Scale
KINDS: tuple[EventKind, ...] = (
    EventKind(
        "churn",
        "A key customer churns",
        "One of your biggest accounts among {customer} cancels its {order}.",
        3,
        (("market_share", ">=", 3),),
        _e("churn", {"revenue": -1_200, "trust": -2}, S("revenue", "trust", 40, 30, -900, 600)),
    ),
    EventKind(
        "press",
        "A press mention",
        "{press} writes up {company} for its work with {customer}.",
        2,
        (("proof", ">=", 30),),
        _e("press", {"trust": 4, "revenue": 700}, S("revenue", "proof", 35, 30, -300, 900)),
    ),
    EventKind(
        "quits",
        "A hire quits",
        "Someone at {company} resigns, worn out.",
        3,
        (("burn_pressure", ">=", 50),),
        _e("quits", {"burn_pressure": 6, "velocity": -5}, retires=True),
    ),
    EventKind(
        "supplier",
        "A supplier raises prices",
        "{supplier} raises the prices {company} pays.",
        2,
        (),
        _e("supplier", {"overhead": 1_200}),
    ),
    EventKind(
        "outage",
        "A service outage",
        "{breaks} is down for half a day, and {customer} <notices>.",
        2,
        (),
        _e("outage", {"trust": -5, "burn_pressure": 4}, S("trust", "autonomy", 40, 0.1, -3, 3)),
    ),
    EventKind(
        "referral",
        "A referral wave",
        "{customer}, happy with your {order}, <starts> telling their peers.",
        2,
        (("trust", ">=", 45),),
        _e("referral", {"revenue": 1_200}, S("revenue", "trust", 45, 60, 0, 1_200)),
    ),
    EventKind(
        "rival_stumbles",
        "The rival stumbles",
        "{rival} {stumble}, and {customer} <hears> of it.",
        2,
        (("threat", ">=", 25),),
        _e("rival_stumbles", {"threat": -8}),
    ),
    EventKind(
        "tax_bill",
        "An unexpected bill",
        "A late tax adjustment for {company} lands on your desk.",
        2,
        (),
        _e("tax_bill", {"cash": -5_000}),
    ),
    EventKind(
        "regulation",
        "A new regulation",
        "{rule} takes effect, and {company} must comply.",
        1.5,
        (),
        _e("regulation", {"proof": 3, "burn_pressure": 4, "overhead": 500}),
    ),
    EventKind(
        "integration",
        "An integration partner",
        "{platform} that {customer} <uses> lists {company}.",
        1.5,
        (("proof", ">=", 35),),
        _e("integration", {"velocity": 5, "revenue": 700}),
    ),
    EventKind(
        "price_war",
        "A price war",
        "{rival} cuts the price of its {order} for {customer} by a third.",
        2,
        (("threat", ">=", 40),),
        _e("price_war", {"revenue": -1_300, "threat": 4}),
    ),
    EventKind(
        "grant",
        "A small-business grant",
        "A regional fund offers {company} a grant.",
        2,
        (),
        choices=(
            (
                "Accept the grant for {company} and its quarterly reporting",
                _e("grant_accept", {"cash": 10_000, "burn_pressure": 5}),
            ),
            (
                "Decline it and keep the team on the work for {customer}",
                _e("grant_decline", {"burn_pressure": -2}),
            ),
        ),
        default="A",
    ),
    EventKind(
        "investor",
        "An angel investor calls",
        "An angel offers {company} a bridge note on terms.",
        2,
        (("runway_months", "<", 2),),
        choices=(
            (
                "Take the bridge note into {company_s} books",
                _e("investor_take", {"cash": 15_000, "autonomy": -10, "overhead": 800}),
            ),
            ("Pass, and keep {company} independent", _e("investor_pass", {"autonomy": 2})),
        ),
        default="A",
    ),
    EventKind(
        "complaint",
        "A viral complaint",
        "An angry thread about {complaint} trends among {customer}.",
        2,
        (("market_share", ">=", 2),),
        choices=(
            (
                "Apologise to {customer} publicly and refund",
                _e("complaint_refund", {"trust": 3, "cash": -2_500}),
            ),
            ("Stay quiet: {company} lets it pass", _e("complaint_quiet", {"trust": -7})),
        ),
        default="A",
    ),
    EventKind(
        "burnout",
        "The team is exhausted",
        "Your {staff} and one more of the team ask for time off the same week.",
        3,
        (("burn_pressure", ">=", 60),),
        choices=(
            (
                "Give everyone at {company} a week off",
                _e("burnout_rest", {"burn_pressure": -12, "velocity": -6}),
            ),
            (
                "Push {company} through to the next milestone",
                _e("burnout_push", {"burn_pressure": 5, "velocity": 2}),
            ),
        ),
        default="A",
    ),
    EventKind(
        "contract",
        "A custom contract",
        "A large prospect wants {custom}, paid upfront.",
        2,
        (),
        choices=(
            (
                "Take it: {company} signs for {custom}",
                _e("contract_take", {"cash": 9_000, "burn_pressure": 8}),
            ),
            ("Decline it and keep {company} on {customer}", _e("contract_decline", {"proof": 1})),
        ),
        default="B",
    ),
)
KIND_BY_ID = {k.id: k for k in KINDS}
EVENT_CHANCE = 0.85
OPS = {">=": lambda a, b: a >= b, "<": lambda a, b: a < b}


def draw(state: GameState, after_stage: str) -> EventKind | None:
    """The seeded event between this stage and the next (or none): conditions on the company now,
    each kind at most once a venture."""
    rng = random.Random(f"{state.seed}:event:{after_stage}")
    if rng.random() > EVENT_CHANCE:
        return None
    seen = {e.kind for e in state.world_events}
    econ = state.economics
    pool = [
        k
        for k in KINDS
        if k.id not in seen and all(OPS[op](float(getattr(econ, f)), v) for f, op, v in k.when)
    ]
    if not pool:
        return None
    return rng.choices(pool, weights=[k.weight for k in pool])[0]


def _fill(state: GameState, text: str) -> str:
    """An event's text in the company's world: its customer as the CEO last named it (the
    niche, as the board and the standup say it), rival and the offering's words; a verb marked
    <uses> agrees with the customer, and the sentence starts with a capital."""
    customer = state.niche or state.founder.customer
    words = event_words(read_pitch(state.founder.pitch).world)
    text = _VERB.sub(lambda m: agree(m.group(1), is_plural(customer)), text)
    return cap(
        text.format(
            customer=customer,
            rival=state.antagonist.name,
            company=state.founder.company,
            company_s=possessive(state.founder.company),
            **words,
        )
    )


def open_event(state: GameState, kind: EventKind, after_stage: str) -> WorldEvent:
    """Apply an event without a choice now; an event with a choice waits, its options previewed."""
    ev = WorldEvent(
        kind=kind.id,
        title=kind.title,
        text=_fill(state, kind.text),
        after_stage=after_stage,
        day=state.day,
    )
    if kind.effect is not None:
        before, after, org_delta, applied = apply_rule(state, kind.effect, after_stage)
        ev.effect_line, ev.applied = effect_line(before, after, org_delta), applied
    else:
        assert kind.choices is not None
        ev.options = [
            EventChoice(
                key=key,  # type: ignore[arg-type]
                text=_fill(state, text),
                effect_line=preview(state, rule, after_stage),
            )
            for key, (text, rule) in zip(("A", "B"), kind.choices, strict=True)
        ]
        ev.default = kind.default  # type: ignore[assignment]
    return ev


def resolve_choice(state: GameState, ev: WorldEvent, key: str) -> WorldEvent:
    """Apply the chosen option of a waiting event; returns the resolved event."""
    kind = KIND_BY_ID[ev.kind]
    assert kind.choices is not None
    _text, rule = kind.choices[0 if key == "A" else 1]
    before, after, org_delta, applied = apply_rule(state, rule, ev.after_stage)
    ev.choice, ev.effect_line, ev.applied = key, effect_line(before, after, org_delta), applied
    return ev
