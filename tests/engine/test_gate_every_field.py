"""The gate checks every recalled direction against every field, an exclusion by lemma and phrase.

Before, "leave out every mention of routes" was checked as that quoted fragment, so work that said
"Plan tomorrow's routes in one click" passed with "It carries what you set"; a redo for "Kitchens do
not care about our routes" said the mentions "were already gone" with the text unchanged; a claim
was checked as a substring of the prose."""

from __future__ import annotations

import re

import pytest

from engine.game.adherence import check
from engine.language.artifact_text import said
from engine.language.directions import Direction, fold
from engine.session.commands import Approve, Decide, Reject, RunStage
from engine.writing.realise import what_changed

ROUTES = Direction(axis="exclusion", value="every mention of routes", do=False)
CARE = Direction(axis="exclusion", value="care about our routes", do=False)
FITS = Direction(axis="claim", value="fits around work", do=False)


@pytest.mark.parametrize(
    ("text", "value", "hit"),
    [
        ("Plan tomorrow's routes in one click", "every mention of routes", "routes"),
        ("Head chefs: a route that holds all day", "every mention of routes", "route"),
        ("Smarter routing for every kitchen", "care about our routes", "routing"),
        ("It fits around your work", "fits around work", "fits around work"),
        ("No more big chains", "big chains", "big chains"),
        ("Big hotel chains love it", "big chains", None),
        ("A routine that holds", "every mention of routes", None),
        # played: "dont promise a free month" said "the claim was already gone" beside it
        ("Calm dogs at home, or the first month is free", "free month", "month free"),
        ("Results guaranteed in a week", "guaranteed results", "results guaranteed"),
        ("A free first month", "free month", None),
    ],
)
def test_what_an_exclusion_names_is_found_by_lemma_and_phrase(text, value, hit):
    assert said(text, value) == hit


# One field of each kind the roles ship: title and headline, body, a list item, a channel in a
# list of records, an email subject, a key result nested in a plan.
FIELDS = [
    ("designer", {"hero_headline": "Head chefs: routes that hold all day"}),
    ("designer", {"features": ["Proof of delivery", "Plan tomorrow's routes in one click"]}),
    ("marketer", {"subject": "Your routes, sorted"}),
    ("marketer", {"body": "We plan the routing. You cook."}),
    ("marketer", {"gtm_channels": [{"channel": "route planners' forum", "weekly_hours": 2}]}),
    ("strategist", {"okrs_q1": [{"objective": "Win kitchens", "key_results": ["10 routes"]}]}),
    ("ops", {"support_workflow": ["Answer each route question within the hour"]}),
]


@pytest.mark.parametrize(("role", "art"), FIELDS)
@pytest.mark.parametrize("d", [ROUTES, CARE], ids=["every-mention", "care-about"])
def test_an_exclusion_is_drift_in_whichever_field_says_it(role, art, d):
    found = check(role, art, [d])
    assert [v.axis for v in found] == ["exclusion"]
    assert re.search(r"mentions “rout(e|es|ing)”", found[0].did)


def test_the_ceos_quoted_words_are_not_the_work():
    art = {"summary": "You said “leave out every mention of routes”.", "body": "We cook."}
    assert check("marketer", art, [ROUTES]) == []


@pytest.mark.parametrize("field", ["hero_headline", "features", "wireframe_notes", "summary"])
def test_a_claim_to_avoid_is_drift_in_any_field_in_any_inflection(field):
    art = {field: "It fit around your work, whatever the shift."}
    assert [v.axis for v in check("designer", art, [FITS])] == ["claim"]


def test_nothing_to_change_is_said_only_when_the_check_finds_nothing():
    broken = {"body": "Plan tomorrow's routes in one click."}
    lines = what_changed("marketer", broken, broken, [ROUTES])
    assert lines and "nothing to change" not in " ".join(lines) and "still" in lines[0]
    clean = {"body": "Every drop on time."}
    assert "nothing to change" in what_changed("marketer", clean, clean, [ROUTES])[0]


def test_an_exclusion_and_a_scope_read_from_the_same_words_bind_only_the_exclusion():
    """The reader reads "leave out every mention of routes" as an exclusion and a scope "routes";
    no artifact can follow both, and the words left routes out."""
    note = {
        "id": "m1",
        "kind": "procedural",
        "game_day": 1,
        "stage_id": "stage_1_you",
        "payload": {
            "source": "rejection",
            "directions": [ROUTES.to_dict(), {"axis": "scope", "value": "routes"}],
        },
    }
    from types import SimpleNamespace

    b = fold([SimpleNamespace(**note)])
    assert [(d.axis, d.value) for d in b.directions] == [("exclusion", ROUTES.value)]


_ROUTE = re.compile(r"\brout(e|es|ed|ing)\b", re.IGNORECASE)
_QUOTED = re.compile(r"“[^”]*”")


def test_routes_left_out_at_stage_one_stay_out_of_every_artifact_with_no_false_drift(new_session):
    s = new_session(pitch="Delivery route planning for restaurant kitchens", seed=11)
    s.give(RunStage)
    s.give(Reject, "Leave out every mention of routes")
    while s.state.phase != "ended":
        st = s.state
        if st.phase == "brief":
            if st.pending_event is not None:
                from engine.session.commands import AnswerEvent

                s.give(AnswerEvent, st.pending_event.default or "A")
                continue
            s.give(RunStage)
            run = s.state.current
            if run is None:
                continue
            from engine.language.artifact_text import prose

            text = prose(run.artifact)
            assert not _ROUTE.search(text), (run.stage_id, _ROUTE.search(text))
            seeded = any(f["kind"] == "ignores_decision" for f in run.rubric.flaws)
            exclusion = [v for v in run.rubric.violations if v["axis"] == "exclusion"]
            assert seeded or not exclusion, run.rubric.violations
        elif st.phase == "gate":
            s.give(Approve)
        else:
            s.give(Decide, "A")
