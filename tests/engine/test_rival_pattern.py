"""The rival reads the CEO's pattern (engine.game.antagonist.pattern): the fork says so once a
kind of move repeats, and a further move of that kind draws the threat it named."""

from __future__ import annotations

import copy

from engine.game.antagonist import PATTERN, move, pattern, pattern_line
from engine.game.models import StageDecision
from engine.game.rules import RULES
from engine.session.commands import Approve, RunStage


def _decide(st, i: int, rule_id: str) -> None:
    st.stages[i].decision = StageDecision(
        rule_id=rule_id, option="A", text="t", variant="v", title="t"
    )


def test_no_pattern_before_a_kind_repeats_then_the_fork_names_it(new_session):
    s = new_session(seed=7)
    s.give(RunStage)
    s.give(Approve)
    st = s.state
    assert pattern(st) is None and pattern_line(st) == ""
    slow = [r.id for r in RULES.values() if "slow" in r.tags][:2]
    _decide(st, 0, slow[0])
    assert pattern(st) is None  # one slow move is no pattern
    _decide(st, 1, slow[1])
    assert pattern(st) == ("slow", 2)
    more = PATTERN["threat"] * (3 - (PATTERN["from"] - 1))
    beats = " and ".join(st.stages[i].beat for i in (0, 1))
    assert pattern_line(st) == (
        f" {st.antagonist.name} has read {st.founder.company}'s pattern (2 slow moves, at "
        f"{beats}): another slow move draws {more:g} more threat."
    )
    assert "pattern" not in st.dilemma.prompt  # posed before the pattern


def test_the_move_that_repeats_the_pattern_draws_exactly_the_named_threat(new_session):
    s = new_session(seed=7)
    s.give(RunStage)
    s.give(Approve)
    st = s.state
    slow = [r.id for r in RULES.values() if "slow" in r.tags]
    other = next(r.id for r in RULES.values() if not r.tags and r.offered)
    _decide(st, 0, slow[0])
    _decide(st, 1, slow[1])
    said = pattern_line(st)
    base, repeat = copy.deepcopy(st), copy.deepcopy(st)
    _decide(base, 2, other)
    _decide(repeat, 2, slow[2])
    st.economics.threat = base.economics.threat = repeat.economics.threat = 20.0
    # the same seeded noise for both: only the pattern's answer (and the rule's own threat) differ
    m_base = move(base, other, st.stages[2].id)
    m_rep = move(repeat, slow[2], st.stages[2].id)
    extra = m_rep.threat_delta - m_base.threat_delta
    own = RULES[slow[2]].threat - RULES[other].threat
    punished = 3 if m_rep.reaction else 0
    assert extra - own - punished == PATTERN["threat"] * 1
    assert f"draws {PATTERN['threat']:g} more threat" in said
