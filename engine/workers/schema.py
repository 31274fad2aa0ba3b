"""The model tiers' binding: the CEO's recalled directions compiled into the artifact's JSON
Schema where a field allows it, and the adherence check that judges a model's answer.

Compiled (what a schema-enforcing server holds the model to, and what any model reads):
- a named price: the revenue plan's `price_usd_per_month` is a `const` (a bound: `exclusiveMaximum`
  / `minimum`), and the role's price field (a string) must state it (`pattern`);
- a named audience: the strategist's `target_audience` is an `enum` of the allowed audience; the
  other roles' audience field must name it (`pattern`);
- a name, a launch week, a channel, a scope: the role's field for it must say it (`pattern` on a
  string, `contains` an item with that pattern on a list; one pattern per field);
- "too broad": each list the scope counts is cut to its floor (`maxItems`);
- an excluded segment, a claim to avoid, the tone's buzzwords (and, plain or formal, "!"): every
  prose string the gate reads carries `not` one of them (`"not": {"$ref": "#/$defs/Excluded"}`);
  a warm tone's field must speak to the reader (`pattern` "you");
- a number: the plan's churn, burn, breakeven or a channel's cost and hours bounded or fixed.
A grammar-bound server (llama.cpp) keeps const, enum, pattern and maxItems and passes over `not`
and `contains` (no grammar can say "never these words" cheaply); a validating client or server
keeps them all. Whatever a server keeps, the check below judges the answer on every direction:
one re-ask naming what broke, then DRIFT at the gate (engine.routing.router, `RouteRequest.judge`).

Patterns are anchored (`^…$`, bounded either side): llama.cpp's grammar converter takes only
anchored patterns, and an unbounded `.*` lets a small model write until it runs out of tokens.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.game.adherence import (
    BUZZWORDS,
    CITES,
    FIELDS,
    SCOPE_FLOOR,
    carries,
    citations,
    gate,
)
from engine.game.flaws import OVER_CLAIMS
from engine.language.artifact_text import NOT_PROSE, PER_MONTH
from engine.language.composition import audiences
from engine.language.directions import CORE_SCOPE, GENERIC_CLAIM, Direction, price_words
from engine.routing.prompts import schema_block
from worldforge_textkit.json_types import JsonObject
from worldforge_textkit.numbers import money

if TYPE_CHECKING:
    from pydantic import BaseModel

_PLAN = "FinancialPlan"
# How a direction's op bounds a number in JSON Schema ("under $80": below it; "at least": from it).
_BOUND = {"eq": "const", "max": "exclusiveMaximum", "min": "minimum"}
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
) -> JsonObject | None:
    """The artifact's schema with the directions compiled in; None when nothing compiles."""
    if not directions:
        return None
    schema = copy.deepcopy(schema_block(model)[0])
    before = repr(schema)
    patterned: set[str] = set()
    for d in directions:
        if d.axis == "price":
            _price(role, schema, d, patterned)
        elif d.axis == "audience":  # several audiences are held side by side, as written
            who = audiences(directions)
            _audience(role, schema, Direction(axis="audience", value=who), patterned)
        elif d.axis == "name":
            _pattern(schema, _field(role, "name"), d.value, patterned)
        elif d.axis == "timeline" and d.op == "eq" and d.amount is not None:
            _pattern(schema, _field(role, "timeline"), f"week {d.amount:.0f}", patterned)
        elif d.axis == "number" and d.key in _NUMBER_PROP:
            where, prop = _NUMBER_PROP[d.key]
            _bound(schema, where, prop, d, d.amount)
        elif d.axis in ("channel", "scope", "place") and carries(role, d):
            _named(role, schema, d, patterned)
        elif d.axis == "tone" and d.value == "warm":
            _pattern(schema, _field(role, "tone"), "you", patterned)
    _never(schema, [p for d in directions for p in _barred(d)])
    _cites(schema, citations(role, directions))
    return schema if repr(schema) != before else None


def _cites(schema: JsonObject, cites: list[dict[str, object]]) -> None:
    """The work's citations, fixed (`const`, which a grammar keeps): each field the directions
    shape names the notes they came from, as the gate checks (engine.game.adherence)."""
    props = schema.get("properties", {})
    if cites and CITES in props:
        props[CITES] = {"const": cites}
        required = schema.setdefault("required", [])
        if CITES not in required:
            required.append(CITES)


def judge_for(
    role: str, directions: list[Direction], rivals: tuple[str, ...] = ()
) -> Callable[[JsonObject], str | None] | None:
    """The gate's check for a model's answer (as JSON): the directions it broke, its citations
    missing or false, customer copy naming a rival (`rivals`) or an internal phrase, in words
    (None: kept)."""
    if not directions and not rivals:
        return None

    def judge(output: JsonObject) -> str | None:
        broken = gate(role, output, directions, rivals=rivals)
        return "; ".join(v.line for v in broken) or None

    return judge


# ------------------------------------------------------------------ the compiled parts
def _field(role: str, axis: str) -> str | None:
    names = FIELDS.get(axis, {}).get(role)
    return names[0] if names else None


def _prop(schema: JsonObject, where: str | None, name: str) -> JsonObject | None:
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


def _pattern(schema: JsonObject, field: str | None, text: str, done: set[str]) -> None:
    prop = _prop(schema, None, field) if field else None
    if prop is None or field is None or "enum" in prop:
        return  # an enum says it all
    if prop.get("type") == "array" and prop.get("items", {}).get("type") == "string":
        _contains(prop, {"type": "string", "pattern": contains_pattern(text)})  # an item says it
        return
    if prop.get("type") != "string":
        return  # lists of objects: see _named
    if field in done:  # a second pattern on a field: in allOf, which a validator keeps and a
        prop.setdefault("allOf", []).append({"pattern": contains_pattern(text)})  # grammar skips
        return
    prop["pattern"] = contains_pattern(text)  # the first: the one a grammar converter keeps
    done.add(field)


def _price(role: str, schema: JsonObject, d: Direction, done: set[str]) -> None:
    if d.amount is None:
        return
    monthly = round(d.amount * PER_MONTH.get(d.period, 1.0), 4)
    plan = _prop(schema, _PLAN, "price_usd_per_month")
    if plan is not None:
        plan.clear()
        plan["type"] = "number"
        plan[_BOUND[d.op]] = monthly
        required = schema["$defs"][_PLAN].setdefault("required", [])
        if "price_usd_per_month" not in required:
            required.append("price_usd_per_month")
    if d.op == "eq":
        said = price_words(d) if d.period == "unit" else f"{money(d.amount or 0.0)} a {d.period}"
        _pattern(schema, _field(role, "price"), said, done)


def _audience(role: str, schema: JsonObject, d: Direction, done: set[str]) -> None:
    field = _field(role, "audience")
    prop = _prop(schema, None, field) if field else None
    if role == "strategist" and prop is not None and field is not None:
        prop["enum"] = sorted({d.value, d.value[:1].upper() + d.value[1:]})
        done.add(field)
        return
    _pattern(schema, field, d.value, done)


def _named(role: str, schema: JsonObject, d: Direction, done: set[str]) -> None:
    """A channel or scope the role's field must name; "too broad" caps the lists instead."""
    if d.axis == "scope" and d.value == CORE_SCOPE:
        _cap_lists(schema)
        return
    field = _field(role, d.axis)
    prop = _prop(schema, None, field) if field else None
    if prop is None or field is None:
        return
    item = prop.get("items", {})
    if prop.get("type") == "string" or item.get("type") == "string":
        _pattern(schema, field, d.value, done)
        return
    ref = str(item.get("$ref", "")).rsplit("/", 1)[-1]
    said = {"type": "string", "pattern": contains_pattern(d.value)}
    if ref == _CHANNEL:  # a channel whose name says it
        wanted = {"type": "object", "properties": {"channel": said}}
    elif ref == "OKR":  # an objective with a key result that says it
        krs = {"type": "array", "contains": said}
        wanted = {"type": "object", "properties": {"key_results": krs}}
    else:
        return
    _contains(prop, wanted)


def _contains(prop: JsonObject, wanted: JsonObject) -> None:
    """The list holds an item like `wanted`; a second such item is its own `contains`, in allOf."""
    if "contains" not in prop and "allOf" not in prop:
        prop["contains"] = wanted
        return
    prop.setdefault("allOf", [{"contains": prop.pop("contains")}] if "contains" in prop else [])
    prop["allOf"].append({"contains": wanted})


def _cap_lists(schema: JsonObject) -> None:
    """Each list a narrowed scope counts holds at most its floor (`maxItems`, which a grammar
    keeps); the strategist's key results live in its OKR model."""
    owners = [
        schema.get("properties", {}),
        schema.get("$defs", {}).get("OKR", {}).get("properties", {}),
    ]
    for props in owners:
        for name, prop in props.items():
            if name in SCOPE_FLOOR and isinstance(prop, dict) and prop.get("type") == "array":
                prop["maxItems"] = max(SCOPE_FLOOR[name], int(prop.get("minItems", 0)))


def _barred(d: Direction) -> list[str]:
    """What no prose string may say for this direction (unanchored patterns, any case)."""
    if d.axis == "exclusion":
        return [word_pattern(d.value)]
    if d.axis == "claim":
        if d.value == GENERIC_CLAIM:
            return [word_pattern(c) for c in OVER_CLAIMS]
        return [_any_case(d.value)]  # the check reads a named claim anywhere, as written
    if d.axis == "tone":
        return [word_pattern(b) for b in BUZZWORDS] + (["!"] if d.value != "warm" else [])
    return []


# The fields the gate reads as prose (engine.language.artifact_text.prose; the summary's quotes of the CEO
# aside, so the summary, which quotes what the CEO said, is left to the check).
_NOT_PROSE = frozenset(["summary", *NOT_PROSE])
_EXCLUDED = "Excluded"


def _never(schema: JsonObject, patterns: list[str]) -> None:
    """Every prose string in the schema carries `not` any of `patterns` (one shared $defs entry)."""
    if not patterns:
        return
    unique = list(dict.fromkeys(patterns))
    defs = schema.setdefault("$defs", {})
    defs[_EXCLUDED] = {"anyOf": [{"type": "string", "pattern": p} for p in unique]}
    barred = {"$ref": f"#/$defs/{_EXCLUDED}"}
    for name, prop in schema.get("properties", {}).items():
        if name not in _NOT_PROSE:
            _mark_strings(prop, barred)
    for name, model in defs.items():
        if name not in (_EXCLUDED, "FollowsDecision", _PLAN):
            _mark_strings(model, barred)


def _mark_strings(node: object, barred: JsonObject) -> None:
    if not isinstance(node, dict):
        return
    if node.get("type") == "string":
        node["not"] = barred
        return
    for key in ("properties",):
        for child in (node.get(key) or {}).values():
            _mark_strings(child, barred)
    _mark_strings(node.get("items"), barred)
    for alt in node.get("anyOf") or []:
        _mark_strings(alt, barred)


def _any_case(text: str) -> str:
    """The text as a pattern, each letter either case (ECMA patterns have no flags)."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else _escape(c) for c in text)


def word_pattern(text: str) -> str:
    """The text as whole words anywhere in a string, any case (as has_phrase reads it)."""
    edge = "[^A-Za-z0-9_]"
    return f"(^|{edge}){_any_case(text)}({edge}|$)"


def _bound(
    schema: JsonObject, where: str, prop_name: str, d: Direction, amount: float | None
) -> None:
    prop = _prop(schema, where, prop_name)
    if prop is None or amount is None:
        return
    prop[_BOUND[d.op]] = int(amount) if prop.get("type") == "integer" else float(amount)
