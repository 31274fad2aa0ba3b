"""A reason's parts that bind nothing are named before the reason binds (the reading's unread
parts, engine.language.reader)."""

from __future__ import annotations

import pytest

from engine.language.reader.read import read_text
from engine.language.reader.utterance import parse
from engine.session.commands import Approve, Decide, Reject, RunStage, StandupReply


def test_a_reason_divides_at_punctuation_and_at_and_before_a_verb():
    said = "price it at $12 a week, start with law firms and hire a barista. Who is this for?"
    utt = parse(said, new_clause_words=frozenset({"hire", "start"}))
    assert [utt.span(c.start, c.end) for c in utt.clauses] == [
        "price it at $12 a week",
        "start with law firms",
        "hire a barista",
        "Who is this for",
    ]
    # "and" between two people is one part; a thousands comma and a decimal point hold
    one = parse("speak to nurses and doctors")
    assert [one.span(c.start, c.end) for c in one.clauses] == ["speak to nurses and doctors"]
    money = parse("keep the burn under $30,000 a month at $12.50 a box")
    assert len(money.clauses) == 1


@pytest.mark.parametrize(
    ("said", "unread"),
    [
        (
            "price it at $12 a week, start with law firms and hire a barista for the launch",
            ["hire a barista for the launch"],
        ),
        (
            "too vague. speak to ward nurses and paint the office purple",
            ["paint the office purple"],
        ),
        # everything placed: nothing to name
        ("charge $8 a bag and start in the West End", []),
        (
            "Focus on solo mobile groomers; leave salons alone. Price it under 30 dollars a month.",
            [],
        ),
        # questions and one-word asides are commentary, never reported
        ("Who is this for? Speak to nurses on night shifts in care homes", []),
        ("Price: $25 a month, flat. Not per visit.", []),
        # a noun phrase no cue places is unread, never dropped without a word
        ("charge $8 a bag. meal kits for night shifts", ["meal kits for night shifts"]),
        ("start in Leeds. vintage vinyl, mostly", ["vintage vinyl"]),
        # a statement, a comparison, an aside, a participle or a repeat is no thing to place
        ("charge $8 a bag. margins are rubbish", []),
        ("start in Leeds. fewer shifts, simpler", []),
        ("start in Leeds, even for cocktail bars", []),
        ("charge $8 a bag. shipping included", []),
        ("call it Fernando. yes Fernando", []),
    ],
)
def test_the_parts_that_place_nothing_are_named(said, unread):
    assert read_text(said, source="rejection").unread == unread


def test_an_unplaced_part_says_why_and_an_option_it_names_is_no_unread_part():
    (part,) = [
        p
        for p in read_text("charge $8 a bag. meal kits", source="standup").parts
        if p.kind == "unread"
    ]
    assert part.reason == "unplaced" and "cannot place" in part.teach_back
    fork = {"A": "Sell through bike shops", "B": "Sell online"}
    assert read_text("the bike shops one. obviously", source="own", fork=fork).unread == []
    assert read_text("A. vintage vinyl", source="own", fork=fork).unread == ["vintage vinyl"]


def test_a_rejection_with_an_unread_part_is_confirmed_first(new_session):
    s = new_session(pitch="Refill subscriptions for office coffee in Leeds")
    s.give(RunStage)
    events = len(s.events())
    said = "price it at $12 a week, start with law firms and hire a barista for the launch"
    preview = Reject(said).preview(s.state)
    assert preview is not None and preview.verb == "reject"
    assert "Binds nothing: “hire a barista for the launch”" in preview.says
    assert preview.will_change == "price $12 a week; speak to law firms"
    assert len(s.events()) == events and s.state.stage.redos == 0  # nothing committed
    # a reason the reader places whole goes straight on
    assert Reject("charge $8 a bag and start with law firms").preview(s.state) is None


def test_a_standup_reply_with_an_unread_part_is_confirmed_first(new_session):
    """A standing order ("freeze hiring") is placed too; "bake a cake" binds nothing."""
    s = new_session(pitch="Refill subscriptions for office coffee in Leeds")
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    assert s.state.standup and not s.state.standup_answered
    preview = StandupReply("freeze hiring, and bake a cake for the team").preview(s.state)
    assert preview is not None and "Binds nothing: “bake a cake for the team”" in preview.says
    assert preview.will_change == "hiring freeze at the next fork"
    assert StandupReply("freeze hiring and speak to law firms").preview(s.state) is None
    assert StandupReply("keep it simple").preview(s.state) is None  # one part: as before
