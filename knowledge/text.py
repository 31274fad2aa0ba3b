"""Text helpers shared by both tiers: tokenising for ranking and clipping passages for hits."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from knowledge.models import HIT_TEXT_LIMIT

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_COMPOUND = re.compile(r"[^\W_]+(?:-[^\W_]+)+", re.UNICODE)
_SPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_MAX_TOKEN_LEN = 40

_STOPWORD_TEXT = """
    a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each else few for from further
    get gets got had has have having he her here hers herself him himself his how i if in into is it
    its itself just let me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own per same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up upon us very via was
    we were what when where which while who whom why will with within without would you your yours
    yourself yourselves one two three e g eg ie etc vs
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@lru_cache(maxsize=32_768)  # playbooks and briefs repeat words; bounded against hostile text
def stem(word: str) -> str:
    """Strip common English suffixes so "churned", "churns" and "churn" meet on one term."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    return word


def _keep(raw: str) -> bool:
    return 1 < len(raw) <= _MAX_TOKEN_LEN and raw not in STOPWORDS


def _raw_words(folded: str) -> list[str]:
    """Word runs plus each hyphenated compound joined up, so "trade-off" also meets "tradeoff"."""
    words = _WORD.findall(folded)
    if "-" in folded:
        words.extend(match.replace("-", "") for match in _COMPOUND.findall(folded))
    return words


def tokenize(text: str) -> list[str]:
    """Lowercased, stopword-free, stemmed word tokens (compounds joined at the end)."""
    return [stem(raw) for raw in _raw_words(text.casefold()) if _keep(raw)]


def query_terms(text: str) -> list[str]:
    """Distinct query terms in first-seen order (repeating a word does not weigh it more)."""
    seen: dict[str, None] = {}
    for raw in dict.fromkeys(_raw_words(text.casefold())):
        if _keep(raw):
            seen.setdefault(stem(raw), None)
    return list(seen)


def clean(text: str) -> str:
    """Drop control characters and collapse whitespace; untrusted text stays plain and printable."""
    return _SPACE.sub(" ", _CONTROL.sub(" ", text)).strip()


def clip(text: str, limit: int = HIT_TEXT_LIMIT) -> str:
    """Cut cleaned text to at most `limit` characters at a word boundary, marking the cut."""
    text = clean(text)
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


def slugify(heading: str) -> str:
    """A GitHub-style anchor: lowercase words joined by hyphens ("Burn and runway" → "burn-and-runway")."""
    words: Iterable[str] = _WORD.findall(heading.casefold().replace("'", "").replace("’", ""))
    return "-".join(words)
