"""The dilemma deck: one family of dilemmas per stage, each with variants picked by the company's
state, the seed and the founder archetype, so no question repeats within a venture and two
ventures differ. Every option names its rule; its effect line is a dry run of that rule now, and
`option_directions` is the content of its own it binds the next worker to.
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from string import Formatter
from typing import TYPE_CHECKING

from engine.game.antagonist import doing, pattern_line
from engine.game.economy import arc_stage, meter_shown
from engine.game.fork_slots import QUESTION_SLOTS, check, fill, preview_words, venture_words
from engine.game.models import Dilemma, Economics, GameState, Option, Stage
from engine.game.pending import later_line
from engine.game.rules import OWN_ANSWER, RULES, Bind, Rule, effect_line, hints, made, preview_after
from engine.language.directions import Direction, price_words
from engine.language.grammar import busiest
from worldforge_savedb.records import FrozenRecord

if TYPE_CHECKING:  # the picker loads when an own answer is read, not in every venture
    from engine.language.reader.pick import Interpretation

OPS = {">=": operator.ge, "<": operator.lt}


@dataclass(frozen=True, eq=False, repr=False)
class Variant(FrozenRecord):
    """One wording of a fork: its question, two options and when it applies."""

    id: str
    title: str  # a template, like the question (engine.game.fork_slots.QUESTION_SLOTS)
    question: str  # names the venture's slots: {customer}, {company}, {offering}, …
    a: tuple[str, str, str]  # (option text, trade-off, rule id)
    b: tuple[str, str, str]
    when: tuple[tuple[str, str, float], ...] = ()  # (economics field, ">=" or "<", value), all hold
    archetype: str | None = None  # only this founder archetype sees it (and then always does)

    def holds(self, econ: Economics) -> bool:
        return all(OPS[op](float(getattr(econ, fld)), value) for fld, op, value in self.when)


def _offers() -> dict[tuple[str, str], tuple[str, str, str]]:
    """(variant id, side) → (option text, trade-off, rule id), from the rules that offer it."""
    out: dict[tuple[str, str], tuple[str, str, str]] = {}
    for rule in RULES.values():
        for o in rule.offered:
            if (o.variant, o.key) in out:
                raise ValueError(f"two rules offered as {o.key} of {o.variant}")
            out[o.variant, o.key] = (rule.option, o.tradeoff or rule.tradeoff, rule.id)
    return out


_OFFERS = _offers()


def V(
    id: str,
    title: str,
    question: str,
    *,
    when: tuple[tuple[str, str, float], ...] = (),
    archetype: str | None = None,
) -> Variant:
    """A dilemma variant; its two options are the rules that name it (engine.game.rules). Its
    title and question name only the venture's slots (a typo fails as the deck loads)."""
    for template in (title, question):
        check(template, QUESTION_SLOTS)
    try:
        a, b = _OFFERS.pop((id, "A")), _OFFERS.pop((id, "B"))
    except KeyError as missing:
        raise ValueError(f"no rule offered as {missing} of dilemma {id}") from None
    return Variant(id, title, question, a, b, when, archetype)


DECK: dict[str, tuple[Variant, ...]] = {
    "stage_1_you": (
        V(
            "founder_edge",
            "Network or craft?",
            "Where does {company} start?",
        ),
        V(
            "founder_time",
            "All in on {company} or side income?",
            "How much of your time does {company} get?",
        ),
    ),
    "stage_2_need": (
        V(
            "depth_breadth",
            "Depth or breadth?",
            "Do we own one niche of {customer} or map the adjacent ones?",
        ),
        V(
            "evidence",
            "Interview {customer} or run a waitlist?",
            "Proof is thin. How do we learn what {customer} need?",
            when=(("proof", "<", 36),),
        ),
    ),
    "stage_3_go": (
        V(
            "rival_stance",
            "Confront or flank?",
            "{rival} is in the market: where does {company} stand?",
            when=(("threat", ">=", 16),),
        ),
        V(
            "price_point",
            "Premium or cheap?",
            "What does {company} charge?",
        ),
        V(
            "codesign",
            "Confront or co-design?",
            "{rival} is in the market: how does {company} position itself?",
            archetype="designer",
        ),
    ),
    "stage_4_search": (
        V(
            "ship_polish",
            "Ship or polish?",
            "The first version of the {offering} is at 70 percent: do we launch it?",
        ),
        V(
            "scope",
            "Cut {company_s} scope or borrow?",
            "Runway is down to {runway_now}: what gives at {company}?",
            when=(("runway_months", "<", 1.6),),
        ),
        V(
            "in_house",
            "Ship the {offering} or build it in-house?",
            "The first version of the {offering} is at 70 percent: who finishes it?",
            archetype="builder",
        ),
    ),
    "stage_5_find": (
        V(
            "adoption_runway",
            "Adoption or runway?",
            "Who among {customer} do we chase first?",
        ),
        V(
            "channel",
            "Ads or community?",
            "Where does {company} find its next hundred customers among {customer}?",
        ),
        V(
            "referrals",
            "Referrals or case studies?",
            "Word is spreading among {customer}. How do we turn it into the next customers?",
            when=(("trust", ">=", 45),),
        ),
        V(
            "presell",
            "Adoption or pre-sales?",
            "Who among {customer} do we chase first?",
            archetype="seller",
        ),
    ),
    "stage_6_take": (
        V(
            "automate_steward",
            "Automate or steward?",
            "Support load is climbing: who answers {customer}?",
        ),
        V(
            "relief",
            "Hire or triage?",
            "The team at {company} is stretched: what relieves it?",
            when=(("burn_pressure", ">=", 55),),
        ),
        V(
            "lean",
            "Automate {company_s} support or run lean?",
            "Support load from {customer} is climbing: how do we carry it?",
            archetype="operator",
        ),
    ),
    "stage_7_return": (
        V(
            "upside",
            "Share {company_s} upside or retain it?",
            "The first profits of {company} are in sight: who gets them?",
        ),
        V(
            "alliance",
            "Ally against {rival} or go alone?",
            "{rival} is pressing hard: does {company} need a friend?",
            when=(("threat", ">=", 45),),
        ),
    ),
    "stage_8_change": (
        V(
            "ownership",
            "Shareholders or cooperative?",
            "Who should own {company} from here?",
        ),
        V(
            "partner_steward",
            "Partner or steward-owned?",
            "A corporate buyer wants {company}: who should own it?",
            when=(("market_share", ">=", 10),),
        ),
    ),
    # stages a venture may gain after a fork (engine.game.shape)
    "stage_x_bridge": (
        V(
            "bridge_gap",
            "A bridge note or a year up front?",
            "Runway at {company} is down to {runway_now}: who carries it through?",
        ),
    ),
    "stage_x_hold": (
        V(
            "hold_wedge",
            "Match {rival} or lock in your first customers?",
            "{rival} is raiding {customer} with a cheaper copy: how does {company} hold its wedge?",
        ),
    ),
}

if _OFFERS:  # a rule offered in a variant the deck does not hold
    raise ValueError(f"rules offered in no dilemma: {sorted(_OFFERS)}")


def variant_for(state: GameState, stage: Stage) -> Variant:
    """The archetype's own variant when it has one here, else a seeded pick among the variants
    whose conditions the company meets now (the first variant when none does)."""
    family = DECK[stage.id]
    econ = state.economics
    own = [v for v in family if v.archetype == state.founder.archetype and v.holds(econ)]
    if own:
        return own[0]
    open_ = [v for v in family if v.archetype is None and v.holds(econ)]
    if not open_:
        return next(v for v in family if v.archetype is None)
    return open_[random.Random(f"{state.seed}:deck:{stage.id}").randrange(len(open_))]


# Which way an effect moves the company: up is good for these fields, down for the rest.
_GOOD_UP = frozenset({"proof", "trust", "velocity", "autonomy", "revenue", "cash"})


def _dearer(effects: tuple[tuple[str, float], ...]) -> str:
    net = sum((1 if v > 0 else -1) * (1 if k in _GOOD_UP else -1) for k, v in effects if v)
    return "dearer" if net < 0 else "cheaper" if net > 0 else "different"


def ahead(state: GameState, rule_id: str) -> str:
    """What choosing this rule now does to an option of a stage still to come in this venture:
    each later rule whose `after` names it, from that record ("makes TAKE's option to automate
    the support path to protect margin dearer: the bots meet its bugs"); "" for none. Only the
    options this founder may be offered there; the later card shows the amounts."""
    notes = []
    for later in state.stages[state.stage_index + 1 :]:
        deck = [v for v in DECK.get(later.id, ()) if v.archetype in (None, state.founder.archetype)]
        for v in deck:
            for rid in (v.a[2], v.b[2]):
                # the stage draws its dilemma when it comes: an option only some draws pose is
                # said as one that may come ("if it is offered"), never as a promise
                sure = all(rid in (x.a[2], x.b[2]) for x in deck)
                for a in RULES[rid].after:
                    if a.rule != rule_id:
                        continue
                    reason = a.why.split(": ", 1)[-1]
                    note = (
                        f"makes {later.beat}'s option to {RULES[rid].decided} "
                        f"{_dearer(a.effects)}{'' if sure else ' (if it is offered)'}: {reason}"
                    )
                    if note not in notes:
                        notes.append(note)
    return "; ".join(notes)


def pose(state: GameState, stage: Stage) -> Dilemma:
    """The stage's dilemma in this venture's words: each option's text and trade-off filled from
    the venture and from its own preview, the numbers its effect line shows."""
    v = variant_for(state, stage)
    words = venture_words(state)
    threat = state.economics.threat
    pressure = (
        f"{state.antagonist.name} {doing(state, arc_stage(threat))} "
        f"(threat {meter_shown('threat', threat)}/100)."
    ) + pattern_line(state)
    options = []
    for key, (text, tradeoff, rid) in (("A", v.a), ("B", v.b)):
        after, delta = preview_after(state, rid, stage.id)  # what the receipt would apply
        own = {**words, **preview_words(state.economics, after, delta)}
        options.append(
            Option(
                key=key,  # type: ignore[arg-type]
                text=fill(text, own),
                tradeoff=fill(tradeoff, own),
                rule_id=rid,
                effect_line=effect_line(state.economics, after, delta),
                later=later_line(state, rid),
                ahead=ahead(state, rid),
                hint=hints(RULES[rid], state.economics, made(state), state.founder.company),
                archetype=RULES[rid].archetype,
            )
        )
    return Dilemma(
        stage_id=stage.id,
        title=fill(v.title, words),
        axis=RULES[v.a[2]].axis,
        prompt=f"{fill(v.question, words)} {pressure}",
        options=options,
        family=stage.id,
        variant=v.id,
    )


def interpret(text: str, dilemma: Dilemma, rules: Mapping[str, Rule] = RULES) -> Interpretation:
    """Read an own answer against a posed dilemma (its options and their rules' keywords); words
    that pick no option are the own-answer rule."""
    from engine.language.reader.pick import read_own_answer

    opts: list[tuple[str, str, str, tuple[str, ...]]] = [
        (o.key, o.rule_id, o.text, rules[o.rule_id].keywords if o.rule_id in rules else ())
        for o in dilemma.options
    ]
    read = read_own_answer(text, opts, f"{dilemma.title} {dilemma.prompt}")
    return read if read.option is not None else replace(read, rule_id=OWN_ANSWER.id)


_BROAD = " and others like them"  # a broad audience (a rule's {broad})
_IGNORED_BY = "the big players ignore"


def flanked(customer: str) -> str:
    """The corner of `customer` the rival ignores, without the rival's name (the copy a customer
    reads never carries it): "the nurses the big players ignore"; a broad audience keeps its
    breadth last ("the cafés the big players ignore and others like them")."""
    base = customer.removeprefix("the ")
    broad = base.endswith(_BROAD)
    return f"the {base.removesuffix(_BROAD)} {_IGNORED_BY}" + (_BROAD if broad else "")


def unflanked(customer: str) -> str:
    """The customer a flanked or broad audience names, without the clauses after it ("the
    nurses the big players ignore and others like them" -> "the nurses"): what a price is per."""
    return customer.removesuffix(_BROAD).removesuffix(f" {_IGNORED_BY}")


def option_directions(
    rule_id: str, *, base: Direction, customer: str, stage: str | None
) -> list[Direction]:
    """The content of its own each fork option binds (premium and cheap give different prices,
    depth and breadth different segments, …): the rule's `binds`, resolved from the company now.
    Prices scale `base`, the price in force, and keep its unit ("$19 a meal" → "$10 a meal")."""
    rule = RULES.get(rule_id)
    out = [_bound(b, base, customer) for b in (rule.binds if rule else ())]
    for x in out:
        x.source, x.stage = "decision", stage
    return out


# What a bound value may name, from the customer (the rival is its own slot: never in the copy).
FILLS: dict[str, Callable[[str], str]] = {
    "customer": lambda customer: customer,
    "busiest": busiest,
    "flanked": flanked,
    "broad": lambda customer: f"{customer}{_BROAD}",
}


def _scaled(amount: float, b: Bind) -> float:
    """The price in force times the bind's scale, to the nearest $5 (at least its floor); where
    that lands on the wrong side of a small price ("$3 a knife"), whole dollars instead, so a
    dearer and a cheaper option never bind the price in force."""
    v = float(round(amount * b.scale / 5) * 5)
    v = max(b.floor, v) if b.floor else v
    if b.scale > 1 and v <= amount:
        v = float(max(math.ceil(amount * b.scale), math.floor(amount) + 1))
    elif b.scale < 1 and v >= amount:
        v = float(max(1, math.floor(amount * b.scale)))
        v = v if v < amount else round(amount * b.scale, 2)
    return v


def _bound(b: Bind, base: Direction, customer: str) -> Direction:
    if b.axis == "price":
        d = Direction(
            axis="price",
            value="",
            amount=_scaled(base.amount or 0.0, b) * b.times,
            period=b.period or base.period,
        )
        # a price of its own period (a year up front) is per customer: no unit
        d.unit = None if b.period else base.unit
        d.value = price_words(d)
        return d
    if b.key is not None:
        return Direction(axis=b.axis, key=b.key, value=b.value, amount=b.amount, op=b.op)
    names = {name for _, name, _, _ in Formatter().parse(b.value) if name}
    value = b.value.format(**{n: FILLS[n](customer) for n in names})
    return Direction(axis=b.axis, value=value, do=b.axis not in ("exclusion", "claim"))
