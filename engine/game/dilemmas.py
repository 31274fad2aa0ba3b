"""The dilemma deck: one family of dilemmas per stage, each with variants picked by the company's
state, the seed and the founder archetype, so no question repeats within a venture and two
ventures differ. Every option names its rule; its effect line is a dry run of that rule now, and
`option_directions` is the content of its own it binds the next worker to.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from engine.game.antagonist import doing
from engine.game.economy import arc_stage, meter_shown
from engine.game.models import Dilemma, Economics, GameState, Option, Stage
from engine.game.rules import RULES, Rule, hints, preview
from engine.language.directions import Axis, Direction, price_words
from engine.language.grammar import busiest
from savedb.records import FrozenRecord

if TYPE_CHECKING:
    from engine.language.reading import Interpretation

OPS = {">=": operator.ge, "<": operator.lt}


@dataclass(frozen=True, eq=False, repr=False)
class Variant(FrozenRecord):
    id: str
    title: str
    question: str  # may name {customer}, {company}, {rival}
    a: tuple[str, str, str]  # (option text, trade-off, rule id)
    b: tuple[str, str, str]
    when: tuple[tuple[str, str, float], ...] = ()  # (economics field, ">=" or "<", value), all hold
    archetype: str | None = None  # only this founder archetype sees it (and then always does)

    def holds(self, econ: Economics) -> bool:
        return all(OPS[op](float(getattr(econ, fld)), value) for fld, op, value in self.when)


V = Variant
DECK: dict[str, tuple[Variant, ...]] = {
    "stage_1_you": (
        V(
            "founder_edge",
            "Network or craft?",
            "Where does {company} start?",
            (
                "Network: sell to the people who already know you, warm leads first",
                "early revenue, leans on your reputation",
                "founder.network",
            ),
            (
                "Craft: build one showcase piece before selling anything",
                "proof and a moat, costs cash",
                "founder.craft",
            ),
        ),
        V(
            "founder_time",
            "All in or side income?",
            "How much of your time does {company} get?",
            (
                "Full time: quit and go all in now",
                "speed, and a salary to pay",
                "founder.full_time",
            ),
            (
                "Side income: keep a paid contract on the side to fund the runway",
                "cash, slower work",
                "founder.side_income",
            ),
        ),
    ),
    "stage_2_need": (
        V(
            "depth_breadth",
            "Depth or breadth?",
            "Do we own one niche of {customer} or map the adjacent ones?",
            (
                "Depth: own one niche of {customer} end to end, its most painful workflow",
                "a stable loop and a moat, slower reach",
                "strategist.depth",
            ),
            (
                "Breadth: reach several adjacent segments fast, broad reach",
                "wider reach, pays only if customers trust us",
                "strategist.breadth",
            ),
        ),
        V(
            "evidence",
            "Interviews or a waitlist?",
            "Proof is thin. How do we learn what {customer} need?",
            (
                "Interviews: listen to forty {customer} for evidence first",
                "real evidence, weeks and cash",
                "need.interviews",
            ),
            (
                "Waitlist: put up a launch page and count sign-ups",
                "fast public signal, thin on trust",
                "need.waitlist",
            ),
            when=(("proof", "<", 36),),
        ),
    ),
    "stage_3_go": (
        V(
            "rival_stance",
            "Confront or flank?",
            "{rival} is in the market. Where do we stand?",
            (
                "Confront {rival} head-on, against their weakest promise",
                "revenue if our proof holds, a louder rival",
                "go.confront",
            ),
            (
                "Flank: take the corner of the market {rival} ignores",
                "less heat, less growth",
                "go.flank",
            ),
            when=(("threat", ">=", 16),),
        ),
        V(
            "price_point",
            "Premium or cheap?",
            "What does {company} charge?",
            (
                "Premium: a high price on value, fewer customers",
                "cash per customer, needs trust",
                "go.premium",
            ),
            ("Cheap: a low price for volume", "fast volume, a strained team", "go.cheap"),
        ),
        V(
            "codesign",
            "Confront or co-design?",
            "{rival} is in the market. How do we position?",
            (
                "Confront {rival} head-on, against their weakest promise",
                "revenue if our proof holds, a louder rival",
                "go.confront",
            ),
            (
                "Co-design with ten customers as named design partners",
                "deep trust and proof, slower",
                "designer.codesign",
            ),
            archetype="designer",
        ),
    ),
    "stage_4_search": (
        V(
            "ship_polish",
            "Ship or polish?",
            "The MVP is at 70 percent. Do we launch it?",
            (
                "Ship the 70 percent loop this week and learn from real users",
                "faster learning; rough edges cost trust when trust is thin",
                "designer.ship",
            ),
            (
                "Polish to 95 percent quality: three more weeks",
                "a stronger promise; three weeks of burn, dearer when runway is short",
                "designer.polish",
            ),
        ),
        V(
            "scope",
            "Cut scope or borrow?",
            "Runway is short. What gives?",
            (
                "Cut scope to one feature and retire a role",
                "lower burn for good, severance now: fatal if cash is already thin",
                "search.cut_scope",
            ),
            (
                "Take a bridge loan to keep the full plan",
                "cash now, interest and terms",
                "search.bridge",
            ),
            when=(("runway_months", "<", 1.6),),
        ),
        V(
            "in_house",
            "Ship or build it in-house?",
            "The MVP is at 70 percent. Who finishes it?",
            (
                "Ship the 70 percent loop this week and learn from real users",
                "faster learning; rough edges cost trust when trust is thin",
                "designer.ship",
            ),
            (
                "Build it yourself in-house on your own stack and retire a contractor role",
                "proof and lower burn, a contract to buy out, long nights",
                "builder.in_house",
            ),
            archetype="builder",
        ),
    ),
    "stage_5_find": (
        V(
            "adoption_runway",
            "Adoption or runway?",
            "Which customers do we chase first?",
            (
                "Adoption: a low price for grassroots volume",
                "many users, thin margins",
                "marketer.adoption",
            ),
            (
                "Enterprise: fewer, bigger accounts for runway",
                "cash sooner, narrower reach",
                "marketer.runway",
            ),
        ),
        V(
            "channel",
            "Ads or community?",
            "Where does the next hundred {customer} come from?",
            ("Ads: a paid campaign every month", "reach you pay for monthly", "find.ads"),
            (
                "Community: grow by word of mouth in the {customer} forum",
                "free, slow, strains the team",
                "find.community",
            ),
        ),
        V(
            "presell",
            "Adoption or pre-sales?",
            "Which customers do we chase first?",
            (
                "Adoption: a low price for grassroots volume",
                "many users, thin margins",
                "marketer.adoption",
            ),
            (
                "Pre-sell annual contracts upfront to the warmest leads",
                "cash now, promises to keep",
                "seller.presell",
            ),
            archetype="seller",
        ),
    ),
    "stage_6_take": (
        V(
            "automate_steward",
            "Automate or steward?",
            "Support load is climbing. Who answers customers?",
            (
                "Automate the support path to protect margin",
                "pays past a volume of customers; costs trust where trust is thin",
                "ops.automate",
            ),
            (
                "Keep a human in the loop to protect the promise, a steward",
                "trust holds, costs rise",
                "ops.human_loop",
            ),
        ),
        V(
            "relief",
            "Hire or triage?",
            "The team is stretched. What relieves it?",
            ("Hire help: one more support specialist for relief", "relief, more burn", "take.hire"),
            (
                "Triage: say no to half the backlog",
                "cheap relief, unhappy customers",
                "take.triage",
            ),
            when=(("burn_pressure", ">=", 55),),
        ),
        V(
            "lean",
            "Automate or run lean?",
            "Support load is climbing. How do we carry it?",
            (
                "Automate the support path to protect margin",
                "pays only past a volume of customers",
                "ops.automate",
            ),
            (
                "Run lean: cut costs to the bone, one role fewer",
                "cash, a heavier load",
                "operator.lean",
            ),
            archetype="operator",
        ),
    ),
    "stage_7_return": (
        V(
            "upside",
            "Share the upside or retain it?",
            "The first profits are in sight. Who gets them?",
            (
                "Profit share: share the upside with the team as a bonus",
                "a rested team; the bonus scales with payroll, fatal on a short runway",
                "return.profit_share",
            ),
            (
                "Retain: keep the cash and reinvest it",
                "cash; an unrewarded team strains more the longer the runway",
                "return.retain",
            ),
        ),
        V(
            "alliance",
            "Ally or go alone?",
            "{rival} is pressing hard. Do we need a friend?",
            (
                "Alliance: ally with a larger partner against {rival}",
                "shelter from the rival; the partner's cut grows with your share",
                "return.alliance",
            ),
            (
                "Alone: stay independent and keep our own customers",
                "all the revenue; the rival hits a small company hardest",
                "return.alone",
            ),
            when=(("threat", ">=", 45),),
        ),
    ),
    "stage_8_change": (
        V(
            "ownership",
            "Shareholders or cooperative?",
            "Who should own {company} from here?",
            (
                "Take shareholder capital from investors and blitzscale",
                "cash and a board: growth targets break a team with a small share",
                "ops.shareholder",
            ),
            (
                "Form a worker-owned cooperative built on mutual aid",
                "trust and a rested team; the rival comes for a big share you cannot defend",
                "ops.cooperative",
            ),
        ),
        V(
            "partner_steward",
            "Partner or steward-owned?",
            "A corporate buyer is interested. Who should own {company}?",
            (
                "A strategic partner: the corporate acquirer buys a stake",
                "cash and shelter; integrating a big company strains the team",
                "change.partner",
            ),
            (
                "Steward-owned: put the company in a trust for its purpose",
                "trust and independence; a small company left exposed to the rival",
                "change.steward",
            ),
            when=(("market_share", ">=", 10),),
        ),
    ),
}


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


def pose(state: GameState, stage: Stage) -> Dilemma:
    v = variant_for(state, stage)
    fill = {  # the customer the CEO narrowed to, as the option's content binds it
        # a niche is kept as the CEO named it ("the busiest nurses"); the templates bring their
        # own article ("in the {customer} forum" said "in the the busiest nurses forum")
        "customer": (state.niche or state.founder.customer).removeprefix("the "),
        "company": state.founder.company,
        "rival": state.antagonist.name,
    }
    threat = state.economics.threat
    pressure = (
        f"{state.antagonist.name} {doing(state, arc_stage(threat))} "
        f"(threat {meter_shown('threat', threat)}/100)."
    )
    options = []
    for key, (text, tradeoff, rid) in (("A", v.a), ("B", v.b)):
        options.append(
            Option(
                key=key,  # type: ignore[arg-type]
                text=text.format(**fill),
                tradeoff=tradeoff,
                rule_id=rid,
                effect_line=preview(state, rid, stage.id),
                hint=hints(RULES[rid]),
                archetype=RULES[rid].archetype,
            )
        )
    return Dilemma(
        stage_id=stage.id,
        title=v.title,
        axis=RULES[v.a[2]].axis,
        prompt=f"{v.question.format(**fill)} {pressure}",
        options=options,
        family=stage.id,
        variant=v.id,
    )


def interpret(text: str, dilemma: Dilemma, rules: Mapping[str, Rule] = RULES) -> Interpretation:
    """Read an own answer against a posed dilemma (its options and their rules' keywords)."""
    from engine.language.reading import read_own_answer  # only when a player answers in words

    opts: list[tuple[str, str, str, tuple[str, ...]]] = [
        (o.key, o.rule_id, o.text, rules[o.rule_id].keywords if o.rule_id in rules else ())
        for o in dilemma.options
    ]
    return read_own_answer(text, opts, f"{dilemma.title} {dilemma.prompt}")


def option_directions(
    rule_id: str, *, base: Direction, customer: str, rival: str, stage: str | None
) -> list[Direction]:
    """The content of its own each fork option binds (premium and cheap give different prices,
    depth and breadth different segments, …): rules as data, resolved from the company now.
    Prices scale `base`, the price in force, and keep its unit ("$19 a meal" → "$10 a meal")."""
    amount = base.amount or 0.0
    hi = float(round(amount * 1.8 / 5) * 5)
    lo = float(max(5, round(amount * 0.5 / 5) * 5))
    mid_hi = float(round(amount * 1.4 / 5) * 5)

    def price(v: float, period: str | None = None) -> Direction:
        # a price of its own period (a year up front) is per customer: no unit
        d = Direction(axis="price", value="", amount=v, period=period or base.period)
        d.unit = None if period else base.unit
        d.value = price_words(d)
        return d

    def launch(week: float, op: Literal["eq", "max", "min"]) -> Direction:
        return Direction(
            axis="timeline", key="launch", value=f"week {week:.0f}", amount=week, op=op
        )

    def d(axis: Axis, value: str) -> Direction:
        return Direction(axis=axis, value=value, do=axis not in ("exclusion", "claim"))

    table: dict[str, list[Direction]] = {
        "go.premium": [price(hi)],
        "go.cheap": [price(lo)],
        "marketer.adoption": [price(lo), d("channel", "referrals")],
        "marketer.runway": [price(mid_hi), d("channel", "founder outbound")],
        "seller.presell": [price(hi * 10, "year")],
        "strategist.depth": [d("audience", busiest(customer))],
        "strategist.breadth": [d("audience", f"{customer}{_BROAD}")],
        "go.flank": [d("audience", flanked(customer, rival))],
        "go.confront": [d("scope", f"a side-by-side with {rival}")],
        "need.interviews": [d("scope", "forty customer interviews")],
        "need.waitlist": [d("channel", "a launch page with a waitlist")],
        "designer.codesign": [d("scope", "ten design partners")],
        "designer.ship": [launch(1, "max")],
        "designer.polish": [launch(6, "min")],
        "builder.in_house": [d("scope", "our own stack, built in-house")],
        "search.cut_scope": [d("scope", "one core feature")],
        "search.bridge": [
            Direction(axis="number", key="breakeven", value="month 12", amount=12.0, op="min")
        ],
        "find.ads": [d("channel", "paid ads")],
        "find.community": [d("channel", "the community"), d("exclusion", "paid ads")],
        "take.hire": [d("scope", "a dedicated support hire")],
        "take.triage": [d("scope", "half the backlog, cut")],
        "operator.lean": [d("exclusion", "new hires")],
        "ops.automate": [d("channel", "self-serve help")],
        "ops.human_loop": [d("channel", "a named person on support")],
        "founder.network": [d("channel", "the founder's warm network")],
        "founder.craft": [d("scope", "one showcase piece")],
        "founder.full_time": [launch(2, "max")],
        "founder.side_income": [launch(8, "min")],
        "return.profit_share": [d("scope", "a team profit share")],
        "return.retain": [d("scope", "every dollar reinvested")],
        "return.alliance": [d("channel", "the alliance partner's customers")],
        "return.alone": [d("exclusion", "alliance partners")],
        "ops.shareholder": [d("tone", "formal")],
        "ops.cooperative": [d("scope", "member-owners")],
        "change.partner": [d("scope", "the partner's priorities")],
        "change.steward": [d("scope", "a steward-ownership trust")],
    }
    out = table.get(rule_id, [])
    for x in out:
        x.source, x.stage = "decision", stage
    return out


_BROAD = " and others like them"  # strategist.breadth's audience


def flanked(customer: str, rival: str) -> str:
    """The corner of `customer` the rival ignores: "the nurses Acme ignores"; a broad audience
    keeps its breadth last ("the cafés Acme ignores and others like them", never "the cafés and
    others like them Acme ignores")."""
    base = customer.removeprefix("the ")
    broad = base.endswith(_BROAD)
    return f"the {base.removesuffix(_BROAD)} {rival} ignores" + (_BROAD if broad else "")
