"""Memory labels say what recall does: a note past its expiry day says it no longer reaches a
brief, only a live binding decision that holds directions is BINDING, and a kind reads in words."""

from __future__ import annotations

from worldforge_tui.widgets.memory_pane import binds, record_prompt

DECISION = {
    "id": "m1",
    "kind": "procedural",
    "status": "active",
    "text": "CEO chose the night route",
    "game_day": 7,
    "expires_day": None,
    "payload": {"directions": [{"axis": "channel", "do": True, "op": "eq"}]},
}


def test_a_note_past_its_expiry_day_says_so_from_that_day():
    note = {**DECISION, "kind": "context", "payload": None, "expires_day": 14}
    assert "expires day 14" in record_prompt(note, False, today=13).plain
    for today in (14, 51):  # recall leaves it out from day 14 on: the row says the same
        row = record_prompt(note, False, today=today).plain
        assert "expired day 14, no longer in briefs" in row and "expires day" not in row


def test_only_a_decision_that_binds_is_labelled_binding():
    assert binds(DECISION) and "BINDING" in record_prompt(DECISION, False, today=9).plain
    empty = {**DECISION, "payload": {"directions": []}}  # words read into nothing
    assert not binds(empty) and "BINDING" not in record_prompt(empty, False, today=9).plain
    archived = {**DECISION, "status": "archived"}
    assert not binds(archived)
    lapsed = {**DECISION, "expires_day": 10}
    assert not binds(lapsed, today=10) and binds(lapsed, today=9)
    assert not binds({**DECISION, "kind": "semantic"})
    receipt_row = {"kind": "procedural", "status": "active", "directions": ["reach the network"]}
    assert binds(receipt_row) and not binds({**receipt_row, "directions": []})


def test_the_receipt_and_end_card_name_kinds_in_words(tmp_path):
    from engine.config import Settings
    from engine.routing import Router
    from engine.session.api import GameSession
    from engine.views.report import render_report
    from worldforge_tui.screens.end import report_card

    session = GameSession.start_venture(
        pitch="Meal kits for night-shift nurses",
        seed=7,
        save_dir=tmp_path,
        router=Router(Settings()),
    )
    card = report_card(session.snapshot()).plain
    report = render_report(session.read_model())
    assert "founder profile 1" in card and "user_profile" not in card
    assert "· founder profile · active ·" in report and "user_profile" not in report
    session.close()
