"""The seeded simulation tier: every role's artifact written from the pitch, the stage, the
company's state and the binding direction, so offline play shows the memory loop working (and,
sometimes, an honest mistake for the gate to catch). Labelled `simulation` everywhere.

A redo after a rejection starts from the rejected artifact and changes exactly what the reason
named (engine.language.reader.pick); the standing fork decision stays binding.
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

from engine.game.adherence import applies, citations
from engine.game.artifacts import shaped
from engine.game.dilemmas import unflanked
from engine.game.models import Economics, Founder, Stage
from engine.game.pricing import list_price
from engine.game.rules import verb_phrase
from engine.language.artifact_text import said
from engine.language.composition import audiences
from engine.language.directions import Binding, Direction
from engine.language.grammar import cap, narrows, number_word, plural, sentences, singular
from engine.language.pitch import offering_head, read_pitch
from engine.writing import banks
from engine.writing.mistakes import inject
from engine.writing.phrases import Voice
from engine.writing.plan import price_plan
from engine.writing.realise import realise, violate, what_changed
from engine.writing.trades import trade_words
from engine.writing.worlds import world_words
from worldforge_textkit import clip
from worldforge_textkit.numbers import money
from worldforge_textkit.patterns import Pattern


def customer_from_pitch(pitch: str) -> str:
    """The customer the pitch names (any language), else the industry's usual customer."""
    return read_pitch(pitch).customer


def _voice(
    founder: Founder,
    stage: Stage,
    economics: Economics,
    seed: int,
    attempt: int,
    thread: dict[str, str] | None,
    steer: str = "pitch",
    avoid: tuple[str, ...] = (),
) -> Voice:
    """The words of one stage: the offering's world (what the company handles, its problem and
    promise) and the customer's trade (who pays, where they gather, when they are busy).

    The problem, the promise and the unit priced are the venture's own, drawn once from the seed,
    so they hold across stages; the channels and tools a stage names vary. Which template each
    line uses also follows the standing decision, so other choices read differently. What the
    CEO said to leave out (`avoid`) is never drawn: the venture's problem and promise are redrawn
    from what is left of the banks."""
    t = thread or {}
    p = founder.reading()  # the pitch's reading with what the player confirmed
    wb, tb = _banks(p.world, avoid), _without(trade_words(p.trade), avoid)
    venture = random.Random(f"{seed}:venture:words")
    moment = venture.choice(tb["moment"])
    rng = random.Random(f"{seed}:{stage.id}:slots")
    customer = t.get("niche") or founder.customer
    slots = {
        "company": founder.company,
        "customer": customer,
        "pitch_customer": founder.customer,  # whom earlier attempts were written for
        "offering": p.offering,
        "product": offering_head(p.offering),  # before another noun: "the next {product} release"
        "setting": p.setting_phrase,
        "moment": moment,
        # a trade that runs the offering's world as a business (groomers, not pet owners) has
        # its own problem and promise
        "pain": p.problem
        or venture.choice(tb.get("pain") or wb["pain"]).replace("{moment}", moment),
        "outcome": venture.choice(tb.get("outcome") or wb["outcome"]).replace("{moment}", moment),
        # the unit goes without an article, as "the {unit} wedge" and "per {unit}" add their own
        "unit": _own_unit(tb["unit"], venture.choice(tb["unit"]), customer)
        if p.trade != "general"
        else re.sub(
            r"^(?:the|a|an) ",
            "",
            singular(_unit_of(customer, founder.customer)),
            flags=re.IGNORECASE,
        ),
        "thing": venture.choice(wb["things"]),
        "place": rng.choice(tb["place"]),
        "tool": rng.choice(wb["tools"]),
        "rival": t.get("rival", "the rival"),
        # the rival's last move without its name in front ("… hires away your best cook")
        "move": re.sub(
            r" \(.*\)$", "", t.get("move", "cuts its price").removeprefix(t.get("rival", "") + " ")
        ),
        "niche": t.get("niche", customer),
        "beat": stage.beat,
        "weeks": str(weeks := rng.randint(2, 6)),
        "weeks_word": number_word(weeks),
        "n": str(rng.randint(3, 12)),
    }
    slots["unit_plural"] = plural(slots["unit"])
    # a pain that already says the time is lost ("weekends lost to the washing pile") is struggled
    # with, never "lose time to weekends lost to …"
    lost = _TIME_LOST.search(slots["pain"])
    slots["lose_time_to"] = "<struggles> with" if lost else "<loses> time to"
    slots["losing_time_to"] = "struggling with" if lost else "losing time to"
    slots["pain_short"] = " ".join(slots["pain"].split()[:3])
    for k in ("customer", "offering", "outcome", "thing", "unit_plural"):
        slots[f"cap_{k}"] = cap(slots[k])
    slots["tools"] = ", ".join(wb["tools"])
    return Voice(slots, f"{seed}:{stage.id}:{attempt}:{steer}", wb)


_TIME_LOST = Pattern(r"\b(?:lost|eats|spent|missed|wasted)\b")


def _own_unit(units: tuple[str, ...], drawn: str, customer: str) -> str:
    """The trade's unit, in the customer's own noun where the trade counts in it ("delivery
    riders" count per rider, never per driver); else the venture's draw."""
    head = singular(customer.split()[-1]).lower() if customer.split() else ""
    return head if head in units else drawn


def _unit_of(customer: str, pitch_customer: str) -> str:
    """Whom the price is per: a narrowing of the pitch's customer ("the busiest hairdressers")
    prices per the customer itself ("per hairdresser", never "per busiest hairdresser"); a
    flanked or broad audience per its own head ("the tradespeople the big players ignore" per
    tradesperson, never "per tradespeople the big players ignore", and its plural never
    "tradespeople the big players ignores")."""
    head = unflanked(customer)
    who = pitch_customer if narrows(head, pitch_customer) else head
    # two kinds of customer have no one noun to count in: "each plumbers and electrician" and
    # "per tradespeople the big players ignore and bigger firm" (played) count customers
    return "customer" if _TWO_KINDS.search(who) else who


_TWO_KINDS = Pattern(r"\s(?:and|or|&|n)\s")


def _without(
    bank: dict[str, tuple[str, ...]], avoid: tuple[str, ...]
) -> dict[str, tuple[str, ...]]:
    """`bank` less every entry that names an avoided phrase (a field left empty is dropped)."""
    if not avoid:
        return bank
    out = {k: tuple(x for x in v if not any(said(x, a) for a in avoid)) for k, v in bank.items()}
    return {k: v for k, v in out.items() if v}


def _banks(world: str, avoid: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """The offering world's bank without what the CEO said to leave out; a field the exclusion
    empties ("leave out repairs" in a world of repairs) is filled from the general bank."""
    return {**_without(world_words("general"), avoid), **_without(world_words(world), avoid)}


def _avoided(directions: list[Direction]) -> tuple[str, ...]:
    """What the directions say to leave out (their exclusions): the words never to draw."""
    return tuple(d.value for d in directions if d.axis == "exclusion")


def _summary(v: Voice, stage: Stage, founder: Founder, call: str) -> str:
    parts = [
        v.pick(f"{stage.id}:open", banks.STAGE_OPENERS.get(stage.beat, banks.STAGE_OPENERS["GO"]))
    ]
    if call:
        parts.append(v.pick(f"{stage.id}:follow", banks.FOLLOW_LINES, decision=call))
    elif v.slots.get("move") and stage.number > 1:
        parts.append(v.pick(f"{stage.id}:thread", banks.THREAD_LINES))
    if v.slots.get("niche") and v.slots["niche"] != founder.customer:
        parts.append(v.pick(f"{stage.id}:niche", banks.NICHE_LINES))
    return " ".join(parts)


def _fresh(
    role: str,
    v: Voice,
    *,
    founder: Founder,
    stage: Stage,
    binding: Binding,
    economics: Economics,
    seed: int,
    attempt: int,
) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{stage.id}:{attempt}:artifact")
    rule_id = binding.rule_id or "none"
    call = verb_phrase(rule_id)  # the CEO's own answer is quoted from its text instead
    key = stage.id
    crafts = banks.ARCHETYPE_LINES[founder.archetype]
    # the founder's craft speaks in every other stage, never the same line twice in a venture
    craft = v.fill(crafts[(stage.number // 2 + seed) % len(crafts)]) if stage.number % 2 else ""
    how = how_line(binding, v)
    art: dict[str, Any] = {
        "summary": (_summary(v, stage, founder, call) + " " + craft).strip(),
        "follows_decision": {"rule_id": rule_id, "how": how},
        "memory_writes": [
            {
                "kind": rng.choice(["context", "preference"]),
                "text": v.fill(rng.choice(FINDINGS)),
                "importance": round(rng.uniform(4, 8), 1),
            }
        ],
    }
    price = list_price(seed)  # the venture's list price: a withheld price note takes its price out
    if role == "strategist":
        kr = [
            v.fill("{n} problem interviews with {customer}", n=str(rng.randint(8, 25))),
            v.fill("{n} letters of intent from {unit_plural}", n=str(rng.randint(3, 10))),
        ]
        art.update(
            target_audience=v.pick(f"{key}:aud", banks.AUDIENCE),
            core_problem=v.pick(f"{key}:prob", banks.PROBLEM),
            value_proposition=v.pick(f"{key}:val", banks.VALUE),
            primary_benefit=v.pick(f"{key}:ben", banks.BENEFIT),
            org_chart=[
                {
                    "role": "Founder & Operator",
                    "responsibility": v.fill(ORG_DUTIES["founder"][(stage.number + seed) % 5]),
                },
                {
                    "role": "Strategy & Positioning Lead",
                    "reports_to": "Founder & Operator",
                    "responsibility": v.fill(ORG_DUTIES["strategy"][(stage.number + 2 * seed) % 5]),
                },
                {
                    "role": "Product Builder",
                    "reports_to": "Founder & Operator",
                    "responsibility": v.fill(ORG_DUTIES["builder"][(stage.number + 3 * seed) % 5]),
                },
            ],
            okrs_q1=[{"objective": v.pick(f"{key}:obj", banks.OBJECTIVES), "key_results": kr}],
        )
    elif role == "designer":
        own = v.world["features"]
        feats = [v.fill(f) for f in rng.sample(own, 2) + rng.sample(banks.FEATURES, 1)]
        feats.append(v.fill("Pilot price: {price} a month per {unit}", price=money(price)))
        art.update(
            hero_headline=v.pick(f"{key}:hero", banks.HEADLINES),
            cta_text=rng.choice(banks.CTAS),
            url=f"https://{_host(founder.company)}.app/{stage.beat.lower()}",
            features=feats,
            integrations=list(v.world["tools"]),
            wireframe_notes=v.pick(f"{key}:wire", banks.WIREFRAMES)
            + " "
            + v.fill("Launch to the first {unit_plural} in week")
            + f" {rng.randint(2, 6)}.",
        )
    else:
        plan = price_plan(economics, rng, rule_id, price)
        if role == "marketer":
            body = [
                v.pick(f"{key}:open", banks.EMAIL_OPENERS),
                v.fill("The pilot costs {price} a month per {unit}.", price=money(price)),
                v.pick(f"{key}:proof", banks.EMAIL_PROOF),
            ]
            body.append(v.pick(f"{key}:cta", banks.EMAIL_CTA))
            chans = [v.fill(c) for c in rng.sample(banks.CHANNELS, 3)]
            art.update(
                subject=v.pick(f"{key}:subj", banks.SUBJECTS),
                body=" ".join(body),
                gtm_channels=[
                    {
                        "channel": c,
                        "expected_cac_usd": rng.randint(5, 60),
                        "weekly_hours": rng.randint(2, 8),
                    }
                    for c in chans
                ],
                financial_plan=plan,
            )
        else:
            loops = _rotate(v, banks.LOOPS, stage.number, seed)
            art.update(
                retention_loops=loops,
                churn_drivers=_rotate(v, banks.CHURN_DRIVERS, stage.number, seed + 1),
                nps_plan=v.pick(f"{key}:nps", banks.NPS, n=str(rng.randint(2, 5))),
                support_workflow=_rotate(v, banks.SUPPORT, stage.number, seed + 2),
                financial_plan=plan,
            )
    return art


# Who does what in the org chart, varied by stage (stage number mod 3).
# A worker's finding, the note it writes in flight. A pain is a phrase that may end in any word
# ("an audit found the week before"), so it ends its sentence: "… asked about {pain} before
# anything else" once read "the week before before anything else". A unit is a business or a
# person ("a practice", "an independent plumber"): "a number from a plumber like theirs" read
# wrong for a person.
FINDINGS = (
    "{beat} finding: {customer} answered fastest when the price was on the page.",
    "{beat} finding: {customer} <trusts> a number from {a:unit} they know more than one from us.",
    "{beat} finding: before anything else, {customer} asked about {pain}.",
)
ORG_DUTIES = {
    "founder": (
        "final calls and the promise to {customer}",
        "signs off every price {company} quotes",
        "owns the relationship with the first {unit_plural} and their {thing}",
        "talks with one {unit} every day",
        "decides what {company} will not do this quarter",
    ),
    "strategy": (
        "keeps the {unit} wedge sharp against {rival}",
        "tracks what {rival} offers each {unit} next",
        "turns interviews with {customer} into one sentence",
        "finds where each {unit} already looks for {thing}",
        "writes the one-line promise about {outcome}",
    ),
    "builder": (
        "ships the first {product} loop",
        "prototypes what {customer} <asks> for",
        "keeps the {tool} integration working",
        "turns what each {unit} says about the {thing} into fixes",
        "keeps the {tool} running {moment}",
    ),
}


def _rotate(v: Voice, bank: tuple[str, ...], number: int, seed: int) -> list[str]:
    """Three items from a bank, a different three for each stage of a venture (rotation from a
    seeded start), so the ops stages never repeat each other's lists."""
    start = random.Random(f"{seed}:rotate").randrange(len(bank))
    return [v.fill(bank[(start + 3 * number + i) % len(bank)]) for i in range(3)]


def _host(company: str) -> str:
    from worldforge_textkit import slug

    return slug(company, 20, default="venture", ascii_only=True)


def how_line(binding: Binding, v: Voice) -> str:
    """`follows_decision.how`: the recalled directions this artifact carries, in words (or, with
    none recalled, that nothing binds it), never a quoted fragment of the CEO's words."""
    if binding.directions:
        lines = [d.line() for d in binding.directions[:6]]
        company = v.slots.get("company")  # whose work it is: the line is this venture's
        head = (
            f"It carries what you set for {company}: " if company else "It carries what you set: "
        )
        return sentences(head + "; ".join(lines) + ".")
    if verb := verb_phrase(binding.rule_id):
        return sentences(f"It follows your decision to {verb}.")
    return v.fill(
        "No binding direction was recalled for the {beat} work; it follows the pitch, "
        "{offering} for {customer}."
    )


def simulate_artifact(
    role: str,
    *,
    founder: Founder,
    stage: Stage,
    economics: Economics,
    seed: int,
    attempt: int,
    binding: Binding | None = None,
    thread: dict[str, str] | None = None,
    flaw: str | None = None,
    previous: dict[str, Any] | None = None,
    drift: Direction | None = None,
    steer: str | None = None,
) -> dict[str, Any]:
    """Build a role's artifact deterministically from (seed, stage, attempt, binding, state), as
    the JSON its contract gives (engine.game.artifacts.shaped: the engine's own, not validated).

    `binding` is what recall brought back (engine.language.directions.fold): each of
    its directions is realised in the artifact's fields. `previous` is the rejected attempt: a
    redo changes only the fields the rejection's directions name. `flaw` is the honest mistake
    this attempt makes (engine.game.flaws.draw); `drift` is the one recalled direction a seeded
    DRIFT breaks. `steer` is what the voice's picks follow, the standing decision's rule id by
    default; a counterfactual brief (a note withheld) keeps the run's own, so it changes only
    what the note shaped, not every line's wording."""
    binding = binding or Binding()
    audience = audiences(binding.directions) or None
    t = {k: x for k, x in (thread or {}).items() if k != "niche"}
    if audience:
        t["niche"] = audience
    redo = binding.rejection if previous is not None else None
    # what the rejection binds as the fold composed it ("leave out every mention of routes" binds
    # no scope "routes"; a later note may have replaced one of its slots)
    folded = {(d.axis, d.value) for d in binding.directions}
    named = [
        d
        for d in (Direction.from_dict(x) for x in (redo or {}).get("directions") or [])
        if (d.axis, d.value) in folded
    ]
    avoid = _avoided([*binding.directions, *named])
    steer = steer or binding.rule_id or "pitch"
    v = _voice(founder, stage, economics, seed, attempt, t, steer, avoid)
    art: dict[str, Any]
    if redo is not None and previous is not None:
        art = copy.deepcopy(previous)
        art.pop("memory_writes", None)
        realise(role, art, named, v, booked=economics.monthly_revenue_usd, keep=binding.directions)
        said = what_changed(role, previous, art, [d for d in named if applies(role, d, art)])
        if not said:
            said = [
                "Nothing in your reason is something this artifact carries, so it is unchanged."
            ]
        heard = clip(str(redo.get("said") or ""), 120)
        stop = (
            "" if heard.endswith((".", "!", "?")) else "."
        )  # “… per groomer.” takes no second stop
        lead = f"Attempt {attempt}. You said “{heard}”{stop}" if heard else f"Attempt {attempt}."
        # the summary stays the artifact's summary (realised like every field); what this attempt
        # changed sits apart, in how the work follows what binds it
        art["follows_decision"] = {
            "rule_id": binding.rule_id or "none",
            "how": sentences(" ".join([lead, *said])),
        }
    else:
        art = _fresh(
            role,
            v,
            founder=founder,
            stage=stage,
            binding=binding,
            economics=economics,
            seed=seed,
            attempt=attempt,
        )
        realise(role, art, binding.directions, v, booked=economics.monthly_revenue_usd)
    # each field a direction shaped names the note it came from (the gate checks the citations)
    art["cites"] = citations(role, [d for d in binding.directions if applies(role, d, art)])
    if drift is not None:
        violate(role, art, drift, v)
    elif flaw and flaw != "ignores_decision":
        inject(role, art, flaw, v)
    return shaped(role, art)
