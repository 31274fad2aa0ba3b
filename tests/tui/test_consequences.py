"""A fatal choice is marked from the numbers the receipt applies; every consequence shows in the
story, dated, and only in the chapter it happened in."""

from __future__ import annotations

from engine.game.economy import DEFEATS, defeat_at
from engine.game.rules import preview, preview_after
from engine.session.api import GameSession
from engine.session.commands import AnswerEvent, Approve, Decide, RunStage
from engine.views.snapshot import fatal_choices
from worldforge_tui.consequences import since_last_decision
from worldforge_tui.replay_entries import entry_from_event
from worldforge_tui.widgets.story_pane import story_content


def at_fork(tmp_path, stage: int) -> GameSession:
    session = GameSession.start_venture(
        pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path
    )
    while not (session.state.phase == "fork" and session.state.stage_index == stage - 1):
        phase = session.state.phase
        if phase == "brief":
            if session.state.pending_event is not None:
                session.give(AnswerEvent, "A")
            session.give(RunStage)
        elif phase == "gate":
            session.give(Approve)
        elif phase == "fork":
            session.give(Decide, "A")
    return session


def near_a_line(session: GameSession) -> tuple[str, str]:
    """Move the company just inside the line one option's own numbers push towards; returns
    (option key, defeat kind)."""
    st = session.state
    for option in st.dilemma.options:
        after, _ = preview_after(st, option.rule_id, st.stage.id)
        for line in DEFEATS:
            delta = getattr(after, line.field) - getattr(st.economics, line.field)
            towards = delta < 0 if line.test.op == "<=" else delta > 0
            if towards:
                setattr(st.economics, line.field, line.test.limit - delta / 2)
                for each in st.dilemma.options:  # the cards show the numbers as they are now
                    each.effect_line = preview(st, each.rule_id, st.stage.id)
                return option.key, line.kind
    raise AssertionError("no option moves towards a losing line")


def test_an_option_whose_preview_crosses_a_line_is_fatal_and_the_decision_ends_the_run(tmp_path):
    session = at_fork(tmp_path, 3)
    key, kind = near_a_line(session)
    st = session.state
    assert defeat_at(st.economics, st.stage_index + 1) is None  # not lost yet
    forks, _ = fatal_choices(st)
    assert forks.get(key) == kind
    text = story_content(session.snapshot()).plain
    assert "FATAL: these numbers end the run" in text
    session.give(Decide, key)
    assert session.state.outcome is not None and session.state.outcome.result == "defeat"


def test_no_option_is_fatal_on_a_healthy_company(tmp_path):
    session = at_fork(tmp_path, 1)
    assert fatal_choices(session.state) == ({}, {})
    assert "FATAL" not in story_content(session.snapshot()).plain


def test_consequences_since_the_last_decision_are_dated_and_never_stale(tmp_path):
    session = at_fork(tmp_path, 2)
    session.give(Decide, "A")
    entries = [entry_from_event(e) for e in session.events()]
    found = since_last_decision(entries)
    assert found and all(c.day >= session.state.day - 3 for c in found)
    assert any(c.kind == "rival" and "Threat +" in c.text for c in found)
    text = story_content(session.snapshot(), found).plain
    assert "Since your last decision" in text and f"day {found[0].day}" in text
    # The next decision starts a new chapter: the old rival move is no longer "since".
    session.give(RunStage)
    session.give(Approve)
    old = {c.text for c in found}
    session.give(Decide, "B")
    again = since_last_decision([entry_from_event(e) for e in session.events()])
    assert not old & {c.text for c in again}
