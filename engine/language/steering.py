"""Reading steering input into typed directions: a fork's own answer, a rejection reason, a
standup reply (`read_directions`).

Whole-word matching and a few patterns over the CEO's words; a relative "too high" resolves
against what the artifact a rejection answers states (engine.language.artifact_text). What cannot
be placed is asked about (`Read.unclear`), never guessed. Nothing here calls a model or reads the
wall clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from engine.language.artifact_text import current_number, current_price_said, current_week
from engine.language.directions import (
    CORE_SCOPE,
    GENERIC_CLAIM,
    MAX_VALUE,
    Direction,
    Source,
    price_words,
)
from engine.language.grammar import has_relative
from engine.language.reading import DOWN, LATER, OVER_CLAIM_WORDS, PLAIN_WORDING, SOONER, UP
from savedb.records import FrozenRecord, Record
from textkit import STOPWORDS, clip, has_phrase, words
from textkit.numbers import usd
from textkit.patterns import Pattern

# Units a price is said per that are subscriptions, so monthly unless a period is named ("$30 a
# seat" is $30 a month per seat); any other unit is what one thing bought costs ("$12 a meal").
MONTHLY_UNITS = frozenset(
    ["seat", "user", "member", "licence", "license", "subscriber", "account", "subscription"]
)


_MONEY = r"(?:\$\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(?:dollars|usd|bucks)\b)"
_BOUND_MAX = r"(?:under|below|less than|at most|no more than|max(?:imum)?|up to|cap(?:ped)? at)"
_BOUND_MIN = r"(?:over|above|at least|more than|minimum|no less than)"
_PRICE = Pattern(
    rf"(?:({_BOUND_MAX})|({_BOUND_MIN}))?\s*{_MONEY}"
    r"(?:\s*(?:a|an|per|/|each)\s*(month|mo|year|yr|week)\b)?"
    r"(?:\s*(?:a|an|per|/|each)\s+(?!month\b|year\b|week\b)([a-z][a-z-]+))?"
    r"(?:\s*(?:a|an|per|/|each)\s*(month|mo|year|yr|week)\b)?",
    re.IGNORECASE,
)
_NUMBER_CUES: dict[str, tuple[str, ...]] = {
    "churn": ("churn",),
    "burn": ("burn", "spend", "spending"),
    "cac": ("cac", "acquisition cost", "cost per customer", "cost to acquire"),
    "mrr": (
        "mrr",
        "revenue targets",
        "revenue target",
        "revenue",
        "sales targets",
        "sales target",
        "growth projections",
        "projections",
        "forecast",
    ),
    "hours": ("hours a week", "hours per week", "weekly hours"),
}
_PCT = Pattern(r"(\d+(?:\.\d+)?)\s?(?:%|percent|per cent)", re.IGNORECASE)
_WEEK = Pattern(
    r"\b(?:(by|before|no later than)\s+)?(?:(?:launch|ship|live|open|start)\w*\s+)?"
    r"(?:in\s+)?week\s+(\d{1,2})\b|\bwithin\s+(\d{1,2})\s+weeks\b|\bin\s+(\d{1,2})\s+weeks\b",
    re.IGNORECASE,
)
_BREAKEVEN = Pattern(
    r"\bbreak[- ]?even\b[^.;,]*?\bmonth\s+(\d{1,2})\b|\bbreak[- ]?even\s+(?:by|in)\s+"
    r"(\d{1,2})\s+months\b",
    re.IGNORECASE,
)
_NAME = Pattern(
    r"\b(?i:call it|name it|called|named|rename it to|the name is|name:)\s+[\"'“‘]?"
    r"([A-Z0-9][\w&.'-]*(?:\s+[A-Z0-9][\w&.'-]*){0,2})",
)
_QUOTED = Pattern(r"[\"“‘']([^\"”’']{2,60})[\"”’']")
_AUDIENCE = Pattern(
    r"\b(?:focus(?: it)?(?: only)? on|narrow(?: it)? to|speak to|talk to|write for|aim(?: it)? at|"
    r"target|serve only|only serve|sell to|built for|is for|audience is|audience should be|"
    r"customers are|make it for|make it about|start with|begin with|for)\s+"
    r"(?:the\s+|our\s+)?([^,.;:!?()]+)",
    re.IGNORECASE,
)
_EXCLUDE = Pattern(
    r"\b(?:leave out|drop|exclude|excluding|without|skip|no more|stay away from|never mention|"
    r"don't mention|do not mention|stop targeting|not for|forget about|except|not)\s+"
    r"(?:the\s+|any\s+|our\s+)?([^,.;:!?()]+)",
    re.IGNORECASE,
)
_LEAVE_ALONE = Pattern(r"\bleave\s+(?:the\s+)?([^,.;:!?()]+?)\s+(?:alone|out)\b", re.IGNORECASE)
# Channels a CEO names in so many words (whole words, any case).
CHANNEL_NAMES = (
    "partner referrals",
    "referrals",
    "word of mouth",
    "cold email",
    "cold calls",
    "linkedin",
    "instagram",
    "tiktok",
    "facebook groups",
    "facebook",
    "youtube",
    "podcasts",
    "newsletter",
    "seo",
    "paid ads",
    "google ads",
    "trade shows",
    "conferences",
    "farmers markets",
    "meetups",
    "the community",
    "community forum",
    "founder outbound",
    "door to door",
    "whatsapp",
    "reddit",
    "ads",  # generic (_GENERIC_CHANNELS): only when no other channel is named
)
_GENERIC_CHANNELS = frozenset(["ads"])  # "run ads on Instagram" names Instagram
TONES = {
    "plain": (
        "plain",
        "plainly",
        *PLAIN_WORDING,
        "plain english",
        "plain words",
        "jargon",
        "simpler words",
        "salesy",
        "buzzwords",
        "buzzword",
        "no hype",
        "less hype",
        "calmer",
        "corporate",
        "wordy",
        "fluff",
        "verbose",
        "too long",
        "marketing speak",
        "cheesy",
        "pushy",
    ),
    "warm": ("warm", "warmer", "friendly", "friendlier", "personal", "kinder", "robotic", "stiff"),
    "formal": ("formal", "more formal", "professional", "serious"),
}
_SCOPE = Pattern(
    r"\b(?:one feature:?|only the|just the|cut (?:the )?scope to|scope it to|centre it on|"
    r"center it on|build only|ship only|mention|include|add a line about|add a section on|add|"
    r"cover|talk about|spell out|it forgets|it forgot|forgets|forgot|is missing|lacks|"
    r"name the|name our)\s+"
    r"(the\s+|a\s+|an\s+|our\s+)?([^,.;:!?()]+)",
    re.IGNORECASE,
)
SCOPE_CUES = (
    "scope",
    "too broad",
    "too many",
    "narrow it",
    "narrow",
    "trim",
    "bloated",
    "simpler",
    "unfocused",
    "essential",
    "everything",
    "kitchen sink",
    "smaller",
)


DECISION_CUES = (
    "ignores the decision",
    "the decision",
    "we decided",
    "we chose",
    "drifted",
    "contradicts",
    "off plan",
    "off-plan",
    "what i chose",
    "my decision",
)
TIME_CUES = (
    "timeline",
    "schedule",
    "deadline",
    "launch",
    "date",
    "results",
    "breakeven",
    "break-even",
    "break even",
    "too far out",
)
_CUT_AT = Pattern(
    r"\s+(?:and then|and|but|then|so|because|instead|rather|while|please|in everything|"
    r"everywhere|in all|at|from now on|a month|per month)\b|\s+(?:\$|\d)",
    re.IGNORECASE,
)
_NOT_A_SEGMENT = frozenset(
    [
        "it",
        "this",
        "that",
        "them",
        "yet",
        "now",
        "later",
        "one",
        "good",
        "bad",
        "more",
        "less",
        "price",
        "prices",
        "pricing",
        "tone",
        "claims",
        "claim",
        "scope",
        "everything",
        "anything",
        "something",
        "everyone",
        "nobody",
        "me",
        "us",
        "you",
        "a",
        "an",
        "the",
        "month",
        "week",
        "weeks",
        "months",
        "year",
    ]
)


_JUDGEMENT = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "too",
        "vague",
        "wrong",
        "unclear",
        "bad",
        "generic",
        "broad",
        "fuzzy",
        "weak",
        "missing",
    ]
)


# Words that end a phrase without being part of what it names ("leave out dog owners entirely").
_TRAILING = frozenset(
    [
        "entirely",
        "completely",
        "altogether",
        "totally",
        "fully",
        "anymore",
        "please",
        "again",
        "first",  # "target law firms first"
    ]
)


def _cut(text: str) -> str:
    """The text up to its first connective; an 'at' inside a relative clause is the clause's
    ("vets who work at rural practices" keeps its place, it read "vets who work")."""
    for m in _CUT_AT.finditer(text):
        if m.group(0).strip().lower() == "at" and has_relative(text[: m.start()]):
            continue
        return text[: m.start()]
    return text


def _phrase(fragment: str, limit: int = 6) -> str | None:
    """The first few words of a captured phrase, stopping at a connective; inert and clipped."""
    cut = _cut(fragment.strip())
    toks = cut.split()[:limit]
    while toks and (toks[-1].lower() in STOPWORDS or toks[-1].lower() in _TRAILING):
        toks.pop()
    while toks and toks[0].lower() in STOPWORDS:
        toks.pop(0)
    out = " ".join(toks).strip(" '\"“”‘’")
    out = re.sub(r"[<>\[\]{}\\`*_|]", "", out)
    return clip(out, MAX_VALUE) or None


def _segment(fragment: str) -> str | None:
    p = _phrase(fragment, 8)
    if not p:
        return None
    toks = words(p)
    if not toks or toks[0] in _NOT_A_SEGMENT or all(t in _NOT_A_SEGMENT for t in toks):
        return None
    if any(has_phrase(toks, c) for c in CHANNEL_NAMES) or any(t.isdigit() for t in toks):
        return None
    if any(t in _JUDGEMENT for t in toks):
        return None  # "audience is far too vague" judges the work; it names no one
    return p


def _amount(m: re.Match[str]) -> float:
    raw = (m.group(3) or m.group(4) or "0").replace(",", "")
    return float(raw)


@dataclass(eq=False, repr=False)
class Read(Record):
    """What one input was read into, plus what could not be placed (asked, never guessed)."""

    directions: list[Direction] = field(default_factory=list)
    unclear: list[str] = field(default_factory=list)  # e.g. "price": named but not readable
    notes: list[str] = field(default_factory=list)  # e.g. "two prices: the later one wins"
    # a price named in another currency, said in the dollars the books keep ("£25 a repair" →
    # "$25 a repair"): asked about with this as the example, never converted at a guessed rate
    in_dollars: str = ""


def read_directions(
    text: str,
    *,
    source: Source,
    stage: str | None = None,
    current: Mapping[str, object] | None = None,
    base_price: float | None = None,
    customer: str | None = None,
) -> Read:
    """Read free text into typed directions. `current` is the artifact a rejection answers (a
    relative "too high" resolves against the price or number it states); `base_price` is the
    company's list price when no artifact states one; `customer` is who "the wrong people" means
    the work should speak to instead."""
    out = Read()
    said = clip(text, 160)
    toks = words(text)

    def add(d: Direction) -> None:
        d.source, d.stage, d.said = source, stage, said
        d.value = clip(d.value, MAX_VALUE)
        out.directions.append(d)

    ctx = _Ctx(text=text, toks=toks, current=current, base_price=base_price, add=add, out=out)
    _read_price(ctx)
    _read_numbers(text, toks, current, add, out)
    _read_timeline(ctx)
    nm = _NAME.search(text)
    if nm:
        add(Direction(axis="name", value=_phrase(nm.group(1), 3) or nm.group(1)))
    _read_claims_and_tone(ctx)
    _read_channels(text, toks, add)
    _read_audience(text, add, out)
    _read_scope(ctx)
    if customer and "audience" not in {d.axis for d in out.directions} and _wrong_people(toks):
        add(Direction(axis="audience", value=customer))
    _dedupe(out)
    return out


@dataclass(frozen=True, eq=False, repr=False)
class _Ctx(FrozenRecord):
    """One reading's text and writers, shared by the per-axis readers."""

    text: str
    toks: list[str]
    current: Mapping[str, object] | None
    base_price: float | None
    add: Callable[[Direction], None]
    out: Read


# Money named in a way the price reader cannot parse ("twelve-ish dollars", "$twelve", "€12",
# "12 pounds a week"; "5 pounds of beans" and "a 5 pound bag" are weights).
_POUNDS = r"\d\s?pounds\b(?!\s+of\b)"
_MONEY_SAID = Pattern(
    r"[$€£]|\b(?:dollars?|bucks|usd|euros?|quid|gbp|eur)\b|" + _POUNDS, re.IGNORECASE
)
# A price in another currency ("£25 a repair", "30 euros a month"): its amount and what it is per.
_OTHER_CURRENCY = Pattern(
    r"(?:[€£]\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?"
    r"(?:euros?|quid|gbp|eur|pounds(?!\s+of\b))\b)"
    r"((?:\s*(?:/\s*|\b(?:a|an|per|each)\s+)[a-z]+\b){0,2})",
    re.IGNORECASE,
)


def _read_price(c: _Ctx) -> None:
    """A named price (the later of two wins), or a relative one resolved against the artifact;
    money named in words the reader cannot parse is asked about ('price_amount'), not guessed."""
    text, toks, add = c.text, c.toks, c.add
    if not _PRICE.search(text) and _MONEY_SAID.search(text) and not _names_a_number(toks):
        c.out.unclear.append("price_amount")
        if other := _OTHER_CURRENCY.search(text):
            c.out.in_dollars = f"${other.group(1) or other.group(2)}{other.group(3)}"
        return
    prices = [m for m in _PRICE.finditer(text) if not _is_number_cue(text, m.start())]
    prices = [m for m in prices if not _is_percent(text, m.end())]
    if len(prices) > 1:
        c.out.notes.append("two prices named: the later one wins")
    if prices:
        m = prices[-1]
        op: Literal["eq", "max", "min"] = "max" if m.group(1) else "min" if m.group(2) else "eq"
        said_per = (m.group(5) or m.group(7) or "").lower()
        unit = (m.group(6) or "").lower() or None
        if unit in STOPWORDS or unit in ("flat", "total", "only"):
            unit = None
        period = {"mo": "month", "yr": "year"}.get(said_per, said_per)
        if period not in ("month", "year", "week"):  # no period named: "$12 a meal" is a meal's
            period = "unit" if unit and unit not in MONTHLY_UNITS else "month"
        amount = _amount(m)
        price = Direction(axis="price", value="", amount=amount, op=op, unit=unit, period=period)
        price.value = price_words(price) if period == "unit" else f"{usd(amount)} a {period}"
        if len(prices) > 1:
            price.note = "the later of two prices you named"
        add(price)
        gone = re.search(r"\bnot per (\w+)", text.lower())
        if gone:
            add(Direction(axis="exclusion", value=f"per {gone.group(1)}", do=False))
        return
    if not _mentions_price(toks):
        return
    way = _way(toks)
    said = current_price_said(c.current)
    now = (said[0] if said else None) or c.base_price
    period, unit = ("unit", said[2]) if said and said[1] == "unit" else ("month", None)
    if way and now:
        step = 5 if now >= 20 or period != "unit" else 1
        new = max(1, round(now * (0.7 if way == "down" else 1.3) / step) * step)
        moved = Direction(axis="price", value="", amount=float(new), period=period, unit=unit)
        moved.value = price_words(moved)
        add(moved)
    elif _asks_for_price(toks) and _missing(toks) and now:
        add(Direction(axis="price", value=f"{usd(now)} a month", amount=float(now)))
    elif _asks_for_price(toks):
        c.out.unclear.append("price")


def _read_timeline(c: _Ctx) -> None:
    """A launch week, or "sooner" / "later" resolved against the artifact's week or breakeven."""
    toks, add = c.toks, c.add
    weeks = list(_WEEK.finditer(c.text))
    if weeks:
        m = weeks[-1]
        n = int(m.group(2) or m.group(3) or m.group(4))
        op: Literal["eq", "max", "min"] = "max" if (m.group(1) or m.group(3)) else "eq"
        if 1 <= n <= 52:
            add(Direction(axis="timeline", value=f"week {n}", amount=float(n), op=op, key="launch"))
        return
    if c.current is None or not _way_time(toks) or not any(has_phrase(toks, x) for x in TIME_CUES):
        return
    later = _way_time(toks) == "later"
    now_week = current_week(c.current)
    be = current_number(c.current, "breakeven")
    if be and (not now_week or any(has_phrase(toks, x) for x in ("breakeven", "break even"))):
        n = min(36, int(be) + 3) if later else max(2, int(be) - 3)
        add(Direction(axis="number", key="breakeven", value=f"month {n}", amount=float(n)))
    elif now_week:
        n = now_week + 3 if later else max(1, now_week - 2)
        add(Direction(axis="timeline", value=f"week {n}", amount=float(n), key="launch"))


def _read_claims_and_tone(c: _Ctx) -> None:
    toks = c.toks
    claim_named = any(has_phrase(toks, x) for x in OVER_CLAIM_WORDS)
    quoted = [q for q in _QUOTED.findall(c.text) if len(q.split()) <= 8]
    if claim_named or (quoted and re.search(r"\b(drop|remove|cut|delete|lose)\b", c.text.lower())):
        for q in quoted or [GENERIC_CLAIM]:
            c.add(Direction(axis="claim", value=q.strip().lower(), do=False))
    for tone, cues in TONES.items():
        if any(has_phrase(toks, x) for x in cues) and (
            tone != "warm" or "tone" in toks or len(toks) <= 6 or "sound" in toks
        ):
            c.add(Direction(axis="tone", value=tone))
            break


# A place the work starts in, named as a proper noun ("launch in Leeds", "only serve north Leeds",
# "name Leeds"): where a local business starts, beside what it centres on. Case matters for the
# place, not for the verb.
_PLACE = Pattern(
    r"(?i:\b(?:start|starts|starting|launch|launches|launching|begin|begins|beginning|open|opens|"
    r"opening|operate|operates|operating|based|pilot|piloting|trial|roll out|go live)\s+"
    r"(?:only\s+|just\s+|first\s+)?in|\b(?:only\s+|just\s+)?serve(?:\s+only|\s+just)?|\bname)\s+"
    r"((?:the\s+)?(?:(?i:north|south|east|west|central|inner|outer|greater|downtown)\s+)?"
    r"[A-Z][\w'-]++(?:\s+[A-Z][\w'-]++){0,3})"
    r"(?!\s+(?i:communities|community|groups|channels|forums|servers|threads|ads|stores)\b)"
)
_NOT_A_PLACE = frozenset(
    [
        *("january", "february", "march", "april", "may", "june", "july", "august"),
        *("september", "october", "november", "december", "spring", "summer", "autumn", "winter"),
        *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        *("week", "month", "year", "q1", "q2", "q3", "q4", "it", "i", "the", "a", "an", "our"),
    ]
)


def _place(text: str) -> str | None:
    """The place a CEO names for the work to start in, or None ("launch in March" is a date)."""
    for m in _PLACE.finditer(text):
        place = m.group(1)
        toks = [t for t in words(place) if t != "the"]
        if (
            toks
            and toks[-1] not in _NOT_A_PLACE
            and toks[0] not in _NOT_A_PLACE
            and not any(has_phrase(toks, ch) for ch in CHANNEL_NAMES)
        ):
            return clip(place, MAX_VALUE)
    return None


def _read_scope(c: _Ctx) -> None:
    # a cue said with a negation ("do not mention the NHS") is an exclusion, read as one
    sm = next(
        (m for m in _SCOPE.finditer(c.text) if not _NEGATED_CUE.search(c.text[: m.start()])),
        None,
    )
    placed = {d.axis for d in c.out.directions}
    if place := _place(c.text):  # where the work starts, beside what it centres on
        c.add(Direction(axis="place", value=place))
    if sm:
        p = _phrase(sm.group(2), 5)
        if (
            p
            and words(p)
            and words(p)[0] not in ("it", "this", "that", "them", "yet", "now", "price")
            and not ({"price", "tone"} & placed and _mentions_price(words(p)))
        ):
            c.add(Direction(axis="scope", value=_with_article(sm, p)))
    elif any(has_phrase(c.toks, x) for x in SCOPE_CUES) and not placed:
        c.add(Direction(axis="scope", value=CORE_SCOPE))


_NEGATED_CUE = Pattern(r"\b(?:not|don't|dont|never|no)\s*$", re.IGNORECASE)


def _with_article(sm: re.Match[str], p: str) -> str:
    """The scope with the article the CEO gave it ("name the neighbourhood" centres the work on
    the neighbourhood, never "on neighbourhood"); none where the phrase lost its first words."""
    cue = sm.group(0)[: sm.start(2) - sm.start(0)].lower().split()
    article = cue[-1] if cue and cue[-1] in ("the", "a", "an", "our") else ""
    if not article or not sm.group(2).lower().lstrip().startswith(p.split()[0].lower()):
        return p
    return f"{article} {p}"


def _wrong_people(toks: list[str]) -> bool:
    return any(
        has_phrase(toks, w)
        for w in (
            "who is this for",
            "wrong people",
            "persona",
            "instead of our users",
            "which customer",
            "wrong audience",
            "audience is wrong",
            "not our customer",
            "customer segment",
        )
    )


def _is_number_cue(text: str, at: int) -> bool:
    """A dollar figure right after 'burn', 'cac', 'revenue' names that number, not the price."""
    before = words(text[max(0, at - 40) : at])[-4:]
    return any(has_phrase(before, c) for cues in _NUMBER_CUES.values() for c in cues)


def _names_a_number(toks: list[str]) -> bool:
    """Whether the text names one of the plan's numbers (burn, revenue, acquisition cost…)."""
    return any(has_phrase(toks, c) for cues in _NUMBER_CUES.values() for c in cues)


def _is_percent(text: str, end: int) -> bool:
    return bool(re.match(r"\s?(?:%|percent)", text[end : end + 9]))


_PRICE_WORDS = ("price", "prices", "pricing", "priced", "fee", "cost", "costs", "charge")


# Words before "costs" that make them the company's costs, not the customer's price ("cut costs").
_OUR_COSTS = frozenset(
    ["cut", "cutting", "reduce", "lower", "trim", "our", "running", "operating", "fixed"]
)


def _mentions_price(toks: list[str]) -> bool:
    toks = [
        t
        for i, t in enumerate(toks)
        if not (t in ("cost", "costs") and i and toks[i - 1] in _OUR_COSTS)
    ]
    return any(has_phrase(toks, w) for w in (*_PRICE_WORDS, "pricing", "what it costs")) or any(
        has_phrase(toks, w)
        for w in (
            "too expensive",
            "too cheap",
            "overpriced",
            "underpriced",
            "cheaper",
            "pricier",
            "affordable",
        )
    )


def _asks_for_price(toks: list[str]) -> bool:
    return any(has_phrase(toks, w) for w in (*_PRICE_WORDS, "pricing", "what it costs", "tiers"))


def _missing(toks: list[str]) -> bool:
    """A reason asking for a price to be stated at all ("no price", "where is the price?")."""
    return any(
        has_phrase(toks, w)
        for w in (
            "no",
            "where",
            "missing",
            "never",
            "state",
            "show",
            "up front",
            "without",
            "lacks",
            "forgot",
            "add",
            "put",
            "name",
            "give",
            "quote",
            "tell",
        )
    )


def _way(toks: list[str]) -> str | None:
    if any(has_phrase(toks, w) for w in DOWN):
        return "down"
    if any(has_phrase(toks, w) for w in UP):
        return "up"
    return None


def _way_time(toks: list[str]) -> str | None:
    if any(has_phrase(toks, w) for w in SOONER):
        return "sooner"
    if any(has_phrase(toks, w) for w in LATER):
        return "later"
    return None


def _num_way(toks: list[str], key: str) -> str | None:
    """Which way a named number should move; an optimistic churn, burn or cost is one set too low."""
    if key in ("churn", "burn", "cac") and any(
        has_phrase(toks, w) for w in ("too optimistic", "too rosy", "unrealistic", "fantasy")
    ):
        return "up"
    if any(has_phrase(toks, w) for w in ("raise it", "raise the", "increase", "higher")):
        return "up"
    return _way(toks)


def _read_numbers(
    text: str,
    toks: list[str],
    current: Mapping[str, object] | None,
    add: Callable[[Direction], None],
    out: Read,
) -> None:
    be = _BREAKEVEN.search(text)
    if be:
        n = int(be.group(1) or be.group(2))
        if 1 <= n <= 36:
            add(Direction(axis="number", key="breakeven", value=f"month {n}", amount=float(n)))
    for key, cues in _NUMBER_CUES.items():
        for cue in cues:
            m = re.search(rf"\b{re.escape(cue)}\b", text, re.IGNORECASE)
            if not m:
                continue
            tail = text[m.end() : m.end() + 60]
            lead = re.split(r"[\d$.;]", tail, maxsplit=1)[0]
            bound = re.search(rf"\b({_BOUND_MAX}|{_BOUND_MIN})\b", lead, re.IGNORECASE)
            op: Literal["eq", "max", "min"] = "eq"
            if bound:
                op = "max" if re.fullmatch(_BOUND_MAX, bound.group(1), re.IGNORECASE) else "min"
            if key == "churn" and (pm := _PCT.search(tail)):
                v = float(pm.group(1))
                add(Direction(axis="number", key=key, value=f"{v:.1f} %", amount=v, op=op))
            elif key == "hours" and (
                hm := re.search(r"(\d{1,2})\s*" + re.escape(cue), text, re.IGNORECASE)
            ):
                v = float(hm.group(1))
                add(Direction(axis="number", key=key, value=f"{v:.0f} hours", amount=v, op=op))
            elif key in ("churn", "hours"):
                now = current_number(current, key) if current is not None else None
                if now and _num_way(toks, key):
                    up = _num_way(toks, key) == "up"
                    v = round(now * (1.3 if up else 0.7), 1 if key == "churn" else 0)
                    shown = f"{v:.1f} %" if key == "churn" else f"{v:.0f} hours"
                    add(Direction(axis="number", key=key, value=shown, amount=float(v)))
            else:
                mm = re.search(_MONEY + r"\s*(k)?", tail, re.IGNORECASE)
                if mm:
                    v = float((mm.group(1) or mm.group(2)).replace(",", ""))
                    if mm.group(3):
                        v *= 1000
                    add(Direction(axis="number", key=key, value=usd(v), amount=v, op=op))
                elif current is not None and _num_way(toks, key):
                    now = current_number(current, key)
                    if now:
                        f = 0.7 if _num_way(toks, key) == "down" else 1.3
                        v = float(round(now * f))
                        add(Direction(axis="number", key=key, value=usd(v), amount=v))
            break


def _read_channels(text: str, toks: list[str], add: Callable[[Direction], None]) -> None:
    seen: set[str] = set()
    for name in CHANNEL_NAMES:
        if not has_phrase(toks, name) or any(name in s for s in seen):
            continue
        m = re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE)
        # the three words before it in its own clause ("no ads, only referrals": not negated)
        clause = re.split(r"[,;.!?]", text[max(0, m.start() - 24) : m.start()])[-1] if m else ""
        before = words(clause)[-3:]
        negated = any(
            w in ("no", "not", "without", "stop", "drop", "skip", "never") for w in before
        )
        if name in _GENERIC_CHANNELS and seen and not negated:
            continue
        seen.add(name)
        if any(w in ("less", "fewer") for w in before):
            continue  # "spend less on ads" neither uses ads nor leaves them out
        if negated:
            add(Direction(axis="exclusion", value=name, do=False))
        else:
            add(Direction(axis="channel", value=name))
    if not seen:
        m = re.search(
            r"\b(?:sell through|through|via|channel is|channel:|answer on)\s+"
            r"(?:the\s+|a\s+|an\s+)?([^,.;:!?()]+)",
            text,
            re.IGNORECASE,
        )
        if m:
            p = _phrase(m.group(1), 5)
            if p and words(p)[:1] and words(p)[0] not in _NOT_A_SEGMENT:
                add(Direction(axis="channel", value=p))


def _read_audience(text: str, add: Callable[[Direction], None], out: Read) -> None:
    excluded: list[str] = []
    for m in _LEAVE_ALONE.finditer(text):
        p = _segment(m.group(1))
        if p:
            excluded.append(p)
    for m in _EXCLUDE.finditer(text):
        frag = m.group(1)
        if re.match(
            r"\s*(?:yet|now|per\b|a\b|to\b|so\b|too\b|only\b|just\b|the price|price)",
            frag,
            re.IGNORECASE,
        ):
            continue
        p = _segment(frag)
        overlaps = p and any(p.lower() in e.lower() or e.lower() in p.lower() for e in excluded)
        claim = p and any(has_phrase(words(p), c) for c in OVER_CLAIM_WORDS)
        if p and not overlaps and not claim and not _QUOTED.search(_cut(frag.strip())):
            excluded.append(p)
    for p in excluded[:3]:
        add(Direction(axis="exclusion", value=p, do=False))
    aud = None
    for m in _AUDIENCE.finditer(text):
        bare = m.group(0).lower().startswith("for ")
        if bare and not re.search(
            r"\b(?:audience|customer|customers|people|buyers|users|segment)\b", text, re.IGNORECASE
        ):
            continue  # a bare "for X" names the audience only beside an audience word
        if re.search(
            r"\b(?:like|instead of|not|wrong)\b[\w' ]{0,12}$", text[: m.start()], re.IGNORECASE
        ):
            continue  # "reads like it's for X", "instead of X": who it should not be for
        p = _segment(m.group(1))
        if p and not any(p.lower() == e.lower() for e in excluded):
            if _people(p):
                aud = p
            elif m.group(0).lower().startswith("focus"):
                add(Direction(axis="scope", value=p))  # "focus on the booking workflow"
    if aud:
        add(Direction(axis="audience", value=aud))


_PEOPLE = frozenset(
    [
        "people",
        "staff",
        "folk",
        "folks",
        "children",
        "kids",
        "men",
        "women",
        "families",
        "couples",
        "owners",
        "teams",
        "team",
        "crew",
        "community",
    ]
)


_THINGS = frozenset(
    [
        "forecasts",
        "features",
        "reports",
        "tools",
        "workflows",
        "sensors",
        "reminders",
        "integrations",
        "payments",
        "prices",
        "metrics",
        "numbers",
        "results",
        "orders",
        "invoices",
        "schedules",
        "deliveries",
        "kits",
        "meals",
        "apps",
        "dashboards",
        "alerts",
        "loops",
        "channels",
        "plans",
        "emails",
        "pages",
        "details",
        "basics",
        "essentials",
        "costs",
        "fees",
        "hours",
        "weeks",
        "months",
        "days",
        "insights",
        "analytics",
        "templates",
        "menus",
        "routes",
        "shifts",
        "records",
    ]
)


def _people(phrase: str) -> bool:
    """A customer segment names people: its head noun (before "who", "in", "at", …) is a
    plural or a word for people ("solo groomers who work from a van", "vets in Leeds")."""
    head = re.split(
        r"\s+(?:who|that|in|at|on|with|near|across|from|of|for)\s+", phrase, maxsplit=1
    )[0]
    toks = head.split()
    if not toks:
        return False
    w = toks[-1].lower().strip("'’")
    if w in _THINGS or (w.endswith(("tions", "ments", "ings", "ics")) and w != "clinics"):
        return False
    return w in _PEOPLE or (w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3)


def _dedupe(out: Read) -> None:
    """One direction per slot per input (the later wins, said once in the notes)."""
    by: dict[str, Direction] = {}
    for d in out.directions:
        if d.slot in by and d.axis not in ("exclusion", "claim"):
            out.notes.append(f"two {d.axis} directions: the later one wins")
            d.note = d.note or f"the later of two {d.axis} directions you gave"
        by[d.slot] = d
    out.directions = list(by.values())
