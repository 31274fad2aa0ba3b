"""Typed directions: what a CEO input binds the next worker to, as data the gate can check.

Every steering input (a fork choice, an own answer, a rejection reason, a standup reply) is read
into `Direction`s: an axis (price, audience, exclusion, channel, scope, timeline, claim to avoid,
tone, a number, a name), a value, do / don't, the source and the stage. They are stored as the
binding memory note's payload (`memory.models.MemoryRecord.payload`) and come back only through
recall: `fold` folds the recalled notes, the later direction on a slot replacing the
earlier one, so withholding or forgetting a note takes its directions out of the next brief.

`check` is the gate's deterministic adherence test of one artifact against those directions; a
violation names the direction and what the artifact did instead. Reading is whole-word matching
and a few patterns; nothing here calls a model or reads the wall clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, Protocol, get_args

from engine.language.grammar import article, count, has_relative
from engine.language.reading import OVER_CLAIM_WORDS, PLAIN_WORDING
from textkit import STOPWORDS, clip, has_phrase, words
from textkit.patterns import Pattern

Axis = Literal[
    "price",
    "audience",
    "exclusion",
    "channel",
    "scope",
    "timeline",
    "claim",
    "tone",
    "number",
    "name",
]
Source = Literal["decision", "own", "rejection", "standup", "consolidated"]
Op = Literal["eq", "max", "min"]
AXES: tuple[str, ...] = get_args(Axis)
SOURCES: tuple[str, ...] = get_args(Source)
OPS: tuple[str, ...] = get_args(Op)
SOURCE_WORDS = {
    "decision": "your choice",
    "own": "your own answer",
    "rejection": "your rejection",
    "standup": "your standup reply",
    "consolidated": "a reviewed note",
}
MAX_VALUE = 80  # a direction's value is clipped to this many characters (inert text)


@dataclass
class Direction:
    """One typed direction. `op` says how a number binds: eq (exactly), max (under), min (at
    least); `key` names which number or date (churn, burn, mrr, breakeven, cac, hours, launch).
    A plain dataclass (the engine builds it and trusts it); `from_dict` checks one read back from
    a note's payload, `to_dict` is the payload's JSON (None fields left out)."""

    axis: Axis
    value: str
    do: bool = True
    amount: float | None = None
    op: Op = "eq"
    key: str | None = None
    unit: str | None = None  # a price's unit ("farm" in "$40 a month per farm")
    period: str = "month"
    source: Source = "rejection"
    stage: str | None = None
    said: str = ""  # the CEO's words it was read from (clipped)
    memory_id: str | None = None  # the note it came from (set when folded from recall)
    replaced: str | None = None  # what it replaced on its slot, in words
    note: str | None = None  # how the reading chose it ("the later of two prices you named")

    def __post_init__(self) -> None:
        if isinstance(self.amount, int):  # 27 and 27.0 are one amount; the payload says 27.0
            self.amount = float(self.amount)

    @classmethod
    def from_dict(cls, raw: Any) -> Direction:
        """A direction from a note's payload (data another build or process may have written):
        ValueError unless it is a mapping whose fields have their types; unknown keys ignored."""
        if not isinstance(raw, Mapping):
            raise ValueError("a direction is not an object")
        try:
            d = cls(**{name: raw[name] for name in _DIRECTION_FIELDS if name in raw})
        except TypeError as err:  # a required field missing
            raise ValueError(f"not a direction: {err}") from None
        bad = [name for name, types in _DIRECTION_TYPES.items() if not _is(getattr(d, name), types)]
        for name, allowed in (("axis", AXES), ("op", OPS), ("source", SOURCES)):
            if getattr(d, name) not in allowed:
                bad.append(name)
        if bad:
            raise ValueError(f"a direction has a bad {', '.join(bad)}")
        return d

    def to_dict(self, *, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
        """The direction as JSON data, fields in order, None fields and `leave_out` left out."""
        return {
            name: value
            for name in _DIRECTION_FIELDS
            if (value := getattr(self, name)) is not None and name not in leave_out
        }

    @property
    def stage_beat(self) -> str:
        """The beat of the stage it was given at ("SEARCH"), '' when none."""
        return self.stage.rsplit("_", 1)[-1].upper() if self.stage else ""

    @property
    def slot(self) -> str:
        """What a later direction replaces: one price, one audience, one value per number; each
        exclusion and claim to avoid stands on its own."""
        if self.axis in ("exclusion", "claim"):
            return f"{self.axis}:{self.value.lower()}"
        if self.axis in ("number", "timeline"):
            return f"{self.axis}:{self.key or 'launch'}"
        return self.axis

    def line(self) -> str:
        """The direction in plain words ("price $27 a month", "leave out salons")."""
        a = self.axis
        if a == "price":
            bound = {"eq": "", "max": "under ", "min": "at least "}[self.op]
            return f"price {bound}{price_words(self)}"
        if a == "audience":
            return f"speak to {self.value}"
        if a == "exclusion":
            return f"leave out {self.value}"
        if a == "channel":
            return f"reach customers through {self.value}"
        if a == "scope":
            return f"centre the work on {self.value}"
        if a == "timeline":
            bound = {"eq": "in", "max": "by", "min": "no sooner than"}[self.op]
            return f"launch {bound} week {self.amount:.0f}"
        if a == "claim":
            return f"never claim {self.value}"
        if a == "tone":
            return f"write in a {self.value} tone"
        if a == "number":
            bound = {"eq": "", "max": "under ", "min": "at least "}[self.op]
            return f"{NUMBER_WORDS.get(self.key or '', self.key)} {bound}{number_words(self)}"
        return f"call it {self.value}"

    def shown(self) -> str:
        """The line, with how the reading chose it when it chose ("price $12 a meal (the later
        of two prices you named)")."""
        return f"{self.line()} ({self.note})" if self.note else self.line()


_DIRECTION_FIELDS = tuple(f.name for f in fields(Direction))
_OPT = (str, type(None))
_DIRECTION_TYPES: dict[str, tuple[type, ...]] = {
    **dict.fromkeys(("axis", "value", "op", "period", "source", "said"), (str,)),
    **dict.fromkeys(("key", "unit", "stage", "memory_id", "replaced", "note"), _OPT),
    "do": (bool,),
    "amount": (float, type(None)),
}


def _is(value: Any, types: tuple[type, ...]) -> bool:
    """isinstance, except that a bool is not a number here (JSON's true is no amount)."""
    return isinstance(value, types) and not (isinstance(value, bool) and bool not in types)


def price_words(d: Direction) -> str:
    """'$40 a month per farm', '$12 a meal' (a price per thing bought names no month)."""
    if d.amount is None:
        return d.value
    if d.period == "unit" and d.unit:
        return f"${d.amount:,.0f} {article(d.unit) or 'a'} {d.unit}"
    unit = f" per {d.unit}" if d.unit else ""
    return f"${d.amount:,.0f} a {d.period}{unit}"


# Units a price is said per that are subscriptions, so monthly unless a period is named ("$30 a
# seat" is $30 a month per seat); any other unit is what one thing bought costs ("$12 a meal").
MONTHLY_UNITS = frozenset(
    ["seat", "user", "member", "licence", "license", "subscriber", "account", "subscription"]
)


NUMBER_WORDS = {
    "churn": "churn target",
    "burn": "monthly burn",
    "mrr": "month-6 revenue target",
    "breakeven": "breakeven",
    "cac": "acquisition cost",
    "hours": "weekly hours per channel",
}


def number_words(d: Direction) -> str:
    v = d.amount or 0.0
    if d.key == "churn":
        return f"{v:.1f} %"
    if d.key == "breakeven":
        return f"month {v:.0f}"
    if d.key == "hours":
        return f"{v:.0f} hours a week"
    return f"${v:,.0f}"


# ------------------------------------------------------------------ reading text
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
    r"customers are|make it for|for)\s+(?:the\s+|our\s+)?([^,.;:!?()]+)",
    re.IGNORECASE,
)
_EXCLUDE = Pattern(
    r"\b(?:leave out|drop|exclude|excluding|without|skip|no more|stay away from|never mention|"
    r"don't mention|do not mention|stop targeting|not for|forget about|except|not)\s+"
    r"(?:the\s+|any\s+|our\s+)?([^,.;:!?()]+)",
    re.IGNORECASE,
)
_LEAVE_ALONE = Pattern(r"\bleave\s+(?:the\s+)?([^,.;:!?()]+?)\s+(?:alone|out)\b", re.IGNORECASE)
_CHANNEL_CUE = Pattern(
    r"\b(?:through|via|sell through|reach them through|channel(?: is|:)?|use|on)\s+"
    r"(?:the\s+|a\s+|an\s+)?([^,.;:!?()]+)",
    re.IGNORECASE,
)
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
)
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
GENERIC_CLAIM = "results it cannot prove yet"
_SCOPE = Pattern(
    r"\b(?:one feature:?|only the|just the|cut (?:the )?scope to|scope it to|centre it on|"
    r"center it on|build only|ship only|mention|include|add a line about|add a section on|add|"
    r"cover|talk about|spell out|it forgets|it forgot|forgets|forgot|is missing|lacks|"
    r"name the|name our)\s+"
    r"(?:the\s+|a\s+|an\s+|our\s+)?([^,.;:!?()]+)",
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
CORE_SCOPE = "one core job"
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


def scope_lists(art: dict[str, Any]) -> dict[str, list[Any]]:
    """The lists a narrowed scope cuts, by name (the strategist's key results are its first OKR's)."""
    out = {k: v for k, v in art.items() if k in SCOPE_FLOOR and isinstance(v, list)}
    okrs = art.get("okrs_q1")
    if isinstance(okrs, list) and okrs and isinstance(okrs[0], dict):
        krs = okrs[0].get("key_results")
        if isinstance(krs, list):
            out["key_results"] = krs
    return out


def scope_size(role: str, art: dict[str, Any]) -> str:
    """'4 features', '2 key results': the size of the role's list a narrowed scope cuts."""
    key, noun = SCOPE_LIST[role]
    return count(len(scope_lists(art).get(key, [])), noun)


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
    ["entirely", "completely", "altogether", "totally", "fully", "anymore", "please", "again"]
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


@dataclass
class Read:
    """What one input was read into, plus what could not be placed (asked, never guessed)."""

    directions: list[Direction] = field(default_factory=list)
    unclear: list[str] = field(default_factory=list)  # e.g. "price": named but not readable
    notes: list[str] = field(default_factory=list)  # e.g. "two prices: the later one wins"


def read_directions(
    text: str,
    *,
    source: Source,
    stage: str | None = None,
    current: dict[str, Any] | None = None,
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


@dataclass(frozen=True)
class _Ctx:
    """One reading's text and writers, shared by the per-axis readers."""

    text: str
    toks: list[str]
    current: dict[str, Any] | None
    base_price: float | None
    add: Callable[[Direction], None]
    out: Read


# Money named in a way the price reader cannot parse ("twelve-ish dollars", "$twelve", "€12").
_MONEY_SAID = Pattern(r"[$€£]|\b(?:dollars?|bucks|usd|euros?|quid)\b", re.IGNORECASE)


def _read_price(c: _Ctx) -> None:
    """A named price (the later of two wins), or a relative one resolved against the artifact;
    money named in words the reader cannot parse is asked about ('price_amount'), not guessed."""
    text, toks, add = c.text, c.toks, c.add
    if not _PRICE.search(text) and _MONEY_SAID.search(text) and not _names_a_number(toks):
        c.out.unclear.append("price_amount")
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
        price.value = price_words(price) if period == "unit" else f"${amount:,.0f} a {period}"
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
        add(Direction(axis="price", value=f"${now:,.0f} a month", amount=float(now)))
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


def _read_scope(c: _Ctx) -> None:
    sm = _SCOPE.search(c.text)
    placed = {d.axis for d in c.out.directions}
    if sm:
        p = _phrase(sm.group(1), 5)
        if (
            p
            and words(p)
            and words(p)[0] not in ("it", "this", "that", "them", "yet", "now", "price")
            and not ({"price", "tone"} & placed and _mentions_price(words(p)))
        ):
            c.add(Direction(axis="scope", value=p))
    elif any(has_phrase(c.toks, x) for x in SCOPE_CUES) and not placed:
        c.add(Direction(axis="scope", value=CORE_SCOPE))


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


def _mentions_price(toks: list[str]) -> bool:
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


_DOWN = (
    "too high",
    "too expensive",
    "overpriced",
    "lower",
    "cheaper",
    "reduce",
    "cut",
    "less",
    "bring down",
    "too much",
    "affordable",
    "fantasy",
    "too aggressive",
    "unrealistic",
    "too many",
    "too rosy",
    "inflated",
    "too ambitious",
)
_UP = (
    "too low",
    "too cheap",
    "underpriced",
    "higher",
    "raise",
    "increase",
    "more",
    "pricier",
    "too conservative",
    "too timid",
    "too cautious",
    "aim higher",
    "sandbagged",
)


def _way(toks: list[str]) -> str | None:
    if any(has_phrase(toks, w) for w in _DOWN):
        return "down"
    if any(has_phrase(toks, w) for w in _UP):
        return "up"
    return None


def _way_time(toks: list[str]) -> str | None:
    if any(
        has_phrase(toks, w)
        for w in ("sooner", "earlier", "faster", "too late", "too slow", "too far out")
    ):
        return "sooner"
    if any(
        has_phrase(toks, w)
        for w in ("later", "more time", "too soon", "too early", "rushed", "unrealistic")
    ):
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
    current: dict[str, Any] | None,
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
            if key == "churn" and _PCT.search(tail):
                pm = _PCT.search(tail)
                assert pm is not None
                v = float(pm.group(1))
                add(Direction(axis="number", key=key, value=f"{v:.1f} %", amount=v, op=op))
            elif key == "hours" and re.search(
                r"(\d{1,2})\s*" + re.escape(cue), text, re.IGNORECASE
            ):
                hm = re.search(r"(\d{1,2})\s*" + re.escape(cue), text, re.IGNORECASE)
                assert hm is not None
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
                    add(Direction(axis="number", key=key, value=f"${v:,.0f}", amount=v, op=op))
                elif current is not None and _num_way(toks, key):
                    now = current_number(current, key)
                    if now:
                        f = 0.7 if _num_way(toks, key) == "down" else 1.3
                        v = float(round(now * f))
                        add(Direction(axis="number", key=key, value=f"${v:,.0f}", amount=v))
            break


def _read_channels(text: str, toks: list[str], add: Callable[[Direction], None]) -> None:
    seen: set[str] = set()
    for name in CHANNEL_NAMES:
        if not has_phrase(toks, name) or any(name in s for s in seen):
            continue
        seen.add(name)
        at = text.lower().find(name)
        before = words(text[max(0, at - 24) : at])[-3:] if at >= 0 else []
        negated = any(
            w in ("no", "not", "without", "stop", "drop", "skip", "never") for w in before
        )
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


# ------------------------------------------------------------------ what a fork option binds
def option_directions(
    rule_id: str, *, base_price: float, customer: str, rival: str, stage: str | None
) -> list[Direction]:
    """The content of its own each fork option binds (premium and cheap give different prices,
    depth and breadth different segments, …): rules as data, resolved from the company now."""
    hi = float(round(base_price * 1.8 / 5) * 5)
    lo = float(max(5, round(base_price * 0.5 / 5) * 5))
    mid_hi = float(round(base_price * 1.4 / 5) * 5)

    def price(v: float, period: str = "month") -> Direction:
        return Direction(axis="price", value=f"${v:,.0f} a {period}", amount=v, period=period)

    def launch(week: float, op: Literal["eq", "max", "min"]) -> Direction:
        return Direction(
            axis="timeline", key="launch", value=f"week {week:.0f}", amount=week, op=op
        )

    def d(axis: Axis, value: str) -> Direction:
        return Direction(axis=axis, value=value, do=axis not in ("exclusion", "claim"))

    table: dict[str, list[Direction]] = {
        "go.premium": [price(hi)],
        "go.cheap": [price(lo)],
        "marketer.adoption": [price(lo), d("channel", "referrals")],
        "marketer.runway": [price(mid_hi), d("channel", "founder outbound")],
        "seller.presell": [price(hi * 10, "year")],
        "strategist.depth": [d("audience", f"the busiest {customer}")],
        "strategist.breadth": [d("audience", f"{customer} and others like them")],
        "go.flank": [d("audience", f"the {customer} {rival} ignores")],
        "go.confront": [d("scope", f"a side-by-side with {rival}")],
        "need.interviews": [d("scope", "forty customer interviews")],
        "need.waitlist": [d("channel", "a launch page with a waitlist")],
        "designer.codesign": [d("scope", "ten design partners")],
        "designer.ship": [launch(1, "max")],
        "designer.polish": [launch(6, "min")],
        "builder.in_house": [d("scope", "our own stack, built in-house")],
        "search.cut_scope": [d("scope", "one core feature")],
        "search.bridge": [
            Direction(axis="number", key="breakeven", value="month 12", amount=12.0, op="min")
        ],
        "find.ads": [d("channel", "paid ads")],
        "find.community": [d("channel", "the community"), d("exclusion", "paid ads")],
        "take.hire": [d("scope", "a dedicated support hire")],
        "take.triage": [d("scope", "half the backlog, cut")],
        "operator.lean": [d("exclusion", "new hires")],
        "ops.automate": [d("channel", "self-serve help")],
        "ops.human_loop": [d("channel", "a named person on support")],
        "founder.network": [d("channel", "the founder's warm network")],
        "founder.craft": [d("scope", "one showcase piece")],
        "founder.full_time": [launch(2, "max")],
        "founder.side_income": [launch(8, "min")],
        "return.profit_share": [d("scope", "a team profit share")],
        "return.retain": [d("scope", "every dollar reinvested")],
        "return.alliance": [d("channel", "the alliance partner's customers")],
        "return.alone": [d("exclusion", "alliance partners")],
        "ops.shareholder": [d("tone", "formal")],
        "ops.cooperative": [d("scope", "member-owners")],
        "change.partner": [d("scope", "the partner's priorities")],
        "change.steward": [d("scope", "a steward-ownership trust")],
    }
    out = table.get(rule_id, [])
    for x in out:
        x.source, x.stage = "decision", stage
    return out


# ------------------------------------------------------------------ binding from recall
@dataclass
class Binding:
    """What binds one brief, folded from recalled memory only (never from game state)."""

    directions: list[Direction] = field(default_factory=list)
    rule_id: str | None = None  # the newest recalled fork decision's rule
    decision: str = ""  # its words
    rejection: dict[str, Any] | None = None  # the newest recalled rejection of this stage
    note_ids: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.directions and not self.rule_id

    def lines(self) -> list[str]:
        return [
            f"{d.line()} (from {SOURCE_WORDS.get(d.source, d.source)}"
            + (f", {d.stage_beat}" if d.stage_beat else "")
            + (f"; {d.note}" if d.note else "")
            + ")"
            for d in self.directions
        ]


def payload(
    directions: Iterable[Direction],
    *,
    source: Source,
    rule_id: str | None = None,
    said: str = "",
) -> dict[str, Any]:
    """The binding note's structured payload (what `fold` reads back)."""
    return {
        "source": source,
        "rule_id": rule_id,
        "said": clip(said, 160),
        "directions": [d.to_dict(leave_out=("memory_id", "replaced")) for d in directions],
    }


class Note(Protocol):
    """What a binding note gives the fold (a memory record, memory.models.MemoryRecord)."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def payload(self) -> dict[str, Any] | None: ...
    @property
    def game_day(self) -> int: ...
    @property
    def stage_id(self) -> str | None: ...


def fold(notes: Iterable[Note], *, stage_id: str | None = None) -> Binding:
    """The binding section of a brief: the recalled binding notes (in write order by game day
    then id) folded into the directions that bind now (nothing else binds): on each slot the later replaces the earlier; an audience named, or
    a scope centred on a segment, later lifts an exclusion of the same words, and the other way
    round (no artifact can follow both)."""
    out = Binding()
    slots: dict[str, Direction] = {}
    seen: dict[str, Note] = {}
    for n in notes:  # the same note from recall and from the binding read counts once
        if n.payload and n.kind == "procedural":
            seen.setdefault(n.id, n)
    recs = sorted(seen.values(), key=lambda n: (n.game_day, n.id))
    for rec in recs:
        p = rec.payload or {}
        out.note_ids.append(rec.id)
        if p.get("rule_id") and p.get("source") in ("decision", "own"):
            out.rule_id = p["rule_id"]
            out.decision = str(p.get("said") or "")
        if p.get("source") == "rejection" and (stage_id is None or rec.stage_id == stage_id):
            out.rejection = {"memory_id": rec.id, **p}
        for raw in p.get("directions") or []:
            try:
                d = Direction.from_dict(raw)
            except ValueError:
                continue  # a note from another build: inert
            d.memory_id = rec.id
            old = slots.get(d.slot)
            if old is not None:
                d.replaced = old.line()
            if d.axis in ("audience", "scope") and d.do:
                for k in [k for k, x in slots.items() if x.axis == "exclusion"]:
                    if slots[k].value.lower() in d.value.lower():
                        del slots[k]
            if d.axis == "exclusion":
                for k in [k for k, x in slots.items() if x.axis in ("audience", "scope") and x.do]:
                    if d.value.lower() in slots[k].value.lower():
                        del slots[k]
            slots.pop(d.slot, None)
            slots[d.slot] = d
    out.directions = list(slots.values())
    return out


# ------------------------------------------------------------------ the gate's check
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
NUMBER_FIELD = {
    "churn": "churn_target_pct",
    "burn": "burn_usd_per_month",
    "mrr": "target_mrr_usd_m1_to_m6",
    "breakeven": "breakeven_month",
}
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
_QUOTE = Pattern(r"“[^”]*”|\"[^\"]*\"")
PRICE_SAID = Pattern(
    r"\$\s?(\d[\d,]*)(?:\.\d+)?\s*(?:a|per|/)\s*(month|mo|year|week)\b", re.IGNORECASE
)
WEEK_SAID = Pattern(r"\bweek\s+(\d{1,2})\b", re.IGNORECASE)
# A price per period as a monthly price (the revenue plan's numbers are monthly). A price per thing
# bought ("unit": "$12 a meal") counts one a paying customer a month, the least a customer who pays
# buys, so the plan's revenue never outruns what the price says.
PER_MONTH = {"month": 1.0, "mo": 1.0, "year": 1 / 12, "week": 52 / 12, "unit": 1.0}


def strings(v: object) -> list[str]:
    """Every string in a JSON value (an artifact's prose, nested fields included), in order."""
    if isinstance(v, str):
        return [v]
    if isinstance(v, dict):
        return [s for x in v.values() for s in strings(x)]
    if isinstance(v, list):
        return [s for x in v for s in strings(x)]
    return []


def unquoted(text: str) -> str:
    """Prose without the CEO's own quoted words (the checks judge the work, not the quote)."""
    return _QUOTE.sub(" ", text)


def prose(artifact: dict[str, Any], names: tuple[str, ...] | None = None) -> str:
    """An artifact's prose (all of it, or the named fields), the CEO's quoted words left out."""
    if names is None:
        body = {
            k: v
            for k, v in artifact.items()
            if k not in ("follows_decision", "memory_writes", "url")
        }
    else:
        body = {k: artifact.get(k) for k in names}
    return unquoted(" ".join(strings(body)))


def mentions(text: str, phrase: str) -> bool:
    """Whole-word presence of a phrase's content (most of its content words, in any order)."""
    need = [w for w in words(phrase) if w not in STOPWORDS]
    if not need:
        return False
    toks = words(text)
    if has_phrase(toks, phrase):
        return True
    hits = sum(1 for w in need if has_phrase(toks, w))
    return hits >= max(1, -(-len(need) * 3 // 4))


def unit_price_said(unit: str) -> re.Pattern[str]:
    """A price said per one thing bought: '$12 a meal', '$12 per meal', '$12 each meal'."""
    return re.compile(
        rf"\$\s?(\d[\d,]*)(?:\.\d+)?\s*(?:a|an|per|/|each)\s+{re.escape(unit)}(?:s|es)?\b",
        re.IGNORECASE,
    )


def stated_prices(text: str, unit: str | None = None) -> list[tuple[float, str]]:
    """Each price the text states, in order, with its period ('month', 'year', 'week'; 'unit'
    for a price per `unit`, when one is given)."""
    found = [
        (m.start(), float(m.group(1).replace(",", "")), m.group(2).lower())
        for m in PRICE_SAID.finditer(text)
    ]
    if unit:
        found += [
            (m.start(), float(m.group(1).replace(",", "")), "unit")
            for m in unit_price_said(unit).finditer(text)
        ]
    return [(amount, period) for _, amount, period in sorted(found)]


_ANY_UNIT_PRICE = Pattern(
    r"\$\s?(\d[\d,]*)(?:\.\d+)?\s*(?:a|an|per|each)\s+(?!month\b|mo\b|year\b|week\b)([a-z][a-z-]+)",
    re.IGNORECASE,
)


def current_price_said(artifact: dict[str, Any] | None) -> tuple[float, str, str | None] | None:
    """The first price an artifact states: amount, period and (for a price per thing bought, as
    a CEO's "$12 a meal" is written) its unit."""
    if not artifact:
        return None
    text = prose(artifact)
    found = stated_prices(text)
    if found:
        return found[0][0], found[0][1], None
    m = _ANY_UNIT_PRICE.search(text)
    if m and m.group(2).lower() not in STOPWORDS:
        return float(m.group(1).replace(",", "")), "unit", m.group(2).lower()
    return None


def current_week(artifact: dict[str, Any] | None) -> int | None:
    if not artifact:
        return None
    m = WEEK_SAID.search(prose(artifact))
    return int(m.group(1)) if m else None


def current_number(artifact: dict[str, Any], key: str) -> float | None:
    fp = artifact.get("financial_plan") or {}
    v = fp.get(NUMBER_FIELD.get(key, ""))
    if isinstance(v, list):
        return float(v[-1]) if v else None
    if key == "cac" and artifact.get("gtm_channels"):
        return float(artifact["gtm_channels"][0].get("expected_cac_usd") or 0) or None
    if key == "hours" and artifact.get("gtm_channels"):
        return float(artifact["gtm_channels"][0].get("weekly_hours") or 0) or None
    return float(v) if isinstance(v, int | float) else None


def _within(value: float, d: Direction) -> bool:
    target = d.amount or 0.0
    if d.op == "max":
        return value < target or (value == target and d.axis == "timeline")
    if d.op == "min":
        return value >= target
    return abs(value - target) < 0.051


@dataclass(frozen=True)
class Violation:
    """A direction the artifact broke, and what it did instead (in plain words)."""

    axis: str
    direction: str
    did: str
    memory_id: str | None = None

    @property
    def line(self) -> str:
        return f"DRIFT: {self.did}, you said {self.direction}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def applies(role: str, d: Direction, artifact: dict[str, Any]) -> bool:
    """Whether this role's artifact has a field the direction can be checked in."""
    if d.axis == "number":
        if d.key in ("cac", "hours"):
            return bool(artifact.get("gtm_channels"))
        return bool(artifact.get("financial_plan"))
    if d.axis in ("exclusion", "claim"):
        return True
    return role in FIELDS.get(d.axis, {})


def check(role: str, artifact: dict[str, Any], directions: Iterable[Direction]) -> list[Violation]:
    """Each recalled direction against the artifact's fields (deterministic; DRIFT on a miss)."""
    out: list[Violation] = []
    allp = prose(artifact)
    for d in directions:
        if not applies(role, d, artifact):
            continue
        did = _violation(role, artifact, d, allp)
        if did:
            out.append(
                Violation(
                    axis=d.axis, direction=d.line(), did=clip(did, 120), memory_id=d.memory_id
                )
            )
    return out


def _violation(role: str, art: dict[str, Any], d: Direction, allp: str) -> str | None:
    """What the artifact did instead of the direction, in words (None when it holds)."""
    fields = FIELDS.get(d.axis, {}).get(role, ())
    here = prose(art, fields) if fields else ""
    found: str | None = _CHECKS[d.axis](art, d, allp, here)
    return found


def _price_miss(art: dict[str, Any], d: Direction, allp: str, here: str) -> str | None:
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


def plan_price_miss(art: dict[str, Any], d: Direction) -> str | None:
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
        return f"plans its revenue at ${price:,.0f} a month"
    if isinstance(customers, list) and isinstance(mrr, list) and len(customers) == len(mrr):
        for c, x in zip(customers, mrr, strict=True):
            if not isinstance(c, int | float) or not isinstance(x, int | float):
                continue
            if abs(float(x) - float(c) * price) >= price:
                return f"plans ${float(x):,.0f} a month from {c:,.0f} customers at ${price:,.0f}"
    return None


def _claim_miss(art: dict[str, Any], d: Direction, allp: str, here: str) -> str | None:
    if d.value == GENERIC_CLAIM:
        from engine.game.flaws import OVER_CLAIMS

        hit = next((c for c in OVER_CLAIMS if has_phrase(allp, c)), None)
        return f"claims “{hit}”" if hit else None
    return f"still says “{d.value}”" if d.value in allp.lower() else None


def _scope_miss(art: dict[str, Any], d: Direction, here: str) -> str | None:
    if d.value == CORE_SCOPE:
        lists = scope_lists(art)
        over = next((k for k, v in lists.items() if len(v) > SCOPE_FLOOR[k]), None)
        if over is None:
            return None
        noun = next((n for k, n in SCOPE_LIST.values() if k == over), over.replace("_", " "))
        return f"still carries {count(len(lists[over]), noun)}"
    return None if mentions(here, d.value) else f"leaves out {d.value}"


def _tone_miss(art: dict[str, Any], d: Direction, allp: str, here: str) -> str | None:
    hit = next((b for b in BUZZWORDS if has_phrase(allp, b)), None)
    if hit:
        return f"uses “{hit}”"
    if d.value in ("formal", "plain") and "!" in allp:
        return "uses exclamation marks"
    if d.value == "warm" and not has_phrase(here, "you"):
        return "never speaks to the reader"
    return None


def _week_miss(art: dict[str, Any], d: Direction, allp: str, here: str) -> str | None:
    weeks = [int(x) for x in WEEK_SAID.findall(here)]
    if not weeks:
        return "names no launch week"
    bad = next((w for w in weeks if not _within(float(w), d)), None)
    return f"launches in week {bad}" if bad is not None else None


def _number_miss(art: dict[str, Any], d: Direction, allp: str, here: str) -> str | None:
    now = current_number(art, d.key or "")
    if now is None:
        return f"states no {NUMBER_WORDS.get(d.key or '', 'number')}"
    if not _within(now, d):
        shown = Direction(axis="number", key=d.key, value="", amount=now)
        return f"{NUMBER_WORDS.get(d.key or '', d.key)} {number_words(shown)}"
    return None


_CHECKS: dict[str, Any] = {
    "price": _price_miss,
    "audience": lambda art, d, allp, here: (
        None if mentions(here, d.value) else f"speaks to “{clip(here, 60)}”"
    ),
    "exclusion": lambda art, d, allp, here: (
        f"mentions {d.value}" if has_phrase(allp, d.value) else None
    ),
    "claim": _claim_miss,
    "channel": lambda art, d, allp, here: (
        None if mentions(here, d.value) else f"never uses {d.value}"
    ),
    "scope": lambda art, d, allp, here: _scope_miss(art, d, here),
    "name": lambda art, d, allp, here: (
        None if has_phrase(here, d.value) else "does not use the name"
    ),
    "tone": _tone_miss,
    "timeline": _week_miss,
    "number": _number_miss,
}
