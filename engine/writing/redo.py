"""Redo after a rejection: change exactly what the reason named (engine.language.reading), concretely (a
price added or moved, the audience narrowed, a number lowered), and say so in one sentence each.
Also the price and channel helpers the first attempt shares with the redo.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

from engine.game.flaws import OVER_CLAIMS, WRONG_AUDIENCES
from engine.game.models import Economics, Stage
from engine.language.reading import Reading
from engine.writing import banks
from engine.writing.phrases import Voice, cap, join_prose
from textkit.numbers import usd as money

# Which artifact field each topic of a rejection changes, per role (the redo and its tests).
TOPIC_FIELDS: dict[str, dict[str, str]] = {
    "price": {
        "strategist": "value_proposition",
        "designer": "features",
        "marketer": "body",
        "ops": "retention_loops",
    },
    "audience": {
        "strategist": "target_audience",
        "designer": "hero_headline",
        "marketer": "subject",
        "ops": "nps_plan",
    },
    "claims": {
        "strategist": "value_proposition",
        "designer": "hero_headline",
        "marketer": "body",
        "ops": "nps_plan",
    },
    "tone": {
        "strategist": "value_proposition",
        "designer": "hero_headline",
        "marketer": "body",
        "ops": "nps_plan",
    },
    "scope": {
        "strategist": "okrs_q1",
        "designer": "features",
        "marketer": "gtm_channels",
        "ops": "retention_loops",
    },
    "timeline": {
        "strategist": "primary_benefit",
        "designer": "wireframe_notes",
        "marketer": "financial_plan",
        "ops": "financial_plan",
    },
    "channel": {
        "strategist": "okrs_q1",
        "designer": "integrations",
        "marketer": "gtm_channels",
        "ops": "support_workflow",
    },
    "number": {
        "strategist": "okrs_q1",
        "designer": "features",
        "marketer": "financial_plan",
        "ops": "financial_plan",
    },
    "decision": {
        "strategist": "summary",
        "designer": "summary",
        "marketer": "summary",
        "ops": "summary",
    },
    "include": {
        "strategist": "value_proposition",
        "designer": "features",
        "marketer": "body",
        "ops": "retention_loops",
    },
}
NUMBER_FIELD = {
    "churn": "churn_target_pct",
    "burn": "burn_usd_per_month",
    "mrr": "target_mrr_usd_m1_to_m6",
    "breakeven": "breakeven_month",
}
CHANNELS = (
    "founder outbound",
    "partner referrals",
    "{place}",
    "a pilot with one {unit}",
    "short how-to videos",
    "a newsletter for {customer}",
)
_PRICE_LINE = re.compile(r"^Pilot price: ")


def price_for(economics: Economics, seed: int, stage: Stage) -> int:
    rng = random.Random(f"{seed}:price")
    return int(round(economics.arpu_usd * rng.uniform(0.3, 0.6) / 5) * 5)


def apply_reading(
    role: str,
    art: dict[str, Any],
    r: Reading,
    v: Voice,
    *,
    reason: str,
    economics: Economics,
    seed: int,
    stage: Stage,
    call: str,
) -> list[str]:
    """Change what a rejection (or standup reply) named; return the sentences saying so."""
    said: list[str] = []
    rng = random.Random(f"{seed}:{stage.id}:{reason}:redo")
    for topic in r.topics:
        line = _fix(topic, role, art, r, v, rng, economics, seed, stage, call)
        if line:
            said.append(line)
    if r.dropped:
        _drop(art, r.dropped)
    return said


def _fix(  # noqa: C901 - one branch per topic (a table when binding next reworks redo)
    topic: str,
    role: str,
    art: dict[str, Any],
    r: Reading,
    v: Voice,
    rng: random.Random,
    economics: Economics,
    seed: int,
    stage: Stage,
    call: str,
) -> str | None:
    base = price_for(economics, seed, stage)
    if topic == "price":
        old = _current_price(art) or base
        new = old
        if r.direction == "down":
            new = int(round(old * 0.7 / 5) * 5)
        elif r.direction == "up":
            new = int(round(old * 1.3 / 5) * 5)
        line = v.fill("Pilot price: {price} a month per {unit}", price=money(new))
        if role == "designer":
            art["features"] = [f for f in art["features"] if not _PRICE_LINE.match(f)] + [line]
        elif role == "marketer":
            body = re.sub(r"[^.]*\$[\d,]+[^.]*\.\s*", "", art["body"])
            art["body"] = (
                v.fill("The pilot costs {price} a month per {unit}. ", price=money(new)) + body
            )
        elif role == "strategist":
            trimmed = re.sub(r"\s*Pilot price: [^.]*\.", "", art["value_proposition"])
            art["value_proposition"] = f"{trimmed} {line}."
        else:
            loops = [x for x in art["retention_loops"] if not x.startswith("Renewal at")]
            art["retention_loops"] = [
                *loops,
                v.fill("Renewal at {price} a month per {unit}, stated up front", price=money(new)),
            ]
        key = "price" if new == old else ("price_down" if new < old else "price_up")
        return banks.CHANGED[key].format(
            price=money(new), old=money(old), new=money(new), unit=v.slots["unit"]
        )
    if topic == "audience":
        who = r.subject or v.slots["customer"]
        v2 = Voice({**v.slots, "customer": who, "cap_customer": cap(who)}, v.seed + ":aud")
        if role == "strategist":
            art["target_audience"] = _other(v2, banks.AUDIENCE, art["target_audience"])
        elif role == "designer":
            art["hero_headline"] = _other(v2, banks.PLAIN_HEADLINES, art["hero_headline"])
        elif role == "marketer":
            art["subject"] = v2.fill("For {customer}: {outcome}")
            for wrong in WRONG_AUDIENCES:
                art["body"] = art["body"].replace(wrong, who)
        else:
            art["nps_plan"] = v2.pick("nps", banks.NPS, n="3")
        return banks.CHANGED["audience"].format(audience=who)
    if topic in ("claims", "tone"):
        field = TOPIC_FIELDS[topic][role]
        text = art.get(field, "")
        kept = [
            s
            for s in re.split(r"(?<=[.!?])\s+", text)
            if s and not any(c in s.lower() for c in OVER_CLAIMS)
        ]
        if topic == "claims":
            kept.append(
                v.fill(
                    "In the pilot, {n} {unit_plural} saw the first result within "
                    "{weeks} weeks; we promise no more than that."
                )
            )
        else:
            kept = [
                v.pick(
                    "plain",
                    banks.PLAIN_HEADLINES
                    if role == "designer"
                    else banks.EMAIL_PLAIN
                    if role == "marketer"
                    else banks.VALUE,
                )
            ]
            if role == "marketer":
                kept.append(
                    v.fill(
                        "The pilot costs {price} a month per {unit}.",
                        price=money(_current_price(art) or base),
                    )
                )
                kept.append(v.pick("cta", banks.EMAIL_CTA))
        art[field] = " ".join(kept)
        return banks.CHANGED[topic]
    if topic == "scope":
        about = f" and centred on {r.subject}" if r.subject else ""
        if role == "strategist":
            okr = art["okrs_q1"][0]
            okr["key_results"] = okr["key_results"][:2]
            if r.subject:
                okr["objective"] = f"Prove {r.subject} with {v.slots['customer']}"
                art["value_proposition"] += f" It centres on {r.subject}."
        elif role == "designer":
            price = [f for f in art["features"] if _PRICE_LINE.match(f)]
            art["features"] = (
                ([f"Built around {r.subject}"] if r.subject else []) + art["features"][:2] + price
            )
        elif role == "marketer":
            art["gtm_channels"] = (
                art["gtm_channels"][:2]
                if not r.subject
                else [
                    {"channel": r.subject, "expected_cac_usd": 20, "weekly_hours": 4},
                    *art["gtm_channels"][:1],
                ]
            )
            if r.subject:
                art["body"] += f" It is about {r.subject}."
        else:
            art["retention_loops"] = ([cap(r.subject)] if r.subject else []) + art[
                "retention_loops"
            ][:2]
        return banks.CHANGED["scope"].format(about=about)
    if topic == "timeline":
        if "financial_plan" in art:
            fp = art["financial_plan"]
            old = fp["breakeven_month"]
            later = r.direction == "later"
            fp["breakeven_month"] = min(24, old + 3) if later else max(2, old - 3)
            if fp["breakeven_month"] == old:
                fp["breakeven_month"] = old + (1 if later else -1)
            return banks.CHANGED["timeline"].format(
                way="later" if later else "sooner", new=fp["breakeven_month"], old=old
            )
        field = TOPIC_FIELDS["timeline"][role]
        weeks = rng.randint(3, 5) if r.direction != "later" else rng.randint(8, 12)
        art[field] = re.sub(r"\b(?:within|in week|before) [^.]*", "", art[field]).rstrip(" ,.")
        art[field] += f", by week {weeks}" if role == "strategist" else f" Launch in week {weeks}."
        return banks.CHANGED["timeline_plain"]
    if topic == "channel":
        field = TOPIC_FIELDS["channel"][role]
        named = r.subject
        if role == "marketer":
            had = [c["channel"] for c in art["gtm_channels"]]
            pool = [v.fill(c) for c in CHANNELS if v.fill(c) not in had]
            chans: list[str] = [named] if named else []
            chans += pool[: 3 - len(chans)]
            art["gtm_channels"] = [
                {
                    "channel": c,
                    "expected_cac_usd": rng.randint(5, 60),
                    "weekly_hours": rng.randint(2, 8),
                }
                for c in chans
            ]
            return banks.CHANGED["channel"].format(new=join_prose(chans))
        if role == "strategist":
            art["okrs_q1"][0]["key_results"].append(
                v.fill("{n} customers reached through {place}")
                if not named
                else f"{rng.randint(3, 9)} customers reached through {named}"
            )
        elif role == "designer":
            art["integrations"] = (
                ([named] if named else []) + ["a shareable sign-up link"] + art["integrations"][:1]
            )
        else:
            art["support_workflow"] = art["support_workflow"] + [
                f"Answer on {named or 'the channel customers already use'}"
            ]
        return banks.CHANGED["channel"].format(new=named or "one more route to customers")
    if topic == "number" and r.number:
        return _number(role, art, r, economics.monthly_revenue_usd)
    if topic == "decision":
        if call:
            art["summary"] = f"{art['summary']} We {call}, as you decided."
            art["follows_decision"]["how"] = f"The plan is built to {call}."
        return banks.CHANGED["decision"]
    if topic == "include" and r.subject:
        field = TOPIC_FIELDS["include"][role]
        if isinstance(art.get(field), list):
            art[field] = [cap(r.subject)] + art[field]
        else:
            art[field] = f"{art[field]} It covers {r.subject}."
        return banks.CHANGED["include"].format(subject=r.subject)
    return None


def _number(role: str, art: dict[str, Any], r: Reading, booked: float) -> str | None:
    """Move the number the reason named; revenue targets never drop below what is booked."""
    factor = 0.7 if r.direction == "down" else 1.3
    what = {
        "churn": "The churn target",
        "burn": "The monthly burn",
        "mrr": "The revenue target",
        "breakeven": "Breakeven",
        "cac": "The acquisition cost",
        "hours": "The weekly hours",
    }
    way = "down" if r.direction == "down" else "up"
    if r.number in ("cac", "hours") and role == "marketer":
        key = "expected_cac_usd" if r.number == "cac" else "weekly_hours"
        old = art["gtm_channels"][0][key]
        for c in art["gtm_channels"]:
            c[key] = max(1, round(c[key] * factor))
        return banks.CHANGED["number"].format(
            what=what[r.number],
            way=way,
            new=_fmt(r.number, art["gtm_channels"][0][key]),
            old=_fmt(r.number, old),
        )
    fp = art.get("financial_plan")
    if fp is None:
        if role == "strategist" and r.number == "mrr":
            okr = art["okrs_q1"][0]
            okr["key_results"] = [_scale_numbers(k, factor) for k in okr["key_results"]]
            return f"The targets go {way}."
        return None
    field = NUMBER_FIELD.get(r.number or "", "churn_target_pct")
    old = fp[field]
    if isinstance(old, list):
        floor = math.ceil(booked / 10) * 10
        fp[field] = [max(floor, round(x * factor / 10) * 10) for x in old]
        new_v, old_v = fp[field][-1], old[-1]
    elif field == "breakeven_month":
        fp[field] = max(2, min(24, old + (3 if way == "up" else -3)))
        new_v, old_v = fp[field], old
    elif field == "churn_target_pct":
        fp[field] = round(old * factor, 1)
        new_v, old_v = fp[field], old
    else:
        fp[field] = round(old * factor)
        new_v, old_v = fp[field], old
    return banks.CHANGED["number"].format(
        what=what.get(r.number or "", "The number"),
        way=way,
        new=_fmt(r.number, new_v),
        old=_fmt(r.number, old_v),
    )


def _fmt(number: str | None, value: float) -> str:
    if number == "churn":
        return f"{value:.1f} %"
    if number == "breakeven":
        return f"month {value:.0f}"
    if number == "hours":
        return f"{value:.0f} hours a week"
    return money(value)


def _scale_numbers(text: str, factor: float) -> str:
    return re.sub(r"\d+", lambda m: str(max(1, round(int(m.group()) * factor))), text, count=1)


def _other(v: Voice, bank: tuple[str, ...], current: str) -> str:
    """A fill of the bank that differs from what the field says now (a redo must change it)."""
    options = [v.fill(t) for t in bank]
    return next((o for o in options if o != current), options[0])


def _current_price(art: dict[str, Any]) -> int | None:
    texts = [*art.get("features", []), *art.get("retention_loops", []), art.get("body", "")]
    for text in [*texts, art.get("value_proposition", "")]:
        m = re.search(r"\$([\d,]+)", str(text))
        if m:
            return int(m.group(1).replace(",", ""))
    return None


def _drop(art: dict[str, Any], dropped: str) -> None:
    """Leave out what the CEO said to drop, from every list and sentence that names it."""
    low = dropped.lower()
    for k, val in list(art.items()):
        if k in ("follows_decision", "memory_writes", "url"):
            continue
        if isinstance(val, list) and val and isinstance(val[0], str):
            kept = [x for x in val if low not in x.lower()]
            art[k] = kept if len(kept) >= 2 else val
        elif isinstance(val, str) and low in val.lower() and k != "summary":
            art[k] = re.sub(rf"\s*(?:and|,)?\s*{re.escape(dropped)}", "", val, flags=re.IGNORECASE)
