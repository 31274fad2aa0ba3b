"""Slips in player-facing text: the wrong article, a plural after every/each, a doubled word or
stem, doubled punctuation, and internal ids (rule ids, memory kind names, note and stage ids,
snake_case field names). Pure functions over plain text; the suite runs them over every string a
sweep of ventures shows (tests/tui/test_text_slips.py). A checker the suite runs, not product code:
it lives with the tests.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

_ARTICLE = re.compile(r"\b([Aa]n?) ([A-Za-z][\w-]*)")
_EVERY = re.compile(r"\b([Ee]very|[Ee]ach) ([a-z]+)\b")
_DOUBLED = re.compile(r"\b([A-Za-z]{3,})\s+([A-Za-z]{3,})\b")
_PUNCT = re.compile(r"(?<![.\w])[.;,:!?]\s*[.;,:!?](?![.\w])|[.;,:!?][;,]")
_IDS = (
    ("note id", re.compile(r"\b(?:sem|mem|proc|ctx|pref|sum|note)-[0-9a-f]{6,}\b")),
    ("stage id", re.compile(r"\bstage_\d+_[a-z]+\b")),
    ("memory kind", re.compile(r"\b(?:user_profile|chat_summary)\b")),
    ("snake_case name", re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")),
)
# Words after every/each that look plural but are not ("every business", "each has").
_NOT_PLURAL = frozenset(
    {
        "has",
        "is",
        "was",
        "does",
        "goes",
        "business",
        "status",
        "analysis",
        "series",
        "news",
        "bus",
        "process",
        "access",
        "success",
        "address",
        "class",
        "campus",
        "focus",
        "bonus",
        "plus",
        "less",
        "loss",
        "boss",
        "press",
        "crisis",
        "basis",
        "this",
        "gets",
        "makes",
        "takes",
        "comes",
        "keeps",
        "needs",
        "says",
        "means",
        "seems",
        "runs",
        "brings",
    }
)
# Pairs of one stem that may stand side by side ("cost costs" never; "work works" never; a
# name beside its kind is fine when capitalised: proper nouns are skipped).
_STEM = 7


@cache
def _inflect() -> Any:
    import inflect

    return inflect.engine()


def _article_slip(article: str, word: str) -> bool:
    if word.isupper() or any(c.isdigit() for c in word[:1]):
        return False  # an abbreviation or a number: read aloud, not checkable by spelling
    right = str(_inflect().a(word)).split(" ", 1)[0].lower()
    return right != article.lower()


def slips(text: str, ids: frozenset[str] = frozenset()) -> list[str]:
    """Every slip found in `text`, each as `kind: the words` (empty when clean); `ids`: dotted
    ids that must never show (the consequence rules' ids, a word, a dot and a word)."""
    found: list[str] = []
    for m in _ARTICLE.finditer(text):
        if _article_slip(m.group(1), m.group(2)):
            found.append(f"article: {m.group(0)!r}")
    for m in _EVERY.finditer(text):
        word = m.group(2)
        if word not in _NOT_PLURAL and word.endswith("s") and _inflect().singular_noun(word):
            found.append(f"agreement: {m.group(0)!r}")
    for m in _DOUBLED.finditer(text):
        a, b = m.group(1), m.group(2)
        if a[:1].isupper() and b[:1].isupper() and a.lower() != b.lower():
            continue  # a name ("Pipeline Partners")
        same = a.lower() == b.lower()
        stem = len(a) >= _STEM and len(b) >= _STEM and a.lower()[:_STEM] == b.lower()[:_STEM]
        if same or stem:
            found.append(f"doubled word: {m.group(0)!r}")
    for m in _PUNCT.finditer(text):
        found.append(f"doubled punctuation: {text[max(0, m.start() - 12) : m.end() + 2]!r}")
    for name, pattern in _IDS:
        found.extend(f"{name}: {m.group(0)!r}" for m in pattern.finditer(text))
    for m in re.finditer(r"\b[a-z]+\.[a-z_]+\b", text):
        if m.group(0) in ids:
            found.append(f"rule id: {m.group(0)!r}")
    return found
