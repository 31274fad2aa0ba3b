"""What an artifact says, read as text: its prose (the CEO's quoted words left out), the prices,
launch weeks and plan numbers it states, and whole-word mentions of a phrase.

The steering reader resolves a relative "too high" against what the artifact states; the gate's
check (engine.game.adherence) and the simulated worker's realisation read the same text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from engine.language.grammar import singular
from worldforge_textkit import STOPWORDS, fold, has_phrase, stem, words
from worldforge_textkit.patterns import Pattern

NUMBER_FIELD = {
    "churn": "churn_target_pct",
    "burn": "burn_usd_per_month",
    "mrr": "target_mrr_usd_m1_to_m6",
    "breakeven": "breakeven_month",
}
_QUOTE = Pattern(r"“[^”]*”|\"[^\"]*\"")
PRICE_SAID = Pattern(
    r"[$£€]\s?(\d[\d,]*)(?:\.\d+)?\s*(?:a|per|/)\s*(month|mo|year|week)\b", re.IGNORECASE
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


# The fields that are no prose of the work: its claim of compliance, its notes to memory, its
# link, and which notes shaped which fields (its citations).
NOT_PROSE = ("follows_decision", "memory_writes", "url", "cites")


def prose(artifact: Mapping[str, object], names: tuple[str, ...] | None = None) -> str:
    """An artifact's prose (all of it, or the named fields), the CEO's quoted words left out."""
    if names is None:
        body = {k: v for k, v in artifact.items() if k not in NOT_PROSE}
    else:
        body = {k: artifact.get(k) for k in names}
    return unquoted(" | ".join(strings(body)))  # fields apart: "a week" | "19 …" is no "week 19"


def mentions(text: str, phrase: str) -> bool:
    """Whole-word presence of a phrase's content (most of its content words, in any order),
    accents aside: "cafe" is mentioned by "café"."""
    phrase = fold(phrase)
    need = [w for w in words(phrase) if w not in STOPWORDS]
    if not need:
        return False
    toks = words(fold(text))
    if has_phrase(toks, phrase):
        return True
    hits = sum(1 for w in need if has_phrase(toks, w))
    return hits >= max(1, -(-len(need) * 3 // 4))


# Words that say how a thing is left out or which line is meant, not what the thing is: "every
# mention of routes", "care about our routes", "the 'fits around work' line" all leave out routes
# or that line. What is left when they are gone is the thing (all of the words when none is).
_FRAME_TEXT = """
    mention mentions mentioning mentioned reference references referring word words line lines
    bit bits part parts talk talking care cares caring say saying said thing things stuff whole
    every anything everything phrase phrases sentence sentences
"""
FRAME_WORDS = frozenset(_FRAME_TEXT.split())


@lru_cache(maxsize=16_384)
def lemma(word: str) -> str:
    """One form for a word's inflections: "routes", "route", "routing" and "routed" meet, so do
    "fits" and "fit" (the singular by inflect, then the light suffix fold); accents aside, so
    "café" and "cafe" meet."""
    return stem(singular(fold(word))) if word.isalpha() else word


# A frame word right after one of these is the thing itself ("first in line", "on the line").
_HELD_BY = frozenset({"in", "on", "at", "out", "into"})


@lru_cache(maxsize=4_096)
def key_lemmas(value: str) -> tuple[str, ...]:
    """The lemmas of what a direction's value names, in order: its content words without the
    words that only frame it ("every mention of routes" -> ("rout",)); a frame word a
    preposition holds is part of the thing ("first in line" -> ("first", "line"), never "first"
    alone, which took every "the first month" out of the work)."""
    raw = words(value)
    toks = [(w, i > 0 and raw[i - 1] in _HELD_BY) for i, w in enumerate(raw) if w not in STOPWORDS]
    core = [w for w, held in toks if held or w not in FRAME_WORDS] or [w for w, _ in toks]
    return tuple(lemma(w) for w in core)


@lru_cache(maxsize=256)
def _content(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A text's content words (stopwords left out) and their lemmas, read once per text: the gate
    asks `said` of one artifact's prose for each direction in force."""
    toks = tuple(w for w in words(text) if w not in STOPWORDS)
    return toks, tuple(lemma(w) for w in toks)


def said(text: str, value: str) -> str | None:
    """The words of `text` that say what `value` names, by lemma and as a phrase (its content
    words side by side, in either order, stopwords between them allowed): "Plan tomorrow's
    routes" says "every mention of routes", so does "routing"; "the first month is free" says
    "free month"; "big hotel chains" does not say "big chains". None when not."""
    key = key_lemmas(value)
    if not key:
        return None
    toks, lemmas = _content(text)
    n, bag = len(key), sorted(key)
    for i in range(len(toks) - n + 1):
        if lemmas[i : i + n] == key or (n > 1 and sorted(lemmas[i : i + n]) == bag):
            return " ".join(toks[i : i + n])
    return None


def unit_price_said(unit: str) -> re.Pattern[str]:
    """A price said per one thing bought: '$12 a meal', '$12 per meal', '$12 each meal'."""
    return re.compile(
        rf"[$£€]\s?(\d[\d,]*)(?:\.\d+)?\s*(?:a|an|per|/|each)\s+{re.escape(unit)}(?:s|es)?\b",
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
    r"[$£€]\s?(\d[\d,]*)(?:\.\d+)?\s*(?:a|an|per|each)\s+(?!month\b|mo\b|year\b|week\b)([a-z][a-z-]+)",
    re.IGNORECASE,
)


def current_price_said(
    artifact: Mapping[str, object] | None,
) -> tuple[float, str, str | None] | None:
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


def current_week(artifact: Mapping[str, object] | None) -> int | None:
    if not artifact:
        return None
    m = WEEK_SAID.search(prose(artifact))
    return int(m.group(1)) if m else None


def current_number(artifact: Mapping[str, object], key: str) -> float | None:
    """The number the artifact states for `key`: its plan's (a list's last month), or its first
    channel's acquisition cost or weekly hours."""
    fp = artifact.get("financial_plan")
    v = fp.get(NUMBER_FIELD.get(key, "")) if isinstance(fp, dict) else None
    if isinstance(v, list):
        return float(v[-1]) if v else None
    channels = artifact.get("gtm_channels")
    if key in ("cac", "hours") and isinstance(channels, list) and channels:
        name = "expected_cac_usd" if key == "cac" else "weekly_hours"
        return float(channels[0].get(name) or 0) or None
    return float(v) if isinstance(v, int | float) else None
