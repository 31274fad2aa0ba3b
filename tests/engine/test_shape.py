"""Ventures differ in shape (engine/game/shape.py): after a fork the company's state may add a
stage with its own fork or skip one still to come; the board says why, the log records it and a
replay re-derives it. A fork path is a letter per fork the venture has. An option says on its own
card what it makes dearer or cheaper at a later stage (engine.game.dilemmas.ahead)."""

from __future__ import annotations

import pytest

from engine.errors import InputError
from engine.game import shape
from engine.game.dilemmas import ahead, pose
from engine.game.models import StageDecision
from engine.play.balance import PITCH, explore
from engine.play.headless import Plan, letter, parse_path, play
from engine.play.policies import project
from engine.session.commands import Approve, Decide, RunStage
from engine.session.replay import verify

# Found by playing the physiotherapy pitch (engine.play.balance.PITCH) with fixed paths.
ADDS_BRIDGE = (2, "builder", "A")  # runway 0.4 months after SEARCH: BRIDGE comes before FIND
ADDS_HOLD = (1, "builder", "A")  # threat 82 after FIND: HOLD comes before TAKE
SKIPS_TAKE = (1, "builder", "B")  # proof 47 and trust 51 after FIND: TAKE is skipped


def _played(new_session, seed: int, archetype: str, path: str):
    s = new_session(pitch=PITCH, seed=seed, archetype=archetype, name="Balance Co")
    play(s, Plan(path=parse_path(path)))
    return s


@pytest.mark.parametrize(
    ("venture", "kind", "number", "before"),
    [(ADDS_BRIDGE, "cash_crunch", 5, "FIND"), (ADDS_HOLD, "rival_raid", 6, "TAKE")],
)
def test_a_state_adds_a_stage_with_its_own_fork_and_the_board_says_why(
    new_session, venture, kind, number, before
):
    s = _played(new_session, *venture)
    st = s.state
    assert [r.kind for r in st.reshaped] == [kind]
    beats = [x.beat for x in st.stages]
    usual = ["YOU", "NEED", "GO", "SEARCH", "FIND", "TAKE", "RETURN", "CHANGE"]
    assert beats[: number - 1] + beats[number:] == usual and beats[number] == before
    assert [x.number for x in st.stages] == list(range(1, 10))
    added = st.stages[number - 1]
    assert added.beat == st.reshaped[0].beat and added.decision is not None
    assert added.decision.rule_id.startswith(("bridge.", "hold."))
    line = st.reshaped[0].line
    assert line.startswith(f"Stage {number} added: {added.beat} ({added.title}), because ")
    assert line.endswith(f"before {before}.")
    logged = [e for e in s.events() if e.type == "VENTURE_RESHAPED"]
    assert [e.message for e in logged] == [st.reshaped[0].line]
    assert logged[0].payload["stages"][number - 1] == added.id
    assert verify(s.conn, st.run_id).ok


def test_strong_traction_skips_take_and_the_venture_has_seven_forks(new_session):
    s = _played(new_session, *SKIPS_TAKE)
    st = s.state
    assert [x.beat for x in st.stages] == [
        "YOU",
        "NEED",
        "GO",
        "SEARCH",
        "FIND",
        "RETURN",
        "CHANGE",
    ]
    assert st.reshaped[0].line.startswith("TAKE skipped: Proof at ")
    assert st.outcome is not None and st.outcome.stage == 7
    assert sum(x.decision is not None for x in st.stages) == 7
    assert verify(s.conn, st.run_id).ok


def test_the_board_shows_the_changed_sequence(new_session):
    s = _played(new_session, *ADDS_HOLD)
    snap = s.snapshot()
    assert snap.reshaped == [s.state.reshaped[0].line]


def test_a_stage_added_moves_a_pending_effect_with_the_stage_it_was_shown_to_land_at(new_session):
    st = new_session(pitch=PITCH, seed=2, archetype="builder").state
    st.stage_index = 4  # FIND is next; a later effect was shown landing at TAKE (index 5)
    st.pending = [{"due_index": 5, "amounts": {"trust": -6.0}, "line": "at stage 6 (TAKE): x"}]
    shape.reshape(st, shape.KIND_BY_ID["cash_crunch"], "stage_4_search")
    assert st.stages[4].beat == "BRIDGE" and st.stages[6].beat == "TAKE"
    assert st.pending[0]["due_index"] == 6
    assert st.pending[0]["line"] == "at stage 7 (TAKE): Trust -6"


def test_the_shape_is_drawn_by_state_once_a_venture(new_session):
    st = new_session(pitch=PITCH, seed=2, archetype="builder").state
    st.stage_index = 4
    st.economics.runway_months = 3.0  # no crunch, no raid
    st.economics.threat = 20.0
    assert shape.draw(st, "stage_4_search") is None
    st.economics.runway_months = 0.5
    assert shape.draw(st, "stage_4_search") is shape.KIND_BY_ID["cash_crunch"]
    st.economics.runway_months = 0.2  # too late for a bridge: no stage added
    assert shape.draw(st, "stage_4_search") is None
    st.economics.runway_months = 0.5
    assert shape.draw(st, "stage_2_need") is None  # not after this stage
    shape.reshape(st, shape.KIND_BY_ID["cash_crunch"], "stage_4_search")
    assert shape.draw(st, "stage_5_find") is None  # once a venture


def test_a_path_is_a_letter_per_fork_the_venture_has():
    assert parse_path("b") == "B" * shape.MAX_FORKS
    assert parse_path("ABBA") == "ABBA"
    assert [letter("AB", i) for i in range(4)] == ["A", "B", "A", "A"]
    with pytest.raises(InputError, match="at most 9 letters"):
        parse_path("A" * 10)


def test_the_explorer_walks_the_forks_each_venture_has():
    seed, archetype, _ = SKIPS_TAKE
    rows = explore(seed, archetype, PITCH, prefix="BBBB")
    forks = {r["forks"] for r in rows}
    assert 7 in forks  # some branch skips TAKE
    assert all(len(r["dilemmas"]) <= r["forks"] for r in rows)
    assert all(len(r["prefix"]) == r["forks"] for r in rows if r["result"] == "victory")


def test_an_option_says_what_it_makes_dearer_at_a_later_stage(new_session):
    st = new_session(pitch=PITCH, seed=7, archetype="seller").state
    st.stage_index = 3
    st.economics.runway_months = 5.0  # SEARCH poses ship or polish (not its runway variant)
    for i in range(3):
        st.stages[i].decision = StageDecision(rule_id="founder.network", option="A", text="")
    card = next(o for o in pose(st, st.stages[3]).options if o.rule_id == "designer.ship")
    # TAKE draws its dilemma when it comes: an option only some draws pose may not be offered
    assert "makes TAKE's option to automate the support path to protect margin dearer " in (
        card.ahead
    )
    assert "dearer (if it is offered): " in card.ahead
    assert "better" not in card.ahead.split("dearer")[0]
    assert "makes TAKE's option to keep a human in the loop" in card.ahead
    assert "cheaper (if it is offered): a person catches what it breaks" in card.ahead
    other = next(o for o in pose(st, st.stages[3]).options if o.rule_id != "designer.ship")
    assert "TAKE" not in other.ahead


def test_no_forward_note_for_a_stage_already_past(new_session):
    st = new_session(pitch=PITCH, seed=7, archetype="seller").state
    st.stage_index = 6  # TAKE is behind: designer.ship's notes name nothing still to come
    assert ahead(st, "designer.ship") == ""
    assert "CHANGE" in ahead(st, "return.profit_share")


def test_the_two_forks_planner_sees_the_stage_its_choice_would_add(new_session):
    """The change of shape is drawn by the company's state alone, so the planner projects it on
    its own copies (the next fork it weighs is BRIDGE's), and the real venture is untouched."""
    seed, archetype, _ = ADDS_BRIDGE
    s = new_session(pitch=PITCH, seed=seed, archetype=archetype, name="Balance Co")
    while s.state.phase != "fork" or s.state.stage_index < 3:  # to SEARCH's fork, all A
        s.give(Decide, "A") if s.state.phase == "fork" else _step(s)
    st = s.state
    probe = project(st, st.dilemma.options[0].rule_id, st.stage.id)
    assert [r.kind for r in probe.reshaped] == ["cash_crunch"]
    assert probe.stages[probe.stage_index].beat == "BRIDGE" and probe.stages[5].number == 6
    assert [x.beat for x in st.stages][4] == "FIND" and st.stages[4].number == 5
    assert st.reshaped == []


def _step(s) -> None:
    s.give(RunStage) if s.state.phase == "brief" else s.give(Approve)


def test_a_later_option_every_draw_poses_is_named_without_a_hedge(new_session, monkeypatch):
    from engine.game import dilemmas

    st = new_session(pitch=PITCH, seed=7, archetype="seller").state
    st.stage_index = 3
    take = [v for v in dilemmas.DECK["stage_6_take"] if v.id == "automate_steward"]
    monkeypatch.setitem(dilemmas.DECK, "stage_6_take", take)
    note = ahead(st, "designer.ship")
    assert "automate the support path to protect margin dearer: " in note
    assert "if it is offered" not in note
