"""How a simulated worker realises typed directions (engine.language.directions) in an artifact's
fields, not in a sentence about them: the named price becomes the price everywhere one is stated,
the audience goes into the audience field, an excluded segment is taken out, a channel, a launch
week, a number or a name is put where the role's artifact carries it.

Also the two other edits the simulation tier makes with directions: `violate` (a seeded DRIFT
breaks one specific recalled direction, for the gate to catch) and `what_changed` (a redo's
"what changed" lines, computed from the two artifacts, before → after per direction).

Every edit here is checked by `engine.game.adherence.check`: realising a direction makes the
check pass, violating one makes it fail (tests/engine/test_directions.py holds both ways).
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from engine.game.adherence import (
    BUZZWORDS,
    CORE_SENTENCE,
    FIELDS,
    SCOPE_FLOOR,
    SCOPE_LIST,
    SHORT_WORDS,
    TONE_SWAPS,
    applies,
    check,
    copy_words,
    core_cut,
    held_words,
    long_fields,
    scope_lists,
    scope_named,
    scope_size,
    scope_words,
    tone_hits,
)
from engine.game.flaws import OVER_CLAIMS, WRONG_AUDIENCES
from engine.game.pricing import monthly_price
from engine.language.artifact_text import (
    NOT_PROSE,
    NUMBER_FIELD,
    PRICE_SAID,
    WEEK_SAID,
    current_number,
    mentions,
    prose,
    said,
    stated_prices,
    unit_price_said,
    unquoted,
)
from engine.language.composition import LEAVES_OUT, audiences
from engine.language.directions import (
    CORE_SCOPE,
    GENERIC_CLAIM,
    NUMBER_WORDS,
    Direction,
    number_words,
    price_words,
)
from engine.language.grammar import (
    agree,
    cap,
    capitals,
    is_plural,
    narrows,
    relative,
    singular,
)
from engine.writing.banks import WARM_HEADLINES, WARM_LINES
from engine.writing.phrases import Voice
from engine.writing.plan import fit_customers, reprice
from worldforge_textkit import has_phrase
from worldforge_textkit.json_types import JsonObject
from worldforge_textkit.numbers import money
from worldforge_textkit.patterns import Pattern

_SKIP = NOT_PROSE
_SENTENCE = Pattern(r"(?<=[.!?])\s+")
_MUST_STAY = CORE_SENTENCE
_FLOOR = SCOPE_FLOOR  # the fewest items a list keeps when lines are taken out


def realise(
    role: str,
    art: JsonObject,
    directions: list[Direction],
    v: Voice,
    *,
    booked: float = 0.0,
    keep: list[Direction] | None = None,
) -> None:
    """Edit `art` in place so it honours every direction its role's fields can carry. The order is
    fixed so no edit undoes another: tone first (it may shorten a field), then what adds content,
    then what takes content out, then the name and the price (restated wherever one is stated,
    and the revenue plan's numbers recomputed from it; `booked` is the revenue already booked,
    which a plan never starts below). `keep` is every direction that binds (a redo realises only
    what its reason named, and keeps what the others put in place: a channel another one holds,
    the audiences that bind beside the one named; what the redo's edit broke of them, a name in
    the headline it rewrote, is put back)."""
    before = copy.deepcopy(art) if keep else None
    _realise(role, art, directions, v, booked, keep or [])
    if before is None or keep is None:
        return
    named = {(d.axis, d.value) for d in directions}
    broke = [
        d
        for d in keep
        if (d.axis, d.value) not in named
        and applies(role, d, art)
        and check(role, art, [d], held=keep)
        and not check(role, before, [d], held=keep)
    ]
    if broke:
        _realise(role, art, broke, v, booked, keep)


def _realise(
    role: str,
    art: JsonObject,
    directions: list[Direction],
    v: Voice,
    booked: float,
    keep: list[Direction],
) -> None:
    by = {a: [d for d in directions if d.axis == a] for a in _ORDER}
    gone = by["exclusion"] + by["claim"]
    barred = tuple(d.value for d in [*directions, *keep] if d.axis in LEAVES_OUT)
    if by["audience"]:  # first: the named audience takes the old customer's place, so "not dog
        # owners" rewrites, not deletes; every audience that binds is spoken to, side by side
        spoken = [d.value for d in keep if d.axis == "audience"]
        who = spoken if any(d.value in spoken for d in by["audience"]) else []
        _audience(role, art, who or [d.value for d in by["audience"]], v)
    for d in gone:
        _take_out(role, art, d, v)
    for d in sorted(by["tone"], key=lambda d: d.value == "warm"):  # warm after the cutting
        _tone(role, art, d.value, v)
    for d in by["channel"]:  # several channels bind side by side; support steps take only the
        if applies(role, d, art):  # channels customers are answered through
            held = [*by["channel"], *(x for x in keep if x.axis == "channel")]
            others = tuple(x.value for x in held if x.value != d.value)
            _channel(role, art, d.value, v, others, barred)
    for d in by["scope"]:
        if d.value != CORE_SCOPE:
            _scope(role, art, d.value, v, barred=barred)
    for d in by["place"]:
        _scope(role, art, d.value, v, kind="place", barred=barred)
    for d in by["timeline"]:
        _timeline(role, art, d, v, barred)
    for d in by["number"]:
        _number(art, d, booked)
    for d in gone:
        _take_out(role, art, d, v)
    for d in by["name"]:
        _name(role, art, d.value)
    for d in by["price"]:
        _price(role, art, d, v, directions)
        _reprice_plan(art, d, directions, booked)
    _cut_last(role, art, directions, [*directions, *keep], v)


def _cut_last(
    role: str, art: JsonObject, named: list[Direction], held: list[Direction], v: Voice
) -> None:
    """The cuts run after everything that adds lines: "too broad" (the cut keeps the price and
    what the held directions put in lists), then "shorter" (each long field to its core and the
    sentences that carry what binds: adherence.held_words)."""
    if any(d.axis == "scope" and d.value == CORE_SCOPE for d in named):
        kept = tuple(x.value for x in held if x.axis in _HELD_IN_LISTS)
        _scope(role, art, CORE_SCOPE, v, held=kept)
    if any(d.axis == "tone" and d.value == "short" for d in named):
        _shorten(art, held_words(held))


def _line(v: Voice, key: str, bank: tuple[str, ...], barred: tuple[str, ...], **extra: str) -> str:
    """A realised line from SAID (`key` seeds the pick) that says nothing the CEO left out (an
    exclusion, a claim to avoid: "first in line" never takes out the line that starts the work in
    New York City): the seeded pick among the templates that say none of it, the same pick as
    ever when none does; the axis's plain line (PLAIN_SAID) when every template does."""
    clear = tuple(t for t in bank if not any(said(v.fill(t, **extra), b) for b in barred))
    if len(clear) == len(bank):
        return v.pick(key, bank, **extra)
    return v.pick(key, clear, **extra) if clear else v.fill(PLAIN_SAID[key], **extra)


_ORDER = (
    "exclusion",
    "claim",
    "tone",
    "audience",
    "channel",
    "scope",
    "place",
    "timeline",
    "number",
    "name",
    "price",
)


# ------------------------------------------------------------------ price
def target_price(d: Direction) -> float:
    """The price that honours a direction: exactly it, just under it, or it."""
    amount = d.amount or 0.0
    if d.op == "max":
        return amount - 1 if amount <= 50 else float(int((amount - 1) // 5) * 5)
    return amount


def price_phrase(d: Direction, v: Voice, directions: list[Direction]) -> str:
    """The price as the work states it: '$27 a month per groomer', or per thing bought ('$12 a
    meal', never '$12 a month per meal')."""
    if d.period == "unit" and d.unit:
        return price_words(replace(d, amount=target_price(d)))
    unit = d.unit or v.slots.get("unit", "")
    barred = {x.value.lower() for x in directions if x.axis == "exclusion"}
    if not unit or f"per {unit}".lower() in barred:
        return f"{money(target_price(d))} a {d.period}"
    return f"{money(target_price(d))} a {d.period} per {unit}"


_PRICE = r"[$£€]\s?\d[\d,]*(?:\.\d+)?\s*(?:a|per|/)\s*(?:month|mo|year|week)\b"


def _price_re(v: Voice, per: str | None = None) -> re.Pattern[str]:
    """A stated price with its unit, the voice's own unit whole ("per ward team"), else one word;
    with `per`, a price said per that thing bought ("$12 a meal") too."""
    unit = v.slots.get("unit", "")
    own = rf"{re.escape(unit)}\b|" if len(unit.split()) >= 2 else ""
    whole = _PRICE + rf"(?:\s+per\s+(?:{own}[\w-]+))?"
    if per:
        whole = rf"(?:{whole}|{unit_price_said(per).pattern})"
    return re.compile(whole, re.IGNORECASE)


FREE_PERIOD = Pattern(r"\bthe first (?:month|week) is free\b")


def _per(d: Direction) -> str | None:
    return d.unit if d.period == "unit" else None


def _price(role: str, art: JsonObject, d: Direction, v: Voice, directions: list[Direction]) -> None:
    said = price_phrase(d, v, directions)
    _map_strings(art, lambda s: _price_re(v, _per(d)).sub(said, s))
    if per := _per(d):  # a price per repair has no first month to give away: the first repair
        _map_strings(art, lambda s: FREE_PERIOD.sub(f"the first {per} is free", s))
    field = FIELDS["price"][role][0]
    if stated_prices(prose(art, (field,)), _per(d)):
        return
    if role == "designer":
        art["features"] = [*art.get("features", []), f"Pilot price: {said}"]
    elif role == "marketer":
        art["body"] = f"The pilot costs {said}. " + art.get("body", "")
    elif role == "ops":
        art["retention_loops"] = [
            *art.get("retention_loops", []),
            f"Renewal at {said}, stated up front",
        ]
    else:
        art["value_proposition"] = add_sentence(
            art.get("value_proposition"), f"Pilot price: {said}."
        )


def _reprice_plan(
    art: JsonObject, d: Direction, directions: list[Direction], booked: float
) -> None:
    """The plan's numbers follow the named price: its customers pay it; a revenue target the CEO
    named stays, and the customers become what it takes at this price."""
    fp = art.get("financial_plan")
    if not isinstance(fp, dict):
        return
    named_revenue = any(x.axis == "number" and x.key == "mrr" for x in directions)
    price = monthly_price(target_price(d), d.period)
    reprice(fp, price, booked=booked, keep_revenue=named_revenue)
    fp.pop("price_per", None)
    if _per(d):  # "$29 a repair" stays a price per repair, never "$29 a month"
        fp["price_per"] = d.unit


# ------------------------------------------------------------------ audience, channel, scope
# The verbs the banks make agree with the customer (<loses>, <has> …), as written for one.
_AGREED = ("loses", "has", "wants", "sees", "trusts", "struggles", "juggles", "is", "gets", "asks")
_AGREED_PLURAL = {agree(x, True): x for x in _AGREED}
_ONE = ("one", "each", "every", "a", "an")


def _retold(s: str, old: str, who: str) -> str:
    """A sentence written for one customer, told of another: the verb after it and a "one"
    before it agree again ("council wants" -> "allotment people want", "one council" -> "one
    allotment person"; "nurses want" -> "council wants")."""
    if not who or is_plural(who) == is_plural(old):
        return s
    plural = is_plural(who)

    def verb(m: re.Match[str]) -> str:
        w = m.group(2)
        if plural and w in _AGREED:
            w = agree(w, True)
        elif not plural:
            w = _AGREED_PLURAL.get(w, w)
        return f"{m.group(1)} {w}"

    out = re.sub(rf"({re.escape(who)}|{re.escape(cap(who))}) (\w+)", verb, s)
    if plural:
        ones = "|".join(_ONE)
        out = re.sub(
            rf"\b({ones}) {re.escape(who)}\b", lambda m: f"{m.group(1)} {singular(who)}", out
        )
    return out


def _audience(role: str, art: JsonObject, values: list[str], v: Voice) -> None:
    """Every audience that binds, in the role's audience field (the gate checks each one there):
    the old customer's words become them, and a field that misses one is written for them all."""
    field = FIELDS["audience"][role][0]
    who = capitals(audiences([Direction(axis="audience", value=x) for x in values]))  # "HR …"
    # the voice's and (on a redo) the pitch's customer, the longer first ("busy nurses" before
    # "nurses"), in a fixed order (a set's order of strings differs from process to process)
    olds = {v.slots.get("customer", ""), v.slots.get("pitch_customer", "")}
    for old in sorted(olds, key=lambda o: (-len(o), o)):
        if old and not narrows(who, old):
            # a narrowing ("the busiest hair salons" for "hair salons") leaves the old words standing
            def swap(s: str, o: str = old) -> str:
                return _retold(s.replace(o, who).replace(cap(o), cap(who)), o, who)

            _map_strings(art, swap)
    if role == "strategist":  # the audience field is the audience itself, as the model tiers'
        art[field] = cap(who)  # compiled schema holds a model to (an enum: engine.workers.schema)
        return
    if all(mentions(prose(art, (field,)), x) for x in values):
        return
    outcome = v.slots.get("outcome", "a calmer week")
    art[field] = {
        "designer": f"{cap(outcome)} for {who}",
        "marketer": f"For {who}: {outcome.lower()}",
        "ops": f"Ask {who} every month how likely they are to recommend us, and call back each low score",
    }[role]


# The words a realised direction adds when the artifact did not already say it (writing's words,
# filled by the venture's voice, so two ventures say it in their own terms). {name} {what} {week}
# are the direction's value; the rest are the voice's slots.
SAID: dict[str, tuple[str, ...]] = {
    "channel_strategist": (
        "{n} {unit_plural} reached through {name}",
        "First {n} conversations with {customer} through {name}",
    ),
    "channel_designer": (
        "Launch to {customer} through {name}.",
        "The first {unit_plural} arrive through {name}.",
    ),
    "channel_ops": ("Answer {customer} through {name}", "Reach each {unit} through {name} first"),
    "scope_strategist": (
        "A plan for {customer}, centred on {what}",
        "A plan for the first {unit_plural}, centred on {what}",
    ),
    "scope_designer": (
        "Built around {what}, for {customer}",
        "The first version is built around {what}",
    ),
    "scope_marketer": (
        "The offer to {customer} centres on {what}.",
        "What we offer each {unit} centres on {what}.",
    ),
    "scope_ops": (
        "A retention plan for {customer}, centred on {what}",
        "Every loop for the first {unit_plural} is built around {what}",
    ),
    "place_strategist": (
        "The first {unit_plural} signed up, starting in {what}",
        "A first cohort of {customer}, starting in {what}",
    ),
    "place_designer": ("Launching first in {what}", "Open first to {customer} in {what}"),
    "place_marketer": ("We launch first in {what}.", "The pilot starts in {what}."),
    "place_ops": ("Support opens first in {what}", "Every loop starts in {what}, then grows"),
    "week_strategist": (
        "Pilot live with three {unit_plural} by week {week}",
        "First {unit_plural} using it by week {week}",
    ),
    "week_designer": (
        "Launch to {customer} in week {week}.",
        "The page goes live for the first {unit_plural} in week {week}.",
    ),
    "week_marketer": (
        "The pilot for {customer} opens in week {week}.",
        "The first {unit_plural} can join in week {week}.",
    ),
    "week_ops": (
        "Support for the first {unit_plural} opens in week {week}",
        "Pilot support for {customer} opens in week {week}",
    ),
}


# The plain line of each kind SAID writes, for when every template says a word the CEO left out
# (the lead-in each kind's templates share, so a later line still takes its place).
PLAIN_SAID = {
    "realise:channel": "Through {name}",
    "realise:scope": "Centred on {what}",
    "realise:place": "Starting in {what}",
    "realise:week": "Live in week {week}",
}


def _channel(
    role: str,
    art: JsonObject,
    name: str,
    v: Voice,
    others: tuple[str, ...] = (),
    barred: tuple[str, ...] = (),
) -> None:
    field = FIELDS["channel"][role][0]
    if mentions(prose(art, (field,)), name):
        return
    if role == "marketer":  # the first channel no other bound channel holds becomes this one
        chans = [c for c in art.get("gtm_channels", []) if isinstance(c, dict)]
        at = next(
            (
                i
                for i, c in enumerate(chans)
                if not any(mentions(str(c.get("channel", "")), o) for o in others)
            ),
            len(chans),
        )
        first = dict(chans[at]) if at < len(chans) else {"expected_cac_usd": 20, "weekly_hours": 4}
        first["channel"] = name
        chans = [*chans[:at], first, *chans[at + 1 :]]  # (a fourth when three others hold)
        art["gtm_channels"] = chans[: max(3, at + 1)]
        while len(art["gtm_channels"]) < 3:
            art["gtm_channels"].append(
                {"channel": "founder outbound", "expected_cac_usd": 30, "weekly_hours": 3}
            )
    elif role == "strategist":
        okr = art["okrs_q1"][0]
        okr["key_results"] = [
            *okr["key_results"],
            _line(v, "realise:channel", SAID["channel_strategist"], barred, name=name),
        ]
    elif role == "designer":
        said = _line(v, "realise:channel", SAID["channel_designer"], barred, name=name)
        art["wireframe_notes"] = f"{art.get('wireframe_notes', '').rstrip()} {said}"
    else:
        art["support_workflow"] = [
            *art.get("support_workflow", []),
            _line(v, "realise:channel", SAID["channel_ops"], barred, name=name),
        ]


_DETERMINED = Pattern(
    r"^(?:the|a|an|one|two|three|four|five|six|seven|eight|nine|ten|forty|\d+|our|their|your|"
    r"each|every|this|that)\b",
    re.IGNORECASE,
)


def _the(what: str) -> str:
    """A bare singular noun phrase as it reads in a sentence: 'delivery window' -> 'the delivery
    window'; 'forty customer interviews', 'one core job', 'pricing' stay as they are."""
    bare = what and not _DETERMINED.match(what) and not is_plural(what) and " " in what.strip()
    return f"the {what}" if bare else what


# The axes whose realised line sits in a list a narrowed scope cuts (a channel's support step, a
# place's loop): the cut keeps their lines.
_HELD_IN_LISTS = ("channel", "place", "timeline")


def _scope(
    role: str,
    art: JsonObject,
    what: str,
    v: Voice,
    kind: str = "scope",
    held: tuple[str, ...] = (),
    barred: tuple[str, ...] = (),
) -> None:
    """What the work centres on (or, with kind 'place', where it starts) in the role's field, in
    one line: a later one takes the earlier one's line, and a place and a scope each keep theirs.
    "Too broad" cuts every list to its floor, keeping the lines that state the price or carry a
    direction `held` there (a channel, a place)."""
    field = FIELDS[kind][role][0]
    if what == CORE_SCOPE:  # "too broad": every list cut to what the role's floor needs
        for k, items in scope_lists(art).items():
            floor = SCOPE_FLOOR[k]
            if len(items) > floor:
                kept = [
                    x
                    for x in items
                    if isinstance(x, str)
                    and (any(c in x for c in "$£€") or any(mentions(x, h) for h in held))
                ]
                rest = [x for x in items if x not in kept]
                items[:] = rest[: max(0, floor - len(kept))] + kept
        return  # the narrowing is the cut (checked by counting), not a line saying so
    if (scope_named if kind == "scope" else mentions)(prose(art, (field,)), what):
        return
    if kind == "scope":  # a customer reads the scope in the work's words, never the team's note
        said = scope_words(role, what)
        what = said if said != what else _the(what)
    said = _line(v, f"realise:{kind}", SAID[f"{kind}_{role}"], barred, what=what)
    if role == "marketer":  # one scope binds at a time: a later one takes an earlier one's words
        art["body"] = f"{_CENTRE_SENTENCE[kind].sub('', art.get('body', '')).rstrip()} {said}"
        return
    holder, key = (art["okrs_q1"][0], "key_results") if role == "strategist" else (art, field)
    items = list(holder.get(key, []))
    at = next((i for i, x in enumerate(items) if _CENTRE_LINE[kind].search(str(x))), None)
    if at is not None:
        items[at] = said
    else:
        items = [*items, said] if role == "strategist" else [said, *items]
    holder[key] = items


def _lead_ins(kind: str, *roles: str) -> str:
    """What SAID's `kind` templates for `roles` write before the scope or place ("A plan for …,
    centred on "), the voice's slots as any words, as one alternation: the mark of a line an
    earlier one was realised in. The whole lead-in, never its last words alone (" in " alone
    took an audience line that said "booked in one afternoon" for a place's)."""
    heads = {t.split("{what}")[0] for r in roles for t in SAID[f"{kind}_{r}"]}
    heads.add(PLAIN_SAID[f"realise:{kind}"].split("{what}")[0])
    return "|".join(
        ".+?".join(re.escape(part) for part in re.split(r"\{[a-z_]+\}", h)) for h in sorted(heads)
    )


_CENTRE_LINE = {
    k: Pattern(_lead_ins(k, "strategist", "designer", "ops")) for k in ("scope", "place")
}
_CENTRE_SENTENCE = {
    k: Pattern(rf"[^.]*(?:{_lead_ins(k, 'marketer')})[^.]*\.\s?") for k in ("scope", "place")
}


# ------------------------------------------------------------------ dates, numbers, names, tone
def target_week(d: Direction) -> int:
    return int(d.amount or 1)


def _timeline(
    role: str, art: JsonObject, d: Direction, v: Voice, barred: tuple[str, ...] = ()
) -> None:
    field = FIELDS["timeline"][role][0]
    week = target_week(d)
    art[field] = _map(art.get(field), lambda s: WEEK_SAID.sub(f"week {week}", s))
    if WEEK_SAID.search(prose(art, (field,))):
        return
    if role == "strategist":
        okr = art["okrs_q1"][0]
        said = _line(v, "realise:week", SAID["week_strategist"], barred, week=str(week))
        okr["key_results"] = [*okr["key_results"], said]
    elif role in ("designer", "marketer"):
        said = _line(v, "realise:week", SAID[f"week_{role}"], barred, week=str(week))
        field = "wireframe_notes" if role == "designer" else "body"
        art[field] = f"{art.get(field, '').rstrip()} {said}"
    else:
        said = _line(v, "realise:week", SAID["week_ops"], barred, week=str(week))
        art["support_workflow"] = [*art.get("support_workflow", []), said]


def target_number(d: Direction) -> float:
    amount = d.amount or 0.0
    if d.op == "max":
        step = 0.5 if d.key == "churn" else 1 if d.key in ("breakeven", "hours", "cac") else 500
        return max(step, amount - step) if d.key != "burn" else round(amount * 0.95)
    return amount


def _number(art: JsonObject, d: Direction, booked: float = 0.0) -> None:
    value = target_number(d)
    if d.key in ("cac", "hours"):
        key = "expected_cac_usd" if d.key == "cac" else "weekly_hours"
        for c in art.get("gtm_channels") or []:
            c[key] = max(1, round(value))
        return
    fp = art.get("financial_plan")
    if not isinstance(fp, dict):
        return
    field = NUMBER_FIELD.get(d.key or "")
    if field is None:
        return
    if field == "target_mrr_usd_m1_to_m6":
        old = [float(x) for x in fp.get(field) or [1, 1, 1, 1, 1, 1]]
        scale = value / old[-1] if old[-1] else 1.0
        floor = min(round(value), math.ceil(booked / 10) * 10)  # never below what is booked
        if old[0] * scale < floor:  # from what is booked to the target, growing evenly
            fp[field] = [round(floor * (value / floor) ** (i / 5) / 10) * 10 for i in range(5)]
        else:
            fp[field] = [max(10, round(x * scale / 10) * 10) for x in old[:-1]]
        fp[field].append(round(value))
        for i in range(1, len(fp[field])):
            fp[field][i] = max(fp[field][i], fp[field][i - 1])
        fit_customers(fp)  # the customers those targets take at the plan's price
    elif field == "churn_target_pct":
        fp[field] = round(value, 1)
    else:
        fp[field] = round(value)


def _name(role: str, art: JsonObject, name: str) -> None:
    field = FIELDS["name"][role][0]
    text = str(art.get(field, ""))
    if has_phrase(text, name):
        return
    art[field] = f"{name}: {text}" if text else name


def _tone(role: str, art: JsonObject, tone: str, v: Voice) -> None:
    swaps = TONE_SWAPS.get(tone, {})

    def plain(s: str) -> str:
        for b in BUZZWORDS:
            s = re.sub(rf"\b{re.escape(b)}\b\s*", "", s, flags=re.IGNORECASE)
        for w, instead in swaps.items():  # jargon, contractions or hedges, said the tone's way
            s = re.sub(rf"\b{re.escape(w.strip())}\b(\s?)", _swap(instead), s, flags=re.IGNORECASE)
        return s.replace("!", ".")

    _map_strings(art, plain)
    field = FIELDS["tone"][role][0]
    text = art.get(field)
    if tone == "plain" and isinstance(text, str):  # plainer: the opening and what must stay
        parts = _SENTENCE.split(text.strip())
        keep = [parts[0]] + [p for p in parts[1:] if _MUST_STAY.search(p)]
        if len(parts[0].split()) >= 6 and len(keep) < len(parts):
            art[field] = " ".join(keep)
    if tone == "warm":  # the line the reader meets first, in warm words from the bank
        text = str(art.get(field, "")).rstrip()
        if role == "designer":  # a headline stays one line
            if not has_phrase(text, "you"):
                art[field] = v.pick("realise:warm", WARM_HEADLINES, headline=text.rstrip("."))
        elif not any(v.fill(w) in text for w in WARM_LINES):
            art[field] = add_sentence(text, v.pick("realise:warm", WARM_LINES))


def _swap(instead: str) -> Callable[[re.Match[str]], str]:
    """The tone's word for one taken out, keeping the space after it ("hopefully " goes whole)."""
    return lambda m: f"{instead.strip()}{m.group(1)}" if instead.strip() else ""


def _shorten(art: JsonObject, held: tuple[str, ...] = ()) -> None:
    """Cut every long field to its core sentence(s): the opening, what must stay (a price, a
    week, a call to action) and what carries a `held` direction, as the gate's check of a
    "shorter" tone reads them."""
    for k in long_fields(art, held):
        art[k] = " ".join(core_cut(str(art[k]), held)[0])


# ------------------------------------------------------------------ taking things out
def _take_out(role: str, art: JsonObject, d: Direction, v: Voice) -> None:
    """Remove every sentence and list item that names an excluded segment or an avoided claim."""
    generic = d.axis == "claim" and d.value == GENERIC_CLAIM

    def names(s: str) -> bool:  # the gate's own test (adherence), outside the CEO's quoted words
        s = unquoted(s)
        if generic:
            return any(
                has_phrase(s, p) or (not p.isalnum() and p in s.lower()) for p in OVER_CLAIMS
            )
        return said(s, d.value) is not None

    for k, val in list(art.items()):
        if k in _SKIP:
            continue
        art[k] = _strip(k, val, names, v)


def _strip(key: str, val: object, names: Callable[[str], bool], v: Voice) -> object:
    if isinstance(val, str):
        if not names(val):
            return val
        kept = [s for s in _SENTENCE.split(val) if s and not names(s)]
        if kept:
            return " ".join(kept)
        if key == "target_audience":  # who it is for stays who it is for, never a benefit line
            fills: tuple[str, ...] = (v.fill("{cap_customer}"),)
        elif key == "responsibility":  # a role's duty stays a duty, never a benefit line
            fills = (v.fill("talks with {customer} every week"), "keeps the plan on track")
        else:
            fills = (v.fill("{cap_outcome} for {customer}"), v.fill("Built for {customer}"))
        return next((f for f in fills if not names(f)), "A simpler week, start to finish.")
    if isinstance(val, list):
        if val and all(isinstance(x, dict) for x in val):
            return [_strip(key, x, names, v) for x in val]
        kept = [x for x in val if not (isinstance(x, str) and names(x))]
        floor = _FLOOR.get(key, 1 if val else 0)
        filler = iter(
            (
                "A weekly check-in with each customer",
                "A short note after every job",
                "A monthly review of what customers asked for",
            )
        )
        while len(kept) < floor:
            kept.append(next(filler, "A monthly review"))
        return kept
    if isinstance(val, dict):
        return {
            k: (
                _strip(k, x, names, v)
                if k != "channel" or not names(str(x))
                else "founder outbound"
            )
            for k, x in val.items()
        }
    return val


# What a seeded DRIFT on "too broad" adds back (a scope that creeps).
_EXTRA_SCOPE: dict[str, tuple[str | dict[str, str | int], ...]] = {
    "key_results": ("A second product line scoped by month 2", "Enter two more markets"),
    "features": ("An admin dashboard for every role", "A companion mobile app"),
    "gtm_channels": (
        {"channel": "paid ads", "expected_cac_usd": 60, "weekly_hours": 4},
        {"channel": "trade shows", "expected_cac_usd": 90, "weekly_hours": 6},
    ),
    "retention_loops": ("A loyalty points scheme", "A quarterly user conference"),
}


def add_sentence(text: object, sentence: str) -> str:
    """`text` with one more sentence after it: a text that ends without a full stop gets one
    first ("call back each low score. Also for dog owners.", never "… low score Also for …")."""
    head = str(text or "").rstrip()
    core = head.rstrip("”\"')")  # a sentence may end inside its closing quote or bracket
    if core and core[-1] not in ".!?":
        head += "."
    return f"{head} {sentence}".strip()


# ------------------------------------------------------------------ seeded DRIFT
def _break_price(role: str, art: JsonObject, d: Direction, v: Voice) -> None:
    """A price that misses the named one, stated where the price is and planned with."""
    amount = (d.amount or 50) * 2 + 15 if d.op != "min" else max(1, (d.amount or 20) / 2)
    wrong = Direction(
        axis="price", value="", amount=float(round(amount)), period=d.period, unit=_per(d)
    )
    _map_strings(art, lambda s: _price_re(v, _per(d)).sub(price_phrase(wrong, v, []), s))
    if not stated_prices(prose(art), _per(d)):
        _price(role, art, wrong, v, [])
    if isinstance(art.get("financial_plan"), dict):  # the mistaken price, in the numbers too
        reprice(art["financial_plan"], monthly_price(wrong.amount or 0.0, wrong.period))


def _break_core_scope(role: str, art: JsonObject) -> None:
    """A scope that creeps past its floor again ("too broad" broken)."""
    key, _ = SCOPE_LIST[role]
    items = scope_lists(art).get(key)
    if items is None:
        return
    extra = _EXTRA_SCOPE[key]
    while len(items) <= SCOPE_FLOOR[key]:
        more = extra[len(items) % 2]
        items.append(dict(more) if isinstance(more, dict) else more)


def violate(role: str, art: JsonObject, d: Direction, v: Voice) -> None:
    """Break one recalled direction on purpose (the seeded DRIFT the gate must catch)."""
    a = d.axis
    if a == "price":
        _break_price(role, art, d, v)
    elif a == "audience":
        who = next(w for w in WRONG_AUDIENCES if not has_phrase(w, d.value.split()[-1]))
        field = FIELDS["audience"][role][0]
        art[field] = {
            "strategist": cap(relative(who, "want a simpler week")),
            "designer": f"A simpler week for {who}",
            "marketer": f"For {who}: a simpler week",
            "ops": f"Ask {who} once a quarter what they think",
        }[role]
    elif a == "exclusion":
        field = FIELDS["audience"].get(role, ("summary",))[0]
        art[field] = add_sentence(art.get(field), f"Also for {d.value}.")
    elif a == "claim":
        claim = "results guaranteed within a week" if d.value == GENERIC_CLAIM else d.value
        field = FIELDS["tone"][role][0]
        art[field] = add_sentence(art.get(field), f"{cap(claim)}.")
    elif a == "tone":
        field = FIELDS["tone"][role][0]
        art[field] = add_sentence(art.get(field), "Revolutionary, and it shows!")
        if d.value == "warm":
            art[field] = re.sub(r"\byou\b", "customers", art[field], flags=re.IGNORECASE)
    elif a == "timeline":
        field = FIELDS["timeline"][role][0]
        week = target_week(d) + 4 if d.op != "min" else max(1, target_week(d) - 3)
        art[field] = _map(art.get(field), lambda s: WEEK_SAID.sub(f"week {week}", s))
    elif a == "number":
        now = current_number(art, d.key or "") or d.amount or 1
        factor = 0.5 if d.op == "min" else 1.6
        bent = Direction(axis="number", key=d.key, value="", amount=(d.amount or now) * factor)
        _number(art, bent)
    elif a == "scope" and d.value == CORE_SCOPE:
        _break_core_scope(role, art)
    else:  # channel, scope, place, name: the named thing is left out, by the gate's own test
        field = FIELDS.get(a, {}).get(role, ("summary",))[0]  # ("community boards" names the
        art[field] = _strip(field, art.get(field), lambda s: _names(d, s), v)  # "the community")
        if a == "channel" and role == "marketer":
            for c in art.get("gtm_channels") or []:
                if _names(d, str(c.get("channel", ""))):
                    c["channel"] = next(x for x in _OTHER_CHANNELS if not _names(d, x))


# A channel a seeded DRIFT puts where the named one was (the first that does not name it).
_OTHER_CHANNELS = ("cold email", "trade fairs", "printed flyers")


def _names(d: Direction, text: str) -> bool:
    """Whether `text` says the thing a channel, scope, place or name direction names, as the
    gate's check reads it (engine.game.adherence)."""
    if d.axis == "scope":
        return scope_named(text, d.value)
    if d.axis == "name":
        return has_phrase(text, d.value)
    return mentions(text, d.value)


# ------------------------------------------------------------------ what a redo changed
def what_changed(
    role: str,
    before: Mapping[str, object],
    after: Mapping[str, object],
    directions: list[Direction],
) -> list[str]:
    """One line per named direction, from the two artifacts: what the work now says, or that it
    was already so (never a change that was not made). The old value is not restated (but for
    how far a scope was cut): the work would quote the price or week it replaced beside the one
    the CEO named; the story's "what changed" list, from the diff, shows old → new."""
    out: list[str] = []
    for d in directions:
        if d.axis == "tone":
            out.append(_tone_changed(role, before, after, d))
            continue
        old, new = _shown(role, before, d), _shown(role, after, d)
        label = {
            "price": "Price",
            "audience": "Audience",
            "exclusion": f"Mentions of “{d.value}”",
            "channel": "Channel",
            "scope": "Scope",
            "place": "Place",
            "timeline": "Launch",
            "claim": "The claim",
            "tone": "Tone",
            "number": cap(d.line().split(" ")[0]) if d.key is None else cap(_number_label(d)),
            "name": "Name",
        }[d.axis]
        if old == new and check(role, after, [d]):  # the gate's own check: still broken
            out.append(f"{label}: still {new}; this attempt did not change it.")
        elif old == new and check(role, before, [d]):
            out.append(f"{label}: {new}, as before, but the work now holds to {d.line()}.")
        elif old == new:  # "nothing to change" only when the check finds nothing to change
            verb = agree("was", is_plural(label))  # "Mentions of … were already gone"
            out.append(f"{label} {verb} already {new}; nothing to change there.")
        elif d.axis == "scope" and d.value == CORE_SCOPE:
            out.append(f"Scope, cut to {CORE_SCOPE}: {old} → {new}.")  # a count, not a claim
        elif old == _NOT_NAMED:  # "Channel: partner referrals (not named before).", never
            out.append(f"{label}: {new} (not named before).")  # "Scope: “not named” → …"
        else:
            out.append(f"{label}: {new}.")
        if d.axis == "price" and not any(x.key == "mrr" for x in directions):
            out += _plan_changed(before, after, d)  # (a named revenue target says it itself)
    return out


_TONE_SAID = {"short": "shorter", "formal": "more formal", "bold": "bolder", "plain": "plainer"}
# Why a tone or a length request finds no words to act on (what the tone takes out or adds is
# already absent or present): said instead of a change that was not made, never "already plain".
_TONE_CANNOT = {
    "plain": "it holds no jargon, buzzword or exclamation mark to take out, and its {field} "
    "already opens on its point",
    "formal": "it holds no contraction, buzzword or exclamation mark to take out",
    "bold": "it holds no hedge (“might”, “could help”, “aims to”) to take out",
    "warm": "its {field} already speaks to the reader in warm words",
    "short": f"no field runs past its core sentence (over {SHORT_WORDS} words with more than its "
    "opening, a price, a week or a call to action)",
}


def _tone_changed(
    role: str, before: Mapping[str, object], after: Mapping[str, object], d: Direction
) -> str:
    """What a redo for a tone or a length did, in words: how many words it cut, the words it took
    out, the line it now opens with. A request with no words to act on says so, and why (the
    text is unchanged), never that the work "was already" that tone."""
    broken = check(role, after, [d])
    field = FIELDS["tone"][role][0]
    said = _TONE_SAID.get(d.value, f"{d.value}er")
    label = "Length" if d.value == "short" else "Tone"
    done: list[str] = []
    if d.value == "short":
        if copy_words(after) < copy_words(before):
            done.append(f"{copy_words(before)} → {copy_words(after)} words")
            done.append("each long field keeps its core sentence")
    else:
        gone = [w.strip() for w in tone_hits(prose(before), d.value)]
        gone += [b for b in BUZZWORDS if has_phrase(prose(before), b)]
        gone = [w for w in gone if not tone_hits(prose(after), d.value).count(w)]
        if gone:
            done.append("took out " + ", ".join(f"“{w}”" for w in gone[:3]))
        done += _tone_field(d.value, field, prose(before, (field,)), prose(after, (field,)))
    if not done:
        if broken:
            return f"{label}: still {broken[0].did}; this attempt did not change it."
        why = _TONE_CANNOT.get(d.value, "it holds no words that tone changes")
        why = why.format(field=field.replace("_", " "))
        return (
            f"{label}: nothing here can be made {said}: {why}. The text is unchanged; "
            "name the line to change."
        )
    head = f"Length: {done[0]}" if d.value == "short" else f"Tone: {said}"
    rest = done[1:] if d.value == "short" else done
    line = "; ".join([head, *rest])
    return line + (f" (still {broken[0].did})." if broken else ".")


def _tone_field(tone: str, field: str, was: str, now: str) -> list[str]:
    """What the tone itself did to its field, in words (a change another direction made there,
    a price added, is not the tone's): a warm line that speaks to the reader, a plainer field cut
    to its opening; formal and bold only swap words (said as the words taken out)."""
    name = field.replace("_", " ")
    head = was.rstrip(". ")
    if was == now or tone not in ("warm", "plain"):
        return []
    if tone == "warm" and not has_phrase(was, "you") and has_phrase(now, "you"):
        return [f"the {name} now reads “{_short(now, 90)}”"]
    if tone == "warm" and head and now.startswith(head):
        added = now[len(head) :].lstrip(" .,:")
        if has_phrase(added, "you") or has_phrase(added, "your"):
            return [f"the {name} now adds “{_short(added, 90)}”"]
    kept = set(_SENTENCE.split(now.strip())) <= set(_SENTENCE.split(was.strip()))
    if tone == "plain" and len(now) < len(was) and kept:  # sentences cut, none rewritten
        return [f"the {name} keeps its opening: “{_short(now, 90)}”"]
    return []


def _plan_changed(
    before: Mapping[str, object], after: Mapping[str, object], d: Direction
) -> list[str]:
    """The revenue plan's month-6 line when a price moved it (customers × the new price)."""
    old, new = _plan(before), _plan(after)
    was, now = old.get("target_mrr_usd_m1_to_m6") or [], new.get("target_mrr_usd_m1_to_m6") or []
    customers, price = new.get("paying_customers_m1_to_m6") or [], new.get("price_usd_per_month")
    if not was or not now or was[-1] == now[-1] or not customers or not price:
        return []
    line = f"Month-6 revenue target: {money(now[-1])}"
    if _per(d):  # a price per thing bought: the plan counts one a paying customer a month
        each = f"one {d.unit} each a month at {money(price)}"
        return [f"{line} ({customers[-1]:,} paying customers, {each})."]
    return [f"{line} ({customers[-1]:,} paying customers at {money(price)} a month)."]


def _number_label(d: Direction) -> str:
    return NUMBER_WORDS.get(d.key or "", "the number")


def _plan(art: Mapping[str, object]) -> JsonObject:
    fp = art.get("financial_plan")
    return fp if isinstance(fp, dict) else {}


def _shown(role: str, art: Mapping[str, object], d: Direction) -> str:
    a = d.axis
    fields = FIELDS.get(a, {}).get(role, ())
    if a == "price":
        text = prose(art)
        found = [m for m in (_SAID_WITH_UNIT.search(text),) if m]
        if _per(d):
            found += [m for m in (unit_price_said(d.unit or "").search(text),) if m]
        first = min(found, key=lambda m: m.start()) if found else None
        return first.group(0) if first else "no price"
    if a == "scope" and d.value == CORE_SCOPE:  # "too broad": how much the work carries
        return scope_size(role, art)
    if a in ("audience", "channel", "scope", "place", "name"):
        text = prose(art, fields)
        hit = scope_named(text, d.value) if a == "scope" else mentions(text, d.value)
        if a == "audience":
            return f"“{_short(text)}”"
        return d.value if hit else _NOT_NAMED
    if a == "exclusion":
        words = said(prose(art), d.value)
        return f"present (“{words}”)" if words else "gone"
    if a == "claim":
        if d.value == GENERIC_CLAIM:
            claim = next((c for c in OVER_CLAIMS if has_phrase(prose(art), c)), None)
            return f"“{claim}”" if claim else "gone"
        words = said(prose(art), d.value)
        return f"present (“{words}”)" if words else "gone"
    if a == "tone":
        text = prose(art)
        buzz = next((b for b in BUZZWORDS if has_phrase(text, b)), None)
        return f"“{buzz}”" if buzz else ("with exclamation marks" if "!" in text else "plain")
    if a == "timeline":
        m = WEEK_SAID.search(prose(art, fields))
        return f"week {m.group(1)}" if m else "no week named"
    if a == "number":
        now = current_number(art, d.key or "")
        if now is None:
            return "not stated"
        return number_words(Direction(axis="number", key=d.key, value="", amount=now))
    return ""


_NOT_NAMED = "not named"
# a price with its unit, up to two words ("per ward team"), never a following word like "and"
_SAID_WITH_UNIT = Pattern(
    PRICE_SAID.pattern
    + r"(?:\s+per\s+[\w-]+(?:\s+(?!(?:and|or|on|at|to|for|in|with|by|from|of|is|a|an|the)\b)[\w-]+)?)?",
    re.IGNORECASE,
)


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


# ------------------------------------------------------------------ helpers
def _map(val: object, fn: Callable[[str], str]) -> object:
    if isinstance(val, str):
        return fn(val)
    if isinstance(val, list):
        return [_map(x, fn) for x in val]
    if isinstance(val, dict):
        return {k: _map(x, fn) for k, x in val.items()}
    return val


def _map_strings(art: JsonObject, fn: Callable[[str], str]) -> None:
    """Apply a text edit to every prose field (never the quoted summary's quote, the url or the
    worker's notes)."""
    for k in list(art):
        if k in _SKIP:
            continue
        if k == "summary":
            art[k] = _outside_quotes(art[k], fn)
        else:
            art[k] = _map(art[k], fn)


def _outside_quotes(text: str, fn: Callable[[str], str]) -> str:
    parts = re.split(r"(“[^”]*”)", text)
    return "".join(p if p.startswith("“") else fn(p) for p in parts)
