"""Text hygiene shared by the engine: cleaning player input, whole-word tokens, slugs."""

from __future__ import annotations

import re
import unicodedata

import textkit
from engine.errors import InputError

MAX_PITCH_CHARS = 2000
MAX_NAME_CHARS = 60
MAX_REASON_CHARS = 1000

_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")  # any script: accents and CJK stay whole
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "will",
        "with",
        "you",
        "your",
        "than",
        "so",
        "not",
        "no",
        "do",
        "does",
        "just",
        "more",
        "most",
        "very",
        "also",
        "all",
        "any",
        "each",
        "per",
        "via",
        "about",
        "over",
        "under",
        "up",
        "out",
        "off",
        "only",
        "own",
        "same",
        "such",
        "too",
        "can't",
        "won't",
        "let",
        "make",
        "makes",
        "made",
        "get",
        "gets",
        "using",
        "use",
        # the connectives of other Latin-script pitches (a name or keyword is never one of these)
        "pour",
        "les",
        "des",
        "une",
        "dans",
        "avec",
        "par",
        "sur",
        "aux",
        "para",
        "los",
        "las",
        "una",
        "con",
        "por",
        "del",
        "für",
        "und",
        "die",
        "der",
        "das",
        "mit",
        "ein",
        "eine",
        "von",
        "per",
        "gli",
        "dei",
        "delle",
        "com",
        "uma",
        "nos",
        "nas",
    ]
)


def clean_text(value: str, *, field: str, max_chars: int, required: bool = True) -> str:
    """Validate player text: control characters (NUL, escapes) are refused, invisible format
    characters (bidi overrides, zero-width) dropped, whitespace collapsed, length enforced."""
    if not isinstance(value, str):
        raise InputError(f"{field} must be text")
    kept = []
    for ch in value:
        cat = unicodedata.category(ch)
        if ch in "\n\t\r ":
            kept.append(" ")
        elif cat == "Cc":
            raise InputError(
                f"{field} contains a control character (U+{ord(ch):04X}); use plain text"
            )
        elif cat.startswith("C"):  # format (bidi overrides, zero-width), surrogate, unassigned
            continue
        else:
            kept.append(ch)
    from memory.scrub import scrub  # its patterns load with the first player text, not at start-up

    text = scrub(re.sub(r"\s+", " ", "".join(kept)).strip())  # secrets never enter game state
    if required and not text:
        raise InputError(f"{field} is empty")
    if len(text) > max_chars:
        raise InputError(f"{field} is too long ({len(text):,} characters; at most {max_chars:,})")
    return text


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
# Particles that join CJK words (no spaces between words in those scripts).
_CJK_JOIN = re.compile(
    r"のための|のため|向けの|向け|による|として|の|を|に|は|が|と|で|へ|や|的|为|為|和|与|및|를|을|위한|의"
)


def is_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def words(text: str) -> list[str]:
    """Lower-case whole words (letters of any script, digits, inner hyphens/apostrophes); a CJK run
    is split at its particles (の, を, 的 …) since those scripts put no spaces between words."""
    out: list[str] = []
    for tok in _WORD.findall(text.lower()):
        if is_cjk(tok):
            out.extend(p for p in _CJK_JOIN.split(tok) if p)
        else:
            out.append(tok)
    return out


def content_words(text: str) -> list[str]:
    """Whole words minus stopwords and one-letter tokens, in order, without repeats."""
    seen: dict[str, None] = {}
    for w in words(text):
        if (len(w) > 2 or (len(w) > 1 and is_cjk(w))) and w not in STOPWORDS and not w.isdigit():
            seen.setdefault(w, None)
    return list(seen)


def has_phrase(text: str | list[str], phrase: str) -> bool:
    """True when `phrase` occurs in `text` on whole-word boundaries (never as a substring of a word).

    `text` may be given already split by `words()` when many phrases are checked against it.
    """
    target = words(phrase)
    if not target:
        return False
    tokens = words(text) if isinstance(text, str) else text
    n = len(target)
    if n == 1:
        return target[0] in tokens
    return any(tokens[i : i + n] == target for i in range(len(tokens) - n + 1))


def slug(text: str, limit: int = 24) -> str:
    """ASCII only (URLs, ids): accents are folded ("Thé" -> "the"), other scripts dropped."""
    return textkit.slug(text, limit, default="venture", ascii_only=True)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"
