"""The careful CEO (engine.play.careful): forks and event choices by the option's previewed numbers."""

from __future__ import annotations

from dataclasses import replace

from engine.game.models import Dilemma, Option
from engine.game.rules import RULES, resolve
from engine.play import careful
from engine.play.headless import Plan, play
from engine.session.commands import Approve, RunStage


def _at_fork(new_session):
    s = new_session()
    s.give(RunStage)
    s.give(Approve)
    assert s.state.phase == "fork"
    return s


def _cash_rules(state) -> tuple[str, str]:
    """A rule that spends cash now and one that brings cash in (whatever the tuning)."""
    econ, arch = state.economics, state.founder.archetype
    spend = next(
        r.id for r in RULES.values() if resolve(r, econ, arch).get("cash", 0) < 0 and not r.role
    )
    earn = next(
        r.id for r in RULES.values() if resolve(r, econ, arch).get("cash", 0) > 0 and not r.role
    )
    return spend, earn


def test_short_of_cash_it_takes_the_option_that_brings_cash_whichever_letter(new_session):
    s = _at_fork(new_session)
    st = s.state
    st.economics.treasury_usd = 1_500.0  # cash is the nearest defeat line
    from engine.game.economy import recompute

    recompute(st.economics)
    spend, earn = _cash_rules(st)
    for first, second, want in ((spend, earn, "B"), (earn, spend, "A")):
        st.dilemma = Dilemma(
            stage_id=st.stage.id,
            title="t",
            axis="x",
            prompt="p",
            options=[
                Option(key="A", text="a", tradeoff="", rule_id=first),
                Option(key="B", text="b", tradeoff="", rule_id=second),
            ],
        )
        assert careful.fork_choice(st) == want
    # the preview is computed on a copy: the company itself has not moved
    assert st.economics.treasury_usd == 1_500.0


def test_nearest_line_decides_not_the_sum(new_session):
    st = new_session().state
    econ = replace(st.economics, trust=3.0, runway_months=99.0, threat=0.0)
    nearest, total = careful.safety(st, econ)
    assert nearest == 0.03 and total > 2


def test_a_careful_venture_decides_every_fork_and_answers_events_itself(new_session):
    s = new_session(seed=11)
    play(s, Plan(careful=True))
    events = s.events()
    decisions = [e for e in events if e.type == "CEO_DECISION"]
    assert decisions and all(not e.payload["custom"] for e in decisions)
    assert len(decisions) == sum(1 for e in events if e.type == "DILEMMA_POSED")
    answered = [e for e in events if e.type == "WORLD_EVENT_RESOLVED"]
    assert answered and all(not e.payload["by_default"] for e in answered)
    assert careful.event_choice(s.state) is None  # nothing waits once the venture ended
