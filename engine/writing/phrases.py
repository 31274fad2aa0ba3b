"""A small seeded phrase generator: articles, plurals, verb agreement, casing and lists joined as
prose, and `Voice`, which picks hand-written fragments from banks (per industry, archetype and
stage) and fills them so they agree with the nouns they carry.

Templates mark a verb that must agree with the customer as <verb> ("{C} <lose> hours"), an
article as {a:offering}, and a capital at a sentence start happens after filling, never before
(so "iPhone" and "お茶" are left alone).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from engine.language.text import is_cjk

_VOWEL_SOUND_EXCEPTIONS_AN = (
    "hour",
    "honest",
    "honour",
    "honor",
    "heir",
    "mvp",
    "fda",
    "nhs",
    "sms",
    "seo",
    "faq",
    "mba",
    "x-ray",
)
_CONSONANT_SOUND = ("uni", "use", "user", "usu", "euro", "one", "once", "ubi", "uti", "ufo")
_IRREGULAR_3RD = {"have": "has", "do": "does", "go": "goes", "be": "is", "are": "is"}


def article(phrase: str) -> str:
    """'a' or 'an' for an English noun phrase; '' for phrases that take none (plurals, CJK)."""
    if not phrase or is_cjk(phrase):
        return ""
    w = phrase.split()[0].lower()
    if w.startswith(_VOWEL_SOUND_EXCEPTIONS_AN):
        return "an"
    if w.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if w[0] in "aeiou" else "a"


def with_article(phrase: str) -> str:
    """'a tide pool tour', 'an invoicing assistant', 'bike repair subscriptions' (plural: none)."""
    if is_plural(phrase) or is_cjk(phrase) or not phrase.isascii():
        return phrase
    return f"{article(phrase)} {phrase}".strip()


def is_plural(phrase: str) -> bool:
    """A noun phrase is plural when its head (last word before a qualifier) reads as one."""
    if is_cjk(phrase):
        return True  # a customer named in CJK is read as a group of people
    head = re.split(
        r"\s+(?:in|of|at|on|with|who|near|across|de|du|des|in)\s+", phrase.strip(), maxsplit=1
    )[0].split()
    if not head:
        return False
    w = head[-1].lower()
    if w in (
        "people",
        "children",
        "staff",
        "teams",
        "police",
        "folk",
        "folks",
        "kids",
        "men",
        "women",
        "couples",
        "families",
    ):
        return True
    if w.endswith(("ss", "us", "is", "ics")) and w not in ("clinics", "physics"):
        return w == "clinics"
    return w.endswith("s") and len(w) > 3


def plural(noun: str) -> str:
    """English plural of a single noun or a phrase's head."""
    if is_plural(noun) or not noun.isascii():
        return noun
    if re.search(r"(s|x|z|ch|sh)$", noun):
        return noun + "es"
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + "s"


def agree(verb: str, plural_subject: bool) -> str:
    """'lose' -> 'loses' for a singular subject; 'lose' stays for a plural one."""
    if plural_subject:
        return "are" if verb == "is" else verb
    if verb in _IRREGULAR_3RD:
        return _IRREGULAR_3RD[verb]
    if re.search(r"(s|x|z|ch|sh|o)$", verb):
        return verb + "es"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + "s"


def join_prose(items: Sequence[str], conj: str = "and") -> str:
    """['a', 'b', 'c'] -> 'a, b and c'."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


def cap(text: str) -> str:
    """Capitalise the first letter only ('rural farmers need…' -> 'Rural farmers need…')."""
    stripped = text.lstrip(" “\"'(")
    if stripped[:1].isalpha() and stripped[:1].islower():
        i = len(text) - len(stripped)
        return text[:i] + stripped[0].upper() + stripped[1:]
    return text


def sentences(text: str) -> str:
    """Capitalise every sentence start (after . ! ?) and tidy spaces around punctuation."""
    text = re.sub(r"\s+([,.;:!?])", r"\1", " ".join(text.split()))
    text = re.sub(r"([.!?”])(?=[A-Z])", r"\1 ", text)
    parts = re.split(r"(?<=[.!?])\s+", text)
    return " ".join([parts[0]] + [cap(p) for p in parts[1:]])


_SLOT = re.compile(r"\{(a:)?([a-z_]+)\}")
_VERB = re.compile(r"<([a-z]+)>")


class Voice:
    """Fills templates for one venture: slots (customer, offering, …) and seeded choices."""

    def __init__(self, slots: dict[str, str], seed: str) -> None:
        self.slots = slots
        self.seed = seed
        self.customer_plural = is_plural(slots.get("customer", ""))
        self._used: set[str] = set()

    def rng(self, key: str) -> random.Random:
        return random.Random(f"{self.seed}:{key}")

    def fill(self, template: str, **extra: str) -> str:
        slots = {**self.slots, **extra}

        def slot(m: re.Match[str]) -> str:
            value = slots.get(m.group(2), m.group(2).replace("_", " "))
            return with_article(value) if m.group(1) else value

        out = _SLOT.sub(slot, template)
        out = _VERB.sub(lambda m: agree(m.group(1), self.customer_plural), out)
        return sentences(out)

    def pick(self, key: str, bank: Sequence[str], **extra: str) -> str:
        """A seeded choice from a bank, avoiding a template this venture already used when it can."""
        rng = self.rng(key)
        order = list(bank)
        rng.shuffle(order)
        choice = next((t for t in order if t not in self._used), order[0])
        self._used.add(choice)
        return self.fill(choice, **extra)
