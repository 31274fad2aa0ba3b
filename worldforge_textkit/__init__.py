"""One text toolkit for every layer: cleaning, folding, tokenising, stemming, stopwords, phrases,
slugs and clipping (`worldforge_textkit.scrub`, imported on its own: secret scrubbing). Unicode-aware throughout, and free of any game or storage import.

- `clean`: control characters out, invisible format characters (bidi overrides, zero-width) out,
  whitespace folded to single spaces, NFC, optional clamp.
- `words`: the one tokenizer. Lower-case whole words of any script; a contraction or compound is
  one word ("don't", "trade-off", "rival's"; "don’t" is "don't"), so a negation reads as one; a CJK
  run is split at its particles (の, を, 的 …), those scripts putting no spaces between words.
- `content_words` / `has_phrase`: the words minus `STOPWORDS` (one list, English and the
  connectives of other Latin-script pitches); a phrase found on whole-word boundaries only.
- `fold`: case-folded with diacritics removed ("Ñandú" -> "nandu"), so accented and plain spellings
  meet; scripts without a decomposition (CJK, Cyrillic) keep their letters.
- `terms` / `query_terms` / `normalise`: for search and restatement keys. The folded words cut into
  their letter runs (SQLite FTS5's unicode61 tokenizer separates at apostrophes and hyphens, so
  the index and its queries must too), stopwords and one-letter runs dropped, stemmed (one light
  English stemmer); hyphenated compounds are also joined ("trade-off" also gives "tradeoff").
- `slug`: folded words joined by hyphens, for ids and anchors ("Café Olé" -> "cafe-ole").
- `clip`: cleaned text cut at a word boundary, the cut marked with "…".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from worldforge_textkit.patterns import Pattern

_RUN = r"[^\W_]+"  # letters and digits of any script
_PART = re.compile(_RUN)
_WORD = re.compile(rf"{_RUN}(?:['’-]{_RUN})*")  # a word: runs joined by inner ' ’ -
_COMPOUND = re.compile(rf"{_RUN}(?:-{_RUN})+")
_MAX_TERM_LEN = 40

# Compiled on first need: this class spans ~39,000 code points, which Python's pattern compiler
# walks one by one (36M instructions, 2.6 % of a `worldforge simulate`), and a text with no
# character at or past its first block (every English one) needs no search.
_CJK_FIRST = "\u3040"
_CJK = Pattern(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
# Particles that join CJK words (no spaces between words in those scripts).
_CJK_JOIN = Pattern(
    r"のための|のため|向けの|向け|による|として|の|を|に|は|が|と|で|へ|や|的|为|為|和|与|및|를|을|위한|의"
)

_STOPWORD_TEXT = """
    a about above after again against all also am an and any are as at be because been before being
    below between both but by can can't could did do does doing down during e each eg else etc few
    for from further g get gets got had has have having he her here hers herself him himself his how
    i ie if in into is it its itself just let made make makes me more most my myself no nor not now
    of off on once one only or other our ours ourselves out over own per same she should so some
    such than that the their theirs them themselves then there these they this those three through
    to too two under until up upon us use using very via vs was we were what when where which while
    who whom why will with within without won't would you your yours yourself yourselves
    aux avec com con dans das dei del delle der des die ein eine für gli las les los mit nas nos par
    para por pour sur uma una und une von
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())  # English, then other Latin-script connectives


def clean(text: object, limit: int | None = None) -> str:
    """Printable single-line text: control and format characters out, whitespace folded, NFC,
    clamped to `limit` characters when given. Non-str input is stringified."""
    raw = text if isinstance(text, str) else str(text)
    if not raw.isascii():
        raw = unicodedata.normalize("NFC", raw)
    single = " ".join(raw.split())
    # isprintable() is False for every Cc, Cf, Cs, Co and Cn character, and whitespace is never
    # Cf, Cs, Co or Cn: when the words are printable (most text, line breaks and all) nothing is
    # left to drop, and only the rest is walked character by character.
    if not single.isprintable():
        if raw.isascii():
            raw = "".join(ch if ch.isprintable() else " " for ch in raw)
        else:
            raw = "".join(
                " " if unicodedata.category(ch) == "Cc" else ch
                for ch in raw
                if not unicodedata.category(ch).startswith(("Cf", "Cs", "Co", "Cn"))
            )
        single = " ".join(raw.split())
    return single if limit is None else single[:limit].rstrip()


def is_cjk(text: str) -> bool:
    """True when `text` holds Chinese, Japanese or Korean letters."""
    if text.isascii() or max(text) < _CJK_FIRST:
        return False
    return bool(_CJK.search(text))


def words(text: str) -> list[str]:
    """Lower-case whole words in order (letters of any script, digits, inner hyphens and
    apostrophes, a typographic ’ read as '); a CJK run is split at its particles.

    The game splits the same short texts again and again (a cue phrase for every check, a note
    at every recall: ~7,500 splits a balance archetype, most of them repeats), so a short text's
    words are found once per process; a long one is split each time, so the memo stays small."""
    if len(text) <= _MEMO_CHARS:
        return list(_short_words(text))
    return _split(text)


_MEMO_CHARS = 400  # a memory note's limit; artifacts and pasted text are split each time


def _split(text: str) -> list[str]:
    low = text.lower().replace("’", "'")
    found: list[str] = _WORD.findall(low)
    if not is_cjk(low):  # no CJK anywhere: no token needs its particles split
        return found
    out: list[str] = []
    for tok in found:
        if is_cjk(tok):
            out.extend(p for p in _CJK_JOIN.split(tok) if p)
        else:
            out.append(tok)
    return out


@lru_cache(maxsize=8192)
def _short_words(text: str) -> tuple[str, ...]:
    return tuple(_split(text))


def content_words(text: str) -> list[str]:
    """Whole words minus stopwords, numbers and words too short to tell (one letter; two outside
    CJK), in order, without repeats."""
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
    if target[0] not in tokens:  # most phrases checked are absent: one scan in C says so
        return False
    n = len(target)
    return n == 1 or any(tokens[i : i + n] == target for i in range(len(tokens) - n + 1))


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


def normalise(text: str) -> str:
    """Comparison key for an exact restatement: the folded letter runs, single-spaced."""
    return " ".join(_PART.findall(fold(text)))


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
    elif len(word) > 5 and word.endswith("eed"):
        word = word[:-1]  # guaranteed -> guarantee, agreed -> agree (then the e, as for them)
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
    found = _PART.findall(folded)
    if "-" in folded:
        found.extend(m.replace("-", "") for m in _COMPOUND.findall(folded))
    return found


def terms(text: str) -> list[str]:
    """Index terms in order: the folded letter runs minus stopwords and one-letter runs, stemmed,
    plus hyphenated compounds joined up."""
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
    found = _PART.findall(fold(text.replace("'", "").replace("\u2019", "")))
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
