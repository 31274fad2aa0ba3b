"""`Voice`: picks hand-written fragments from banks (per world, trade, archetype and stage) and
fills them so they agree with the nouns they carry; the grammar itself (articles, plurals, verb
agreement, casing) is `engine.language.grammar`, built on inflect.

Templates mark a verb that must agree with the customer in its singular form, <loses> ("{C}
<loses> hours" -> "nurses lose hours"), an article as {a:offering}, and a capital at a sentence
start happens after filling, never before (so "iPhone" and "お茶" are left alone).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

from engine.language.grammar import agree, is_plural, relative_template, sentences, with_article

_SLOT = re.compile(r"\{(a:)?([a-z_]+)\}")
_VERB = re.compile(r"<([a-z]+)>")  # a verb in its singular form: <loses>, <has>


class Voice:
    """Fills templates for one venture: slots (customer, offering, …) and seeded choices; `world`
    is the offering world's word bank the slots were drawn from (what the CEO excluded left out)."""

    def __init__(
        self, slots: dict[str, str], seed: str, world: Mapping[str, tuple[str, ...]] | None = None
    ) -> None:
        self.slots = slots
        self.seed = seed
        self.world: Mapping[str, tuple[str, ...]] = world or {}
        self.customer_plural = is_plural(slots.get("customer", ""))
        self._used: set[str] = set()

    def rng(self, key: str) -> random.Random:
        return random.Random(f"{self.seed}:{key}")

    def fill(self, template: str, **extra: str) -> str:
        slots = {**self.slots, **extra}

        def slot(m: re.Match[str]) -> str:
            value = slots.get(m.group(2), m.group(2).replace("_", " "))
            return with_article(value) if m.group(1) else value

        out = _SLOT.sub(slot, relative_template(template, slots))
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
