"""English grammar for generated prose, from `inflect` (articles, plurals, singulars, verb
agreement, number words) instead of rules written by hand; plus possessives, counts and sentence
casing that leaves abbreviations ("Co.", "e.g.") and names in any script as written.

Words in other scripts, and Latin-script words that are not English (accents), are never
inflected: they take no article and a customer named that way is read as a group of people.

inflect is pinned below 6: from 7 on it wraps every function in typeguard, which costs about two
seconds at import on this machine (5.6 imports in 20 ms and has the same rules).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from engine.language.wordlists import checked_words
from worldforge_textkit import is_cjk
from worldforge_textkit.patterns import Pattern

if TYPE_CHECKING:
    import inflect

_ENGINE: inflect.engine | None = None


def _inflect() -> inflect.engine:
    global _ENGINE
    if _ENGINE is None:
        import inflect

        _ENGINE = inflect.engine()
    return _ENGINE


WORDS_FILE = Path(__file__).with_name("grammar_words.json")


def _load_words() -> dict[str, frozenset[str]]:
    """The word sets below, read from grammar_words.json (each row checked at load)."""
    rows = json.loads(WORDS_FILE.read_text(encoding="utf-8"))["lists"]
    return {
        key: frozenset(checked_words(f"grammar_words.json {key}", row)) for key, row in rows.items()
    }


_WORDS = _load_words()
# Nouns that are plural although they do not look it (inflect has no singular for them).
_COLLECTIVE = _WORDS["collective"]
# Endings inflect strips wrongly ("class" -> "clas", "business" -> "busines"), and the words
# ending in s it strips that no ending names ("gas" -> "ga", "sms" -> "sm").
_NOT_PLURAL_ENDINGS = ("ss", "us", "is", "sis", "ics")
_SINGULAR_S = _WORDS["singular_s"]
# A head noun ends at its qualifier ("nurses in Leeds", "parents of young children").
_QUALIFIER = Pattern(
    r"\s+(?:in|of|at|on|with|who|that|which|whose|near|across|from|for|de|du|des|di|da|del)\s+",
    re.IGNORECASE,
)
_DIGITS = Pattern(r"^(\d+)")
# Heads that take no article ("crop insurance", "tax filing help", "dog walking on demand").
_MASS = _WORDS["mass"]
# Abbreviations written in capitals however they were typed ("hr managers" -> "HR managers"); a
# figure before one is a unit ("24 hr"), not the abbreviation.
_ACRONYM = Pattern(
    r"(?<![\w-])(?<!\d )(" + "|".join(sorted(_WORDS["acronyms"])) + r")(?![\w-])", re.IGNORECASE
)
_ACRONYMS = _WORDS["acronyms"]
_RUN = Pattern(r"[\w-]+")  # a run of word characters; an abbreviation the pattern raises is one
_COUNTABLE_ING = _WORDS["countable_ing"]


def _head(phrase: str) -> str:
    """The head noun: the last word before a qualifier or before a participle that follows a
    plural ("people getting fit", "owners renting out rooms"; "dog walking" keeps "walking")."""
    part = _QUALIFIER.split(phrase.strip(), maxsplit=1)[0].split()
    while len(part) > 1 and part[-1].lower() in WHERE_AFTER:
        part.pop()  # "small businesses everywhere": the head is "businesses"
    for i in range(1, len(part)):
        before = part[i - 1].lower()
        if part[i].lower().endswith("ing") and (before.endswith("s") or before in _PLURAL_HEADS):
            return part[i - 1]
    return part[-1] if part else ""


_PLURAL_HEADS = _WORDS["plural_heads"]
# Words of place after a head noun ("cafés nationwide"): never the head, never made plural.
WHERE_AFTER = _WORDS["where_after"]
# Heads that name a place of business, not people: a clause after them takes "that"
# ("offices that want a simpler week", never "offices who want").
_ORGANISATIONS = _WORDS["organisations"]


def names_organisation(phrase: str) -> bool:
    """Whether a customer phrase's head is a place of business ("law firms in Leeds", "cafés")."""
    head = _head(phrase).lower()
    return bool(head) and _english(head) and singular(head) in _ORGANISATIONS


def _english(word: str) -> bool:
    """An English word, a loanword with its final accent included ("café", "soirées")."""
    return word.isascii() or bool(_LOANWORD.fullmatch(word))


_LOANWORD = Pattern(r"[a-z'-]{3,}(?:é|ée)s?", re.IGNORECASE)  # café, cafés, soirée, fiancées


@lru_cache(maxsize=4096)
def is_plural(phrase: str) -> bool:
    """A noun phrase is plural when its head is ("night-shift nurses at …", "staff"); a name in
    another script or language is read as a group of people."""
    if not phrase.strip():
        return False
    head = _head(phrase)
    if not head or not _english(head):
        return True
    w = re.sub(r"[^a-z'-]", "", head.lower())
    if w in _COLLECTIVE:
        return True
    if w in _SINGULAR_S or (w.endswith(_NOT_PLURAL_ENDINGS) and w not in ("clinics", "logistics")):
        return False
    return bool(_inflect().singular_noun(w))


@lru_cache(maxsize=4096)  # inflect answers the same few words again and again
def article(phrase: str) -> str:
    """'a' or 'an' for an English noun phrase (by sound: 'an hour', 'a unit', 'an NHS ward',
    'a URL', 'an eight-week plan'); '' for one that takes none (CJK, other languages)."""
    if not phrase or not _english(phrase.split()[0]):
        return ""
    first = phrase.split()[0]
    m = _DIGITS.match(first)
    if m:
        first = str(_inflect().number_to_words(int(m.group(1)))) + first[m.end() :]
    if first[:1] == "U" and first.isupper():
        return "a"  # "a URL", "a UX review": the letter U sounds like "you"
    return str(_inflect().a(first)).split()[0]


_DETERMINERS = _WORDS["determiners"]


def with_article(phrase: str) -> str:
    """'a tide pool tour', 'an invoicing assistant', 'bike repair subscriptions' (plural: none)."""
    if not phrase or is_plural(phrase) or phrase.split()[0].lower() in _DETERMINERS:
        return phrase  # "the busiest nurse" has one already
    head = _head(phrase).lower()
    if head in _MASS or (head.endswith("ing") and head not in _COUNTABLE_ING):
        return phrase
    a = article(phrase)
    return f"{a} {phrase}" if a else phrase


@lru_cache(maxsize=4096)
def plural(noun: str) -> str:
    """The plural of a noun phrase's head ('clinic' -> 'clinics', 'ward team' -> 'ward teams');
    a phrase already plural, or not English, is kept."""
    if not noun or is_plural(noun):
        return noun
    head = _head(noun)
    if head.isupper() and head.endswith("S"):
        return noun  # "SMS", "GPS": inflect writes "SMSS"
    i = noun.rfind(head)
    return noun[:i] + str(_inflect().plural_noun(head)) + noun[i + len(head) :]


@lru_cache(maxsize=4096)
def singular(noun: str) -> str:
    """The singular of a noun phrase's head ('nurses' -> 'nurse'); kept when it has none."""
    head = _head(noun)
    if not head or not is_plural(noun) or not _english(head):
        return noun
    one = _inflect().singular_noun(head)
    if not one:
        return noun
    q = _QUALIFIER.search(noun)
    i = noun[: q.start() if q else len(noun)].rfind(head)
    rest = _RELATIVE_VERB.sub(
        lambda m: m.group(1) + _third_person(m.group(2)), noun[i + len(head) :], 1
    )
    return noun[:i] + str(one) + rest


_RELATIVE_VERB = Pattern(r"^(\s+(?:who|that|which)\s+)([a-z]+)\b")


def _third_person(verb: str) -> str:
    """'cycle' -> 'cycles', 'have' -> 'has', 'carry' -> 'carries': the verb after a relative
    pronoun made to agree with one customer; kept when inflect does not read it back as `verb`."""
    irregular = {"have": "has", "are": "is", "were": "was", "do": "does", "go": "goes"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith("ed") or (verb.endswith("s") and not verb.endswith("ss")):
        return verb  # past tense agrees already; a verb ending in s is not a plural form
    if re.search(r"(?:s|sh|ch|x|z|o)$", verb):
        candidate = verb + "es"
    elif re.search(r"[^aeiou]y$", verb):
        candidate = verb[:-1] + "ies"
    else:
        candidate = verb + "s"
    return candidate if _inflect().plural_verb(candidate) == verb else verb


def agree(verb: str, plural_subject: bool) -> str:
    """A verb written for a singular subject ('loses', 'has', 'is') made to agree: 'lose',
    'have', 'are' for a plural one."""
    return str(_inflect().plural_verb(verb)) if plural_subject else verb


@lru_cache(maxsize=512)
def count(n: int, noun: str) -> str:
    """'1 memory', '2 memories', '0 stages': a number with the noun in the form it takes."""
    return f"{n} {_inflect().plural(noun, n) if _english(noun) else noun}"


def number_word(n: int) -> str:
    """'three' for 3 (up to ten, as prose writes them), digits above."""
    return str(_inflect().number_to_words(n)) if 0 <= n <= 10 else f"{n:,}"


def possessive(name: str) -> str:
    """ "Pipeline Partners'" , "Acme's", "お茶の": the owner's form of a name."""
    if not name:
        return name
    if is_cjk(name):
        return f"{name}の"
    return f"{name}'" if name.endswith(("s", "S")) and _english(name) else f"{name}'s"


def join_prose(items: Sequence[str], conj: str = "and") -> str:
    """['a', 'b', 'c'] -> 'a, b and c'."""
    kept = [i for i in items if i]
    if len(kept) <= 1:
        return "".join(kept)
    return ", ".join(kept[:-1]) + f" {conj} " + kept[-1]


_RELATIVE = Pattern(r"\s(?:who|that)\s", re.IGNORECASE)
_WHO_AFTER = Pattern(r"(\{(?:cap_)?(customer|unit|unit_plural)\}) who ")


def has_relative(phrase: str) -> bool:
    """Whether a noun phrase already carries a relative clause ('groomers who work from a van')."""
    return bool(_RELATIVE.search(f" {phrase} "))


def relative(phrase: str, clause: str) -> str:
    """'nurses who want calm shifts', 'offices that want …'; a phrase with a clause of its own
    takes the next one with 'and' ('groomers who work from a van and want …', never '… van who
    want …')."""
    if has_relative(phrase):
        return f"{phrase} and {clause}"
    return f"{phrase} {'that' if names_organisation(phrase) else 'who'} {clause}"


def relative_template(template: str, slots: Mapping[str, str]) -> str:
    """A template's '{customer} who …' (or '{unit_plural} who …') as `relative` joins it, for
    the slot's phrase: 'and' after one with a clause, 'that' after a place of business."""

    def joined(m: re.Match[str]) -> str:
        phrase = slots.get(m.group(2), "")
        if has_relative(phrase):
            return f"{m.group(1)} and "
        return f"{m.group(1)} that " if names_organisation(phrase) else m.group(0)

    return _WHO_AFTER.sub(joined, template)


def busiest(customer: str) -> str:
    """ "the busiest nurses"; "busy couples" -> "the busiest couples", never "busiest busy"."""
    return "the busiest " + _BUSY.sub("", customer)


def narrows(customer: str, broader: str) -> bool:
    """Whether `customer` narrows `broader` ("the busiest nurses", "the nurses Acme ignores")."""
    c, b = customer.lower(), broader.lower()
    return bool(b) and (b in c or busiest(b).lower() in c)


def capitals(text: str) -> str:
    """Abbreviations in capitals ("hr managers" -> "HR managers", "an ai tutor" -> "an AI tutor")."""
    # Most texts hold none, and the case-blind pattern tries every choice at every letter: an
    # ASCII text none of whose lower-cased word runs is an abbreviation is returned as it is.
    if text.isascii() and _ACRONYMS.isdisjoint(_RUN.findall(text.lower())):
        return text
    return _ACRONYM.sub(lambda m: m.group(1).upper(), text)


def cap(text: str) -> str:
    """Raise the first letter only ('rural farmers need…' -> 'Rural farmers need…'); a word
    written with inner capitals ('iPhone', 'eBay') is a name and stays; an abbreviation is
    written in capitals ('hr managers' -> 'HR managers')."""
    return _raise(capitals(text))


def _raise(text: str) -> str:
    """`cap` of a text whose abbreviations are in capitals already."""
    stripped = text.lstrip(" “\"'(")
    first = stripped.split(" ", 1)[0]
    if any(c.isupper() for c in first[1:]):
        return text
    if stripped[:1].isalpha() and stripped[:1].islower():
        i = len(text) - len(stripped)
        return text[:i] + stripped[0].upper() + stripped[1:]
    return text


# Abbreviations whose full stop does not end a sentence.
_BUSY = Pattern(r"^(?:the\s+)?(?:busiest\s+|busy\s+)?", re.IGNORECASE)
_ABBREV = Pattern(
    r"(?:\b(?:Co|Inc|Ltd|Corp|St|Dr|Mr|Mrs|Ms|Prof|vs|etc|approx|no|No|Jr|Sr)|\be\.g|\bi\.e)\.$"
)


# A time of day ends a sentence only when a capital follows: "at the 3 a.m. break and …".
_CLOCK = Pattern(r"\b[ap]\.m\.$")


def _split(text: str) -> list[str]:
    parts: list[str] = []
    for piece in re.split(r"(?<=[.!?])\s+", text):
        if parts and (
            _ABBREV.search(parts[-1]) or (_CLOCK.search(parts[-1]) and piece[:1].islower())
        ):
            parts[-1] += " " + piece
        else:
            parts.append(piece)
    return parts


def sentences(text: str) -> str:
    """Raise every sentence start (after . ! ?, never after 'Co.' or 'e.g.') and tidy the spaces
    around punctuation."""
    text = re.sub(r"\s+([,.;:!?])", r"\1", " ".join(text.split()))
    text = re.sub(r"([.!?”])(?=[A-Z])", r"\1 ", text)
    parts = _split(capitals(text))
    return " ".join([parts[0]] + [_raise(p) for p in parts[1:]]) if parts else ""
