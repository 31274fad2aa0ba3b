"""The consequence rules as data, and the one function that applies a rule to the company.

A rule is a row: adding a rule is adding a row (and a test). An effect is a base amount per field
plus scalings on the company's state (breadth pays when trust is high and hurts when it is thin),
then the founder archetype's factor. Fields: the meters (proof, trust, velocity, burn_pressure,
autonomy, threat), `revenue` ($/month, booked as market share), `cash` ($ once) and `overhead`
($/month of non-payroll cost). A rule may add a role (burn rises by its cost) and may retire an
earlier decision's role (burn falls by its cost). What the option shows before the choice is
computed by applying the rule to a copy of the company, so it is exactly what the receipt applies.

A rule is one record: besides its effects, the row holds the fork option that offers it (text,
trade-off, the dilemma variants it is offered in: engine.game.dilemmas), the directions the option
binds, the verb phrase the simulated worker writes, the receipt's words for the decision, and its
roles in the ending (who owns the company) and the revenue plan (how fast customers grow). A rule
id is named here and nowhere else in the product.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Literal

from engine.game.archetypes import ARCHETYPE_RULES, effect_factor
from engine.game.economy import (
    METER_NAMES,
    METERS,
    ROLE_COST_BY_LIFECYCLE,
    bump,
    org_burn,
    recompute,
)
from engine.game.models import Economics, GameState, Hint, OrgDelta, Worker, WorkerKind
from engine.language.directions import Axis, Op
from savedb.records import FrozenRecord
from textkit import slug
from textkit.numbers import usd

EFFECT_FIELDS = (*METERS, "revenue", "cash", "overhead")
LABEL = {k: name.capitalize() for k, name in METER_NAMES.items()}  # one name per meter


@dataclass(frozen=True, eq=False, repr=False)
class Scale(FrozenRecord):
    """effect[field] += per x (state[metric] - pivot), kept within [lo, hi]."""

    field: str
    metric: str
    pivot: float
    per: float
    lo: float
    hi: float

    def amount(self, econ: Economics) -> float:
        return min(
            self.hi, max(self.lo, self.per * (float(getattr(econ, self.metric)) - self.pivot))
        )

    def hint(self) -> str:
        """How state sizes the effect, in words: "more revenue when trust is above 40, less below"."""
        what = "strain" if self.field == "burn_pressure" else self.field.replace("_", " ")
        metric = {
            "paying_customers": "paying customers",
            "runway_months": "runway",
            "burn_pressure": "strain",
            "market_share": "market share",
            "monthly_burn_usd": "monthly burn",
        }.get(self.metric, self.metric)
        pivot = {
            "runway_months": f"{self.pivot:g} months",
            "market_share": f"{self.pivot:g}%",
            "monthly_burn_usd": usd(self.pivot),
        }.get(self.metric, f"{self.pivot:g}")
        if self.pivot == 0:  # no pivot to cross: the effect just follows the metric
            return f"{'more' if self.per > 0 else 'less'} {what} the higher the {metric}"
        side, other = ("above", "below") if self.per > 0 else ("below", "above")
        verb = "are" if metric.endswith("customers") else "is"
        return f"more {what} when {metric} {verb} {side} {pivot}, less {other}"


@dataclass(frozen=True, eq=False, repr=False)
class Role(FrozenRecord):
    title: str
    lifecycle: str
    hint: Hint = "fast"
    kind: WorkerKind = "digital_worker"


@dataclass(frozen=True, eq=False, repr=False)
class Offer(FrozenRecord):
    """Where the fork offers a rule: a dilemma variant (engine.game.dilemmas) and its side, with
    the variant's own wording of the trade-off where it differs from the rule's."""

    variant: str
    key: Literal["A", "B"]
    tradeoff: str | None = None


@dataclass(frozen=True, eq=False, repr=False)
class Bind(FrozenRecord):
    """One direction a fork option binds, resolved from the company when it is chosen
    (engine.game.dilemmas.option_directions). A price is the price in force times `scale`, to the
    nearest $5 (at least `floor`), times `times`, per `period` (its own period has no unit); a
    keyed number binds `amount` by `op`; any other value may name {customer}, {rival},
    {busiest} (the customer's busiest), {flanked} (the corner the rival ignores), {broad} (the
    customer and others like them)."""

    axis: Axis
    value: str = ""
    scale: float = 0.0
    floor: float = 0.0
    times: float = 1.0
    period: str | None = None
    key: str | None = None
    amount: float | None = None
    op: Op = "eq"


def price(
    scale: float, *, floor: float = 0.0, times: float = 1.0, period: str | None = None
) -> Bind:
    return Bind("price", scale=scale, floor=floor, times=times, period=period)


def says(axis: Axis, value: str) -> Bind:
    return Bind(axis, value)


def launch(week: float, op: Op) -> Bind:
    return Bind("timeline", f"week {week:.0f}", key="launch", amount=float(week), op=op)


@dataclass(frozen=True, eq=False, repr=False)
class Rule(FrozenRecord):
    id: str
    axis: str
    keywords: tuple[str, ...]
    summary: str
    principle: str
    effects: tuple[tuple[str, float], ...]
    scales: tuple[Scale, ...] = ()
    role: Role | None = None
    retires: bool = False  # retire the oldest active role an earlier decision added
    threat: float = 4  # how hard the rival answers it
    tags: tuple[str, ...] = ()  # what the rival may punish (engine/game/antagonist.py)
    flag: str | None = None
    archetype: str | None = None  # only this founder archetype is offered the rule
    option: str = ""  # the fork option's text (may name {customer}, {company}, {rival})
    tradeoff: str = ""  # what the option costs, in words
    offered: tuple[Offer, ...] = ()  # the dilemma variants that offer it
    binds: tuple[Bind, ...] = ()  # the content of its own the option binds the next worker to
    verb: str = ""  # the simulated worker's verb phrase ("Because you chose to …")
    decided: str = ""  # the decision in words, for receipts, reports and standups
    ownership: Literal["insiders", "outsiders"] | None = None  # who owns the company after it
    growth: Literal["volume", "steady"] = "steady"  # how fast a revenue plan's customers grow
    own_answer: bool = False  # the rule an own answer that fits no option is


def make_rule(
    id: str,
    axis: str,
    keywords: str,
    summary: str,
    principle: str,
    effects: dict[str, float],
    *scales: Scale,
    role: Role | None = None,
    retires: bool = False,
    threat: float = 4,
    tags: str = "",
    flag: str | None = None,
    archetype: str | None = None,
    option: str = "",
    tradeoff: str = "",
    offered: tuple[Offer, ...] = (),
    binds: tuple[Bind, ...] = (),
    verb: str = "",
    decided: str = "",
    ownership: Literal["insiders", "outsiders"] | None = None,
    growth: Literal["volume", "steady"] = "steady",
    own_answer: bool = False,
) -> Rule:
    """One row of a rules table: keywords comma-separated, tags space-separated."""
    return Rule(
        id,
        axis,
        tuple(k.strip() for k in keywords.split(",")),
        summary,
        principle,
        tuple(effects.items()),
        tuple(scales),
        role,
        retires,
        threat,
        tuple(tags.split()),
        flag,
        archetype,
        option,
        tradeoff,
        offered,
        binds,
        verb,
        decided,
        ownership,
        growth,
        own_answer,
    )


S = Scale

RULES: dict[str, Rule] = {
    r.id: r
    for r in [
        # ---- stage 1 YOU: where the founder starts
        make_rule(
            "founder.network",
            "founder_edge",
            "network, warm, people who know",
            "The first customers come from the founder's own network.",
            "Start with who you know",
            {"revenue": 1_400, "trust": 3, "burn_pressure": 5},
            S("revenue", "trust", 40, 60, -1_200, 1_500),
            tags="wide",
            option="Network: sell to the people who already know you, warm leads first",
            tradeoff="early revenue, leans on your reputation",
            offered=(Offer("founder_edge", "A"),),
            binds=(says("channel", "the founder's warm network"),),
            verb="sell first to your warm network, the people who know you",
            decided="sell first to your warm network, the people who know you",
        ),
        make_rule(
            "founder.craft",
            "founder_edge",
            "craft, showcase, portfolio",
            "The founder builds one showcase piece before selling anything.",
            "Show, don't tell",
            {"proof": 9, "threat": -3, "cash": -4_000},
            S("proof", "proof", 25, -0.25, -6, 4),
            tags="slow",
            option="Craft: build one showcase piece before selling anything",
            tradeoff="proof and a moat, costs cash",
            offered=(Offer("founder_edge", "B"),),
            binds=(says("scope", "one showcase piece"),),
            verb="craft one showcase piece before selling anything",
            decided="craft one showcase piece before selling anything",
        ),
        make_rule(
            "founder.full_time",
            "founder_time",
            "full time, all in, quit",
            "The founder goes all in: faster work, a salary to pay.",
            "Burn the boats",
            {"velocity": 8, "proof": 4, "burn_pressure": 6, "overhead": 2_000},
            S("velocity", "burn_pressure", 40, -0.3, -6, 3),
            option="Full time: quit and go all in now",
            tradeoff="speed, and a salary to pay",
            offered=(Offer("founder_time", "A"),),
            binds=(launch(2, "max"),),
            verb="quit and go all in, full time, now",
            decided="quit and go all in, full time, now",
        ),
        make_rule(
            "founder.side_income",
            "founder_time",
            "side, contract, day job",
            "A paid contract on the side funds the runway and slows the work.",
            "Fund it yourself",
            {"cash": 9_000, "velocity": -8, "threat": 4},
            S("cash", "runway_months", 2, -3_000, -3_000, 4_000),
            tags="slow",
            option="Side income: keep a paid contract on the side to fund the runway",
            tradeoff="cash, slower work",
            offered=(Offer("founder_time", "B"),),
            binds=(launch(8, "min"),),
            verb="keep a side contract that funds the runway",
            decided="keep a side contract that funds the runway",
        ),
        # ---- stage 2 NEED: focus
        make_rule(
            "strategist.depth",
            "depth_vs_breadth",
            "depth, niche, painful workflow, moat",
            "The company narrows to one customer segment and owns its hardest workflow.",
            "Beachhead strategy",
            {"proof": 8, "trust": 2, "velocity": -4, "threat": -4},
            S("revenue", "proof", 30, 40, -600, 1_200),
            role=Role("Niche Research Analyst", "discovery", "reasoning"),
            tags="slow",
            option="Depth: own one niche of {customer} end to end, its most painful workflow",
            tradeoff="a stable loop and a moat, slower reach",
            offered=(Offer("depth_breadth", "A"),),
            binds=(says("audience", "{busiest}"),),
            verb="go deep on one niche and own its most painful workflow",
            decided="go deep on one niche and own its most painful workflow",
        ),
        make_rule(
            "strategist.breadth",
            "depth_vs_breadth",
            "breadth, broad, adjacent, reach",
            "The company maps adjacent segments quickly, trading proof for reach.",
            "Optionality versus focus",
            {"revenue": 1_800, "velocity": 8, "trust": -2, "burn_pressure": 3},
            S("revenue", "trust", 40, 90, -2_000, 2_000),
            S("trust", "trust", 40, 0.15, -4, 3),
            threat=5,
            tags="wide",
            flag="competitor_leakage",
            option="Breadth: reach several adjacent segments fast, broad reach",
            tradeoff="wider reach, pays only if customers trust us",
            offered=(Offer("depth_breadth", "B"),),
            binds=(says("audience", "{broad}"),),
            verb="reach several adjacent segments with a broad offer",
            decided="reach several adjacent segments with a broad offer",
        ),
        make_rule(
            "need.interviews",
            "evidence",
            "interviews, listen, evidence",
            "Forty customer interviews before a line of code.",
            "Evidence before building",
            {"proof": 7, "trust": 3, "velocity": -5, "cash": -4_000},
            S("trust", "trust", 40, -0.2, -3, 5),
            tags="slow",
            option="Interviews: listen to forty {customer} for evidence first",
            tradeoff="real evidence, weeks and cash",
            offered=(Offer("evidence", "A"),),
            binds=(says("scope", "forty customer interviews"),),
            verb="run forty interviews and listen before writing code",
            decided="run forty interviews and listen before writing code",
        ),
        make_rule(
            "need.waitlist",
            "evidence",
            "waitlist, launch page, sign-ups",
            "A launch page and a waitlist test demand in public.",
            "Test the market in the open",
            {"revenue": 2_000, "velocity": 6, "trust": -2, "threat": 2},
            S("revenue", "velocity", 50, 60, -1_200, 1_500),
            tags="wide",
            option="Waitlist: put up a launch page and count sign-ups",
            tradeoff="fast public signal, thin on trust",
            offered=(Offer("evidence", "B"),),
            binds=(says("channel", "a launch page with a waitlist"),),
            verb="put up a launch page and count the waitlist sign-ups",
            decided="put up a launch page and count the waitlist sign-ups",
        ),
        # ---- stage 3 GO: position against the rival
        make_rule(
            "go.confront",
            "rival_stance",
            "confront, head-on, against",
            "The company positions itself head-on against the rival.",
            "Attack the leader's weakness",
            {"revenue": 3_200, "threat": 3, "velocity": 3},
            S("revenue", "proof", 35, 80, -2_000, 2_200),
            S("threat", "proof", 35, -0.15, -4, 4),
            threat=6,
            tags="wide",
            option="Confront {rival} head-on, against their weakest promise",
            tradeoff="revenue if our proof holds, a louder rival",
            offered=(
                Offer("rival_stance", "A"),
                Offer("codesign", "A"),
            ),
            binds=(says("scope", "a side-by-side with {rival}"),),
            verb="confront the rival head-on, against its weakest promise",
            decided="confront the rival head-on, against its weakest promise",
        ),
        make_rule(
            "go.flank",
            "rival_stance",
            "flank, ignored, corner",
            "The company takes a corner of the market the rival ignores.",
            "Flank, don't fight",
            {"threat": -4, "trust": 1},
            S("revenue", "market_share", 5, -150, -800, 600),
            threat=2,
            tags="slow",
            option="Flank: take the corner of the market {rival} ignores",
            tradeoff="less heat, less growth",
            offered=(Offer("rival_stance", "B"),),
            binds=(says("audience", "{flanked}"),),
            verb="flank the rival and take the corner it ignored",
            decided="flank the rival and take the corner it ignored",
        ),
        make_rule(
            "go.premium",
            "price_point",
            "premium, high price, value",
            "A premium price: fewer customers, each worth more.",
            "Price on value",
            {"revenue": 1_000, "cash": 1_000, "velocity": -4},
            S("revenue", "trust", 30, 50, -1_800, 1_200),
            tags="premium",
            option="Premium: a high price on value, fewer customers",
            tradeoff="cash per customer, needs trust",
            offered=(Offer("price_point", "A"),),
            binds=(price(1.8),),
            verb="charge a premium, a high price for clear value",
            decided="charge a premium, a high price for clear value",
        ),
        make_rule(
            "go.cheap",
            "price_point",
            "cheap, low price, volume",
            "A low price to win volume fast.",
            "Penetration pricing",
            {"revenue": 2_200, "velocity": 6, "burn_pressure": 5, "proof": -3},
            S("burn_pressure", "autonomy", 40, -0.15, -4, 4),
            threat=4,
            tags="wide",
            option="Cheap: a low price for volume",
            tradeoff="fast volume, a strained team",
            offered=(Offer("price_point", "B"),),
            binds=(price(0.5, floor=5),),
            verb="win volume with a cheap, low price",
            decided="win volume with a cheap, low price",
        ),
        make_rule(
            "designer.codesign",
            "co_design",
            "co-design, design partners, ten customers",
            "Ten customers co-design the product as named design partners.",
            "Design with, not for",
            {"trust": 8, "proof": 6, "velocity": -5, "cash": -2_000},
            threat=2,
            tags="slow",
            archetype="designer",
            option="Co-design with ten customers as named design partners",
            tradeoff="deep trust and proof, slower",
            offered=(Offer("codesign", "B"),),
            binds=(says("scope", "ten design partners"),),
            verb="co-design the product with ten customers as design partners",
            decided="co-design the product with ten customers as design partners",
        ),
        # ---- stage 4 SEARCH: the first loop
        make_rule(
            "designer.ship",
            "speed_vs_quality",
            "ship, 70 percent, real users, this week",
            "The first version goes out now and real users shape the next one.",
            "Build, measure, learn",
            {"revenue": 1_600, "velocity": 8, "proof": 4, "trust": -1},
            S("trust", "trust", 30, 0.3, -8, 4),
            S("revenue", "trust", 40, 50, -1_200, 1_200),
            threat=6,
            tags="wide",
            flag="competitor_friction",
            option="Ship the 70 percent loop this week and learn from real users",
            tradeoff="faster learning; rough edges cost trust when trust is thin",
            offered=(
                Offer("ship_polish", "A"),
                Offer("in_house", "A"),
            ),
            binds=(launch(1, "max"),),
            verb="ship the 70 percent version this week and learn from real users",
            decided="ship the 70 percent version this week and learn from real users",
            growth="volume",
        ),
        make_rule(
            "designer.polish",
            "speed_vs_quality",
            "polish, 95 percent, quality",
            "The launch waits for a finished product; quality becomes the promise.",
            "Quality as a moat",
            {"trust": 6, "proof": 5, "velocity": -6},
            S("cash", "monthly_burn_usd", 0, -0.55, -22_000, 0),
            S("cash", "runway_months", 2, 3_000, -6_000, 2_000),
            threat=5,
            tags="slow",
            option="Polish to 95 percent quality: three more weeks",
            tradeoff="a stronger promise; three weeks of burn, dearer when runway is short",
            offered=(Offer("ship_polish", "B"),),
            binds=(launch(6, "min"),),
            verb="polish the product to 95 percent quality before launch",
            decided="polish the product to 95 percent quality before launch",
        ),
        make_rule(
            "search.cut_scope",
            "scope",
            "cut scope, one feature, smaller",
            "Scope shrinks to one feature; a role goes and the runway stretches.",
            "Do less, better",
            {"proof": -3, "velocity": -3, "burn_pressure": -6, "cash": -7_000},
            retires=True,
            tags="slow",
            option="Cut scope to one feature and retire a role",
            tradeoff="lower burn for good, severance now: fatal if cash is already thin",
            offered=(Offer("scope", "A"),),
            binds=(says("scope", "one core feature"),),
            verb="cut scope to one feature and run smaller",
            decided="cut scope to one feature and run smaller",
        ),
        make_rule(
            "search.bridge",
            "scope",
            "bridge, loan, borrow",
            "A bridge loan buys time; the interest and the lender's terms follow.",
            "Buy time",
            {"cash": 12_000, "autonomy": -8, "overhead": 1_500, "burn_pressure": 4},
            threat=3,
            option="Take a bridge loan to keep the full plan",
            tradeoff="cash now, interest and terms",
            offered=(Offer("scope", "B"),),
            binds=(Bind("number", "month 12", key="breakeven", amount=12.0, op="min"),),
            verb="borrow on a bridge loan to buy time",
            decided="borrow on a bridge loan to buy time",
        ),
        make_rule(
            "builder.in_house",
            "speed_vs_quality",
            "in-house, build it yourself, own stack",
            "The founder builds the MVP in-house; a contractor role goes, the hours pile up.",
            "Own the core",
            {"proof": 8, "velocity": 4, "burn_pressure": 10, "cash": -3_000},
            retires=True,
            archetype="builder",
            tags="slow",
            option="Build it yourself in-house on your own stack and retire a contractor role",
            tradeoff="proof and lower burn, a contract to buy out, long nights",
            offered=(Offer("in_house", "B"),),
            binds=(says("scope", "our own stack, built in-house"),),
            verb="build it in-house, on our own stack",
            decided="build it in-house, on our own stack",
        ),
        # ---- stage 5 FIND: traction
        make_rule(
            "marketer.adoption",
            "volume_vs_value",
            "adoption, low price, grassroots, volume",
            "A low price buys grassroots adoption and a louder community.",
            "Land-grab pricing",
            {"revenue": 2_600, "velocity": 6, "burn_pressure": 4, "overhead": 1_000},
            S("revenue", "trust", 30, 70, -1_800, 1_800),
            threat=7,
            tags="wide",
            flag="competitor_pricing_clash",
            option="Adoption: a low price for grassroots volume",
            tradeoff="many users, thin margins",
            offered=(
                Offer("adoption_runway", "A"),
                Offer("presell", "A"),
            ),
            binds=(
                price(0.5, floor=5),
                says("channel", "referrals"),
            ),
            verb="price low for grassroots adoption and volume",
            decided="price low for grassroots adoption and volume",
            growth="volume",
        ),
        make_rule(
            "marketer.runway",
            "volume_vs_value",
            "enterprise, bigger accounts, fewer, runway",
            "Fewer, larger accounts extend the runway at the cost of reach.",
            "Move upmarket",
            {"cash": 4_000, "trust": 1, "velocity": -5},
            S("cash", "proof", 35, 250, -4_000, 8_000),
            role=Role("Enterprise Deal Desk", "gtm", "creative"),
            tags="premium",
            option="Enterprise: fewer, bigger accounts for runway",
            tradeoff="cash sooner, narrower reach",
            offered=(Offer("adoption_runway", "B"),),
            binds=(
                price(1.4),
                says("channel", "founder outbound"),
            ),
            verb="sell to fewer, bigger enterprise accounts to extend runway",
            decided="sell to fewer, bigger enterprise accounts to extend runway",
        ),
        make_rule(
            "find.ads",
            "channel",
            "ads, paid, campaign",
            "Paid campaigns buy attention at a monthly price.",
            "Pay for reach",
            {"revenue": 3_000, "overhead": 2_500, "trust": -1},
            S("revenue", "proof", 35, 50, -1_200, 1_500),
            threat=5,
            tags="wide",
            option="Ads: a paid campaign every month",
            tradeoff="reach you pay for monthly",
            offered=(Offer("channel", "A"),),
            binds=(says("channel", "paid ads"),),
            verb="run a paid ads campaign",
            decided="run a paid ads campaign",
        ),
        make_rule(
            "find.community",
            "channel",
            "community, word of mouth, forum",
            "The company grows through its users' community, slowly and for free.",
            "Community as a channel",
            {"trust": 3, "burn_pressure": 5, "revenue": 600},
            S("revenue", "trust", 40, 80, -800, 2_000),
            tags="slow",
            option="Community: grow by word of mouth in the {customer} forum",
            tradeoff="free, slow, strains the team",
            offered=(Offer("channel", "B"),),
            binds=(
                says("channel", "the community"),
                says("exclusion", "paid ads"),
            ),
            verb="grow through the users' community and word of mouth",
            decided="grow through the users' community and word of mouth",
        ),
        make_rule(
            "seller.presell",
            "volume_vs_value",
            "pre-sell, annual contracts, upfront",
            "Annual contracts are pre-sold: cash now, promises to keep.",
            "Sell before you build",
            {"cash": 12_000, "trust": -5, "burn_pressure": 6},
            S("cash", "trust", 40, 250, -5_000, 5_000),
            archetype="seller",
            tags="premium",
            option="Pre-sell annual contracts upfront to the warmest leads",
            tradeoff="cash now, promises to keep",
            offered=(Offer("presell", "B"),),
            binds=(price(1.8, times=10, period="year"),),
            verb="pre-sell annual contracts upfront to the warmest leads",
            decided="pre-sell annual contracts upfront to the warmest leads",
        ),
        # ---- stage 6 TAKE: the operating toll
        make_rule(
            "ops.automate",
            "leverage_vs_trust",
            "automate, automation, margin",
            "Support runs on automation; margin improves and the human touch thins.",
            "Operating leverage",
            {"autonomy": 10, "burn_pressure": -4, "trust": -1},
            S("burn_pressure", "paying_customers", 90, -0.09, -10, 6),
            S("trust", "paying_customers", 90, -0.045, -6, 3),
            S("trust", "trust", 30, 0.25, -6, 2),
            role=Role("Support Automation Agent", "retention"),
            retires=True,
            threat=6,
            tags="cold",
            flag="competitor_churn_risk",
            option="Automate the support path to protect margin",
            tradeoff="pays past a volume of customers; costs trust where trust is thin",
            offered=(
                Offer("automate_steward", "A"),
                Offer("lean", "A", "pays only past a volume of customers"),
            ),
            binds=(says("channel", "self-serve help"),),
            verb="automate the support path to protect margin",
            decided="automate the support path to protect margin",
        ),
        make_rule(
            "ops.human_loop",
            "leverage_vs_trust",
            "human in the loop, protect the promise, steward",
            "A person stays in the support loop; the promise holds and costs rise.",
            "Trust over margin",
            {"trust": 10, "burn_pressure": 2},
            S("trust", "trust", 40, -0.15, -4, 5),
            role=Role("Customer Steward", "ops", "fast", "hybrid"),
            threat=4,
            tags="slow",
            option="Keep a human in the loop to protect the promise, a steward",
            tradeoff="trust holds, costs rise",
            offered=(Offer("automate_steward", "B"),),
            binds=(says("channel", "a named person on support"),),
            verb="keep a human in the loop to protect the promise",
            decided="keep a human in the loop to protect the promise",
        ),
        make_rule(
            "take.hire",
            "relief",
            "hire, help, relief",
            "A new support hire takes the load off the team.",
            "Hire ahead of the pain",
            {"burn_pressure": -12, "velocity": 3},
            S("burn_pressure", "burn_pressure", 60, -0.2, -6, 4),
            role=Role("Support Specialist", "retention"),
            threat=3,
            option="Hire help: one more support specialist for relief",
            tradeoff="relief, more burn",
            offered=(Offer("relief", "A"),),
            binds=(says("scope", "a dedicated support hire"),),
            verb="hire support help to give the team relief",
            decided="hire support help to give the team relief",
        ),
        make_rule(
            "take.triage",
            "relief",
            "triage, say no, backlog",
            "The team says no to half the backlog and keeps its cash.",
            "Focus by saying no",
            {"burn_pressure": -5, "velocity": -5, "trust": -2, "cash": 4_000},
            tags="cold",
            option="Triage: say no to half the backlog",
            tradeoff="cheap relief, unhappy customers",
            offered=(Offer("relief", "B"),),
            binds=(says("scope", "half the backlog, cut"),),
            verb="triage the backlog and say no to half of it",
            decided="triage the backlog and say no to half of it",
        ),
        make_rule(
            "operator.lean",
            "leverage_vs_trust",
            "lean, cut costs, bone",
            "The org runs lean: a role goes and the rest carry more.",
            "Lean operations",
            {"burn_pressure": 8, "velocity": -3, "cash": 3_000},
            retires=True,
            archetype="operator",
            tags="cold",
            option="Run lean: cut costs to the bone, one role fewer",
            tradeoff="cash, a heavier load",
            offered=(Offer("lean", "B"),),
            binds=(says("exclusion", "new hires"),),
            verb="run lean and cut costs to the bone",
            decided="run lean and cut costs to the bone",
        ),
        # ---- stage 7 RETURN: what the company gives back
        make_rule(
            "return.profit_share",
            "upside",
            "profit share, share the upside, bonus",
            "The team gets a share of the upside; the cash it costs is gone.",
            "Share the upside",
            {"burn_pressure": -12, "trust": 1, "cash": -2_000},
            S("burn_pressure", "burn_pressure", 50, -0.1, -4, 3),
            S("cash", "monthly_burn_usd", 0, -0.2, -10_000, 0),
            tags="slow",
            option="Profit share: share the upside with the team as a bonus",
            tradeoff="a rested team; the bonus scales with payroll, fatal on a short runway",
            offered=(Offer("upside", "A"),),
            binds=(says("scope", "a team profit share"),),
            verb="give the team a profit share, a bonus from the upside",
            decided="give the team a profit share, a bonus from the upside",
        ),
        make_rule(
            "return.retain",
            "upside",
            "retain, keep the cash, reinvest",
            "Every dollar stays in the company; the team carries on unrewarded.",
            "Retained earnings",
            {"cash": 12_000, "burn_pressure": 4},
            S("burn_pressure", "runway_months", 1.5, 8, -6, 20),
            S("cash", "market_share", 10, 400, -2_000, 4_000),
            tags="cold",
            option="Retain: keep the cash and reinvest it",
            tradeoff="cash; an unrewarded team strains more the longer the runway",
            offered=(Offer("upside", "B"),),
            binds=(says("scope", "every dollar reinvested"),),
            verb="retain every dollar, keep the cash and reinvest it",
            decided="retain every dollar, keep the cash and reinvest it",
        ),
        make_rule(
            "return.alliance",
            "alliance",
            "alliance, partner, ally",
            "An alliance with a larger partner shields the company; the partner takes a cut.",
            "Strength in numbers",
            {"threat": -6, "autonomy": -8, "revenue": -600},
            S("revenue", "market_share", 0, -200, -5_000, 0),
            threat=0,
            option="Alliance: ally with a larger partner against {rival}",
            tradeoff="shelter from the rival; the partner's cut grows with your share",
            offered=(Offer("alliance", "A"),),
            binds=(says("channel", "the alliance partner's customers"),),
            verb="ally with a larger partner in an alliance",
            decided="ally with a larger partner in an alliance",
        ),
        make_rule(
            "return.alone",
            "alliance",
            "alone, independent, our own",
            "The company stays on its own and keeps every customer it wins.",
            "Go it alone",
            {"autonomy": 6, "revenue": 3_600},
            S("threat", "proof", 50, -0.2, -6, 4),
            S("threat", "market_share", 17, -5, -10, 20),
            threat=1,
            tags="wide",
            option="Alone: stay independent and keep our own customers",
            tradeoff="all the revenue; the rival hits a small company hardest",
            offered=(Offer("alliance", "B"),),
            binds=(says("exclusion", "alliance partners"),),
            verb="stay independent and go it alone, on our own",
            decided="stay independent and go it alone, on our own",
        ),
        # ---- stage 8 CHANGE: ownership
        make_rule(
            "ops.shareholder",
            "ownership",
            "shareholder, venture capital, blitzscale, investors",
            "Outside capital arrives with growth targets and a board seat.",
            "Blitzscaling",
            {"cash": 36_000, "threat": -4, "trust": -4, "burn_pressure": 8, "autonomy": -20},
            S("cash", "proof", 40, 600, -15_000, 20_000),
            S("burn_pressure", "market_share", 22.5, -16, -5, 40),
            threat=4,
            flag="competitor_consolidation",
            option="Take shareholder capital from investors and blitzscale",
            tradeoff="cash and a board: growth targets break a team with a small share",
            offered=(Offer("ownership", "A"),),
            binds=(says("tone", "formal"),),
            verb="raise shareholder capital and blitzscale",
            decided="raise shareholder capital and blitzscale",
            ownership="outsiders",
            growth="volume",
        ),
        make_rule(
            "ops.cooperative",
            "ownership",
            "cooperative, co-op, mutual aid, worker-owned",
            "Workers and customers become owners; growth slows and trust deepens.",
            "Stakeholder ownership",
            {
                "trust": 14,
                "burn_pressure": -10,
                "velocity": -8,
                "autonomy": 15,
                "cash": 4_000,
            },
            S("threat", "market_share", 22.5, 16, -8, 40),
            S("trust", "trust", 40, 0.15, -4, 6),
            S("cash", "trust", 30, 300, -4_000, 9_000),
            threat=1,
            tags="slow",
            flag="coop_alliance_active",
            option="Form a worker-owned cooperative built on mutual aid",
            tradeoff="trust and a rested team; the rival comes for a big share you cannot defend",
            offered=(Offer("ownership", "B"),),
            binds=(says("scope", "member-owners"),),
            verb="become a worker-owned cooperative built on mutual aid",
            decided="become a worker-owned cooperative built on mutual aid",
            ownership="insiders",
        ),
        make_rule(
            "change.partner",
            "ownership",
            "strategic partner, acquirer, corporate",
            "A strategic partner buys in: cash and shelter, and its priorities now count.",
            "Strategic capital",
            {"cash": 24_000, "threat": -15, "autonomy": -25, "trust": -3, "burn_pressure": 4},
            S("burn_pressure", "market_share", 24, 16, -8, 40),
            S("cash", "market_share", 10, 1_000, -8_000, 10_000),
            threat=0,
            option="A strategic partner: the corporate acquirer buys a stake",
            tradeoff="cash and shelter; integrating a big company strains the team",
            offered=(Offer("partner_steward", "A"),),
            binds=(says("scope", "the partner's priorities"),),
            verb="bring in a strategic partner with corporate money and priorities",
            decided="bring in a strategic partner with corporate money and priorities",
            ownership="outsiders",
        ),
        make_rule(
            "change.steward",
            "ownership",
            "steward-owned, trust, purpose",
            "The company is put in a steward-ownership trust: it cannot be sold.",
            "Steward ownership",
            {"trust": 10, "autonomy": 12, "burn_pressure": -8, "cash": -3_000, "threat": 4},
            S("threat", "market_share", 24, -16, -8, 40),
            S("burn_pressure", "burn_pressure", 50, -0.2, -6, 4),
            threat=1,
            tags="slow",
            option="Steward-owned: put the company in a trust for its purpose",
            tradeoff="trust and independence; a small company left exposed to the rival",
            offered=(Offer("partner_steward", "B"),),
            binds=(says("scope", "a steward-ownership trust"),),
            verb="put the company in a steward-owned purpose trust",
            decided="put the company in a steward-owned purpose trust",
            ownership="insiders",
        ),
        # ---- own answers nothing else fits
        make_rule(
            "custom.default",
            "custom",
            "",
            "The CEO's own direction becomes the constraint every worker follows.",
            "Constraint-driven strategy",
            {"proof": 2, "trust": 2, "burn_pressure": 3, "threat": 2},
            own_answer=True,
        ),
    ]
}


OWN_ANSWER = next(r for r in RULES.values() if r.own_answer)


def decided_words(rule_id: str | None) -> str:
    """The receipt's words for a decision ("go deep on one niche …"), "" for an own answer or an
    unknown id (the caller then quotes what the CEO said)."""
    rule = RULES.get(rule_id or "")
    return rule.decided if rule is not None else ""


def verb_phrase(rule_id: str | None) -> str:
    """The simulated worker's verb phrase for a decision, "" where it has none."""
    rule = RULES.get(rule_id or "")
    return rule.verb if rule is not None else ""


def resolve(rule: Rule, econ: Economics, archetype: str) -> dict[str, float]:
    """The rule's effect on this company now: base + state scalings, times the archetype's factor."""
    eff = {k: 0.0 for k in EFFECT_FIELDS}
    for k, v in rule.effects:
        eff[k] += v
    for sc in rule.scales:
        eff[sc.field] += sc.amount(econ)
    out = {}
    for k, raw in eff.items():
        if raw:
            v = raw * effect_factor(archetype, k, raw)
            out[k] = float(round(v)) if k in ("revenue", "cash", "overhead") else round(v, 1)
    return {k: v for k, v in out.items() if v}


def hints(rule: Rule) -> str:
    return "; ".join(sc.hint() for sc in rule.scales)


def role_cost(rule: Rule, archetype: str) -> float:
    assert rule.role is not None
    return float(
        round(ROLE_COST_BY_LIFECYCLE[rule.role.lifecycle] * ARCHETYPE_RULES[archetype].role_cost)
    )


def _apply(state: GameState, rule: Rule, stage_id: str) -> OrgDelta:
    """Apply a rule to the state's numbers, org and flags in place (the real ones or a preview's
    copies). A retirement takes the oldest role an earlier decision added, else a founding worker
    whose stages are all done (never one who owns the current stage or a later one)."""
    econ, org, archetype = state.economics, state.org, state.founder.archetype
    keep = {s.worker_id for s in state.stages[state.stage_index :]}
    eff = resolve(rule, econ, archetype)
    org_delta = OrgDelta()
    if rule.retires:
        spawned = [w for w in org if w.active and w.spawned_by]
        idle = [
            w
            for w in org
            if w.active and w.kind != "human" and not w.spawned_by and w.id not in keep
        ]
        if spawned or idle:
            retired = (spawned or idle)[0]
            retired.active = False
            org_delta.removed_role_id, org_delta.removed_role_title = retired.id, retired.title
    if rule.role is not None:
        cost = role_cost(rule, archetype)
        boss = next((s.worker_id for s in state.stages if s.id == stage_id), "operator")
        role_id = f"role_{slug(stage_id, 20, ascii_only=True)}_{slug(rule.id, 30, ascii_only=True)}".replace(
            "-", "_"
        )
        org.append(
            Worker(
                id=role_id,
                title=rule.role.title,
                kind=rule.role.kind,
                lifecycle=rule.role.lifecycle,
                hint=rule.role.hint,
                monthly_cost_usd=cost,
                reports_to=boss,
                spawned_by=rule.id,
            )
        )
        org_delta.added_role_id, org_delta.added_role_title = role_id, rule.role.title
        org_delta.monthly_cost_usd = cost
    for k in METERS:
        if k in eff:
            bump(econ, k, eff[k])
    econ.treasury_usd = float(round(econ.treasury_usd + eff.get("cash", 0.0)))
    econ.overhead_usd = float(max(0.0, round(econ.overhead_usd + eff.get("overhead", 0.0))))
    # revenue is booked as market share (`recompute` clamps it to 0-100 and rounds it)
    econ.market_share += eff.get("revenue", 0.0) / econ.addressable_market_usd * 100
    if rule.flag and rule.flag not in state.flags:
        state.flags.append(rule.flag)
    econ.monthly_burn_usd = org_burn(org, econ.overhead_usd)
    recompute(econ)
    return org_delta


def effect_line(before: Economics, after: Economics, org_delta: OrgDelta) -> str:
    """What a rule did (or will do), from the numbers before and after: meters, money, roles."""
    parts = []
    for k in METERS:
        d = round(getattr(after, k) - getattr(before, k), 1)
        if d:
            parts.append(f"{LABEL[k]} {d:+g}")
    money = (
        ("monthly_revenue_usd", "revenue {}/mo"),
        ("treasury_usd", "cash {}"),
        ("monthly_burn_usd", "burn {}/mo"),
    )
    for fld, fmt in money:
        d = round(getattr(after, fld) - getattr(before, fld))
        if d:
            parts.append(fmt.format(("+" if d > 0 else "-") + usd(abs(d))))
    roles = []
    if org_delta.added_role_title:
        roles.append(f"adds {org_delta.added_role_title} ({usd(org_delta.monthly_cost_usd)}/mo)")
    if org_delta.removed_role_title:
        roles.append(f"retires {org_delta.removed_role_title}")
    if roles:
        parts.append("; ".join(roles))
    return ", ".join(parts) or "no change"


def preview_after(state: GameState, rule: Rule | str, stage_id: str) -> tuple[Economics, OrgDelta]:
    """The numbers and org change of a rule applied now, on a copy: exactly what `apply_rule` does."""
    rule = RULES[rule] if isinstance(rule, str) else rule
    probe = copy.copy(state)  # shares what no rule changes
    probe.economics = copy.copy(state.economics)
    probe.org = [copy.copy(w) for w in state.org]
    probe.flags = list(state.flags)
    return probe.economics, _apply(probe, rule, stage_id)


def preview(state: GameState, rule: Rule | str, stage_id: str) -> str:
    """The effect line of a rule applied now (what the option shows, what the receipt applies)."""
    econ, delta = preview_after(state, rule, stage_id)
    return effect_line(state.economics, econ, delta)


def apply_rule(
    state: GameState, rule: Rule | str, stage_id: str
) -> tuple[Economics, Economics, OrgDelta, dict[str, float]]:
    """Apply one rule (a decision's, or a world event's) to the company in place; return before,
    after, org delta and the resolved effect (base + scalings + archetype factor)."""
    rule = RULES[rule] if isinstance(rule, str) else rule
    before = copy.copy(state.economics)
    effect = resolve(rule, before, state.founder.archetype)
    org_delta = _apply(state, rule, stage_id)
    return before, copy.copy(state.economics), org_delta, effect
