"""Causes of silent and spurious readings on the build part (issue 43, continued), one test per
cause: a reason said after an own answer, and the number key said right after a figure."""

from __future__ import annotations

import pytest

from engine.language.reader.read import read_text


@pytest.mark.parametrize(
    ("said", "fork", "option"),
    [
        # the reason names the other option's words: it is why not, never a vote for it
        (
            "tech. fashion drops get us in trouble with the brands",
            {"A": "Tech companies doing launches", "B": "Fashion brands doing drops"},
            "A",
        ),
        # the answer names both options' words; the reason names what only one adds
        (
            "dinners. lunchboxes are a different business",
            {"A": "Dinners only", "B": "Dinners + kids' lunchboxes"},
            "A",
        ),
        ("Slack. Teams users don't buy things", {"A": "Slack", "B": "Microsoft Teams"}, "A"),
        (
            "FB groups, merchants see us as competition",
            {"A": "Builders' merchants", "B": "Facebook Marketplace groups"},
            "B",
        ),
        # a statement that is the answer's own words still counts when nothing came before it
        ("the vans are better", {"A": "Station kiosks", "B": "Delivery vans"}, "B"),
    ],
)
def test_a_statement_after_the_answer_is_a_reason_not_a_vote(said, fork, option):
    assert read_text(said, source="own", fork=fork).option == option


def test_a_reason_breaks_no_tie_it_does_not_name():
    fork = {"A": "UK only", "B": "UK + US"}
    assert read_text("uk. we don't have visas", source="own", fork=fork).option is None


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("we can't spend more than £40 to get a landlord", "cac"),  # what the £40 buys
        ("keep the spend under £12k", "burn"),
        ("keep churn under 3%", "churn"),
    ],
)
def test_the_key_said_right_after_a_figure_is_its_key(said, key):
    got = [d for d in read_text(said, source="standup").directions if d.axis == "number"]
    assert [d.key for d in got] == [key]


def test_a_figure_inside_a_quoted_claim_is_the_claims_words_not_a_target():
    r = read_text(
        "pls dont say 'saves 5 hours a week', we've never measured that", source="standup"
    )
    assert [(d.axis, d.do, d.value) for d in r.directions] == [
        ("claim", False, "saves 5 hours a week")
    ]


def test_a_count_said_after_the_week_does_not_date_it():
    r = read_text("Launch week 6 with 20 laptops", source="option")
    assert sorted((d.axis, d.amount) for d in r.directions) == [("number", 20.0), ("timeline", 6.0)]
    r = read_text("we need 40 paying sites by week 12", source="standup")
    assert [d.axis for d in r.directions] == ["number"]  # "by week 12" dates the 40


@pytest.mark.parametrize(
    "said", ["can we make it feel more premium without changing anything", "not the summer one"]
)
def test_a_pronoun_is_no_thing_to_leave_out(said):
    assert not [d for d in read_text(said, source="standup").directions if d.axis == "exclusion"]


def test_of_two_options_refusing_one_picks_the_other():
    fork = {"A": "Glastonbury", "B": "Small festivals in Wales"}
    r = read_text("I'd rather not do Glastonbury. the Welsh ones", source="own", fork=fork)
    assert r.option == "B"


@pytest.mark.parametrize(
    ("said", "fork"),
    [
        ("month 18?", {"A": "Break even at month 12", "B": "Break even at month 24"}),
    ],
)
def test_an_own_answer_that_picks_nothing_and_binds_nothing_is_asked_about(said, fork):
    r = read_text(said, source="own", fork=fork)
    assert (r.option, r.directions, r.asked, r.ask_why) == (None, [], True, "no_option")


def test_a_place_named_in_lowercase_in_an_own_answer_is_the_place():
    r = read_text("uk. we don't have visas", source="own", fork={"A": "UK only", "B": "UK + US"})
    assert [(d.axis, d.value.lower()) for d in r.directions] == [("place", "uk")]
    assert not r.asked


@pytest.mark.parametrize(
    ("said", "values"),
    [
        # a singular word before "and" shares the head after it
        ("through the wine and spirits wholesalers", ["wine and spirits wholesalers"]),
        ("sell to cafes and restaurants", ["cafes", "restaurants"]),
        ("skip the blogs and podcasts", ["blogs", "podcasts"]),
    ],
)
def test_a_list_splits_on_its_items_not_inside_one(said, values):
    assert [d.value for d in read_text(said, source="standup").directions] == values


def test_how_the_work_reads_now_binds_nothing():
    r = read_text("this reads like it's for kids", source="rejection")
    assert not [d for d in r.directions if d.axis == "audience"]


@pytest.mark.parametrize(
    ("option", "axis"),
    [
        ("Dinners only", "scope"),
        ("Digital onboarding checklists", "scope"),
        ("Reminders app", "scope"),
    ],
)
def test_things_that_end_like_doers_are_not_people(option, axis):
    from engine.language.reader.read import option_directions

    assert [d.axis for d in option_directions(option)] == [axis]


def test_an_options_when_is_no_scope():
    from engine.language.reader.read import option_directions

    got = option_directions("Launch week 5, before term")
    assert [(d.axis, d.value) for d in got] == [("timeline", "week 5")]


def test_both_where_both_cannot_be_asks_and_binds_neither():
    r = read_text(
        "both", source="own", fork={"A": "Launch in Clifton", "B": "Launch in Bedminster"}
    )
    assert (r.asked, r.ask_why, r.directions) == (True, "both_cannot", [])


def test_a_figure_said_of_others_in_an_own_answer_sets_no_target():
    fork = {"A": "Couples", "B": "Wedding planners"}
    r = read_text(
        "both but start with planners, they bring 20 weddings each", source="own", fork=fork
    )
    assert not [d for d in r.directions if d.axis == "number"]
    r = read_text("we need 30 paying sites", source="own", fork=fork)
    assert [(d.key, d.amount) for d in r.directions if d.axis == "number"] == [("customers", 30.0)]


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("forget the delivery bit", "delivery"),  # a vague head names its modifier
        ("drop the per-seat thing", "per-seat"),
        ("not homeowners with a garage full of stuff", "homeowners with a garage full of stuff"),
    ],
)
def test_a_vague_head_names_the_word_before_it(said, value):
    got = [d.value for d in read_text(said, source="rejection").directions]
    assert got == [value]


def test_a_name_keeps_its_vague_looking_word():
    r = read_text("keep Library of Things", source="rejection")
    assert [d.value for d in r.directions] == ["Library of Things"]


def test_free_needs_no_currency_and_a_figure_still_does():
    r = read_text("free. always free. we're a charity", source="rejection")
    assert (r.asked, [d.amount for d in r.directions if d.axis == "price"]) == (False, [0.0])
    assert read_text("charge 20 a month", source="rejection").ask_why == "no_currency"


def test_what_comes_after_a_greater_than_sign_is_set_aside():
    fork = {"A": "Launch with 10 songs", "B": "Launch with 50 songs"}
    r = read_text("10 good ones > 50 meh ones", source="own", fork=fork)
    assert r.option == "A"
    assert [(d.amount, d.value) for d in r.directions if d.axis == "number"] == [(10.0, "10")]


@pytest.mark.parametrize("said", ["It should ONLY summarise"])
def test_a_clause_that_says_what_should_change_and_places_nothing_is_unread(said):
    r = read_text(said, source="standup")
    assert [(p.words, p.reason) for p in r.parts if p.kind == "unread"] == [(said, "vague")]


def test_a_count_before_first_is_no_audience_and_an_order_to_ask_people_is_marked_unread():
    """ "Ask ten customers first" bound the audience "Ask ten customers" (and the work wrote "Ask
    Ask ten customers monthly"): a count is no audience, and an order the reader cannot place is
    unread with its reason, never a guess."""
    for said in ("Ask ten customers first", "ask 10 customers first"):
        r = read_text(said, source="standup")
        assert r.directions == []
        assert [(p.kind, p.reason) for p in r.parts] == [("unread", "vague")]
    assert [(d.axis, d.value) for d in read_text("nurses first", source="standup").directions] == [
        ("audience", "nurses")
    ]


def test_a_figure_before_a_noun_is_a_count_not_money_the_player_must_name_a_currency_for():
    for said in ("Soho first. 40 bars in a square mile", "they've each got 50 landlords"):
        r = read_text(said, source="standup")
        assert all(p.reason != "no_currency" for p in r.parts), said
    assert [
        (d.axis, d.value) for d in read_text("charge 40 a visit", source="standup").directions
    ] == [("price", "40 a visit")]
