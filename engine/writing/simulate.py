"""The seeded simulation tier: every role's artifact written from the pitch, the stage, the
company's state and the binding direction, so offline play shows the memory loop working (and,
sometimes, an honest mistake for the gate to catch). Labelled `simulation` everywhere.

A redo after a rejection starts from the rejected artifact and changes exactly what the reason
named (engine.language.reading); the standing fork decision stays binding.
"""

from __future__ import annotations

import copy
import math
import random
import re
from typing import Any

from engine.game.artifacts import ARTIFACT_MODELS, ArtifactBase
from engine.game.flaws import WRONG_AUDIENCES
from engine.game.models import Directive, Economics, Founder, Stage
from engine.language.pitch import read_pitch
from engine.language.reading import Reading
from engine.language.text import clip
from engine.writing import banks
from engine.writing.phrases import Voice, cap, plural, sentences
from engine.writing.redo import _PRICE_LINE, CHANNELS, TOPIC_FIELDS, apply_reading, price_for
from textkit.numbers import usd as money

# How each role carries out each binding decision: a verb phrase (rules as data, our own words).
# Each rule's decision as a verb phrase ("Because you chose to …", "We …, as you decided"), with at
# least two of the rule's keywords so the gate sees the work follow it. The CEO's own answer
# (custom.default) is quoted from its text instead.
APPLY: dict[str, str] = {
    "strategist.depth": "go deep on one niche and own its most painful workflow",
    "strategist.breadth": "reach several adjacent segments with a broad offer",
    "designer.ship": "ship the 70 percent version this week and learn from real users",
    "designer.polish": "polish the product to 95 percent quality before launch",
    "marketer.adoption": "price low for grassroots adoption and volume",
    "marketer.runway": "sell to fewer, bigger enterprise accounts to extend runway",
    "ops.automate": "automate the support path to protect margin",
    "ops.human_loop": "keep a human in the loop to protect the promise",
    "ops.shareholder": "raise shareholder capital and blitzscale",
    "ops.cooperative": "become a worker-owned cooperative built on mutual aid",
    "founder.network": "sell first to your warm network, the people who know you",
    "founder.craft": "craft one showcase piece before selling anything",
    "founder.full_time": "quit and go all in, full time, now",
    "founder.side_income": "keep a side contract that funds the runway",
    "need.interviews": "run forty interviews and listen before writing code",
    "need.waitlist": "put up a launch page and count the waitlist sign-ups",
    "go.confront": "confront the rival head-on, against its weakest promise",
    "go.flank": "flank the rival and take the corner it ignored",
    "go.premium": "charge a premium, a high price for clear value",
    "go.cheap": "win volume with a cheap, low price",
    "designer.codesign": "co-design the product with ten customers as design partners",
    "search.cut_scope": "cut scope to one feature and run smaller",
    "search.bridge": "borrow on a bridge loan to buy time",
    "builder.in_house": "build it yourself, in-house, on your own stack",
    "find.ads": "run a paid ads campaign",
    "find.community": "grow through the users' community and word of mouth",
    "seller.presell": "pre-sell annual contracts upfront to the warmest leads",
    "take.hire": "hire support help to give the team relief",
    "take.triage": "triage the backlog and say no to half of it",
    "operator.lean": "run lean and cut costs to the bone",
    "return.profit_share": "give the team a profit share, a bonus from the upside",
    "return.retain": "retain every dollar, keep the cash and reinvest it",
    "return.alliance": "ally with a larger partner in an alliance",
    "return.alone": "stay independent and go it alone, on our own",
    "change.partner": "bring in a strategic partner with corporate money and priorities",
    "change.steward": "put the company in a steward-owned purpose trust",
}


def customer_from_pitch(pitch: str) -> str:
    """The customer the pitch names (any language), else the industry's usual customer."""
    return read_pitch(pitch).customer


def offering_from_pitch(pitch: str, keywords: list[str]) -> str:
    return read_pitch(pitch).offering or " ".join(keywords[:3]) or "the service"


def directive_phrase(d: Directive | None) -> str:
    """The binding decision as a verb phrase ("go deep on one niche …"), '' when there is none."""
    if d is None or d.source == "founding" or (d.source != "decision" and not d.rule_id):
        return ""
    if d.rule_id and d.rule_id in APPLY:
        return APPLY[d.rule_id]
    text = clip(d.standing_text or d.text, 160).rstrip(".")
    if ":" in text[:40]:  # "Network: sell to the people who know you" -> "sell to the people …"
        text = text.split(":", 1)[1].strip()
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _voice(
    founder: Founder,
    stage: Stage,
    economics: Economics,
    seed: int,
    attempt: int,
    thread: dict[str, str] | None,
) -> Voice:
    t = thread or {}
    p = read_pitch(founder.pitch)
    rng = random.Random(f"{seed}:{stage.id}:slots")
    bank = banks.INDUSTRY.get(p.industry, banks.INDUSTRY["general"])
    customer = t.get("niche") or founder.customer
    slots = {
        "company": founder.company,
        "customer": customer,
        "offering": p.offering,
        "pain": rng.choice(bank["pain"]),
        "outcome": rng.choice(bank["outcome"]),
        "unit": rng.choice(bank["unit"]),
        "place": rng.choice(bank["place"]),
        "tool": rng.choice(bank["tools"]),
        "rival": t.get("rival", "the rival"),
        "move": t.get("move", "a price cut"),
        "niche": t.get("niche", customer),
        "beat": stage.beat,
        "weeks": str(rng.randint(2, 6)),
        "n": str(rng.randint(3, 12)),
    }
    slots["unit_plural"] = plural(slots["unit"])
    slots["pain_short"] = " ".join(slots["pain"].split()[:3])
    for k in ("customer", "offering", "outcome"):
        slots[f"cap_{k}"] = cap(slots[k])
    slots["tools"] = ", ".join(bank["tools"])
    return Voice(slots, f"{seed}:{stage.id}:{attempt}")


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


def _plan(economics: Economics, rng: random.Random, rule_id: str) -> dict[str, Any]:
    """Six months of revenue targets that never start below what is already booked."""
    booked = economics.monthly_revenue_usd
    mrr0 = max(rng.randint(4, 9) * 100, math.ceil(booked / 50) * 50)
    growth = 1.5 if rule_id in ("marketer.adoption", "designer.ship", "ops.shareholder") else 1.3
    return {
        "target_mrr_usd_m1_to_m6": [round(mrr0 * growth**i / 10) * 10 for i in range(6)],
        "burn_usd_per_month": round(economics.monthly_burn_usd),
        "breakeven_month": rng.randint(5, 14),
        "churn_target_pct": round(rng.uniform(2.5, 6.0), 1),
    }


def _fresh(
    role: str,
    v: Voice,
    *,
    founder: Founder,
    stage: Stage,
    directive: Directive | None,
    economics: Economics,
    seed: int,
    attempt: int,
    follow: bool,
) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{stage.id}:{attempt}:artifact")
    call = directive_phrase(directive) if follow else ""
    rule_id = (directive.rule_id or "none") if (directive and follow) else "none"
    key = stage.id
    crafts = banks.ARCHETYPE_LINES[founder.archetype]
    # the founder's craft speaks in every other stage, never the same line twice in a venture
    craft = v.fill(crafts[(stage.number // 2) % len(crafts)]) if stage.number % 2 else ""
    how = (
        v.fill("The {beat} plan for {customer} is built to") + f" {call}."
        if call
        else v.fill(
            "No decision binds the {beat} work yet; it follows the pitch, {offering} "
            "for {customer}."
        )
    )
    art: dict[str, Any] = {
        "summary": (_summary(v, stage, founder, call) + " " + craft).strip(),
        "follows_decision": {"rule_id": rule_id, "how": how},
        "memory_writes": [
            {
                "kind": rng.choice(["context", "preference"]),
                "text": v.fill(
                    rng.choice(
                        (
                            "{beat} finding: {customer} answered fastest when the price was on the page.",
                            "{beat} finding: {customer} trust a number from a {unit} like theirs.",
                            "{beat} finding: {customer} asked about {pain} before anything else.",
                        )
                    )
                ),
                "importance": round(rng.uniform(4, 8), 1),
            }
        ],
    }
    price = price_for(economics, seed, stage)
    if role == "strategist":
        kr = [
            v.fill("{n} problem interviews with {customer}", n=str(rng.randint(8, 25))),
            v.fill("{n} letters of intent from {unit_plural}", n=str(rng.randint(3, 10))),
        ]
        if call:
            kr.append(f"By week {rng.randint(4, 10)} " + v.fill("with {customer}:") + f" {call}")
        art.update(
            target_audience=v.pick(f"{key}:aud", banks.AUDIENCE),
            core_problem=v.pick(f"{key}:prob", banks.PROBLEM),
            value_proposition=v.pick(f"{key}:val", banks.VALUE)
            + (" " + v.fill("To get there for {customer}, we") + f" {call}." if call else ""),
            primary_benefit=v.pick(f"{key}:ben", banks.BENEFIT),
            org_chart=[
                {
                    "role": "Founder & Operator",
                    "responsibility": v.fill(ORG_DUTIES["founder"][stage.number % 3]),
                },
                {
                    "role": "Strategy & Positioning Lead",
                    "reports_to": "Founder & Operator",
                    "responsibility": v.fill(ORG_DUTIES["strategy"][stage.number % 3]),
                },
                {
                    "role": "Product Builder",
                    "reports_to": "Founder & Operator",
                    "responsibility": v.fill(ORG_DUTIES["builder"][stage.number % 3]),
                },
            ],
            okrs_q1=[{"objective": v.pick(f"{key}:obj", banks.OBJECTIVES), "key_results": kr}],
        )
    elif role == "designer":
        feats = [v.fill(f) for f in rng.sample(banks.FEATURES, 3)]
        feats.append(v.fill("Pilot price: {price} a month per {unit}", price=money(price)))
        if call:
            feats.append(v.fill("Launch plan for {customer}:") + f" {call}")
        art.update(
            hero_headline=v.pick(f"{key}:hero", banks.HEADLINES),
            cta_text=rng.choice(banks.CTAS),
            url=f"https://{_host(founder.company)}.app/{stage.beat.lower()}",
            features=feats,
            integrations=list(
                banks.INDUSTRY.get(read_pitch(founder.pitch).industry, banks.INDUSTRY["general"])[
                    "tools"
                ]
            ),
            wireframe_notes=v.pick(f"{key}:wire", banks.WIREFRAMES)
            + " "
            + v.fill("Launch to the first {unit_plural} in week")
            + f" {rng.randint(2, 6)}.",
        )
    else:
        plan = _plan(economics, rng, rule_id)
        if role == "marketer":
            body = [
                v.pick(f"{key}:open", banks.EMAIL_OPENERS),
                v.fill("The pilot costs {price} a month per {unit}.", price=money(price)),
                v.pick(f"{key}:proof", banks.EMAIL_PROOF),
            ]
            if call:
                body.append(f"We chose to {call}, so the offer is built for that.")
            body.append(v.pick(f"{key}:cta", banks.EMAIL_CTA))
            chans = [v.fill(c) for c in rng.sample(CHANNELS, 3)]
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
            if call:
                loops.append(cap(call) + v.fill(", for {customer}"))
            art.update(
                retention_loops=loops,
                churn_drivers=_rotate(v, banks.CHURN_DRIVERS, stage.number, seed + 1),
                nps_plan=v.pick(f"{key}:nps", banks.NPS, n=str(rng.randint(2, 5))),
                support_workflow=_rotate(v, banks.SUPPORT, stage.number, seed + 2),
                financial_plan=plan,
            )
    return art


# Who does what in the org chart, varied by stage (stage number mod 3).
ORG_DUTIES = {
    "founder": (
        "final calls and the promise to {customer}",
        "signs off every price {company} quotes",
        "owns the relationship with the first {unit_plural}",
    ),
    "strategy": (
        "keeps the {unit} wedge sharp",
        "tracks what {rival} does next",
        "turns interviews with {customer} into one sentence",
    ),
    "builder": (
        "ships the first {offering} loop",
        "prototypes what {customer} ask for",
        "keeps the {tool} integration working",
    ),
}


def _rotate(v: Voice, bank: tuple[str, ...], number: int, seed: int) -> list[str]:
    """Three items from a bank, a different three for each stage of a venture (rotation from a
    seeded start), so the ops stages never repeat each other's lists."""
    start = random.Random(f"{seed}:rotate").randrange(len(bank))
    return [v.fill(bank[(start + 3 * number + i) % len(bank)]) for i in range(3)]


def _host(company: str) -> str:
    from engine.language.text import slug

    return slug(company, 20)


# ------------------------------------------------------------------ honest mistakes
def inject(role: str, art: dict[str, Any], flaw: str, v: Voice) -> None:
    """Make the mistake the flaw names (the rubric must find it from the artifact alone)."""
    if flaw == "missing_price":
        if role == "designer":
            art["features"] = [f for f in art["features"] if not _PRICE_LINE.match(f)]
        else:
            art["body"] = re.sub(r"[^.]*\$[\d,]+[^.]*\.\s*", "", art["body"])
    elif flaw == "over_claim":
        field = TOPIC_FIELDS["claims"][role]
        claim = v.fill("Results guaranteed within a week for every {unit}.")
        art[field] = f"{art[field].rstrip()} {claim}".strip()
    elif flaw == "wrong_audience":
        wrong = WRONG_AUDIENCES[random.Random(v.seed).randrange(len(WRONG_AUDIENCES))]
        field = TOPIC_FIELDS["audience"][role]
        if role == "strategist":
            art[field] = f"{cap(wrong)} who want a simpler week"
        elif role == "designer":
            art[field] = v.fill("{cap_outcome} for ") + wrong
        else:
            art["subject"] = f"For {wrong}: " + v.fill("{outcome}")
            art["body"] = art["body"].replace(v.slots["customer"], wrong)


def simulate_artifact(
    role: str,
    *,
    founder: Founder,
    stage: Stage,
    directive: Directive | None,
    economics: Economics,
    seed: int,
    attempt: int,
    thread: dict[str, str] | None = None,
    flaw: str | None = None,
    previous: dict[str, Any] | None = None,
) -> ArtifactBase:
    """Build a role's artifact deterministically from (seed, stage, attempt, direction, state).

    `previous` is the rejected attempt (a redo changes only what the reason named); `flaw` is the
    honest mistake this attempt makes (engine.game.flaws.draw)."""
    v = _voice(founder, stage, economics, seed, attempt, thread)
    follow = flaw != "ignores_decision"
    call = directive_phrase(directive)
    reading = Reading.model_validate(directive.reading) if directive and directive.reading else None
    if (
        previous is not None
        and reading is not None
        and directive
        and directive.source == "rejection"
    ):
        art = copy.deepcopy(previous)
        art.pop("memory_writes", None)
        said = apply_reading(
            role,
            art,
            reading,
            v,
            reason=directive.text,
            economics=economics,
            seed=seed,
            stage=stage,
            call=call if follow else "",
        )
        if not reading.actionable:
            said = [banks.CHANGED["vague"].format(reason=clip(directive.text, 60))]
        rule_id = directive.rule_id or "none"
        art["follows_decision"] = {
            "rule_id": rule_id if follow else "none",
            "how": (
                f"The plan is built to {call}; this attempt also answers your rejection."
                if call and follow
                else "This attempt answers your rejection."
            ),
        }
        lead = v.fill(f"Attempt {attempt}. You said “{clip(directive.text, 120)}”.")
        art["summary"] = sentences(" ".join([lead, *said]))
        if call and follow and "decision" not in reading.topics:
            art["summary"] += " " + v.pick(
                f"{stage.id}:follow:{attempt}", banks.FOLLOW_LINES, decision=call
            )
    else:
        art = _fresh(
            role,
            v,
            founder=founder,
            stage=stage,
            directive=directive,
            economics=economics,
            seed=seed,
            attempt=attempt,
            follow=follow,
        )
        if reading is not None and reading.actionable:
            said = apply_reading(
                role,
                art,
                reading,
                v,
                reason=directive.text if directive else "",
                economics=economics,
                seed=seed,
                stage=stage,
                call=call,
            )
            if said:
                heard = clip(directive.text if directive else "", 100)
                art["summary"] = sentences(
                    f"{art['summary']} At the standup you said “{heard}”. " + " ".join(said)
                )
    if flaw and not (reading and _named(flaw, reading)):
        inject(role, art, flaw, v)
    return ARTIFACT_MODELS[role].model_validate(art)


def _named(flaw: str, r: Reading) -> bool:
    """A redo never repeats the very mistake the CEO just named."""
    return {
        "missing_price": "price",
        "over_claim": "claims",
        "wrong_audience": "audience",
        "ignores_decision": "decision",
    }.get(flaw, "") in r.topics
