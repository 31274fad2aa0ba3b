"""The receipt says how a decision was read in words, never the engine's matcher name ("matched by
custom · Show, don't tell" was on screen after an own answer)."""

from __future__ import annotations

import pytest

from engine.play.headless import Plan, play
from engine.session.api import GameSession
from worldforge_tui.widgets.receipt_pane import HOW_READ, receipt_content


@pytest.mark.parametrize(
    ("said", "how"),
    [("", "you picked the option"), ("the second one", "read from your words")],
)
def test_the_receipt_says_how_the_decision_was_read_in_words(tmp_path, said, how):
    session = GameSession.start_venture(
        pitch="Allotment planner for gardeners in Bristol", seed=3, save_dir=tmp_path
    )
    plan = Plan()
    if said:
        plan.say("decide_own", "*", said)
    try:
        play(session, plan)
        text = receipt_content(session.state.receipts[0]).plain
    finally:
        session.close()
    assert how in text and "matched by" not in text


def test_every_way_a_decision_is_read_has_words():
    assert set(HOW_READ) >= {"option", "keywords", "negation", "later", "not-yet", "both", "custom"}
