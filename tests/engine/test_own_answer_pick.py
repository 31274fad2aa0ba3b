"""Which fork option an own answer picks (engine.language.reader.pick), read as hurried players
write: what an answer does now, not what it says comes later."""

from __future__ import annotations

import pytest

from engine.game.rules import RULES
from engine.language.reader.pick import read_own_answer
from engine.language.reader.read import read_text


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


@pytest.mark.parametrize(
    ("said", "option"),
    [
        # the reader's own tally read these as full time, the option the answer puts off
        ("part time for now", "B"),
        ("side gig till 10 kitchens then full time", "B"),
        # the game's keywords read "quit now" as full time past the "neither"
        ("neither, quit my job now", None),
        # the game read no option in a letter or an ordinal before it asked a second picker
        ("B obviously", "B"),
        ("the second one", "B"),
        ("actually the first one", "A"),
        # an ordinal near the start of the answer after a change of mind, not of the message
        ("quit now. no wait, the second one", "B"),
        ("side gig. actually, scratch that, the first one", "A"),
    ],
)
def test_the_game_and_the_reader_pick_the_same_option(said, option):
    """One picker: the option the confirm and the receipt show is the one whose words the
    reading binds (they were two pickers, and disagreed)."""
    options = _options("founder.full_time", "founder.side_income")
    fork = {key: text for key, _, text, _ in options}
    assert read_own_answer(said, options).option == option
    assert read_text(said, source="own", fork=fork).option == option


def test_a_function_word_of_an_option_picks_nothing():
    """ "before" is a word of "… before selling", not of the option: "Partner with local co-ops
    before raising" fits neither option (the game costs it as the own-answer rule)."""
    options = [
        ("A", "a", "Network: warm leads among rural farmers first", ()),
        ("B", "b", "Craft: one showcase piece for rural farmers before selling", ()),
    ]
    said = "Partner with local co-ops before raising"
    read = read_own_answer(said, options)
    assert (read.option, read.matched_by) == (None, "custom")
    fork = {key: text for key, _, text, _ in options}
    assert read_text(said, source="own", fork=fork).option is None


def test_what_an_option_puts_off_does_not_name_it():
    """ "Craft: one showcase piece … before selling" does the selling later: "sell" fits neither
    option, in the game's reading and the reader's alike."""
    options = [
        ("A", "a", "Network: warm leads among night-shift nurses first", ()),
        ("B", "b", "Craft: one showcase piece for night-shift nurses before selling", ()),
    ]
    fork = {key: text for key, _, text, _ in options}
    assert read_own_answer("sell", options).option is None
    assert read_text("sell", source="own", fork=fork).option is None


@pytest.mark.parametrize(
    ("said", "option"),
    [
        # played: each picked the option it refused
        ("not A", "B"),
        ("definitely not A", "B"),
        ("anything but A", "B"),
        ("not the first one", "B"),
        ("no to A", "B"),
        ("nope, not A. B", "B"),
        ("not B", "A"),
        ("A, no B", "A"),
        ("go with B", "B"),  # was also: the name "B"
    ],
)
def test_a_letter_or_ordinal_under_a_negation_refuses_its_option(said, option):
    fork = {"A": "Instagram ads", "B": "Farmers markets"}
    read = read_text(said, source="own", fork=fork)
    assert read.option == option
    assert not any(d.value in fork for d in read.directions)  # a letter is no thing to leave out


@pytest.mark.parametrize(
    ("said", "channels"),
    [
        # played: the option's channel or the player's was lost ("B plus flyers …" bound nothing)
        ("markets and flyers", ["Farmers markets", "flyers"]),
        (
            "markets, and flyers at the school gate",
            ["Farmers markets", "flyers at the school gate"],
        ),
        ("farmers markets + school newsletter", ["Farmers markets", "school newsletter"]),
        ("B plus flyers at the school gate", ["Farmers markets", "flyers at the school gate"]),
        ("B and flyers too", ["Farmers markets", "flyers"]),
        ("b plus the school newsletter", ["Farmers markets", "school newsletter"]),
        ("B. flyers instead", ["flyers"]),  # the player's own replaces the option's
    ],
)
def test_an_option_named_beside_the_players_own_channel_keeps_both(said, channels):
    read = read_text(said, source="own", fork={"A": "Instagram ads", "B": "Farmers markets"})
    assert read.option == "B"
    assert [d.value for d in read.directions if d.axis == "channel" and d.do] == channels


@pytest.mark.parametrize(
    ("said", "fork", "option", "binds"),
    [
        # played: "rota is boring, the other" picked Rota and bound a bold tone
        ("rota is boring, the other", {"A": "Shelf Life", "B": "Rota"}, "A", ["+name:Shelf Life"]),
        # played: bound the name "Bootstrap"
        (
            "bootstrap til we hit 10k mrr",
            {"A": "Raise a seed round", "B": "Bootstrap"},
            "B",
            ["+scope:Bootstrap", "+number:10,000"],
        ),
        # played: "like 49" was read as the midpoint, $59
        (
            "somewhere in between, like 49",
            {"A": "Premium at $99 a month", "B": "Cheap at $19 a month"},
            None,
            ["+price:$49 a month"],
        ),
    ],
)
def test_the_other_a_move_that_is_no_name_and_the_figure_said(said, fork, option, binds):
    read = read_text(said, source="own", fork=fork, period="month")
    assert read.option == option
    assert [("+" if d.do else "-") + f"{d.axis}:{d.value}" for d in read.directions] == binds
