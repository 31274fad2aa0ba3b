"""The direction reader (engine.language.reader): one parse, vocabulary as data, every word
accounted for, never the opposite of what was said."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import json
import time
from pathlib import Path
from typing import Any

import pytest

from engine.language.reader.read import read_text
from engine.language.reader.utterance import MAX_CHARS, MAX_CLAUSES, lows, parse, tokenize
from engine.language.reader.vocab import VocabError, _check_example, check_examples, vocab
from engine.language.steering import read_directions

GOLDEN = Path(__file__).parents[1] / "data" / "readings_build.jsonl"


def lines(text: str) -> list[str]:
    return [d.line() for d in read_directions(text, source="rejection").directions]


@pytest.mark.parametrize(
    ("said", "binds", "never"),
    [
        # the opposite readings the issue quotes: never bound again
        ("Stop using the name ColdSlot.", ["leave out ColdSlot"], "call it ColdSlot"),
        ("churn of 8% is a fantasy, plan for 2%", ["churn target under 2.0 %"], "8.0 %"),
        (
            "twitch streams are our channel, forget facebook",
            ["reach customers through twitch streams", "leave out facebook"],
            "through facebook",
        ),
        (
            "Drop every mention of routes. Speak to head chefs.",
            ["speak to head chefs", "leave out routes"],
            "centre the work on routes",
        ),
        # the wrong values it quotes
        ("charge 49 a month", ["price $49 a month"], "$135"),
        ("$1.5k a month", ["price $1,500 a month"], "$2 a month"),
        ("$129 once per device", ["price $129 a device"], "a month"),
    ],
)
def test_the_issues_misreadings_read_as_meant(said, binds, never):
    got = lines(said)
    assert sorted(got) == sorted(binds)
    assert not any(never in line for line in got)


@pytest.mark.parametrize(
    ("said", "amount", "currency", "period", "unit", "op"),
    [
        ("twenty quid a box, not thirty", 20, "£", "unit", "box", "eq"),
        ("50 bucks a bag is robbery. Try 20.", 20, "$", "unit", "bag", "eq"),
        ("a fiver a portion, that's the headline", 5, "£", "unit", "portion", "eq"),
        ("1.2k a year per company is fine", 1200, None, "year", None, "eq"),
        ("Free tier?? No. $14.99/month", 14.99, "$", "month", None, "eq"),
        ("£8 a user a month", 8, "£", "month", None, "eq"),
        ("charge per word not per month. 10p a word", 0.10, "£", "unit", "word", "eq"),
        ("€9 per sock, shipping included", 9, "€", "unit", "sock", "eq"),
        ("suggested 25 quid a laptop, never more", 25, "£", "unit", "laptop", "max"),
        ("never go under $25 a box", 25, "$", "unit", "box", "min"),
        ("Make it $35 a box. Actually no, $32", 32, "$", "unit", "box", "eq"),
    ],
)
def test_money_is_read_as_people_write_it_and_keeps_its_currency(
    said, amount, currency, period, unit, op
):
    prices = [d for d in read_text(said, source="standup").directions if d.axis == "price"]
    assert len(prices) == 1, prices
    p = prices[0]
    assert p.amount == pytest.approx(amount)
    assert (p.currency, p.period, p.unit, p.op) == (currency, period, unit, op)


def test_a_figure_with_no_currency_anywhere_is_asked_about():
    r = read_text("we are charging 35 for a plant? in what world. 20 is plenty", source="rejection")
    assert r.asked and r.ask_why == "no_currency"


def test_every_direction_points_at_the_words_it_was_read_from():
    said = "couples not parents, $15 one-off, and no 'dream wedding' language pls"
    r = read_text(said, source="standup")
    spans = {d.axis + ":" + d.value: r.text[d.start : d.end] for d in r.directions}
    assert spans == {
        "audience:couples": "couples",
        "exclusion:parents": "parents",
        "price:$15 a unit": "$15 one-off",
        "exclusion:dream wedding": "dream wedding",
    }


def test_a_time_of_day_is_one_word_not_a_clause_break():
    """ "the mom doing pickup at 3:15 with no plan for dinner" was cut to "mom doing pickup at 3"."""
    r = read_text(
        "our buyer is the mom doing pickup at 3:15 with no plan for dinner", source="standup"
    )
    assert [d.value for d in r.directions] == ["mom doing pickup at 3:15 with no plan for dinner"]


def test_each_clause_is_a_direction_commentary_or_unread_with_a_reason():
    said = "price it at $12 a week, start with law firms and hire a barista. Who is this for?"
    r = read_text(said, source="rejection")
    kinds = [(p.kind, p.words) for p in r.parts]
    assert kinds == [
        ("direction", "price it at $12 a week"),
        ("direction", "start with law firms"),
        ("unread", "hire a barista"),
        ("direction", "Who is this for"),  # the venture's own customer, as the session binds it
    ]
    unread = next(p for p in r.parts if p.kind == "unread")
    assert unread.reason == "vague" and "hire a barista" in unread.teach_back


def test_an_own_answer_binds_the_option_it_picks_and_the_words_over_it():
    fork = {"A": "Commuters, $499 kit", "B": "Delivery riders, $399 kit"}
    r = read_text("riders, but 449", source="own", fork=fork)
    assert r.option == "B"
    got = {(d.axis, d.value, d.amount) for d in r.directions}
    assert got == {("audience", "Delivery riders", None), ("price", "$449 a kit", 449.0)}
    changed = read_text("B. actually no, A", source="own", fork={"A": "£12 a lesson", "B": "£40"})
    assert changed.option == "A"


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        # a generic verb ("use", "go", "switch to") takes its axis from what it names
        ("forget Instagram, go LinkedIn", {"-exclusion:Instagram", "+channel:LinkedIn"}),
        ("no Facebook, use Reddit", {"-exclusion:Facebook", "+channel:Reddit"}),
        ("instead of TikTok, use podcasts", {"-exclusion:TikTok", "+channel:podcasts"}),
        ("switch to dentists", {"+audience:dentists"}),
        ("don't use Facebook", {"-exclusion:Facebook"}),
        # and names nothing when what it names has no known kind, or is said of others
        ("use plain words", {"+tone:plain"}),
        ("they use Facebook a lot", set()),
        # a negated verb leaves its object out
        ("stop targeting students", {"-exclusion:students"}),
        ("never mention AI", {"-exclusion:AI"}),
        ("avoid saying cheapest", {"-claim:cheapest"}),
    ],
)
def test_a_verb_reads_by_what_it_names_and_a_negated_verb_leaves_it_out(said, binds):
    r = read_text(said, source="standup")
    assert {f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in r.directions} == binds


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        # a removal under a negation keeps its thing: never read as leaving it out
        ("don't drop the students", set()),
        ("I'd never leave out parents", set()),
        ("never drop the free tier", set()),
        ("not just vets, pet shops too", {"+audience:not just vets", "+audience:pet shops"}),
        ("no discounts ever", {"-exclusion:discounts"}),
        # a change of mind: the bare value after it replaces the one said before
        ("call it Spark. no wait, Bolt", {"+name:Bolt"}),
        ("start in Leeds. actually York", {"+place:York"}),
        ("call it Spark. Bolt is taken", {"+name:Spark"}),
        # a move by a count of weeks is a move, never that week; a reported date is no launch
        ("two weeks earlier if we can, exams start week 8", {"+timeline:two weeks earlier"}),
        ("3 weeks later", {"+timeline:3 weeks later"}),
        ("exams start week 5", set()),
        ("the fair is in week 9, launch week 6", {"+timeline:week 6"}),
        ("Essen game fair is week 16, we launch there", {"+timeline:week 16"}),
    ],
)
def test_negation_scope_changes_of_mind_and_moves_never_bind_the_opposite(said, binds):
    r = read_text(said, source="standup")
    assert {f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in r.directions} == binds


@pytest.mark.parametrize(
    ("said", "amount", "op"),
    [
        # the figure set against another is never the one bound
        ("$45 rather than $30", 45, "eq"),
        ("$45 instead of $30", 45, "eq"),
        # a bound before or after the figure, each a row in words.json
        ("max $40 a month", 40, "max"),
        ("up to $25 a box", 25, "max"),
        ("£8 minimum", 8, "min"),
        ("no less than $20", 20, "min"),
        ("$15 and up", 15, "min"),
    ],
)
def test_a_figure_set_aside_never_binds_and_bounds_read_either_side(said, amount, op):
    r = read_text(said, source="standup")
    assert [(d.axis, d.amount, d.op) for d in r.directions] == [("price", amount, op)]


def test_a_week_set_aside_never_binds():
    r = read_text("launch week 6 rather than week 10", source="standup")
    assert [(d.axis, d.amount) for d in r.directions] == [("timeline", 6)]


def test_a_reported_date_is_commentary_not_a_question_of_currency():
    r = read_text("exams start week 5", source="standup")
    assert [(p.kind, p.reason) for p in r.parts] == [("commentary", "")]


def test_a_frame_rows_kind_is_checked_at_load(tmp_path, monkeypatch):
    import engine.language.reader.vocab as vocab_module

    bad = {"rows": [{"cue": "use", "axis": "channel", "do": True, "kind": "x", "example": "use"}]}
    (tmp_path / "frames.json").write_text(json.dumps(bad), encoding="utf-8")
    monkeypatch.setattr(vocab_module, "_HERE", tmp_path)
    with pytest.raises(VocabError, match="kind is 'first', 'only' or 'known'"):
        vocab_module._rows("frames.json", "rows", ("axis", "do"))


@pytest.mark.parametrize(
    ("said", "fork", "option"),
    [
        # a reason after the answer names words of the other option: it does not vote
        ("kiosks. the vans cost too much", {"A": "Station kiosks", "B": "Delivery vans"}, "A"),
        # a word under "won't" counts against its option
        ("stalls. buyers won't wait for vans", {"A": "Market stalls", "B": "Delivery vans"}, "A"),
        # "I think X" is the answer itself
        ("whichever is cheaper to run. I think Leeds", {"A": "York", "B": "Leeds"}, "B"),
    ],
)
def test_an_own_answer_is_picked_by_its_answer_not_its_reason(said, fork, option):
    assert read_text(said, source="own", fork=fork).option == option


def test_people_are_read_on_a_phrases_head_not_any_word_in_it():
    from engine.language.reader.reads import is_people
    from engine.language.reader.utterance import tokenize

    def people(phrase: str) -> bool:
        return is_people([t for t in tokenize(phrase) if t.is_word], vocab())

    assert people("parents of teens") and people("nurses on night shifts")
    assert not people("swap events at schools") and not people("Lots of farmers")
    r = read_text(
        "No religious language please. Lots of farmers aren't churchgoers.", source="standup"
    )
    assert [d.axis for d in r.directions] == ["exclusion"]


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        # a description of the venture or an idiom leaves nothing out
        ("It's a fun night out, not a West End show.", set()),
        ("Nobody's paying more than £89, camera or no camera", {"+price:£89 a unit"}),
        ("it's for commuters, not tourists", {"+audience:commuters", "-exclusion:tourists"}),
        # "through" / "via" name a channel only when it is one, or a name
        ("whichever gets more best men through the door", set()),
        ("sell via the Trussell network", {"+channel:Trussell network"}),
        ("landlords, via letting agents", {"+audience:landlords", "+channel:letting agents"}),
        # a capitalised neighbour of a refused thing is a place only when it is one
        (
            "No task tracking, no Jira sync. Ugh.",
            {"-exclusion:task tracking", "-exclusion:Jira sync"},
        ),
    ],
)
def test_descriptions_idioms_and_unknown_kinds_bind_nothing(said, binds):
    r = read_text(said, source="rejection")
    assert {f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in r.directions} == binds


@pytest.mark.parametrize(
    ("said", "fork", "binds"),
    [
        ("neither. Odd Sock Club", {"A": "Sock Drawer", "B": "Pair Up"}, {"+name:Odd Sock Club"}),
        ("neither. York has more firms", {"A": "Leeds", "B": "Hull"}, {"+place:York"}),
        (
            "neither, the office manager buys this",
            {"A": "Receptionists", "B": "Facilities managers"},
            {"+audience:office manager"},
        ),
        # nothing after it, a deferral or a hand-over: no answer of its own
        ("neither yet", {"A": "Leeds", "B": "Hull"}, set()),
        ("neither, I'll think about it", {"A": "Nightbus", "B": "Fright Fare"}, set()),
    ],
)
def test_the_noun_phrase_after_neither_is_the_players_own_answer(said, fork, binds):
    r = read_text(said, source="own", fork=fork)
    assert {f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in r.directions} == binds


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        # an order's pronoun stands for the noun phrase the clause before opens with
        (
            "Who buys this? Grandparents buying a present. Write it for them.",
            {"+audience:Grandparents buying a present"},
        ),
        (
            "the IT setup checklist is the bit they want. centre it on that",
            {"+scope:IT setup checklist"},
        ),
        ("it's the practice manager. write everything for them.", {"+audience:practice manager"}),
        # a statement's pronoun stands for nothing to bind
        ("£22 a kit. people can get a takeaway for that.", {"+price:£22 a kit"}),
    ],
)
def test_an_orders_pronoun_binds_what_it_stands_for(said, binds):
    r = read_text(said, source="standup")
    assert {f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in r.directions} == binds
    for d in r.directions:  # the words it points at are the antecedent's, as written
        assert r.text[d.start : d.end] in said


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        ("landlords are our customers", {"+audience:landlords"}),
        ("the funders are the ones we need to convince", {"+audience:funders"}),
        # a refused pointer leaves its people out, and the clause after it names who is meant
        (
            "The volunteers aren't the customer. The food bank coordinators are.",
            {"-exclusion:volunteers", "+audience:food bank coordinators"},
        ),
        (
            "the learners aren't who we pitch to. it's the employers who'll hire them",
            {"-exclusion:learners", "+audience:employers"},
        ),
    ],
)
def test_who_the_customer_is_said_by_pointing_at_it(said, binds):
    r = read_text(said, source="standup")
    assert {f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in r.directions} == binds


@pytest.mark.parametrize(
    ("said", "fork", "option", "binds"),
    [
        # "not yet" picks the one option that stays as things are, read as a place
        (
            "not yet",
            {"A": "Expand to Bath in week 10", "B": "Stay Bristol-only"},
            "B",
            {"+place:Bristol"},
        ),
        # "the early one" picks by the options' figures; a bare "sooner" is a move, and asks
        (
            "the early one",
            {"A": "Launch week 6", "B": "Launch week 12"},
            "A",
            {"+timeline:week 6"},
        ),
        ("sooner", {"A": "Launch week 12", "B": "Launch week 18"}, None, None),
    ],
)
def test_comparatives_and_not_yet_pick_an_option(said, fork, option, binds):
    r = read_text(said, source="own", fork=fork)
    assert r.option == option
    if binds is not None:
        assert {f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in r.directions} == binds


@pytest.mark.parametrize(
    ("said", "fork", "binds"),
    [
        # a bound the player sets limits the option's price; it does not replace it
        (
            "B, and don't ever go below $150 even for pilots",
            {"A": "$99 a month", "B": "$199 a month"},
            {("price", 199.0, "eq"), ("price", 150.0, "min")},
        ),
        # unless the option's price breaks it: then the bound stands alone
        (
            "the fitted one, but we can't go over 600",
            {"A": "$399 DIY kit", "B": "$649 fitted by a partner bike shop"},
            {("price", 600.0, "max")},
        ),
    ],
)
def test_a_bound_limits_the_options_price_and_replaces_it_only_when_broken(said, fork, binds):
    r = read_text(said, source="own", fork=fork)
    assert {(d.axis, d.amount, d.op) for d in r.directions} == binds


@pytest.mark.parametrize(
    ("said", "value"),
    [("So: adults only, plain tone", "adults"), ("ok, aim at night nurses", "night nurses")],
)
def test_a_value_never_starts_with_a_discourse_word(said, value):
    """ "So: adults only" binds the adults, not "So: adults" (the words a brief would quote)."""
    got = [d.value for d in read_text(said, source="standup").directions if d.axis == "audience"]
    assert got == [value]


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        # a fact about other people is a reason: its figure is theirs, never ours to bind
        ("anything but $49, every competitor is at $49", ["-price:$49 a unit"]),
        ("most parents won't download another app, they have 4 already", []),
        ("they visit every clinic monthly at $20 a visit", []),
        ("our competitor charges $30", []),
        # reported speech is someone else's words: commentary, never bound
        ("my mum said to aim at students", []),
        ("a customer told me to drop the app", []),
        ("my cofounder thinks we should charge $20", []),
        ("I think we should charge $20", ["+price:$20 a unit"]),  # the player's own words
        # a hedge or a phrase of chatter is no value
        ("maybe? not sure", []),
        ("fair enough", []),
        # a count of our work is no price ("we refurb 50 a month"); a figure proposed still is
        ("we can refurb about 50 a month", []),
        ("I reckon 15 a month", ["+price:15 a month"]),
        # "any- but / other than X": X is left out, never the audience or channel
        ("anyone but students", ["-exclusion:students"]),
        ("anything other than TikTok", ["-exclusion:TikTok"]),
    ],
)
def test_others_facts_and_any_but_never_bind_a_thing_to_do(said, binds):
    got = read_text(said, source="standup").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        ("lose the 'number one' claim", ["-claim:number one"]),
        ("remove the 'best value' slogan", ["-claim:best value"]),
        ("drop the 'guaranteed' line", ["-claim:guaranteed"]),
        ("get rid of the 'lost sock' jokes", ["-exclusion:'lost sock' jokes"]),
    ],
)
def test_quoted_words_before_a_claim_noun_are_the_claim_and_quotes_stay_paired(said, binds):
    """The quoted words of "the 'X' claim / line / slogan" are the claim, whatever they say; a
    value that keeps the noun after a quote keeps the quote that opened it."""
    got = read_text(said, source="rejection").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        ("list it on Etsy", ["+channel:Etsy"]),
        ("market it to teachers", ["+audience:teachers"]),
        ("take it to Leeds", ["+place:Leeds"]),
        ("bring it to market", []),  # a value of no known kind binds nothing
    ],
)
def test_after_any_verb_and_its_object_a_preposition_binds_its_value_by_kind(said, binds):
    got = read_text(said, source="rejection").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("let's go with Pawsome as the name", "Pawsome"),
        ("go with Second Chance Piano as the brand", "Second Chance Piano"),
        ("Go Green as the name", "Go Green"),
    ],
)
def test_a_pointer_points_at_the_noun_phrase_not_the_request_before_it(said, name):
    got = read_text(said, source="rejection").directions
    assert [(d.axis, d.value) for d in got] == [("name", name)]


@pytest.mark.parametrize(
    ("said", "axis"),
    [
        ("call it something catchier", "the name"),
        ("sell through whoever will have us", "where it sells"),
        ("aim at them", "who it speaks to"),
    ],
)
def test_a_cue_with_no_value_is_unread_says_which_axis_and_is_asked(said, axis):
    """A cue the reader knows with a value it cannot bind (an indefinite, a pronoun) binds
    nothing, never "something" or "whoever": the part is unread, its teach-back names the axis
    in words, and the reader asks."""
    r = read_text(said, source="standup")
    assert r.directions == [] and r.asked
    (part,) = [p for p in r.parts if p.kind == "unread"]
    assert part.reason == "no_value" and f"says to change {axis} but not to what" in part.teach_back


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        # what happened before is a fact, a reason: its figure, place or name is never bound
        ("last yr we charged $40 and nobody bought lol", []),
        ("we used to sell them at 25 quid a box tbh", []),
        ("i grew up in Leeds", []),
        ("we already tried tiktok, it flopped", []),
        ("honestly we've launched in york before", []),
        # ... unless it says what changes now, or tells a decision
        ("we used to charge £25, now £30", ["+price:£30 a unit"]),
        ("we renamed it to 'Borrow Box' last night", ["+name:Borrow Box"]),
        ("i said £20 not £40", ["+price:£20 a unit"]),
        # what someone the player knows does is a fact about them
        ("my sister pays £12 a month for hers", []),
        ("my mate runs a cafe in York and loves it", []),
        ("my plan is £20 a box", ["+price:£20 a box"]),  # the player's own plan still binds
        # what others charge, what the player heard, the money we hold: facts, not our price
        ("gousto charges 30 quid a box", []),
        ("the shops near me sell it for 20 quid", []),
        ("most gyms charge £40 a month tbh", []),
        ("i heard tesco sells it at £5", []),
        ("apparently nurses hate apps", []),
        ("we have £5k in the bank rn", []),
        ("we spent $2,000 on ads, charge $20", ["+price:$20 a unit"]),
        ("sell it for 20 quid", ["+price:£20 a unit"]),  # an order still binds
        ("we charge £20 a box", ["+price:£20 a box"]),  # our strategy still binds
        # a self-description binds a scope only when set against something
        ("we're a charity so money is tight", []),
        ("we're a startup lol", []),
        ("we r a listings board now", []),  # (a typo: no cue, nothing guessed)
        ("we're a listings board now", ["+scope:listings board"]),
        ("we are a coop, not a company", []),
    ],
)
def test_facts_told_of_the_past_of_others_or_of_us_bind_nothing(said, binds):
    got = read_text(said, source="standup", unit="unit").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        # a claim is what is said of it, not its subject
        ("dont claim it cures colds pls", ["-claim:cures colds"]),
        ("dont say were the cheapest", ["-claim:cheapest"]),
        ("don't say that it's vegan", ["-claim:vegan"]),
        ("stop claiming its organic tbh", ["-claim:organic"]),
        # a figure after a claim cue is the claim's words, never a target or a thing to leave out
        ("dont promise 24 hour delivery", ["-claim:24 hour delivery"]),
        ("never promise 100 customers", ["-claim:100 customers"]),
        ("don't claim 99% accuracy", ["-claim:99% accuracy"]),
        ("don't promise 500", ["-claim:500"]),
        # and so is a week it holds: played, this bound "launch: week 4"
        ("we cant promise results in 4 weeks", ["-claim:results in 4 weeks"]),
        # a quoted claim runs to its closing quote, whatever words are inside it
        ("lose the 'best in class' line", ["-claim:best in class"]),
        ("drop the 'lost sock' jokes", ["-exclusion:'lost sock' jokes"]),
        ("pilot at my kids' school in Leeds", ["+place:Leeds"]),  # an apostrophe, no quote
        # channel and scope said as people say them
        ("advertise in the parish newsletter", ["+channel:parish newsletter"]),
        ("stock it in corner shops", ["+channel:corner shops"]),
        ("keep it to cakes", ["+scope:cakes"]),
        ("it should just do bookings", ["+scope:bookings"]),
        ("make it about night nurses", ["+audience:night nurses"]),
        # played: both clauses were commentary and the redo kept "carers who cancel"
        (
            "nah its not about cancellations, its about ppl with big dogs",
            ["-exclusion:cancellations", "+audience:people with big dogs"],
        ),
        ("its about the big dogs", ["+scope:the big dogs"]),
        # a bare "too …" after a thing left out says why, and moves no price of ours
        ("forget london, too pricey", ["-exclusion:London"]),
        ("skip the gyms, too busy", ["-exclusion:gyms"]),
        ("too pricey", ["+price:lower price"]),
        # who and where, said as people say it
        ("we should be selling to hr teams", ["+audience:hr teams"]),
        ("mainly students tbh", ["+audience:students"]),
        ("talk to cafe owners directly", ["+audience:cafe owners"]),
        ("reach out to hairdressers", ["+audience:hairdressers"]),
        ("approach garden centres", ["+channel:garden centres"]),
        ("approach it differently", []),
        # a thing dismissed as not worth doing is left out
        ("facebook ads are a money pit tbh", ["-exclusion:facebook ads"]),
        ("weekend delivery is not worth the hassle", ["-exclusion:weekend delivery"]),
        ("instagram doesnt work for us", ["-exclusion:instagram"]),
        ("the stigma is real", []),  # a reason, not a dismissal
        # a contraction typed without its apostrophe reads as the contraction
        ("we shouldnt promise it stops ALL leaks", ["-claim:stops ALL leaks"]),
        ("we cant say organic", ["-claim:organic"]),
    ],
)
def test_claims_channels_and_scope_read_by_their_grammar(said, binds):
    got = read_text(said, source="standup").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        # a negation inside a phrase that affirms what follows is never bound as its opposite
        ("why not nurses?", ["+audience:nurses"]),
        ("why not try insta", []),  # (no known channel: nothing guessed, never left out)
        ("why not try instagram tbh", ["+channel:instagram"]),
        ("why not start in leeds", ["+place:Leeds"]),
        ("why arent we on tiktok", ["+channel:tiktok"]),
        ("no harm in trying tiktok", ["+channel:tiktok"]),
        ("nothing wrong with students", ["+audience:students"]),
        ("dont forget the nurses", ["+audience:nurses"]),
        ("no reason not to aim at nurses", ["+audience:nurses"]),
        ("why not just charge £20", ["+price:£20 a unit"]),
        # a plain negation still leaves out
        ("dont target nurses", ["-exclusion:nurses"]),
    ],
)
def test_a_negation_that_affirms_never_binds_the_opposite(said, binds):
    got = read_text(said, source="standup", unit="unit").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        # a known place typed in lowercase is the place as it is spelled, on every path a
        # capitalised one takes
        ("start in leeds pls", ["+place:Leeds"]),
        ("pilot in glasgow west end first", ["+place:Glasgow West End"]),
        ("only bradford for now", ["+place:Bradford"]),
        ("manchester only tbh", ["+place:Manchester"]),
        ("not in london yet", ["-place:London"]),
        # ... but a place that is also a common word in lowercase is not guessed
        ("give us a discount", []),
        ("bath products only", ["+scope:bath products"]),
    ],
)
def test_a_known_place_in_lowercase_is_a_place_and_a_common_word_is_not(said, binds):
    got = read_text(said, source="standup").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        ("perhaps nurses tbh", ["+audience:nurses"]),
        ("maybe instagram pls", ["+channel:instagram"]),
        ("prob aim at night nurses idk", ["+audience:night nurses"]),
    ],
)
def test_a_hedge_or_filler_either_side_is_never_part_of_the_value(said, binds):
    got = read_text(said, source="standup").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize(
    "said", ["only the cheap ones", "aim at the younger ones pls", "just the small ones tbh"]
)
def test_ones_that_name_nothing_bind_nothing_and_are_unread_with_a_reason(said):
    r = read_text(said, source="standup")
    assert r.directions == []
    assert [p.kind for p in r.parts] == ["unread"]
    assert r.parts[0].reason in ("pronoun", "no_value")


@pytest.mark.parametrize(
    "said", ["lean into the nostalgia", "emphasise the warranty", "double the customer target"]
)
def test_a_request_the_reader_cannot_place_is_unread_and_asked_never_silent(said):
    """Shaped as a request (a bare word, then an object or an article) whatever its verb: when
    nothing binds, the part is unread with a reason and the reader asks; it never vanishes as
    commentary."""
    r = read_text(said, source="standup")
    assert r.directions == [] and r.asked
    assert [(p.kind, p.reason) for p in r.parts] == [("unread", "vague")]


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        ("the name should be Pawsome", ["+name:Pawsome"]),
        ("Pawsome is the name", ["+name:Pawsome"]),
        ("switch the name to Pawsome", ["+name:Pawsome"]),
        ("it should be called Pawsome", ["+name:Pawsome"]),
        ("the brand is Pawsome now", ["+name:Pawsome"]),
        # never the opposite: a name disliked or negated is refused
        ("I hate the name Spark", ["-name:Spark"]),
        ("not Spark as the name", ["-name:Spark"]),
    ],
)
def test_a_clause_about_the_name_names_it_by_its_capitalised_words(said, binds):
    got = read_text(said, source="rejection").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        ("we sell to nurses", ["+audience:nurses"]),
        ("we'll focus on repairs", ["+scope:repairs"]),
        ("they sell to nurses", []),  # others' business: a fact
        ("why are we selling to tenants??", ["-exclusion:tenants"]),  # asking why: left out
    ],
)
def test_our_own_strategy_said_as_a_statement_binds(said, binds):
    got = read_text(said, source="rejection").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


@pytest.mark.parametrize("said", ["£10 cheaper", "$5 more", "$10 off the first box"])
def test_money_said_as_a_move_is_never_bound_as_the_price(said):
    """ "£10 cheaper" bound a price of £10: a figure of money followed by a word of difference is
    a move by that much, never the price; the reader asks instead of guessing the base."""
    r = read_text(said, source="rejection", unit="box")
    assert not any(d.axis == "price" and d.amount is not None for d in r.directions)
    assert r.asked and r.ask_why == "price_amount"


def test_not_a_penny_more_bounds_the_figure_before_it_and_is_no_unread_part():
    r = read_text("$20, not a penny more", source="rejection", unit="box")
    assert [(d.axis, d.amount, d.op) for d in r.directions] == [("price", 20.0, "max")]
    assert r.unread == []


@pytest.mark.parametrize(
    ("said", "binds"),
    [
        ("the buyer should be the practice manager", ["+audience:practice manager"]),
        ("nurses should be the audience", ["+audience:nurses"]),
        ("the target market is small gyms", ["+audience:small gyms"]),
        ("customers: dog owners", ["+audience:dog owners"]),
        ("channel: Instagram", ["+channel:Instagram"]),
        ("place: Leeds", ["+place:Leeds"]),
        ("scope: the app only", ["+scope:the app"]),
        ("the customer shouldn't be the patient", ["-exclusion:patient"]),
    ],
)
def test_a_role_is_said_with_a_modal_a_colon_or_a_compound_role_noun(said, binds):
    got = read_text(said, source="rejection").directions
    assert [f"{'+' if d.do else '-'}{d.axis}:{d.value}" for d in got] == binds


def test_a_figure_alone_and_questioned_is_refused():
    r = read_text("£149?? Nobody's paying more than £89", source="rejection")
    assert [(d.amount, d.op, d.do) for d in r.directions] == [(89.0, "max", True)]


def test_a_channel_is_known_in_the_singular_or_plural_and_x_first_orders_not_picks():
    r = read_text("grow through farm fairs", source="own", fork={"A": "Ads", "B": "Shops"})
    assert [(d.axis, d.value) for d in r.directions] == [("channel", "farm fairs")]
    fork = {"A": "Launch on Product Hunt in week 3", "B": "Private beta in week 3, then week 8"}
    assert read_text("beta first", source="own", fork=fork).option == "B"
    assert read_text("first", source="own", fork=fork).option == "A"


def test_the_vocabulary_is_checked_at_load():
    assert len(vocab().frames) > 50
    _check_example("x", "call it", "call it Sockrates")
    with pytest.raises(VocabError, match="does not hold the cue"):
        _check_example("frames.json rows[0]", "call it", "name it Sockrates")


def test_every_shipped_rows_example_holds_its_cue():
    check_examples(vocab())  # the data check a start no longer runs: here, on every row
    v = vocab()
    bad_cue = dataclasses.replace(v.tone[0], row={**v.tone[0].row, "example": "nothing here"})
    with pytest.raises(VocabError, match=r"tone\[0\]: example 'nothing here' does not hold"):
        check_examples(dataclasses.replace(v, tone=[bad_cue]))
    suffix = next(c for c in v.numbers + v.money if c.row.get("suffix"))
    bad_figure = dataclasses.replace(suffix, row={**suffix.row, "example": "no figure"})
    with pytest.raises(VocabError, match="has no figure"):
        check_examples(dataclasses.replace(v, numbers=[bad_figure], money=[]))


def test_the_vocabulary_reads_each_file_once_and_tokenises_no_example(monkeypatch):
    import engine.language.reader.vocab as vocab_module

    read: list[str] = []
    real = Path.read_text

    def counted(self: Path, *args: object, **kwargs: object) -> str:
        read.append(self.name)
        return real(self, *args, **kwargs)

    def no_example_check(*args: object) -> None:
        raise AssertionError("a start checked an example")

    monkeypatch.setattr(Path, "read_text", counted)
    monkeypatch.setattr(vocab_module, "_check_example", no_example_check)
    monkeypatch.setattr(vocab_module, "vocab", functools.cache(vocab_module.vocab.__wrapped__))
    vocab_module._data.cache_clear()
    assert len(vocab_module.vocab().tone) == len(vocab().tone)
    assert sorted(read) == ["frames.json", "places.json", "words.json"]


@pytest.mark.parametrize(
    "said",
    [
        "a" * 1_000_000,
        "[bold]price[/bold] it at $12 \x1b[2J\x1b]8;;http://x\x07 a month",
        "\x00\x01 nul and controls \x7f",
        "价格每月十二美元，面向护士 🎉🎉🎉 Цена 12 долларов",
        ", ".join(f"drop thing{i}" for i in range(100)),
        "$" * 5000 + "£€" * 3000,
    ],
)
def test_bad_input_is_inert_clipped_and_read_within_its_bound(said):
    started = time.perf_counter()
    r = read_text(said, source="rejection")
    spent = time.perf_counter() - started
    assert len(r.text) <= MAX_CHARS and r.clipped == (len(said) > MAX_CHARS)
    assert len(parse(said).clauses) <= MAX_CLAUSES
    assert "\x1b" not in r.summary() and "\x00" not in r.summary()
    assert spent < 5.0  # a generous bound for a loaded machine: a reading never runs away


def test_the_golden_readings_have_not_changed():
    """Every build-part corpus input's reading (never the held-out part: its phrasings would show
    on every diff). A changed reading shows as a diff; if the change is meant, regenerate with
    `.venv/bin/python -m bench.reading --write-golden tests/data/readings_build.jsonl`."""
    rows = [json.loads(x) for x in GOLDEN.read_text(encoding="utf-8").splitlines()]
    assert len(rows) > 400
    want, got = [], []
    for row in rows:
        now = read_text(row["text"], source=row["source"], fork=row["fork"], unit=row["unit"])
        want.append(f"{row['id']} {row['text']!r}: {row['reading']}")
        got.append(f"{row['id']} {row['text']!r}: {now.summary()}")
    diff = "\n".join(difflib.unified_diff(want, got, "golden", "now", lineterm="", n=0))
    assert not diff, diff


def test_headless_play_lists_each_reading_and_strict_reading_stops_before_binding(new_session):
    from engine.errors import InputError
    from engine.play.headless import Plan, play

    said = "Speak to ward nurses, not students, and hire a barista"
    s = new_session(pitch="Meal kits for busy nurses in Leeds", seed=7)
    readings: list[dict[str, Any]] = []
    play(s, Plan().say("reject", "stage_2_need", said), readings)
    assert readings[0]["said"] == said
    assert [(d["axis"], d["words"]) for d in readings[0]["directions"]] == [
        ("audience", "ward nurses"),
        ("exclusion", "students"),
    ]
    assert readings[0]["unread"][0]["words"] == "hire a barista"
    strict = new_session(pitch="Meal kits for busy nurses in Leeds", seed=7)
    with pytest.raises(InputError, match="binds nothing"):
        play(strict, Plan(strict_reading=True).say("reject", "stage_2_need", said))
    assert not any(e.type == "ARTIFACT_REJECTED" for e in strict.events())


def test_a_script_can_give_directions_as_data():
    from engine.errors import InputError

    given = read_directions(
        '[{"axis": "price", "value": "$20 a month"}, {"axis": "exclusion", "value": "students"}]',
        source="rejection",
    ).directions
    assert [(d.line(), d.amount, d.do) for d in given] == [
        ("price $20 a month", 20.0, True),
        ("leave out students", None, False),
    ]
    with pytest.raises(InputError, match="bad axis"):
        read_directions('{"axis": "colour", "value": "teal"}', source="rejection")
    with pytest.raises(InputError, match="needs a figure"):
        read_directions('{"axis": "price", "value": "cheap"}', source="rejection")


@pytest.mark.parametrize(
    ("said", "binds", "unread"),
    [
        # played: "not monthly" left every "monthly review" out of the work, and "pricing" was
        # unread as a thing no cue places
        ("ok but pricing - $35 a visit, not monthly", ["price $35 a visit"], []),
        ("$35 a visit, not per month", ["price $35 a visit"], []),
        ("drop the monthly newsletter", ["leave out monthly newsletter"], []),
    ],
)
def test_a_refused_period_says_how_a_price_is_charged_and_an_axis_named_is_its_label(
    said, binds, unread
):
    read = read_directions(said, source="standup")
    assert [d.line() for d in read.directions] == binds
    assert [p.words for p in read.parts if p.kind == "unread"] == unread


@pytest.mark.parametrize(
    ("said", "week"),
    [
        ("soft launch but a week earlier pls", 5.0),
        ("B but 2 weeks later", 12.0),
        ("the full one, three weeks earlier tbh", 7.0),
    ],
)
def test_a_move_of_the_picked_options_week_is_that_week_moved(said, week):
    fork = {"A": "Soft launch week 6", "B": "Full launch week 10"}
    got = [d for d in read_text(said, source="own", fork=fork).directions if d.axis == "timeline"]
    assert [(d.amount, d.value) for d in got] == [(week, f"week {week:g}")]


def test_a_move_of_the_week_with_no_option_picked_stays_a_move():
    fork = {"A": "Soft launch week 6", "B": "Full launch week 10"}
    got = read_text("a week earlier", source="own", fork=fork).directions
    assert [(d.axis, d.amount) for d in got] == [("timeline", None)]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (
            "nah. hr managers are who we sell to, not the riders. and cut the jargon",
            [
                "leave out jargon",
                "leave out riders",
                "speak to hr managers",
                "write in a plain tone",
            ],
        ),
        ("formal but not stuffy", ["write in a formal tone"]),  # a shade of the tone, beside it
        ("warm tone, not the students", ["leave out students", "write in a warm tone"]),
    ],
)
def test_a_refusal_is_a_shade_of_the_tone_only_beside_it_and_never_people(text, lines):
    """ "…, not the riders. and cut the jargon" lost the riders without a word: any one-word
    exclusion in a message with a tone in it was taken for a shade of that tone."""
    from engine.language.steering import read_directions

    got = [d.line() for d in read_directions(text, source="rejection").directions]
    assert sorted(got) == sorted(lines)


def test_lows_are_the_tokens_lows_without_the_tokens() -> None:
    """The vocabulary's cues, a pitch's currency and places are matched on `lows`: each token's
    folded text exactly as `tokenize` gives it (curly quotes, shorthand spellings, figures)."""
    for text in (
        "Don’t go thru the CEO's 1,500 leads b4 Q3 — £40/week, 10p off, front-hub",
        "Meal kits for night-shift nurses in Leeds, 40 quid a week",
        "",
    ):
        assert lows(text) == [t.low for t in tokenize(text)]
    assert lows("Thru the ‘Café’") == ["through", "the", "'", "café", "'"]


def test_a_bare_finite_verb_is_no_value_and_ppl_are_people():
    """ "its for the allotment ppl not the council, council just pays" bound the scope "pays"
    and the audience "allotment ppl" (in play)."""
    r = read_text(
        "its for the allotment ppl not the council, council just pays", source="rejection"
    )
    assert [(d.axis, d.value) for d in r.directions] == [
        ("audience", "allotment people"),
        ("exclusion", "council"),
    ]
