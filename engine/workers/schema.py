"""The model tiers' binding: the CEO's recalled directions compiled into the artifact's JSON
Schema where a field allows it, and the adherence check that judges a model's answer.

Compiled (what a schema-enforcing server holds the model to, and what any model reads):
- a named price: the revenue plan's `price_usd_per_month` is a `const` (a bound: `exclusiveMaximum`
  / `minimum`), and the role's price field (a string) must state it (`pattern`);
- a named audience: the strategist's `target_audience` is an `enum` of the allowed audience; the
  other roles' audience field must name it (`pattern`);
- a name, a launch week: the role's field for it must say it (`pattern`, one per field);
- a number: the plan's churn, burn, breakeven or a channel's cost and hours bounded or fixed.
Exclusions, claims, tone, channels and scope have no schema form a server keeps; the check below
judges them (and everything else) on the answer: one re-ask naming what broke, then DRIFT at
the gate (engine.routing.router, `RouteRequest.judge`).

Patterns are anchored (`^…$`, bounded either side): llama.cpp's grammar converter takes only
anchored patterns, and an unbounded `.*` lets a small model write until it runs out of tokens.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from engine.game.directions import FIELDS, PER_MONTH, Direction, check, price_words
from engine.routing.prompts import schema_block

_PLAN = "FinancialPlan"
_CHANNEL = "Channel"
_NUMBER_PROP = {
    "churn": (_PLAN, "churn_target_pct"),
    "burn": (_PLAN, "burn_usd_per_month"),
    "breakeven": (_PLAN, "breakeven_month"),
    "cac": (_CHANNEL, "expected_cac_usd"),
    "hours": (_CHANNEL, "weekly_hours"),
}


def compiled_schema(
    role: str, model: type[BaseModel], directions: list[Direction]
) -> dict[str, Any] | None:
    """The artifact's schema with the directions compiled in; None when nothing compiles."""
    if not directions:
        return None
    schema = copy.deepcopy(schema_block(model)[0])
    before = repr(schema)
    patterned: set[str] = set()
    for d in directions:
        if d.axis == "price":
            _price(role, schema, d, patterned)
        elif d.axis == "audience":
            _audience(role, schema, d, patterned)
        elif d.axis == "name":
            _pattern(schema, _field(role, "name"), d.value, patterned)
        elif d.axis == "timeline" and d.op == "eq" and d.amount is not None:
            _pattern(schema, _field(role, "timeline"), f"week {d.amount:.0f}", patterned)
        elif d.axis == "number" and d.key in _NUMBER_PROP:
            where, prop = _NUMBER_PROP[d.key]
            _bound(schema, where, prop, d, d.amount)
    return schema if repr(schema) != before else None


def judge_for(role: str, directions: list[Direction]) -> Callable[[BaseModel], str | None] | None:
    """The adherence check for a model's answer: the directions it broke, in words (None: kept)."""
    if not directions:
        return None

    def judge(output: BaseModel) -> str | None:
        broken = check(role, output.model_dump(mode="json"), directions)
        return "; ".join(v.line for v in broken) or None

    return judge


# ------------------------------------------------------------------ the compiled parts
def _field(role: str, axis: str) -> str | None:
    names = FIELDS.get(axis, {}).get(role)
    return names[0] if names else None


def _prop(schema: dict[str, Any], where: str | None, name: str) -> dict[str, Any] | None:
    """A property's schema, top level (where None) or in a $defs model, if it exists."""
    owner = schema if where is None else schema.get("$defs", {}).get(where)
    if not isinstance(owner, dict):
        return None
    props = owner.get("properties", {})
    return props.get(name) if isinstance(props.get(name), dict) else None


_SPECIAL = re.compile(r"[$.|?*+()\[\]{}/\\^]")


def _escape(text: str) -> str:
    """Regex-special characters as one-character classes (`[$]`, `[.]`), which ECMA reads
    literally and llama.cpp's grammar converter turns into a valid GBNF class (it rejects an
    escaped `\\$` inside a literal); `]`, `\\` and `^` match any character. Spaces stay plain."""
    return _SPECIAL.sub(lambda m: "." if m.group(0) in "]\\^" else f"[{m.group(0)}]", text)


FILL = 600  # characters a pattern allows either side of what it requires


def contains_pattern(text: str, fill: int = FILL) -> str:
    """An anchored pattern: the text as whole words somewhere in the string (its first letter
    either case), with at most `fill` characters either side, none a quote or a backslash (so a
    grammar-bound model can neither run on forever nor break the JSON string). Plain groups, no
    `(?:`: llama.cpp's converter refuses it."""
    first = text[:1]
    body = _escape(text)
    if first.isalpha():
        body = f"[{first.upper()}{first.lower()}]{_escape(text[1:])}"
    pad, edge = f'[^"\\\\]{{0,{fill}}}', '[^"\\\\A-Za-z0-9_]'
    return f"^({pad}{edge})?{body}({edge}{pad})?$"  # whole words, as the check reads them


def _pattern(schema: dict[str, Any], field: str | None, text: str, done: set[str]) -> None:
    prop = _prop(schema, None, field) if field else None
    if prop is None or field is None or field in done or prop.get("type") != "string":
        return  # one pattern per field; lists and objects carry no pattern
    prop["pattern"] = contains_pattern(text)
    done.add(field)


def _price(role: str, schema: dict[str, Any], d: Direction, done: set[str]) -> None:
    if d.amount is None:
        return
    monthly = round(d.amount * PER_MONTH.get(d.period, 1.0), 4)
    plan = _prop(schema, _PLAN, "price_usd_per_month")
    if plan is not None:
        plan.clear()
        plan["type"] = "number"
        if d.op == "eq":
            plan["const"] = monthly
        elif d.op == "max":
            plan["exclusiveMaximum"] = monthly
        else:
            plan["minimum"] = monthly
        required = schema["$defs"][_PLAN].setdefault("required", [])
        if "price_usd_per_month" not in required:
            required.append("price_usd_per_month")
    if d.op == "eq":
        said = price_words(d) if d.period == "unit" else f"${d.amount:,.0f} a {d.period}"
        _pattern(schema, _field(role, "price"), said, done)


def _audience(role: str, schema: dict[str, Any], d: Direction, done: set[str]) -> None:
    field = _field(role, "audience")
    prop = _prop(schema, None, field) if field else None
    if role == "strategist" and prop is not None and field is not None:
        prop["enum"] = sorted({d.value, d.value[:1].upper() + d.value[1:]})
        done.add(field)
        return
    _pattern(schema, field, d.value, done)


def _bound(schema: dict[str, Any], where: str, prop_name: str, d: Direction, amount: Any) -> None:
    prop = _prop(schema, where, prop_name)
    if prop is None or amount is None:
        return
    key = {"eq": "const", "max": "exclusiveMaximum", "min": "minimum"}[d.op]
    prop[key] = int(amount) if prop.get("type") == "integer" else float(amount)
