"""Typed directions: read from what the CEO says, realised in the work, checked by the gate, and
gone from the brief when their note is withheld."""

from __future__ import annotations

from typing import Any

import pytest

from engine.game.adherence import check
from engine.game.dilemmas import option_directions
from engine.game.economy import founding_org, initial_economics
from engine.game.models import Founder
from engine.game.rubric import evaluate
from engine.game.world import build_stages
from engine.language.artifact_text import prose
from engine.language.directions import Binding, Direction
from engine.language.steering import read_directions
from engine.session.commands import (
    Approve,
    Decide,
    DecideOwn,
    ForgetMemories,
    RunStage,
    StandupReply,
)
from engine.writing.simulate import simulate_artifact

FOUNDER = Founder(
    name="You",
    company="Groom Co",
    archetype="builder",
    pitch="Scheduling for solo mobile dog groomers",
    customer="solo mobile dog groomers",
    keywords=["scheduling", "groomers"],
)
ROLE_STAGE = {"strategist": 2, "designer": 3, "marketer": 4, "ops": 5}
SAID = [
    (
        "Focus on solo mobile groomers who work from a van; leave salons alone. Price it under 30 "
        "dollars a month."
    ),
    "Price: $25 a month, flat. Not per visit.",
    "Sell through partner referrals, not paid ads, and launch by week 3",
    "Drop the 'guaranteed' line and keep the tone plain",
    "Call it Groomly; keep churn under 3% and the burn under $30,000 a month",
    "Mention a weekly summary email and break even by month 9",
]


@pytest.mark.parametrize(
    ("text", "axes"),
    [
        (SAID[0], {"price", "audience", "exclusion"}),
        # "Not per visit" contrasts a price's period: a price holds one value, so only the named
        # price binds (the corpus's rule 3: "charge per word not per month. 10p a word" is the price)
        (SAID[1], {"price"}),
        (SAID[2], {"channel", "exclusion", "timeline"}),
        (SAID[3], {"claim", "tone"}),
        (SAID[4], {"name", "number"}),
        (SAID[5], {"scope", "number"}),
        ("both", set()),
        ("not yet", set()),
        ("meh", set()),
    ],
)
def test_what_the_ceo_says_is_read_into_typed_directions(text, axes):
    read = read_directions(text, source="standup")
    assert {d.axis for d in read.directions} == axes
    assert all(d.said and d.source == "standup" for d in read.directions)


def test_two_prices_in_one_sentence_the_later_wins_and_the_reading_says_so():
    read = read_directions("$30 a month. Actually $35 a month.", source="rejection")
    assert [d.amount for d in read.directions] == [35.0]
    assert read.notes == ["two prices named: the later one wins"]
    # and the brief (and the story pane's binding line) says which one won and why
    line = Binding(directions=read.directions).lines()[0]
    assert line == "price $35 a month (from your rejection; the later of two prices you named)"


@pytest.mark.parametrize(
    "reason",
    ["That line is misleading", "There is no proof for it", "Too bold: we can't back it"],
)
def test_words_that_say_the_work_over_claims_bind_a_claim_to_avoid(reason):
    """ "misleading", "no proof", "can't back it": the redo is bound to cut the claim."""
    read = read_directions(reason, source="rejection")
    assert [d.axis for d in read.directions] == ["claim"] and not read.directions[0].do


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("Leave out salons and drop the 'guaranteed' line", ["salons"]),
        ("Leave out dog owners entirely.", ["dog owners"]),
        ("Drop salons completely, please", ["salons"]),
    ],
)
def test_an_exclusion_is_read_whole_beside_a_quote_or_an_adverb(text, excluded):
    """A quoted claim later in the sentence no longer hides the segment before it, and an adverb
    is not part of the segment ('dog owners entirely' matched no artifact)."""
    read = read_directions(text, source="rejection")
    assert [d.value for d in read.directions if d.axis == "exclusion"] == excluded


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # was: the price bound and "start with law firms" was dropped without a word
        (
            "price it at $12 a week and start with law firms",
            [("price", "$12 a week"), ("audience", "law firms")],
        ),
        ("target law firms first", [("audience", "law firms")]),
        ("begin with ward nurses, then clinics", [("audience", "ward nurses")]),
        ("start with a pilot", []),  # a thing to start with, not people
    ],
)
def test_who_to_start_with_is_the_audience(text, read):
    got = read_directions(text, source="rejection").directions
    assert [(d.axis, d.value) for d in got] == read


def test_a_price_named_without_a_number_is_asked_about_not_guessed():
    read = read_directions("The price is wrong", source="rejection")
    assert not read.directions and read.unclear == ["price"]


def test_an_audience_the_ceo_named_is_never_too_vague():
    """The strategist's audience field holds exactly the named audience (what the model tiers'
    enum holds a model to), and the floor's 'too vague' never fires on what the CEO named."""
    stage = build_stages(founding_org())[ROLE_STAGE["strategist"]]
    binding = Binding(
        directions=read_directions("Speak to ward nurses", source="standup").directions
    )
    art = simulate_artifact(
        "strategist",
        founder=FOUNDER,
        stage=stage,
        binding=binding,
        economics=initial_economics(founding_org()),
        seed=31,
        attempt=1,
    )
    assert art["target_audience"] == "Ward nurses"
    r = evaluate("strategist", art, goal=stage.goal, founder_keywords=[], binding=binding)
    assert r.checks["target_audience_specific"] and "the audience is too vague" not in r.notes
    r = evaluate("strategist", art, goal=stage.goal, founder_keywords=[], binding=Binding())
    assert not r.checks["target_audience_specific"]  # a two-word audience nobody named is vague


def test_hostile_text_is_inert_and_clipped():
    read = read_directions("Focus on [bold]x[/bold] \x1b[2J" + "a" * 10_000, source="own")
    assert all("[" not in d.value and len(d.value) <= 80 for d in read.directions)


def test_premium_and_cheap_bind_different_prices_depth_and_breadth_different_segments():
    kw = {
        "base": Direction(axis="price", value="", amount=60),
        "customer": "groomers",
        "stage": "s3",
    }
    hi, lo = option_directions("go.premium", **kw), option_directions("go.cheap", **kw)
    assert hi[0].amount != lo[0].amount
    deep, broad = (
        option_directions("strategist.depth", **kw),
        option_directions("strategist.breadth", **kw),
    )
    assert deep[0].value != broad[0].value


def _first_attempt(role: str, binding: Binding) -> dict[str, Any]:
    """What simulate_artifact takes for a first attempt at the role's stage (seed 31)."""
    return {
        "founder": FOUNDER,
        "stage": build_stages(founding_org())[ROLE_STAGE[role]],
        "binding": binding,
        "economics": initial_economics(founding_org()),
        "seed": 31,
        "attempt": 1,
    }


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
@pytest.mark.parametrize("said", SAID)
def test_realised_directions_pass_the_check_and_a_seeded_drift_on_each_fails_it(role, said):
    binding = Binding(directions=read_directions(said, source="standup").directions)
    common = _first_attempt(role, binding)
    stage = common["stage"]
    art = simulate_artifact(role, **common)
    assert check(role, art, binding.directions) == []
    r = evaluate(role, art, goal=stage.goal, founder_keywords=FOUNDER.keywords, binding=binding)
    assert not r.drift and r.compliance == 100
    from engine.game.adherence import applies

    for d in binding.directions:
        if not applies(role, d, art):
            continue
        bent = simulate_artifact(role, drift=d, **common)
        r = evaluate(
            role, bent, goal=stage.goal, founder_keywords=FOUNDER.keywords, binding=binding
        )
        assert r.drift and r.final < 70, (d.line(), r.notes)
        assert any(v["axis"] == d.axis and v["line"].startswith("DRIFT: ") for v in r.violations)


def test_withholding_or_forgetting_the_note_takes_its_direction_out_of_the_brief(new_session):
    from engine.workers.agents import binding_section, gather_context

    s = new_session(pitch="Scheduling for solo mobile dog groomers")
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    s.give(StandupReply, "Price it at $27 a month")
    note = s.memory.records(kinds=["procedural"])[-1]
    st = s.state
    full = gather_context(st, st.stage, s.memory, s.knowledge)
    assert any(d.memory_id == note.id and d.amount == 27 for d in full.binding.directions)
    assert "$27 a month" in binding_section(full.binding)
    without = gather_context(st, st.stage, s.memory, s.knowledge, withhold=frozenset({note.id}))
    assert not [d for d in without.binding.directions if d.memory_id == note.id]
    assert "$27" not in binding_section(without.binding) and note.id not in without.memory_block
    s.give(ForgetMemories)
    s.give(RunStage)
    run = s.state.current
    assert run.binding == [] and "No binding direction" in run.artifact["follows_decision"]["how"]


def test_a_forgotten_decision_reaches_no_part_of_the_next_brief(new_session):
    """The CEO's call binds only through memory: once forgotten, neither the binding section nor
    the stage goal (game state, which memory cannot forget) carries its words."""
    from engine.workers.agents import build_prompts, gather_context

    s = new_session(pitch="Scheduling for solo mobile dog groomers")
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    decided = s.state.receipts[-1].decided
    label = decided.split(":", 1)[0]
    st = s.state
    before = " ".join(
        build_prompts(st, st.stage, gather_context(st, st.stage, s.memory, s.knowledge))
    )
    assert label in before  # recalled: the binding section names it
    s.give(ForgetMemories)
    st = s.state
    system, user = build_prompts(st, st.stage, gather_context(st, st.stage, s.memory, s.knowledge))
    assert label not in system and label not in user and "CEO's call" not in user


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
def test_a_price_per_thing_bought_is_that_price_not_a_month(role):
    """'$12 a meal' is what one meal costs: read, realised and checked as such (it read '$12 a
    month per meal'); the plan counts one a paying customer a month, and a monthly price in its
    place is DRIFT."""
    read = read_directions("Price it at $12 a meal", source="standup")
    (d,) = read.directions
    assert (d.period, d.unit, d.line()) == ("unit", "meal", "price $12 a meal")
    assert read_directions("$30 per box", source="standup").directions[0].line() == (
        "price $30 a box"
    )
    assert read_directions("$9 an order", source="standup").directions[0].line() == (
        "price $9 an order"
    )
    binding = Binding(directions=[d])
    common = _first_attempt(role, binding)
    art = simulate_artifact(role, **common)

    text = prose(art)
    assert "$12 a meal" in text and "$12 a month" not in text
    assert check(role, art, [d]) == []
    fp = art.get("financial_plan")
    if fp:
        assert fp["price_usd_per_month"] == 12
        assert fp["target_mrr_usd_m1_to_m6"] == [c * 12 for c in fp["paying_customers_m1_to_m6"]]
    from engine.views.render import artifact_markdown

    shown = "\n".join(artifact_markdown(art))  # what the player reads, the plan's price included
    assert "$12 a meal" in shown and "$12 a month" not in shown
    bent = simulate_artifact(role, drift=d, **common)
    assert [v.axis for v in check(role, bent, [d])] == ["price"]
    monthly = read_directions("$12 a month", source="standup").directions
    as_month = simulate_artifact(role, **{**common, "binding": Binding(directions=monthly)})
    assert check(role, as_month, [d])[0].did == "price $12 a month"


def test_words_that_fit_neither_option_bind_the_option_they_are_costed_as(new_session):
    """'not yet' at a fork whose options have no 'now' reads as neither: it is costed as the
    dearer option and binds that option's content, so the next brief is bound by it (it bound
    nothing: the story said 'Binding: none recalled' beside 'It follows your decision to …')."""
    from engine.game.said import costlier_option
    from engine.workers.agents import gather_context

    s = new_session(pitch="Mobile grooming for dogs, for solo groomers who work from a van")
    s.give(RunStage)
    s.give(Approve)
    dearer = costlier_option(s.state, s.state.dilemma, s.state.stage.id)
    receipt = s.give(DecideOwn, "hmm, whatever you think")
    assert receipt.rule_id == dearer.rule_id
    note = s.memory.records(kinds=["procedural"])[-1]
    bound = [d["value"] for d in note.payload["directions"]]
    kw = {
        "base": Direction(axis="price", value="", amount=1.0),
        "customer": "x",
        "stage": None,
    }
    assert bound and len(bound) == len(option_directions(dearer.rule_id, **kw))
    ctx = gather_context(s.state, s.state.stage, s.memory, s.knowledge)
    assert any(d.memory_id == note.id for d in ctx.binding.directions)


def test_both_options_are_named_in_the_note_a_both_answer_writes(new_session):
    """'both' is costed as the dearer option but binds both options' content: the note's text
    names both (it said only option A's summary beside directions that carried both)."""
    from engine.game.rules import RULES

    s = new_session(pitch="Mobile grooming for dogs, for solo groomers who work from a van")
    s.give(RunStage)
    s.give(Approve)
    options = s.state.dilemma.options
    receipt = s.give(DecideOwn, "both")
    note = s.memory.records(kinds=["procedural"])[-1]
    for o in options:  # both summaries in one sentence that goes on to what it moved
        said = RULES[o.rule_id].summary.rstrip(".").lower()
        assert said in note.text.lower() and said in receipt.summary.lower()


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("No ads", ["leave out ads"]),
        ("more leads, no ads", ["leave out ads"]),  # "leads" holds no "ads"
        ("Run ads on Instagram", ["reach customers through Instagram"]),  # the named one, as said
        ("no ads, only referrals", ["reach customers through referrals", "leave out ads"]),
        ("No paid ads", ["leave out paid ads"]),
    ],
)
def test_ads_are_a_channel_only_when_nothing_more_is_named(text, lines):
    from engine.language.steering import read_directions

    got = [d.line() for d in read_directions(text, source="rejection").directions]
    assert sorted(got) == sorted(lines)  # the order of directions is the words' order, not meaning


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        # the company's costs are its burn, not the customer's price (was "price $90 a month")
        ("cut costs", []),
        ("reduce our costs", []),
        ("it costs too much", ["price $90 a month"]),
        # spending less on a channel neither uses it nor leaves it out (was "… through ads")
        ("spend less on ads", []),
        ("spend less on paid ads, more on referrals", ["reach customers through referrals"]),
    ],
)
def test_costs_and_less_of_a_channel_bind_what_they_say(new_session, text, lines):
    from engine.game.said import read_rejection
    from engine.session.commands import RunStage

    s = new_session(pitch="Meal kits for busy nurses in Leeds", seed=7)
    s.give(RunStage)
    assert [d.line() for d in read_rejection(s.state, text).directions] == lines


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        # was ["leave out NHS", "centre the work on the NHS"]: no artifact can follow both
        ("Do not mention the NHS", ["leave out NHS"]),
        ("Don't mention the NHS, mention the app", ["leave out NHS", "centre the work on the app"]),
        ("Mention our NHS partnership", ["centre the work on our NHS partnership"]),
        # "make it about" people names the audience (it bound only the exclusion), a thing the
        # scope
        (
            "Make it about night nurses, not day staff",
            ["leave out day staff", "speak to night nurses"],
        ),
        # what the work centres on, as "its about saving time" reads
        ("make it about saving time", ["centre the work on saving time"]),
    ],
)
def test_a_negated_scope_cue_binds_only_the_exclusion_and_make_it_about_names_people(text, lines):
    from engine.language.steering import read_directions

    got = [d.line() for d in read_directions(text, source="rejection").directions]
    assert sorted(got) == sorted(lines)  # the order of directions is the words' order, not meaning


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
def test_an_exclusion_said_without_accents_leaves_out_the_accented_word(role):
    """ "drop the cafe stuff" against work that says "café" (a hospitality venture's own word):
    the gate saw no "cafe" in "café", said "Mentions of cafe were already gone" and passed every
    later artifact that still named cafés. Accents aside, the two are one word, for the check
    and for the worker who leaves it out."""
    founder = Founder(
        name="You",
        company="Mobile Knife Co",
        archetype="builder",
        pitch="mobile knife sharpening van for restaurants around leeds",
        customer="restaurants",
        keywords=["sharpening", "restaurants"],
    )
    binding = Binding(
        directions=read_directions("drop the cafe stuff", source="standup").directions
    )
    assert [(d.axis, d.value) for d in binding.directions] == [("exclusion", "cafe")]
    common = {**_first_attempt(role, binding), "founder": founder}
    plain = simulate_artifact(role, **{**common, "binding": Binding(directions=[])})
    assert "café" in prose(plain)  # the venture's own word, before the direction
    art = simulate_artifact(role, **common)
    assert "caf" not in prose(art).lower()
    assert check(role, art, binding.directions) == []
    bent = {**art, "summary": f"{art['summary']} Every café gets a visit."}
    assert check(role, bent, binding.directions)


def test_a_duty_that_names_what_is_left_out_stays_a_duty():
    """ "dont mention the rival" against an org chart whose strategy lead "keeps the … wedge
    sharp against the rival": the line went, and its place was taken by a benefit line ("A carer
    their pet already knows for vet nurses") as if it were the lead's job."""
    binding = Binding(
        directions=read_directions("dont mention the rival", source="rejection").directions
    )
    assert [(d.axis, d.value) for d in binding.directions] == [("exclusion", "rival")]
    plain = simulate_artifact("strategist", **_first_attempt("strategist", Binding(directions=[])))
    assert any("rival" in r["responsibility"] for r in plain["org_chart"])
    art = simulate_artifact("strategist", **_first_attempt("strategist", binding))
    duties = [r["responsibility"] for r in art["org_chart"]]
    assert not any("rival" in d for d in duties)
    assert any(d.startswith("talks with") and d.endswith("every week") for d in duties)
    assert check("strategist", art, binding.directions) == []


def test_leaving_out_a_guarantee_takes_out_what_is_guaranteed():
    """ "drop the guarantee line, we cant promise that" against "Results guaranteed within a
    week": the gate saw no "guarantee" in "guaranteed", told the CEO the mentions were already
    gone, and the redo kept the promise."""
    from engine.language.artifact_text import said

    d = read_directions("drop the guarantee line, we cant promise that", source="rejection")
    value = next(x.value for x in d.directions if x.axis in ("exclusion", "claim"))
    assert said("Results guaranteed within a week for every ward team.", value) == "guaranteed"


def test_an_audience_typed_in_lower_case_is_written_with_its_abbreviation_in_capitals(
    new_session,
):
    """ "hr managers are who we sell to": the redo's audience field said "HR managers" and its
    summary still read "the team to serve hr managers"."""
    from engine.session.commands import Reject

    s = new_session(pitch="mobile bike repair van for commuters, companies pay per visit")
    s.give(RunStage)
    s.give(Reject, "nah. hr managers are who we sell to")
    assert s.state.current is not None
    text = prose(s.state.current.artifact)
    assert "HR managers" in text and "hr managers" not in text
