"""A decision's later effect (engine.game.pending): shown on the fork, pending on the board, and
landing exactly as shown at the stage it names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.game import pending
from engine.game.rules import RULES, load_rules
from engine.session.commands import Approve, Decide, RunStage


def _to_fork(s) -> None:
    while s.state.phase not in ("fork", "ended"):
        s.give(RunStage if s.state.phase == "brief" else Approve)


def _fork_with_later(s):
    """Play option A until a fork offers an option with a later effect; return that option."""
    while True:
        _to_fork(s)
        assert s.state.phase == "fork", "no fork offered a later effect"
        opt = next((o for o in s.state.dilemma.options if o.later), None)
        if opt is not None and pending.landing(s.state, opt.rule_id) is not None:
            return opt
        s.give(Decide, "A")


def test_the_fork_shows_the_later_effect_the_receipt_plans_and_the_stage_lands(new_session):
    s = new_session(seed=7)
    opt = _fork_with_later(s)
    st = s.state
    hit = pending.landing(st, opt.rule_id)
    assert hit is not None
    due, amounts = hit
    stage = st.stages[due]
    assert opt.later == f"at stage {stage.number} ({stage.beat}): {pending.amounts_line(amounts)}"
    receipt = s.give(Decide, opt.key)
    assert receipt.later == opt.later
    assert [p["line"] for p in st.pending] == [opt.later]
    # on the board until it lands, as the fork showed it
    snap = s.snapshot()
    assert snap.pending == [opt.later]
    landed = []
    while st.phase != "ended" and st.stage_index <= due:
        before = len(s.events())
        if st.phase == "brief":
            s.give(RunStage)
        elif st.phase == "fork":
            s.give(Decide, "A")
        else:
            s.give(Approve)
        landed += [e for e in s.events()[before:] if e.type == "DECISION_LANDED"]
        if landed:
            break
    mine = [e for e in landed if e.payload["rule_id"] == opt.rule_id]  # seed 7 lives to land it
    assert len(mine) == 1 and st.stage_index == due
    assert mine[0].payload["amounts"] == amounts
    assert opt.later not in s.snapshot().pending


def test_a_later_effect_past_the_last_stage_is_not_offered(new_session):
    s = new_session(seed=7)
    st = s.state
    rid = next(r.id for r in RULES.values() if r.later)
    st.stage_index = len(st.stages) - 1
    assert pending.landing(st, rid) is None and pending.later_line(st, rid) == ""


def test_a_later_effect_of_no_such_field_does_not_load(tmp_path: Path):
    rows = json.loads(Path(RULES_PATH).read_text())
    rows[0]["later"] = {"happiness": 3}
    bad = tmp_path / "rules.json"
    bad.write_text(json.dumps(rows))
    with pytest.raises(ValueError, match="happiness"):
        load_rules(bad)


RULES_PATH = Path(__file__).resolve().parents[2] / "engine" / "game" / "rules.json"
