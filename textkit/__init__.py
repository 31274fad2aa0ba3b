"""One text toolkit for memory, knowledge and the engine: cleaning, folding, tokenising, stemming,
stopwords, slugs and clipping. Unicode-aware throughout, and free of any game or storage import.

- `clean`: control characters out, invisible format characters (bidi overrides, zero-width) out,
  whitespace folded to single spaces, NFC, optional clamp.
- `fold`: case-folded with diacritics removed ("Ñandú" -> "nandu"), so accented and plain spellings
  meet; scripts without a decomposition (CJK, Cyrillic) keep their letters.
- `words` / `terms` / `query_terms`: word runs of the folded text; terms drop stopwords and
  one-letter words and are stemmed (one light English stemmer); hyphenated compounds are also
  joined ("trade-off" also gives "tradeoff").
- `slug`: folded words joined by hyphens, for ids and anchors ("Café Olé" -> "cafe-ole").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_WORD = re.compile(r"[^\W_]+")
_COMPOUND = re.compile(r"[^\W_]+(?:-[^\W_]+)+")
_MAX_TERM_LEN = 40

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


def clean(text: object, limit: int | None = None) -> str:
    """Printable single-line text: control and format characters out, whitespace folded, NFC,
    clamped to `limit` characters when given. Non-str input is stringified."""
    raw = text if isinstance(text, str) else str(text)
    if not raw.isascii():
        raw = unicodedata.normalize("NFC", raw)
        raw = "".join(
            " " if unicodedata.category(ch) == "Cc" else ch
            for ch in raw
            if not unicodedata.category(ch).startswith(("Cf", "Cs", "Co", "Cn"))
        )
    elif not raw.isprintable():
        raw = "".join(ch if ch.isprintable() else " " for ch in raw)
    single = " ".join(raw.split())
    return single if limit is None else single[:limit].rstrip()


@lru_cache(maxsize=8192)
def _fold_word(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold(text: str) -> str:
    """Case-folded, diacritics removed (ASCII text passes through one `casefold`)."""
    low = text.casefold()
    if low.isascii():
        return low
    return " ".join(_fold_word(w) for w in low.split(" "))


def words(text: str) -> list[str]:
    """Word runs (letters and digits of any script) of the folded text, in order."""
    return _WORD.findall(fold(text))


def normalise(text: str) -> str:
    """Comparison key for an exact restatement: the folded words, single-spaced."""
    return " ".join(words(text))


@lru_cache(maxsize=65_536)  # texts repeat their words; bounded against hostile input
def stem(word: str) -> str:
    """A light English suffix fold so "churned", "churns", "churning" and "churn" meet, and
    "shipping" meets "ship"."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    cut = False
    if len(word) > 5 and word.endswith("ing"):
        word, cut = word[:-3], True
    elif len(word) > 4 and word.endswith("ed"):
        word, cut = word[:-2], True
    if cut and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeioulsz":
        word = word[:-1]  # shipped -> ship, planning -> plan
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    return word


def _keep(word: str) -> bool:
    return 1 < len(word) <= _MAX_TERM_LEN and word not in STOPWORDS


def _raw_terms(text: str) -> list[str]:
    folded = fold(text)
    found = _WORD.findall(folded)
    if "-" in folded:
        found.extend(m.replace("-", "") for m in _COMPOUND.findall(folded))
    return found


def terms(text: str) -> list[str]:
    """Index terms in order: folded words minus stopwords and one-letter words, stemmed, plus
    hyphenated compounds joined up."""
    return [stem(w) for w in _raw_terms(text) if _keep(w)]


def query_terms(text: str, limit: int | None = None) -> list[str]:
    """Distinct terms in first-seen order (a repeated word does not weigh more), at most `limit`."""
    seen: dict[str, None] = {}
    for w in dict.fromkeys(_raw_terms(text)):
        if _keep(w):
            seen.setdefault(stem(w), None)
            if limit is not None and len(seen) >= limit:
                break
    return list(seen)


def slug(
    text: str, limit: int | None = None, *, default: str = "", ascii_only: bool = False
) -> str:
    """Folded words joined by hyphens ("Reading a rival's move" -> "reading-a-rivals-move"),
    cut to `limit` characters at most; `default` when nothing is left. `ascii_only` (URLs, ids)
    also drops letters without an ASCII decomposition ("Łódź" -> "odz", "東京" -> "")."""
    found = words(text.replace("'", "").replace("\u2019", ""))
    if ascii_only:
        found = [a for a in (w.encode("ascii", "ignore").decode() for w in found) if a]
    s = "-".join(found)
    if limit is not None:
        s = s[:limit].strip("-")
    return s or default


def clip(text: str, limit: int) -> str:
    """Clean `text` and cut it to at most `limit` characters at a word boundary, marking the cut."""
    text = clean(text)
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"
