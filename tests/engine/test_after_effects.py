"""What the CEO chose before changes what an option does (a rule's `after` effects): the preview
and the receipt carry it, the hint says why, and the two-forks planner sees its own choice. The
deck draws some dilemmas only in a company's state (FIND's referrals once trust is high)."""

from __future__ import annotations

from engine.game.dilemmas import pose, variant_for
from engine.game.models import StageDecision
from engine.game.rules import RULES, hints, made, preview, preview_after
from engine.play.policies import project


def _decided(state, index: int, rule_id: str) -> None:
    state.stages[index].decision = StageDecision(rule_id=rule_id, option="A", text="")


def test_an_earlier_decision_moves_the_option_and_the_hint_says_why(new_session):
    state = new_session(seed=7, archetype="seller").state
    rule = RULES["ops.automate"]
    combo = next(a for a in rule.after if a.rule == "designer.ship")
    fresh = preview_after(state, rule, "stage_6_take")[0]
    assert combo.why not in hints(rule, state.economics, made(state))
    _decided(state, 3, "designer.ship")
    assert made(state) == {"designer.ship"}
    shipped = preview_after(state, rule, "stage_6_take")[0]
    for field, amount in combo.effects:  # the earlier call's part, through the meter's clamp
        assert (getattr(shipped, field) - getattr(fresh, field)) * amount > 0, field
    assert combo.why in hints(rule, state.economics, made(state))
    _decided(state, 3, "designer.polish")  # another earlier call: no such part
    assert preview(state, rule, "stage_6_take") == preview(
        new_session(seed=7, archetype="seller").state, rule, "stage_6_take"
    )


def test_the_lookahead_planner_reads_its_own_hypothetical_call(new_session):
    state = new_session(seed=7, archetype="seller").state
    state.stage_index = 6
    later = RULES["ops.shareholder"]
    combo = next(a for a in later.after if a.rule == "return.profit_share")
    probe = project(state, "return.profit_share", "stage_7_return")
    assert "return.profit_share" in made(probe)
    # the real company is untouched
    assert made(state) == frozenset() and state.stages[6].decision is None
    assert combo.why in hints(later, probe.economics, made(probe))
    other = project(state, "return.retain", "stage_7_return")
    assert combo.why not in hints(later, other.economics, made(other))


def test_the_deck_draws_the_referral_dilemma_only_when_word_is_spreading(new_session):
    """A larger deck drawn by the company's state: FIND's referrals-or-case-studies dilemma is
    in the pick once trust reaches 45 (for some seeds), and never below; its options are rules
    with every part, offered on their sides."""
    state = new_session(seed=7, archetype="builder").state
    stage = next(s for s in state.stages if s.id == "stage_5_find")
    drawn = {}
    for trust in (30.0, 60.0):
        state.economics.trust = trust
        picks = set()
        for seed in range(1, 41):
            state.seed = seed
            picks.add(variant_for(state, stage).id)
        drawn[trust] = picks
    assert "referrals" not in drawn[30.0]
    assert "referrals" in drawn[60.0] and len(drawn[60.0]) > 1
    state.seed = next(s for s in range(1, 41) if _pick(state, stage, s) == "referrals")
    posed = pose(state, stage)
    assert [RULES[o.rule_id].axis for o in posed.options] == ["word_of_mouth"] * 2
    assert all(o.effect_line and o.text for o in posed.options)


def _pick(state, stage, seed: int) -> str:
    state.seed = seed
    return variant_for(state, stage).id
