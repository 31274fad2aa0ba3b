"""A fork's words are templates filled from the venture (engine.game.fork_slots): a template that
names an unknown slot fails as the rules load, and a card's numbers are its preview's numbers."""

from __future__ import annotations

import copy
import json
import re

import pytest

from engine.game import dilemmas
from engine.game.economy import founding_org, initial_economics
from engine.game.fork_slots import OPTION_SLOTS, QUESTION_SLOTS, check, fill, preview_words
from engine.game.models import OrgDelta
from engine.game.rules import RECORDS, RULES, load_rules
from engine.game.said import how_it_reads
from engine.game.world_events import KINDS, open_event
from engine.language.steering import Read
from engine.session.commands import Approve, Decide, RunStage
from worldforge_textkit.numbers import books

MONEY = re.compile(r"[$€£][\d,]+")


def _rows_with(rule_id: str, **texts: str) -> list[dict]:
    rows = json.loads(RECORDS.read_text("utf-8"))
    row = next(r for r in rows if r["id"] == rule_id)
    row.update(texts)
    return rows


@pytest.mark.parametrize(
    "texts",
    [
        {"option": "Ship the {ofering} now"},  # a misspelt slot
        {"tradeoff": "{cash:>8} now"},  # a format spec: slots are named only
        {"tradeoff": "cash {now"},  # a broken brace
    ],
)
def test_a_card_naming_an_unknown_slot_fails_as_the_rules_load(tmp_path, texts):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(_rows_with("designer.ship", **texts)), "utf-8")
    with pytest.raises(ValueError, match=re.escape("designer.ship")):
        load_rules(path)


def test_every_shipped_template_names_only_known_slots():
    """The rules as shipped load (they did, to import), and so does the deck's every question."""
    assert load_rules() and RULES
    for family in dilemmas.DECK.values():
        for v in family:
            check(v.title, QUESTION_SLOTS)
            check(v.question, QUESTION_SLOTS)
    with pytest.raises(ValueError, match="no such slot"):
        dilemmas.V("founder_edge", "Title", "Who pays {cash}?")  # a number is the option's own


def test_a_moved_number_says_its_own_direction():
    before = initial_economics(founding_org())
    after = copy.copy(before)
    after.treasury_usd = before.treasury_usd - 7_000
    with books("USD"):
        words = preview_words(before, after, OrgDelta(removed_role_title="Support Specialist"))
        back = preview_words(after, before, OrgDelta())
    assert words["cash"] == "$7,000 less cash"
    assert words["burn"] == "no change in burn"  # never "$0 more burn"
    assert words["retired"] == "retire the Support Specialist"
    assert back["cash"] == "$7,000 more cash"
    assert back["retired"] == "keep every role (none is free to retire)"


def test_fill_makes_a_marked_verb_agree_with_the_customer():
    words = {k: k for k in OPTION_SLOTS}
    assert (
        fill("if {customer} <trusts> us", {**words, "customer": "nurses"}) == "if nurses trust us"
    )
    assert fill("if {customer} <trusts> us", {**words, "customer": "a clinic"}) == (
        "if a clinic trusts us"
    )


@pytest.mark.parametrize(("pitch", "seed", "path"), [
    ("Meal kits for night-shift nurses at big city hospitals", 11, "AAAAAAAA"),
    ("Battery swap stations for e-bike couriers in Lisbon", 21, "BABABABA"),
    ("A payroll service for small cleaning companies", 5, "BBBBBBBB"),
])  # fmt: skip
def test_each_card_names_the_venture_and_states_its_own_preview(new_session, pitch, seed, path):
    """Every option of every fork in a venture: its words name the company, the customer, the
    offering or the rival (no card of every venture), no slot is left unfilled, and every amount of
    money its trade-off states is one its effect line (what the receipt applies) shows."""
    s = new_session(pitch=pitch, seed=seed)
    posed = []
    while s.state.phase != "ended":
        st = s.state
        if st.phase == "brief":
            s.give(RunStage)
        elif st.phase == "gate":
            s.give(Approve)
        else:
            assert st.dilemma is not None and st.stage is not None
            posed.append(st.dilemma)
            s.give(Decide, path[st.stage.number - 1])
    assert len(posed) >= 3  # played until it ended, in defeat or not
    f = s.state.founder
    venture = (f.company, f.customer, f.reading().offering, s.state.antagonist.name)
    for d in posed:
        assert any(w in f"{d.title} {d.prompt}" for w in venture), d.prompt
        for o in d.options:
            card = f"{o.text} {o.tradeoff}"
            assert "{" not in card and "<" not in card, card
            assert any(w in o.text for w in venture), o.text
            assert any(w in o.tradeoff for w in venture), o.tradeoff
            for amount in MONEY.findall(o.tradeoff):
                assert amount in o.effect_line, (o.tradeoff, o.effect_line)


def test_an_events_choices_name_the_company_or_the_customer(new_session):
    """'Take the custom contract' / 'Decline it and stay focused' read the same in every venture:
    each choice of each event with a choice now names this company or its customer."""
    s = new_session(pitch="Battery swap stations for e-bike couriers in Lisbon", seed=21)
    st = s.state
    f = st.founder
    for kind in (k for k in KINDS if k.choices is not None):
        ev = open_event(st, kind, st.stages[0].id)  # a choice waits: nothing is applied
        assert len(ev.options) == 2
        for o in ev.options:
            assert f.company in o.text or f.customer in o.text, o.text
            assert "{" not in o.text and "<" not in o.text


def test_words_that_bind_nothing_are_quoted_in_their_reading():
    """A reply that binds nothing read 'nothing the gate checks' in every venture: it names the
    words now, and says so plainly when there are none to name."""
    assert how_it_reads(Read(unread=["meh, do better"]))["says"] == (
        "nothing the gate checks in “meh, do better”"
    )
    assert how_it_reads(Read())["says"] == "nothing the gate checks"


def test_an_event_names_the_customer_the_ceo_last_named(new_session):
    """The CEO said "its for vet nurses on night shifts"; the board and the standup said so, and
    the next event still read "busy vets nurses notice" (the pitch's words)."""
    from engine.game.world_events import KINDS, open_event

    s = new_session()
    s.state.niche = "vet nurses on night shifts"
    kind = next(k for k in KINDS if "{customer}" in k.text)
    ev = open_event(s.state, kind, s.state.stages[0].id)
    assert "vet nurses on night shifts" in ev.text
    assert s.state.founder.customer not in ev.text
