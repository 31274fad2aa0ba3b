"""The gate's check: each recalled direction against the fields of one artifact, deterministic.

`check` returns a `Violation` for each direction the artifact broke, naming the direction and what
the artifact did instead (shown as DRIFT, and scored down by engine.game.rubric). `FIELDS` says
where each axis lives in each role's artifact: checked there, and realised there by the simulated
worker (engine.writing.realise).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.game.flaws import over_claim
from engine.game.rules import RULES
from engine.language.artifact_text import (
    NOT_PROSE,
    PER_MONTH,
    WEEK_SAID,
    current_number,
    mentions,
    prose,
    said,
    stated_prices,
)
from engine.language.composition import CUSTOMER_COPY as COPY_FIELDS
from engine.language.composition import INTERNAL_PHRASES, is_support_channel
from engine.language.directions import (
    CORE_SCOPE,
    GENERIC_CLAIM,
    NUMBER_WORDS,
    Direction,
    number_words,
    price_words,
)
from engine.language.grammar import count
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import clip, has_phrase
from worldforge_textkit.numbers import money
from worldforge_textkit.patterns import Pattern

# "Too broad" (CORE_SCOPE) binds each list the work carries to the fewest items its role needs:
# the check counts them, the realisation cuts to them (a sentence saying so is no narrowing).
SCOPE_FLOOR = {
    "features": 3,
    "retention_loops": 2,
    "churn_drivers": 2,
    "support_workflow": 3,
    "gtm_channels": 3,
    "key_results": 2,
}
# The list each role's scope is counted in, and what its items are called.
SCOPE_LIST = {
    "strategist": ("key_results", "key result"),
    "designer": ("features", "feature"),
    "marketer": ("gtm_channels", "channel"),
    "ops": ("retention_loops", "retention loop"),
}


def scope_lists(art: Mapping[str, object]) -> dict[str, list[object]]:
    """The lists a narrowed scope cuts, by name (the strategist's key results are its first OKR's)."""
    out = {k: v for k, v in art.items() if k in SCOPE_FLOOR and isinstance(v, list)}
    okrs = art.get("okrs_q1")
    if isinstance(okrs, list) and okrs and isinstance(okrs[0], dict):
        krs = okrs[0].get("key_results")
        if isinstance(krs, list):
            out["key_results"] = krs
    return out


def scope_size(role: str, art: Mapping[str, object]) -> str:
    """'4 features', '2 key results': the size of the role's list a narrowed scope cuts."""
    key, noun = SCOPE_LIST[role]
    return count(len(scope_lists(art).get(key, [])), noun)


# Where each axis lives in each role's artifact (checked there, realised there).
FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    "audience": {
        "strategist": ("target_audience",),
        "designer": ("hero_headline",),
        "marketer": ("subject",),
        "ops": ("nps_plan",),
    },
    "channel": {
        "strategist": ("okrs_q1",),
        "designer": ("wireframe_notes",),
        "marketer": ("gtm_channels",),
        "ops": ("support_workflow",),
    },
    "scope": {
        "strategist": ("okrs_q1",),
        "designer": ("features",),
        "marketer": ("body",),
        "ops": ("retention_loops",),
    },
    "name": {
        "strategist": ("value_proposition",),
        "designer": ("hero_headline",),
        "marketer": ("subject",),
        "ops": ("nps_plan",),
    },
    "tone": {
        "strategist": ("value_proposition",),
        "designer": ("hero_headline",),
        "marketer": ("body",),
        "ops": ("nps_plan",),
    },
    "price": {
        "strategist": ("value_proposition",),
        "designer": ("features",),
        "marketer": ("body",),
        "ops": ("retention_loops",),
    },
    "timeline": {
        "strategist": ("okrs_q1",),
        "designer": ("wireframe_notes",),
        "marketer": ("body",),
        "ops": ("support_workflow",),
    },
}
FIELDS["place"] = FIELDS["scope"]  # where the work starts is said beside what it centres on
BUZZWORDS = (
    "revolutionary",
    "game-changing",
    "game changer",
    "synergy",
    "disruptive",
    "world-class",
    "cutting-edge",
    "best-in-class",
    "supercharge",
    "next-generation",
    "rockstar",
)
# What each tone takes out of the work, and what it says instead (the simulated worker's edit and
# the gate's check read the same lists): jargon for "plain", contractions for "formal", hedges
# for "bold".
TONE_SWAPS: dict[str, dict[str, str]] = {
    "plain": {
        "leverage": "use",
        "utilize": "use",
        "utilise": "use",
        "seamless": "smooth",
        "seamlessly": "smoothly",
        "streamline": "simplify",
        "optimize": "improve",
        "optimise": "improve",
        "robust": "solid",
        "scalable": "growing",
        "stakeholders": "people involved",
        "end-to-end": "whole",
        "best practices": "what works",
    },
    "formal": {
        "don't": "do not",
        "won't": "will not",
        "can't": "cannot",
        "isn't": "is not",
        "it's": "it is",
        "we're": "we are",
        "you're": "you are",
        "we'll": "we will",
        "that's": "that is",
        "let's": "let us",
    },
    "bold": {
        "could help": "helps",
        "can help": "helps",
        "aims to": "will",
        "tries to": "will",
        "might": "will",
        "hopefully ": "",
        "perhaps ": "",
        "we think ": "",
    },
}
SHORT_WORDS = 25  # a field over this many words with a sentence past its core is long
CORE_SENTENCE = Pattern(
    r"[$£€]|\bweek \d|\[link\]|\bbook\b|\breply\b|\bjoin\b|\bsign up\b|“", re.IGNORECASE
)
_SENTENCES = Pattern(r"(?<=[.!?])\s+")
_NOT_COPY = NOT_PROSE


def core_cut(text: str, held: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """A field's sentences split into its core (the opening, any price, week or call to action,
    and any sentence naming a `held` value) and what a shorter version cuts."""
    parts = [p for p in _SENTENCES.split(text.strip()) if p]
    keep, cut = parts[:1], list[str]()
    for p in parts[1:]:
        core = CORE_SENTENCE.search(p) or any(h and has_phrase(p, h) for h in held)
        (keep if core else cut).append(p)
    return keep, cut


def long_fields(art: Mapping[str, object], held: Iterable[str] = ()) -> dict[str, int]:
    """The fields a "shorter" tone cuts, with their length in words: a top-level text field over
    SHORT_WORDS words with a sentence past its core (the summary too: it keeps its opening)."""
    held = tuple(held)
    out: dict[str, int] = {}
    for k, v in art.items():
        if k in _NOT_COPY or not isinstance(v, str):
            continue
        n = len(v.split())
        if n > SHORT_WORDS and core_cut(v, held)[1]:
            out[k] = n
    return out


# The axes realised in a sentence of their own, which a shorter field keeps (an audience and a
# name are said inside the field's opening line, which a shorter field keeps anyway).
_HELD_AXES = ("channel", "place", "scope")


def held_words(directions: Iterable[Direction]) -> tuple[str, ...]:
    """What a shorter field keeps past its core: a sentence that carries another binding
    direction (a channel, a place, a scope in either words) and, when a warm tone binds, the one
    that speaks to the reader. "Shorter" never takes out what binds."""
    out: list[str] = []
    for d in directions:
        if d.do and d.axis in _HELD_AXES and d.value != CORE_SCOPE:
            out += [d.value, SCOPE_SAID.get(d.value, d.value)] if d.axis == "scope" else [d.value]
        elif d.axis == "tone" and d.value == "warm":
            out += ["you", "your"]
    return tuple(dict.fromkeys(x for x in out if x))


def copy_words(art: Mapping[str, object]) -> int:
    """How many words the work's own text fields hold (the worker's notes aside)."""
    return sum(len(v.split()) for k, v in art.items() if k not in _NOT_COPY and isinstance(v, str))


def tone_hits(text: str, tone: str) -> list[str]:
    """The words in `text` the tone takes out (jargon, contractions, hedges), in list order."""
    low = text.lower().replace("’", "'")
    return [w for w in TONE_SWAPS.get(tone, {}) if has_phrase(low, w.strip())]


def _within(value: float, d: Direction) -> bool:
    target = d.amount or 0.0
    if d.op == "max":
        return value < target or (value == target and d.axis == "timeline")
    if d.op == "min":
        return value >= target
    return abs(value - target) < 0.051


@dataclass(frozen=True, eq=False, repr=False)
class Violation(FrozenRecord):
    """A direction the artifact broke, and what it did instead (in plain words)."""

    axis: str
    direction: str
    did: str
    memory_id: str | None = None

    @property
    def line(self) -> str:
        return f"DRIFT: {self.did}, you said {self.direction}"


def applies(role: str, d: Direction, artifact: Mapping[str, object]) -> bool:
    """Whether this role's artifact has a field the direction can be checked in."""
    if d.axis == "number":
        if d.key in ("cac", "hours"):
            return bool(artifact.get("gtm_channels"))
        return bool(artifact.get("financial_plan"))
    if d.axis in ("exclusion", "claim"):
        return True
    return carries(role, d)


def carries(role: str, d: Direction) -> bool:
    """Whether the role's artifact has a field for the direction's axis (where it is realised,
    compiled into a model's schema and checked): support steps take only the channels customers
    are answered through, never how they are found (no "answer sheep farmers through paid ads")."""
    if d.axis == "channel" and role == "ops":
        return is_support_channel(d.value)
    return role in FIELDS.get(d.axis, {})


def check(
    role: str,
    artifact: Mapping[str, object],
    directions: Iterable[Direction],
    *,
    held: Iterable[Direction] | None = None,
) -> list[Violation]:
    """Each recalled direction against the artifact's fields (deterministic; DRIFT on a miss).
    `held`: everything that binds the work, when `directions` is a part of it (a shorter field
    keeps the sentences that carry the rest: `held_words`); by default `directions` itself."""
    out: list[Violation] = []
    allp = prose(artifact)
    ds = list(directions)
    keep = held_words(ds if held is None else held)
    for d in ds:
        if not applies(role, d, artifact):
            continue
        did = _violation(role, artifact, d, allp, keep)
        if did:
            out.append(
                Violation(
                    axis=d.axis, direction=d.line(), did=clip(did, 120), memory_id=d.memory_id
                )
            )
    return out


def _violation(
    role: str, art: Mapping[str, object], d: Direction, allp: str, held: tuple[str, ...] = ()
) -> str | None:
    """What the artifact did instead of the direction, in words (None when it holds)."""
    fields = FIELDS.get(d.axis, {}).get(role, ())
    here = prose(art, fields) if fields else ""
    if d.axis == "tone":
        return _tone_miss(art, d, allp, here, held)
    return _CHECKS[d.axis](art, d, allp, here)


def _price_miss(art: Mapping[str, object], d: Direction, allp: str, here: str) -> str | None:
    per_unit = d.unit if d.period == "unit" else None
    said = stated_prices(allp, per_unit)
    if not said:
        return "states no price"
    for amount, period in said:
        per = {"mo": "month"}.get(period, period)
        if per != d.period or not _within(amount, d):
            unit = per_unit if per == "unit" else None
            shown = Direction(axis="price", value="", amount=amount, period=per, unit=unit)
            return f"price {price_words(shown)}"
    if d.unit and not per_unit and not has_phrase(allp, f"per {d.unit}"):
        return "prices it per something else"
    return plan_price_miss(art, d)


def plan_price_miss(art: Mapping[str, object], d: Direction) -> str | None:
    """The revenue plan follows the named price: its price is the named one (monthly) and each
    month's revenue is within one customer's price of its paying customers × that price. A plan
    that states no price or customers (an older artifact, a model's) is judged by its text only."""
    fp = art.get("financial_plan")
    if not isinstance(fp, dict):
        return None
    price, customers = fp.get("price_usd_per_month"), fp.get("paying_customers_m1_to_m6")
    mrr = fp.get("target_mrr_usd_m1_to_m6")
    if not isinstance(price, int | float) or isinstance(price, bool) or price <= 0:
        return None
    per = PER_MONTH.get(d.period, 1.0)
    if not _within(round(price / per, 2), d):
        return f"plans its revenue at {money(price)} a month"
    if isinstance(customers, list) and isinstance(mrr, list) and len(customers) == len(mrr):
        for c, x in zip(customers, mrr, strict=True):
            if not isinstance(c, int | float) or not isinstance(x, int | float):
                continue
            if abs(float(x) - float(c) * price) >= price:
                return f"plans {money(float(x))} a month from {c:,.0f} customers at {money(price)}"
    return None


def _claim_miss(art: Mapping[str, object], d: Direction, allp: str, here: str) -> str | None:
    if d.value == GENERIC_CLAIM:
        hit = over_claim(allp)
        return f"claims “{hit}”" if hit else None
    hit = said(allp, d.value)
    return f"still says “{hit}”" if hit else None


def _exclusion_miss(art: Mapping[str, object], d: Direction, allp: str, here: str) -> str | None:
    hit = said(allp, d.value)
    return f"mentions “{hit}”" if hit else None


# What a fork option's scope is called in customer copy (a note to the team, "half the backlog,
# cut", is said in the work's voice there): the gate accepts either words for the direction.
SCOPE_SAID: dict[str, str] = {
    row["value"]: row["said"]
    for row in json.loads(Path(__file__).with_name("scope_said.json").read_text("utf-8"))["rows"]
}
CUSTOMER_COPY = ("designer", "marketer")  # the roles whose scope field a customer reads


def scope_words(role: str, value: str) -> str:
    """The words a role's scope field uses for a scope: the customer's words on the landing page
    and in the launch email, the team's note elsewhere."""
    return SCOPE_SAID.get(value, value) if role in CUSTOMER_COPY else value


def scope_named(text: str, value: str) -> bool:
    """Whether `text` names a scope, in the team's words or the customer's."""
    said = SCOPE_SAID.get(value)
    return mentions(text, value) or (said is not None and mentions(text, said))


def _scope_miss(art: Mapping[str, object], d: Direction, here: str) -> str | None:
    if d.value == CORE_SCOPE:
        lists = scope_lists(art)
        over = next((k for k, v in lists.items() if len(v) > SCOPE_FLOOR[k]), None)
        if over is None:
            return None
        noun = next((n for k, n in SCOPE_LIST.values() if k == over), over.replace("_", " "))
        return f"still carries {count(len(lists[over]), noun)}"
    return None if scope_named(here, d.value) else f"leaves out {d.value}"


def _tone_miss(
    art: Mapping[str, object], d: Direction, allp: str, here: str, held: tuple[str, ...] = ()
) -> str | None:
    hit = next((b for b in BUZZWORDS if has_phrase(allp, b)), None)
    if hit:
        return f"uses “{hit}”"
    if d.value in ("formal", "plain") and "!" in allp:
        return "uses exclamation marks"
    if d.value == "warm" and not has_phrase(here, "you"):
        return "never speaks to the reader"
    if d.value == "short" and (far := long_fields(art, held)):
        k, n = next(iter(far.items()))
        return f"runs to {n} words in its {k.replace('_', ' ')}"
    if hits := tone_hits(allp, d.value):
        return f"{'hedges with' if d.value == 'bold' else 'uses'} “{hits[0].strip()}”"
    return None


def _week_miss(art: Mapping[str, object], d: Direction, allp: str, here: str) -> str | None:
    weeks = [int(x) for x in WEEK_SAID.findall(here)]
    if not weeks:
        return "names no launch week"
    bad = next((w for w in weeks if not _within(float(w), d)), None)
    return f"launches in week {bad}" if bad is not None else None


def _number_miss(art: Mapping[str, object], d: Direction, allp: str, here: str) -> str | None:
    now = current_number(art, d.key or "")
    if now is None:
        return f"states no {NUMBER_WORDS.get(d.key or '', 'number')}"
    if not _within(now, d):
        shown = Direction(axis="number", key=d.key, value="", amount=now)
        return f"{NUMBER_WORDS.get(d.key or '', d.key)} {number_words(shown)}"
    return None


# What an artifact did instead of one direction (None when it holds): (artifact, direction, all its
# prose, the prose of the fields the axis lives in).
_CHECKS: dict[str, Callable[[Mapping[str, object], Direction, str, str], str | None]] = {
    "price": _price_miss,
    "audience": lambda art, d, allp, here: (
        None if mentions(here, d.value) else f"speaks to “{clip(here, 60)}”"
    ),
    "exclusion": _exclusion_miss,
    "claim": _claim_miss,
    "channel": lambda art, d, allp, here: (
        None if mentions(here, d.value) else f"never uses {d.value}"
    ),
    "scope": lambda art, d, allp, here: _scope_miss(art, d, here),
    "place": lambda art, d, allp, here: (
        None if mentions(here, d.value) else f"does not start in {d.value}"
    ),
    "name": lambda art, d, allp, here: (
        None if has_phrase(here, d.value) else "does not use the name"
    ),
    "tone": _tone_miss,
    "timeline": _week_miss,
    "number": _number_miss,
}


# ------------------------------------------------------------------ citations
CITES = "cites"  # the artifact's field naming, per field a direction shaped, the notes it follows
_PLAN_ROLES = ("marketer", "ops")  # the roles whose work carries the revenue plan


def shaped_fields(role: str, d: Direction) -> tuple[str, ...]:
    """The fields of the role's work a direction shapes (where it is realised and checked, so
    where its note is cited): its axis's fields (FIELDS), the revenue plan for a price or a plan
    number, the channels for a channel's cost or hours, the list a narrowed scope cuts. An
    exclusion or a claim to avoid shapes no one field: it is checked in every field."""
    if d.axis == "number":
        if d.key in ("cac", "hours"):
            return ("gtm_channels",) if role == "marketer" else ()
        return ("financial_plan",) if role in _PLAN_ROLES else ()
    if d.axis in ("exclusion", "claim") or not carries(role, d):
        return ()
    if d.axis == "scope" and d.value == CORE_SCOPE:
        key = SCOPE_LIST[role][0]
        return ("okrs_q1",) if key == "key_results" else (key,)
    out = FIELDS[d.axis][role]
    return (*out, "financial_plan") if d.axis == "price" and role in _PLAN_ROLES else out


def label(d: Direction) -> str:
    """What a field cites for a direction: its note's memory id, else its line in words."""
    return d.memory_id or d.line()


def citations(role: str, directions: Iterable[Direction]) -> list[dict[str, object]]:
    """The work's `cites`: each field the directions shape, with the notes they came from (in
    the order the directions bind; a note named once per field)."""
    by: dict[str, list[str]] = {}
    for d in directions:
        for f in shaped_fields(role, d):
            notes = by.setdefault(f, [])
            if label(d) not in notes:
                notes.append(label(d))
    return [{"field": f, "notes": notes} for f, notes in by.items()]


def cited(art: Mapping[str, object]) -> dict[str, list[str]]:
    """The work's citations read back, field → notes (an entry that is not a citation is
    skipped)."""
    out: dict[str, list[str]] = {}
    for c in art.get(CITES) or []:  # type: ignore[attr-defined]
        if isinstance(c, Mapping) and isinstance(c.get("field"), str):
            notes = c.get("notes")
            out.setdefault(c["field"], []).extend(
                str(n) for n in (notes if isinstance(notes, list) else [])
            )
    return out


def _words(field: str) -> str:
    return field.replace("_", " ")


def citation_misses(
    role: str, art: Mapping[str, object], directions: Iterable[Direction]
) -> list[Violation]:
    """The work's citations checked against what binds it: a field a direction shaped that does
    not cite the direction's note; a field citing a note that binds nothing here, a note none of
    whose directions shaped it, or a note whose direction the field does not honour. Only work
    in its contract's form is read (it always has `cites`; a bare test dict has none)."""
    if CITES not in art:
        return []
    live = [d for d in directions if applies(role, d, art)]
    cites = cited(art)
    broken = {(v.axis, v.direction) for v in check(role, art, live)}
    out: list[Violation] = []

    def flag(axis: str, direction: str, did: str, memory_id: str | None) -> None:
        out.append(Violation(axis=axis, direction=direction, did=did, memory_id=memory_id))

    for d in live:
        for f in shaped_fields(role, d):
            if f in art and label(d) not in cites.get(f, []):
                flag(d.axis, d.line(), f"its {_words(f)} does not cite the note it follows", None)
    for f, notes in cites.items():
        for n in dict.fromkeys(notes):
            of = [d for d in live if label(d) == n]
            if not of:
                flag(
                    "citation",
                    "cite only the notes that bind this work",
                    f"its {_words(f)} cites {clip(n, 40)}, which binds nothing here",
                    n,
                )
                continue
            shaped = [d for d in of if f in shaped_fields(role, d)]
            barred = [d for d in of if d.axis in ("exclusion", "claim")]
            if not shaped and not barred:
                flag(
                    "citation",
                    "cite only the notes that shaped a field",
                    f"its {_words(f)} cites {clip(n, 40)}, which did not shape it",
                    n,
                )
            for d in shaped:
                if (d.axis, d.line()) in broken:
                    flag(d.axis, d.line(), f"its {_words(f)} cites it but does not honour it", n)
            for d in barred:
                if hit := said(prose(art, (f,)), d.value):
                    flag(d.axis, d.line(), f"its {_words(f)} cites it yet says “{hit}”", n)
    return out


# ------------------------------------------------------------------ customer copy
_RULE_IDS = tuple(sorted(RULES))
_INTERNAL_ID = Pattern(r"\bmem-\d+\b|\b[\w./-]+\.(?:md|py|json|db)\b|\brun-[0-9a-f]{8,}\b")


def copy_misses(
    role: str, art: Mapping[str, object], rivals: Iterable[str] = ()
) -> list[Violation]:
    """Customer copy (the landing page, the launch email: composition's CUSTOMER_COPY) never
    carries a rival's or a competitor's name (`rivals`), nor an internal phrase: the team's
    note for a scope (SCOPE_SAID), a rule id, a memory id, a file name, the game's own words."""
    out: list[Violation] = []
    for f in COPY_FIELDS.get(role, ()):
        text = prose(art, (f,))
        if not text.strip():
            continue
        for name in rivals:
            if name and has_phrase(text, name):
                out.append(
                    Violation(
                        "copy",
                        "keep rivals out of customer copy",
                        f"names {name} in its {_words(f)}",
                    )
                )
        inside = [p for p in (*INTERNAL_PHRASES, *SCOPE_SAID, *_RULE_IDS) if has_phrase(text, p)]
        if m := _INTERNAL_ID.search(text):
            inside.append(m.group(0))
        for p in inside[:1]:
            out.append(
                Violation(
                    "copy",
                    "keep the team's words out of customer copy",
                    f"says “{p}” in its {_words(f)}",
                )
            )
    return out


def gate(
    role: str,
    art: Mapping[str, object],
    directions: Iterable[Direction],
    *,
    rivals: Iterable[str] = (),
) -> list[Violation]:
    """Everything the gate flags on one artifact: each recalled direction broken (`check`), each
    citation missing or false (`citation_misses`), and customer copy that names the rival, a
    competitor the CEO named (its own slot) or says an internal phrase (`copy_misses`)."""
    ds = list(directions)
    named = [d.value for d in ds if d.axis == "competitor"]  # competitors the CEO named
    return [
        *check(role, art, ds),
        *citation_misses(role, art, ds),
        *copy_misses(role, art, (*rivals, *named)),
    ]
