"""Text handling shared by writes, recall and the budget: cleaning, normalising, similarity, tokens."""

from __future__ import annotations

import math
import re
from hashlib import blake2b

from memory.models import MAX_TEXT
from memory.scrub import scrub

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
WORD = re.compile(r"[a-z0-9]+")
_DELIMITER = re.compile(r"<\s*(/?)\s*campaign_memory\b[^>]*>", re.IGNORECASE)

STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "i", "in", "is", "it", "its", "of", "on", "or", "our", "so", "that", "the", "this", "to", "was", "we", "were", "will", "with", "you", "your"]
)


def clean(text: object, *, limit: int = MAX_TEXT) -> str:
    """Scrub secrets, drop control characters, collapse whitespace, clamp to `limit` characters."""
    raw = text if isinstance(text, str) else str(text)
    # str.split() and the regex \s share one definition of whitespace (str.isspace).
    single = " ".join(_CONTROL.sub(" ", scrub(raw)).split())
    return single[:limit].rstrip()


def normalise(text: str) -> str:
    """Comparison key for exact restatement: case-folded words only."""
    return " ".join(WORD.findall(text.casefold()))


def norm_key(norm: str) -> int:
    """A signed 64-bit key of a `normalise`d text, for a compact restatement index."""
    return int.from_bytes(blake2b(norm.encode(), digest_size=8).digest(), "big", signed=True)


def words(text: str) -> set[str]:
    """Content words (stopwords dropped) used for near-duplicate similarity."""
    return {w for w in WORD.findall(text.casefold()) if w not in STOPWORDS}


def similarity(a: str, b: str) -> float:
    """Jaccard overlap of content words, 0..1 (1 for two empty texts)."""
    wa, wb = words(a), words(b)
    if not wa and not wb:
        return 1.0
    return len(wa & wb) / len(wa | wb)


def neutralise(text: str) -> str:
    """Stop memory text from opening or closing the `<campaign_memory>` block."""
    return _DELIMITER.sub(lambda m: f"[{m.group(1)}campaign_memory]", text).replace("\n", " ")


def tokens(text: str) -> int:
    """Token estimate used by the budget: ceil(chars / 4), at least 1."""
    return max(1, math.ceil(len(text) / 4))
