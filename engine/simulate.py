"""The seeded simulation tier: every role's artifact built from the pitch, the stage and the newest
binding decision, so offline play shows the memory loop working. Labelled `simulation` everywhere.
"""

from __future__ import annotations

import random
import re

from engine.artifacts import (
    ARTIFACT_MODELS,
    OKR,
    ArtifactBase,
    Channel,
    FinancialPlan,
    FollowsDecision,
    OrgRole,
)
from engine.models import Directive, Economics, Founder, Stage
from engine.text import clip, content_words, slug

# How each role carries out each binding decision (rules as data, our own words).
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
}
VERBS = ["map", "test", "prove", "price", "package", "measure"]


def customer_from_pitch(pitch: str) -> str:
    """The customer the pitch names ("… for rural farmers" → "rural farmers"), else a fallback."""
    m = re.search(r"\bfor ([a-zA-Z][\w\s'-]{2,60}?)(?:[.,;:!?]| who | that | to | with |$)", pitch)
    if m:
        words = m.group(1).split()[:4]
        return " ".join(words).lower()
    kws = content_words(pitch)
    return f"early adopters of {kws[0]}" if kws else "early adopters"


def offering_from_pitch(pitch: str, keywords: list[str]) -> str:
    """What the company offers, in the pitch's own words ("A tide pool tour for schools" → "tide pool
    tour"), else its first content words."""
    head = re.split(r"\bfor\b|[.,;:!?]", pitch, maxsplit=1)[0]
    words = re.sub(r"^(an?|the)\s+", "", head.strip(), flags=re.IGNORECASE).split()
    if 1 <= len(words) <= 8:
        return " ".join(words).lower()
    return " ".join(keywords[:3]) or "the service"


def directive_phrase(d: Directive | None) -> str:
    if d is None or d.source == "founding":
        return ""
    if d.rule_id and d.rule_id in APPLY:
        return APPLY[d.rule_id]
    text = clip(d.text, 160)
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def simulate_artifact(role: str, *, founder: Founder, stage: Stage, directive: Directive | None,
                      economics: Economics, seed: int, attempt: int) -> ArtifactBase:
    """Build a role's artifact deterministically from (seed, stage, attempt)."""
    rng = random.Random(f"{seed}:{stage.id}:{attempt}:artifact")
    kw = founder.keywords or ["service"]
    focus = offering_from_pitch(founder.pitch, kw)
    cust = founder.customer
    call = directive_phrase(directive)
    # The rule it follows, else the memory id of a rejection or standup direction.
    rule_id = (directive.rule_id or directive.memory_id or "none") if directive else "none"
    follows_how = (f"Following the CEO's binding direction to {call}, this {stage.beat} plan "
                   f"reshapes its scope and numbers around it." if call else
                   "No binding decision yet; the plan follows the founding pitch.")
    lead = f"Per the CEO's direction, we {call}. " if call else ""
    common: dict = {
        "summary": f"{stage.title}: {lead}{founder.company} serves {cust} with {focus}.",
        "follows_decision": FollowsDecision(rule_id=rule_id, how=follows_how),
        "memory_writes": [{
            "kind": rng.choice(["context", "preference"]),
            "text": f"{stage.beat} finding: {cust} respond most to {rng.choice(kw)} "
                    f"when the offer is {rng.choice(['concrete', 'priced upfront', 'proven'])}.",
            "importance": round(rng.uniform(4, 8), 1)}],
    }
    burn = round(economics.monthly_burn_usd)
    if role == "strategist":
        return ARTIFACT_MODELS["strategist"](
            **common,
            target_audience=f"{cust.capitalize()} who need {focus} and lose time without it",
            core_problem=f"{cust.capitalize()} cannot get {focus} that fits how they work; {stage.base_goal.lower()}.",
            value_proposition=f"{founder.company} gives {cust} {focus}. {lead}".strip(),
            primary_benefit=f"Less wasted effort on {kw[0]} within the first {rng.randint(2, 6)} weeks",
            org_chart=[OrgRole(role="Founder & Operator", responsibility="final calls, customer promise"),
                       OrgRole(role="Strategy & Positioning Lead", reports_to="Founder & Operator",
                               responsibility=f"{rng.choice(VERBS)} the {kw[0]} wedge"),
                       OrgRole(role="Product Builder", reports_to="Founder & Operator",
                               responsibility="ship the first loop")],
            okrs_q1=[OKR(objective=f"Prove {cust} will pay for {focus}",
                         key_results=[f"{rng.randint(8, 25)} problem interviews with {cust}",
                                      f"{rng.randint(3, 10)} letters of intent",
                                      f"Decision followed: {call or 'founding pitch'}"])],
        )
    if role == "designer":
        return ARTIFACT_MODELS["designer"](
            **common,
            hero_headline=f"{focus.capitalize()} for {cust}, without the busywork",
            cta_text=rng.choice(["Start free", "Book a demo", "Join the pilot"]),
            url=f"https://{slug(founder.company, 20)}.app/{slug(stage.beat, 10)}",
            features=[f"{kw[i % len(kw)].capitalize()} workflow in one place" for i in range(3)]
                     + [f"Plan: {call}" if call else "Guided onboarding"],
            integrations=["email", "calendar", "payments"],
            wireframe_notes=f"Hero, three proof points, pricing; {lead or 'ship the first loop'}",
        )
    mrr0 = rng.randint(4, 9) * 100
    growth = 1.5 if rule_id in ("marketer.adoption", "designer.ship", "ops.shareholder") else 1.3
    plan = FinancialPlan(target_mrr_usd_m1_to_m6=[round(mrr0 * growth ** i) for i in range(6)],
                         burn_usd_per_month=burn, breakeven_month=rng.randint(5, 14),
                         churn_target_pct=round(rng.uniform(2.5, 6.0), 1))
    if role == "marketer":
        return ARTIFACT_MODELS["marketer"](
            **common,
            subject=f"{founder.company}: {focus} for {cust}",
            body=(f"Hi — we built {founder.company} for {cust} who are tired of doing {kw[0]} by hand. "
                  f"{lead}Our pilot shows results within weeks. Sign up for the pilot: [link]"),
            gtm_channels=[Channel(channel=c, expected_cac_usd=rng.randint(5, 60), weekly_hours=rng.randint(2, 8))
                          for c in ("founder outbound", f"{kw[0]} communities", "partner referrals")],
            financial_plan=plan,
        )
    return ARTIFACT_MODELS["ops"](
        **common,
        retention_loops=[f"Weekly {kw[0]} check-in with each account",
                         f"Usage digest for {cust}", f"Loop: {call}" if call else "Quarterly review"],
        churn_drivers=["slow first value", f"{kw[-1]} setup friction", "support wait times"],
        nps_plan=f"Ask {cust} monthly; act on every detractor within {rng.randint(2, 5)} days.",
        support_workflow=["triage within one hour", "resolve or escalate the same day",
                          f"follow up with the customer; {call}" if call else "follow up in a week"],
        financial_plan=plan,
    )
