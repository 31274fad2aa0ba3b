"""Which fork option an own answer picks (engine.language.reader.pick), read as hurried players
write: what an answer does now, not what it says comes later."""

from __future__ import annotations

import pytest

from engine.game.rules import RULES
from engine.language.reader.pick import read_own_answer


def _options(*rule_ids: str) -> list[tuple[str, str, str, tuple[str, ...]]]:
    return [
        (key, rid, RULES[rid].option.format_map(_Slots()), tuple(RULES[rid].keywords))
        for key, rid in zip("AB", rule_ids, strict=True)
    ]


class _Slots(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return {"company": "Mobile Knife Co", "company_s": "Mobile Knife Co's"}.get(key, "it")


@pytest.mark.parametrize(
    ("said", "option"),
    [
        # played: read as going full time, the thing the answer put off
        ("keep the consulting gig til we got 10 paying kitchens, then go full time", "B"),
        ("side gig till 10 kitchens then full time", "B"),
        ("stay on the contract, go full time later", "B"),
        ("part time for now", "B"),
        ("full time, no side gig", "A"),
        ("quit my job now", "A"),
    ],
)
def test_an_answer_picks_what_it_does_now_not_what_it_puts_off(said, option):
    assert read_own_answer(said, _options("founder.full_time", "founder.side_income")).option == (
        option
    )


@pytest.mark.parametrize(
    ("said", "option"),
    [
        ("ship now, then polish", "A"),
        ("polish first then ship", "B"),
        ("polish it then ship", "B"),
        ("ship it", "A"),
        ("get it out, polish later", "A"),
    ],
)
def test_first_and_then_order_shipping_and_polish(said, option):
    assert read_own_answer(said, _options("designer.ship", "designer.polish")).option == option


def test_an_answer_that_puts_an_option_off_says_so_not_that_it_ruled_it_out():
    options = _options("founder.full_time", "founder.side_income")
    later = read_own_answer("keep the gig for now, then go full time", options)
    ruled = read_own_answer("not full time", options)
    assert (later.option, later.matched_by) == ("B", "later")
    assert (ruled.option, ruled.matched_by) == ("B", "negation")
