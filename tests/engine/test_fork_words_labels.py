"""The own-answer confirm names an option by its words, never by its internal key: the TUI shows
the options as [1] and [2], so "read and costed as option B" named a key the player never saw
(played: "go thru the nurses i know at st james, no paid ads and dont spend more than 2k" at the
network-or-craft fork)."""

from __future__ import annotations

import re

from engine.game.dilemmas import interpret
from engine.game.models import Dilemma, Option
from engine.game.rules import RULES
from engine.views.fork_words import own_answer_view

NETWORK = "Network: warm leads among busy nurses first"
CRAFT = "Craft: one showcase piece for busy nurses before selling"


def _dilemma() -> Dilemma:
    return Dilemma(
        stage_id="s",
        title="Network or craft?",
        axis="you",
        prompt="Where does the company start?",
        options=[
            Option(key="A", rule_id="founder.network", text=NETWORK, tradeoff="early revenue"),
            Option(key="B", rule_id="founder.craft", text=CRAFT, tradeoff="proof, costs cash"),
        ],
    )


def _says(text: str, costed_as: str | None = None) -> str:
    dilemma = _dilemma()
    reading = interpret(text, dilemma, RULES)
    return own_answer_view(reading, dilemma, text, costed_as=costed_as)["says"]


def test_an_answer_that_picks_an_option_names_it_by_its_words():
    says = _says("the second one")
    assert CRAFT in says
    assert not re.search(r"\boption [AB]\b", says), says


def test_an_answer_costed_as_an_option_names_it_by_its_words():
    says = _says("neither, we wait", costed_as="founder.craft")
    assert "matches neither option" in says and CRAFT in says
    assert not re.search(r"\boption [AB]\b", says), says
