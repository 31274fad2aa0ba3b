"""Validators have real floors; rules are data and keyword matching uses whole words."""

from __future__ import annotations

import json

import pytest

from engine.game.dilemmas import DECK
from engine.game.rubric import evaluate
from engine.game.rules import OWN_ANSWER, RULES
from worldforge_textkit import has_phrase

JUNK = {
    "a": "lorem ipsum dolor sit amet " * 5,
    "b": "consectetur adipiscing " * 5,
    "c": "x" * 200,
    "d": "more filler text here",
    "e": "and more",
}


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
def test_junk_json_fails(role):
    r = evaluate(role, JUNK, goal="Position the promise", founder_keywords=["solar"])
    assert r.final == 0 and r.floor == 0
    r2 = evaluate(role, "not json at all {", goal="x", founder_keywords=[])
    assert r2.final == 0
    r3 = evaluate(role, json.dumps([1, 2, 3]), goal="x", founder_keywords=[])
    assert r3.final == 0


def test_placeholder_url_and_thin_landing_page_lose_points():
    good = {
        "summary": "Landing page for solar farmers.",
        "follows_decision": {"rule_id": "none", "how": "n/a"},
        "hero_headline": "Solar microgrids for rural farmers",
        "cta_text": "Join the pilot",
        "url": "https://solargrid.app/search",
        "features": ["a b c", "d e f", "g h i"],
    }
    bad = dict(good, url="https://example.com/preview", features=["one"])
    g = evaluate("designer", good, goal="MVP landing page", founder_keywords=["solar"])
    b = evaluate("designer", bad, goal="MVP landing page", founder_keywords=["solar"])
    assert g.checks["url_real"] and not b.checks["url_real"] and not b.checks["features_listed"]
    assert g.final > b.final


def test_every_rule_is_offered_by_the_deck_and_each_option_carries_its_keywords():
    offered = {opt[2] for family in DECK.values() for v in family for opt in (v.a, v.b)}
    assert offered == set(RULES) - {OWN_ANSWER.id}
    for family in DECK.values():
        for v in family:
            assert v.a[2] != v.b[2]
            for text, _tradeoff, rid in (v.a, v.b):
                assert any(has_phrase(text, kw) for kw in RULES[rid].keywords), (v.id, rid)


@pytest.mark.parametrize(
    ("text", "phrase", "hit"),
    [
        ("we ship this week", "ship", True),
        ("a strong relationship", "ship", False),
        ("follow the slow plan", "low", False),
        ("keep a human in the loop", "human in the loop", True),
        ("carefully automated", "fully", False),
    ],
)
def test_whole_word_matching(text, phrase, hit):
    assert has_phrase(text, phrase) is hit


def test_every_decision_reads_as_a_verb_phrase_with_its_rule_words():
    """Workers write "Because you chose to {phrase}" and "We {phrase}": every rule a fork offers
    has its phrase, and the phrase carries two of the rule's keywords so the gate sees it followed.
    The receipt's words for the decision are its own field, held to the same standard."""
    for rule in RULES.values():
        if rule.own_answer:  # quoted from the CEO's text instead
            assert not rule.verb and not rule.decided
            continue
        for phrase in (rule.verb, rule.decided):
            hits = [k for k in rule.keywords if has_phrase(phrase, k)]
            assert len(hits) >= 2, (rule.id, phrase, rule.keywords)
            assert phrase[:1].islower() and ":" not in phrase, phrase
