"""Pane content builders from real engine snapshots: DRIFT flag, receipt signs, report card."""

from __future__ import annotations

from dataclasses import fields

from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from worldforge_textkit.numbers import money_short as money
from worldforge_tui.screens.end import report_card
from worldforge_tui.text.formatting import delta_text, delta_tone, value_text
from worldforge_tui.widgets.receipt_pane import receipt_content
from worldforge_tui.widgets.story_pane import artifact_parts, story_content


def played(tmp_path, steps: int):
    session = GameSession.start_venture(
        pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path
    )
    for _ in range(steps):
        phase = session.state.phase
        if phase == "brief":
            session.give(RunStage)
        elif phase == "gate":
            session.give(Approve)
        elif phase == "fork":
            session.give(Decide, "B")
    return session


def test_every_economics_name_the_panes_read_is_a_field():
    """The meters and the report card read Economics by these names: a misspelled one fails
    here (and the pane would raise), never shows as a silently blank meter."""
    from engine.game.models import Economics
    from worldforge_tui.text.formatting import FIELDS
    from worldforge_tui.widgets.status_bar import METERS

    names = {f.name for f in fields(Economics)}
    assert {name for name, *_ in FIELDS} <= names
    assert set(METERS) <= names


def test_drift_flag_and_score_in_story(tmp_path):
    session = played(tmp_path, 1)
    snap = session.snapshot()
    assert "DRIFT" not in story_content(snap).plain
    snap.current.rubric.drift = True
    text = story_content(snap).plain
    assert "⚠ DRIFT" in text and "did not follow the binding decision" in text
    assert f"Score {snap.current.rubric.final}/100" in text
    # the worker's "follows" claim is shown as its claim, beside the gate's verdict, never as fact
    assert "The worker says" in text and "The gate found it did not" in text
    assert "Follows:" not in text
    session.close()


def test_receipt_lists_every_economics_field_with_signs(tmp_path):
    session = played(tmp_path, 3)
    snap = session.snapshot()
    text = receipt_content(snap.last_receipt).plain
    for label in ("treasury", "runway", "burn", "revenue", "proof", "trust", "velocity", "threat"):
        assert f"  {label}" in text
    assert (
        text.index("1 You decided")
        < text.index("2 Consequence")
        < text.index("3 Workers learned")
        < text.index("4 Next brief")
    )
    assert "Binding: " in text and "founder." not in text  # no rule id in the binding line
    session.close()


def test_report_card_after_a_whole_venture(tmp_path):
    session = played(tmp_path, 40)
    snap = session.snapshot()
    assert snap.outcome is not None
    card = report_card(snap).plain
    assert snap.outcome.result.upper() in card and "Final economics" in card
    decided = [st.decision for st in snap.stages if st.decision]
    assert decided and all(d.text[:30] in card for d in decided)
    assert not any(f"{d.rule_id}" in card for d in decided)  # decisions in words, no rule ids
    session.close()


def test_artifact_parts_handle_any_shape():
    parts = artifact_parts(
        {
            "summary": "[b]x[/b]",
            "features": ["a", {"k": "v"}],
            "plan": {"burn": 3},
            "memory_writes": [{"kind": "context"}],
        }
    )
    plain = "".join(p if isinstance(p, str) else p[0] for p in parts)
    assert "[b]x[/b]" in plain and "• A" in plain and "K: v" in plain and "Burn: 3" in plain
    assert "memory_writes" not in plain.lower().replace(" ", "_")
    assert artifact_parts("just text")[1] == "just text"


def test_number_formats():
    assert money(412_000) == "$412k" and money(1_250_000) == "$1.2M" and money(-3000) == "-$3.0k"
    assert value_text("runway_months", 2.34) == "2.3mo"
    # a profitable company has no runway (Economics.shown() says None): unlimited, never "99.0mo";
    # a long runway of a company still losing money is a runway, in years
    assert value_text("runway_months", None) == "∞"
    assert value_text("runway_months", 99.0) == "8y"
    assert delta_text("runway_months", 1.2, None) == "profit"
    assert delta_text("runway_months", None, 4.5) == "loss"
    assert delta_text("runway_months", 1.2, 2.0) == "+0.8mo"
    assert delta_text("monthly_burn_usd", 1000, 3000) == "+$2.0k"
    assert delta_tone("monthly_burn_usd", 1000, 3000) == "bad"
    assert delta_tone("trust", 10, 20) == "good" and delta_text("trust", 5, 5) == "±0"
    assert value_text("proof", float("nan")) == "0"


def test_a_count_is_written_with_thousands_separators():
    """Played: the end card's defeat line said "paying customers rose from 3,757 to 13,440" and
    its economics table "customers 13440"."""
    assert value_text("paying_customers", 13440) == "13,440"
    assert delta_text("paying_customers", 3757, 13440) == "+9,683"
    assert value_text("paying_customers", 53) == "53"
