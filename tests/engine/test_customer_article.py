"""A customer may carry its own article ("the busiest nurses", the niche a "go deep" answer
names), so no text puts a number, an article or an adjective before {customer}: the simulated
strategist could write "The first the busiest nurses signed up" and a fork offered "write up
three the busiest nurses"."""

from __future__ import annotations

import re

from engine.game.rules import RULES
from engine.writing.phrases import Voice
from engine.writing.realise import SAID

NICHE = "the busiest nurses"
BEFORE = re.compile(
    r"\b(?:a|an|the|one|two|three|four|five|ten|first|last|happy|loyal|new|more|fewer|our|your)"
    rf" {NICHE}\b",
    re.IGNORECASE,
)


class _Slots(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return {"customer": NICHE, "company": "Dog Walkin Co"}.get(key, "it")


def test_no_realised_line_stands_a_word_before_the_customer():
    v = Voice({"customer": NICHE, "unit": "nurse", "unit_plural": "nurses"}, "s")
    for key, bank in SAID.items():
        for template in bank:
            line = v.fill(template, what="Leeds", name="Pawshift", week="2", n="5")
            assert not BEFORE.search(line), (key, line)


def test_no_fork_option_stands_a_word_before_the_customer():
    for rid, rule in RULES.items():
        for text in (rule.option, rule.tradeoff):
            if text:
                said = text.format_map(_Slots())
                assert not BEFORE.search(said), (rid, said)
