"""Artifacts rendered for people: one function used by the story pane, the report card and the
`--json` prose. Field labels come from a label map, lists become bullets, money and percentages are
formatted, and no internal id, path, repr or float noise reaches the player.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import worldforge_textkit
from engine.game.artifacts import in_field_order
from engine.game.rules import RULES, decided_words
from engine.language.grammar import article

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from engine.views.read_model import Logged
from worldforge_savedb.records import Record
from worldforge_textkit.numbers import money

LABELS: dict[str, str] = {
    "summary": "Summary",
    "target_audience": "Who it is for",
    "core_problem": "The problem",
    "value_proposition": "The promise",
    "primary_benefit": "Main benefit",
    "org_chart": "Team",
    "okrs_q1": "Goals for the first quarter",
    "hero_headline": "Headline",
    "cta_text": "Button",
    "url": "Page address",
    "features": "Features",
    "integrations": "Works with",
    "wireframe_notes": "Page layout",
    "subject": "Email subject",
    "body": "Email",
    "gtm_channels": "Channels",
    "financial_plan": "The numbers",
    "retention_loops": "Keeping customers",
    "churn_drivers": "Why customers leave",
    "nps_plan": "Asking customers",
    "support_workflow": "Support steps",
    "price_usd_per_month": "Price a customer pays",
    "paying_customers_m1_to_m6": "Paying customers, months 1 to 6",
    "target_mrr_usd_m1_to_m6": "Monthly revenue targets, months 1 to 6",
    "burn_usd_per_month": "Burn",  # its value reads "$34,787 a month"
    "breakeven_month": "Breakeven",
    "churn_target_pct": "Churn target",
    "objective": "Objective",
    "key_results": "Key results",
    "channel": "Channel",
    "expected_cac_usd": "Cost per customer",
    "weekly_hours": "Hours a week",
    "role": "Role",
    "reports_to": "Reports to",
    "responsibility": "Responsibility",
}
# The company's numbers as a player reads them (report card, receipts, end screen).
ECONOMICS_LABELS: dict[str, str] = {
    "treasury_usd": "Cash",
    "monthly_burn_usd": "Monthly burn",
    "monthly_revenue_usd": "Monthly revenue",
    "market_share": "Market share",
    "addressable_market_usd": "Addressable market",
    "arpu_usd": "Revenue per customer",
    "paying_customers": "Paying customers",
    "runway_months": "Runway (months)",
    "proof": "Proof",
    "trust": "Trust",
    "velocity": "Velocity",
    "burn_pressure": "Burn pressure",
    "autonomy": "Autonomy",
    "threat": "Rival threat",
    "overhead_usd": "Monthly overhead",
    "profitable": "Profitable",
}
HIDDEN = frozenset({"follows_decision", "memory_writes", "cites"})  # cites: note ids, for the gate
# Rule ids ("<space>.<name>"), memory ids, run ids and file paths never reach prose.
_RULE_SPACES = "|".join(sorted({rule_id.partition(".")[0] for rule_id in RULES}))
_INTERNAL = re.compile(
    r"\s*\((?:" + _RULE_SPACES + r")\.[a-z_]+\)|"
    r"\bmem-\d+\b|\b[\w./-]+\.(?:md|py|json|db)(?:#[\w-]+)?\b|"
    r"\b(?:" + _RULE_SPACES + r")\.[a-z_]{3,}\b"
)


def economics_label(key: str) -> str:
    return ECONOMICS_LABELS.get(key, key.replace("_usd", "").replace("_", " ").capitalize())


def decision_words(rule_id: str | None, text: str = "") -> str:
    """A decision as a player reads it: its rule's words ("go deep on one niche …"), else the
    text the CEO chose, never the rule id."""
    return decided_words(rule_id) or prose(text)


@dataclass(eq=False, repr=False)
class Block(Record):
    """One labelled part of an artifact: a line of prose or a list of bullets."""

    label: str
    lines: list[str] = field(default_factory=list)
    bullets: bool = False


def label(key: str) -> str:
    return LABELS.get(key, key.replace("_", " ").strip().capitalize())


def number(key: str, value: object) -> str:
    """A number as a person reads it, by what the field holds."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return prose(str(value))
    if key.endswith("_usd") or key.startswith("target_mrr") or "usd" in key:
        return money(value) + (" a month" if key.endswith("_per_month") else "")
    if key.endswith("_pct"):
        return f"{value:.1f} %"
    if key == "breakeven_month":
        return f"month {value:.0f}"
    if key == "weekly_hours":
        return f"{value:g}"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def prose(text: str) -> str:
    """Prose as shown: `worldforge_textkit.clean` (control and invisible format characters out, whitespace
    collapsed), then internal ids and file paths removed. Markup stays literal."""
    out = " ".join(_INTERNAL.sub("", worldforge_textkit.clean(text)).split())
    return out.replace(" ,", ",").replace(" :", ":").replace("()", "")


def _plain(key: str, value: object) -> str:
    if isinstance(value, dict):
        return _dict_line(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return number(key, value)
    return prose(value if isinstance(value, str) else str(value))


def _item(key: str, value: object) -> str:
    """A bullet: as `_plain`, starting with a capital."""
    return _cap(_plain(key, value))


def _cap(text: str) -> str:
    """A bullet starts with a capital, as a person would write it (other scripts and web
    addresses left alone)."""
    if text.startswith(("http://", "https://", "www.")):
        return text
    return text[:1].upper() + text[1:] if text[:1].isascii() and text[:1].islower() else text


def _dict_line(d: dict[str, Any]) -> str:
    if "channel" in d:
        bits = [prose(d.get("channel", ""))]
        if "expected_cac_usd" in d:
            bits.append(f"{number('expected_cac_usd', d['expected_cac_usd'])} per customer")
        if "weekly_hours" in d:
            bits.append(f"{number('weekly_hours', d['weekly_hours'])} hours a week")
        return ", ".join(bits)
    if "role" in d:
        head = prose(d.get("role", ""))
        if d.get("reports_to"):
            head += f" (reports to {prose(d['reports_to'])})"
        return head + (f": {prose(d['responsibility'])}" if d.get("responsibility") else "")
    return "; ".join(f"{label(k)}: {_plain(k, v)}" for k, v in d.items() if v not in (None, ""))


def render_artifact(artifact: object) -> list[Block]:
    """The artifact as labelled blocks (HIDDEN fields are shown elsewhere, e.g. 'Follows')."""
    if not isinstance(artifact, dict):
        return [Block("Artifact", [prose(str(artifact))[:2000]])]
    out: list[Block] = []
    for key, value in in_field_order(artifact):  # the board's order, also from a sorted payload
        if key in HIDDEN or value in (None, "", [], {}):
            continue
        if key == "financial_plan" and isinstance(value, dict):
            lines = []
            per = value.get("price_per")
            for k, v in value.items():
                if v in (None, [], "") or k == "price_per":
                    continue  # a model's plan may leave the price and customers out
                shown = ", ".join(number(k, x) for x in v) if isinstance(v, list) else number(k, v)
                if k == "price_usd_per_month" and isinstance(per, str) and per.strip():
                    shown = f"{money(v)} {article(per) or 'a'} {prose(per)} (the plan counts one a month each)"
                lines.append(f"{label(k)}: {shown}")
            out.append(Block(label(key), lines, bullets=True))
        elif key == "okrs_q1" and isinstance(value, list):
            lines = []
            for okr in value:
                if isinstance(okr, dict):
                    lines.append(prose(okr.get("objective", "")))
                    lines += [f"  {prose(k)}" for k in okr.get("key_results") or []]
                else:
                    lines.append(_item(key, okr))
            out.append(Block(label(key), lines, bullets=True))
        elif isinstance(value, list):
            out.append(Block(label(key), [_item(key, x) for x in value[:20]], bullets=True))
        elif isinstance(value, dict):
            out.append(Block(label(key), [_dict_line(value)]))
        else:
            out.append(Block(label(key), [_item(key, value)]))
    return out


def artifact_markdown(artifact: object) -> list[str]:
    """Plain lines (bullets as '- '), for the report card and `--json` prose."""
    lines: list[str] = []
    for b in render_artifact(artifact):
        if b.bullets:
            lines.append(f"{b.label}:")
            lines += [("  - " + x.strip()) if x.startswith("  ") else f"- {x}" for x in b.lines]
        else:
            lines.append(f"{b.label}: {' '.join(b.lines)}")
    return lines


def changes(previous: object, current: object) -> list[str]:
    """What changed between two attempts, one line per changed field ('Headline: A → B')."""
    if not previous:
        return []
    before = {b.label: b for b in render_artifact(previous)}
    out = []
    for b in render_artifact(current):
        if b.label == "Summary":
            continue
        old = before.get(b.label)
        if old is None:
            out.append(f"{b.label}: added")
        elif old.lines != b.lines:
            if not b.bullets and len(b.lines) == 1 and len(old.lines) == 1:
                out.append(f"{b.label}: {_diff(old.lines[0], b.lines[0])}")
            else:
                out.append(f"{b.label}: " + "; ".join(_list_diff(old.lines, b.lines)))
    return out


def _list_diff(old: list[str], new: list[str]) -> list[str]:
    """A list block's changes: a labelled line that changed value as 'Label: A → B' (the plan's
    'Price a customer pays: $55 a month → $39 a month'), other lines as '+ …' and '− …'."""
    gone = [x for x in old if x not in new]
    added = [x for x in new if x not in old]
    bits: list[str] = []
    for x in list(added):
        label, _, now = x.strip().partition(": ")
        was = next((g for g in gone if g.strip().startswith(f"{label}: ")), None) if now else None
        if was is not None:
            bits.append(f"{label}: {_short(was.strip()[len(label) + 2 :], 40)} → {_short(now, 40)}")
            gone.remove(was)
            added.remove(x)
    bits += [f"+ {_short(x.strip())}" for x in added[:2]] + [
        f"− {_short(x.strip())}" for x in gone[:2]
    ]
    return bits[:4]


def _diff(old: str, new: str) -> str:
    """One changed line, showing where it changed: an addition as '+ “…”', a cut at its end as
    '− “…”' (it read "“… Also for interviews.” → “… ”"), else both sides from the first word
    that differs."""
    if new.startswith(old):
        return f"+ “{_short(new[len(old) :].strip())}”"
    if old.startswith(new):
        return f"− “{_short(old[len(new) :].strip())}”"
    a, b = old.split(), new.split()
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    lead = "… " if i else ""
    return f"“{lead}{_short(' '.join(a[i:]))}” → “{lead}{_short(' '.join(b[i:]))}”"


def _short(text: str, n: int = 70) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def shipped(events: Iterable[Logged]) -> dict[str, Mapping[str, object]]:
    """The last STAGE_EXECUTED payload of each stage (its shipped attempt), by stage id."""
    out: dict[str, Mapping[str, object]] = {}
    for e in events:
        if e.type == "STAGE_EXECUTED":
            out[str(e.payload.get("stage_id", ""))] = e.payload
    return out
