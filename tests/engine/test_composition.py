"""Directions compose over a venture by one table (engine.language.composition): one value or
several per axis, what a fork option may replace (and says so on its card) or must keep, support
steps that take only support channels, no rival's name in the copy, conflicts with their fix.

Before: one slot per axis, so after "Focus on the flower sellers" the next fork bound another
audience and the flower sellers were gone without a word; premium and cheap both bound "$5 a
knife"; support steps said "Answer sheep farmers through paid ads"; a headline carried the
rival's name."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.game.adherence import applies, check
from engine.game.dilemmas import option_directions
from engine.language.composition import COMPOSE, conflicts, is_support_channel
from engine.language.directions import Direction, fold
from engine.session.commands import Approve, Decide, RunStage, StandupReply


def _note(day: int, nid: str, source: str, *directions: dict[str, object]) -> SimpleNamespace:
    return SimpleNamespace(
        id=nid,
        kind="procedural",
        game_day=day,
        stage_id="stage_2_need",
        payload={"source": source, "directions": list(directions)},
    )


def test_the_table_says_which_axes_hold_one_value_and_which_several():
    one = {a for a, c in COMPOSE.items() if c.holds == "one"}
    several = {a for a, c in COMPOSE.items() if c.holds == "several"}
    assert {"price", "place", "name", "timeline"} <= one
    assert several == {"audience", "channel", "exclusion", "claim", "tone", "competitor"}


def test_shorter_and_warmer_both_bind_and_a_later_no_lifts_its_own_tone():
    """Played: "way too long, make it shorter and warmer" bound only the warm tone (tone held one
    value, so warm replaced short); the corpus labels tone as an axis that holds several."""
    a = _note(
        1, "m1", "rejection", {"axis": "tone", "value": "short"}, {"axis": "tone", "value": "warm"}
    )
    b = _note(2, "m2", "standup", {"axis": "tone", "value": "warm", "do": False})
    assert [(d.value, d.do) for d in fold([a]).directions] == [("short", True), ("warm", True)]
    assert [(d.value, d.do) for d in fold([a, b]).directions] == [("short", True), ("warm", False)]


def test_two_audiences_bind_side_by_side_and_a_restatement_takes_its_place():
    flower = {"axis": "audience", "value": "flower sellers"}
    vendors = {"axis": "audience", "value": "farmers-market vendors"}
    both = fold([_note(1, "m1", "standup", flower), _note(2, "m2", "decision", vendors)])
    assert [d.value for d in both.directions] == ["flower sellers", "farmers-market vendors"]
    busiest = {"axis": "audience", "value": "the busiest flower sellers"}
    narrowed = fold([_note(1, "m1", "standup", flower), _note(2, "m2", "decision", busiest)])
    assert [d.value for d in narrowed.directions] == ["the busiest flower sellers"]
    assert narrowed.directions[0].replaced == "speak to flower sellers"


def test_a_later_price_replaces_the_earlier_one_and_channels_add_up():
    a = _note(1, "m1", "standup", {"axis": "price", "value": "", "amount": 12.0})
    b = _note(2, "m2", "rejection", {"axis": "price", "value": "", "amount": 15.0})
    c = _note(3, "m3", "standup", {"axis": "channel", "value": "whatsapp"})
    d = _note(4, "m4", "standup", {"axis": "channel", "value": "partner referrals"})
    lines = [x.line() for x in fold([a, b, c, d]).directions]
    assert lines == [
        "price $15 a month",
        "reach customers through whatsapp",
        "reach customers through partner referrals",
    ]


@pytest.mark.parametrize("amount", [1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 12.0, 40.0])
def test_premium_and_cheap_never_bind_the_same_price(amount):
    base = Direction(axis="price", value="", amount=amount, period="unit", unit="knife")
    kw = {"base": base, "customer": "chefs", "stage": "stage_3_go"}
    (hi,), (lo,) = option_directions("go.premium", **kw), option_directions("go.cheap", **kw)
    assert (lo.amount or 0) < amount < (hi.amount or 0), (lo.line(), hi.line())


def test_support_steps_take_only_support_channels():
    ads = Direction(axis="channel", value="paid ads")
    whatsapp = Direction(axis="channel", value="whatsapp")
    art = {"support_workflow": ["Answer each farmer within the hour"]}
    assert not is_support_channel("paid ads") and is_support_channel("a named person on support")
    assert not applies("ops", ads, art) and applies("ops", whatsapp, art)
    assert applies("marketer", ads, {"gtm_channels": []})


def test_the_rival_and_the_venture_are_different_slots_no_rival_name_in_what_binds():
    base = Direction(axis="price", value="", amount=40.0)
    kw = {"base": base, "customer": "flower sellers", "stage": "stage_3_go"}
    flank = option_directions("go.flank", **kw)
    confront = option_directions("go.confront", **kw)
    assert flank[0].value == "the flower sellers the big players ignore"
    assert "ignore" in flank[0].value and confront[0].axis == "scope"


def test_an_audience_also_left_out_and_a_price_under_a_floor_are_conflicts_with_a_fix():
    floor = Direction(axis="price", value="", amount=30.0, op="min", memory_id="m1")
    under = Direction(axis="price", value="", amount=20.0, memory_id="m2")
    salons = Direction(axis="audience", value="hair salons", memory_id="m3")
    no_salons = Direction(axis="exclusion", value="salons", do=False, memory_id="m4")
    found = conflicts([floor, under, no_salons, salons])
    assert len(found) == 2
    assert {c.drop_memory_id for c in found} == {"m1", "m4"}  # the older of each pair
    assert all("drop “" in c.line for c in found)
    assert conflicts([floor, Direction(axis="price", value="", amount=35.0)]) == []


def test_the_fork_after_a_named_audience_keeps_it_and_the_gate_finds_no_drift(new_session):
    """The flower sellers stand through the next fork: the depth option narrows them (the
    busiest flower sellers), it never binds another audience in their place."""
    s = new_session(pitch="Cold-storage lockers for farmers-market vendors", seed=23)
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    s.give(StandupReply, "Focus on the flower sellers")
    while s.state.phase != "fork":
        s.give(Approve if s.state.phase == "gate" else RunStage)
    cards = {o.rule_id: o.binds for o in s.state.dilemma.options}
    assert any("speak to" in b for b in cards.values()), cards
    for rule, binds in cards.items():
        if "speak to" in binds:
            assert "flower sellers" in binds, (rule, binds)
    run = s.state.current
    assert not [v for v in run.rubric.violations if v["axis"] == "audience"]


def test_an_option_that_replaces_a_named_price_says_so_on_its_card(new_session):
    s = new_session(pitch="Knife sharpening for home cooks", seed=42)
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    s.give(StandupReply, "Price it at $3 a knife")
    while s.state.phase != "ended":
        st = s.state
        if st.phase == "fork":
            priced = [o for o in st.dilemma.options if o.binds.startswith("price ")]
            if priced:
                assert all("replaces your “price $3 a knife”" in o.binds for o in priced), [
                    o.binds for o in priced
                ]
                assert len({o.binds for o in priced}) == len(priced)
                return
            s.give(Decide, "A")
        elif st.phase == "gate":
            s.give(Approve)
        else:
            s.give(RunStage)
    pytest.fail("no fork with a price option in this venture")


def test_two_channels_both_land_in_the_marketers_plan():
    from engine.language.directions import Binding
    from engine.writing.simulate import simulate_artifact

    from .test_directions import _first_attempt

    ch = [Direction(axis="channel", value="whatsapp"), Direction(axis="channel", value="linkedin")]
    art = simulate_artifact("marketer", **_first_attempt("marketer", Binding(directions=ch)))
    assert check("marketer", art, ch) == []
    said = " ".join(str(c["channel"]) for c in art["gtm_channels"])
    assert "whatsapp" in said and "linkedin" in said


def test_an_option_keeps_the_ceos_channel_and_names_an_exclusion_it_would_lift():
    """The adoption option bound "referrals" over the CEO's "partner referrals", and the ads
    option lifted the CEO's "leave out paid ads", both without a word on the card."""
    from engine.language.composition import keep_named, replaces_named

    ceo = [
        Direction(axis="channel", value="partner referrals", source="standup"),
        Direction(axis="exclusion", value="paid ads", do=False, source="rejection"),
    ]
    kept = keep_named([Direction(axis="channel", value="referrals", source="decision")], ceo)
    assert [d.value for d in kept] == ["partner referrals"]
    ads = [Direction(axis="channel", value="paid ads", source="decision")]
    assert [old.line() for old, _new in replaces_named(ads, ceo)] == ["leave out paid ads"]
    game = [Direction(axis="exclusion", value="paid ads", do=False, source="decision")]
    assert replaces_named(ads, game) == []  # only what the CEO named is said on the card


def test_too_broad_keeps_the_support_step_a_channel_holds():
    """“Too broad” cut the ops lists to their floors and took the support step "… through
    self-serve help" with it: the cut keeps the lines other directions hold."""
    from engine.language.directions import Binding
    from engine.writing.simulate import simulate_artifact

    from .test_directions import _first_attempt

    ds = [
        Direction(axis="channel", value="self-serve help"),
        Direction(axis="scope", value="one core job"),
    ]
    art = simulate_artifact("ops", **_first_attempt("ops", Binding(directions=ds)))
    assert check("ops", art, ds) == []


def test_too_broad_is_cut_after_the_place_the_launch_week_and_the_price_lines():
    """The ops lists were cut to their floors before the place, the launch week and the renewal
    price added their lines, so "too broad" broke on the same artifact that followed it."""
    from engine.language.directions import Binding
    from engine.writing.simulate import simulate_artifact

    from .test_directions import _first_attempt

    ds = [
        Direction(axis="scope", value="one core job"),
        Direction(axis="place", value="Leeds"),
        Direction(axis="timeline", key="launch", value="week 1", amount=1.0),
        Direction(axis="price", value="$129 a month", amount=129.0),
        Direction(axis="channel", value="self-serve help"),
    ]
    art = simulate_artifact("ops", **_first_attempt("ops", Binding(directions=ds)))
    assert check("ops", art, ds) == []
