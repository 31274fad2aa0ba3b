"""Each founder archetype has a kind of move (a rule tag) that pays it something extra
(engine.game.archetypes.Archetype.tag_effects): the same option is worth more to one founder, the
option shows it, and the receipt applies exactly what the option showed."""

from __future__ import annotations

import copy

from engine.game.archetypes import ARCHETYPE_RULES
from engine.game.economy import founding_org, initial_economics
from engine.game.rules import RULES, preview, resolve
from engine.session.commands import Approve, RunStage


def _econ():
    return initial_economics(founding_org())


def test_every_archetype_has_a_kind_of_move_that_some_offered_rule_is():
    offered_tags = {t for r in RULES.values() if r.offered for t in r.tags}
    for arch in ARCHETYPE_RULES.values():
        assert arch.tag_effects, arch.id
        assert set(arch.tag_effects) <= offered_tags, arch.id


def test_a_slow_move_saves_a_builder_cash_and_nobody_else():
    slow = RULES["founder.craft"]  # slow, cash -4,000 for anyone
    assert "slow" in slow.tags
    econ = _econ()
    assert resolve(slow, econ, "builder")["cash"] == -4_000 + 2_500
    assert resolve(slow, econ, "operator")["cash"] == -4_000


def test_a_premium_move_brings_a_seller_more_cash_after_its_factor():
    premium = RULES["go.premium"]  # premium, cash +1,000
    econ = _econ()
    # the extra joins the base before the seller's cash factor x1.3
    assert resolve(premium, econ, "seller")["cash"] == round((1_000 + 2_500) * 1.3)
    assert resolve(premium, econ, "builder")["cash"] == 1_000


def test_a_cold_move_eases_an_operators_strain_and_a_move_of_another_kind_does_not():
    cold, other = RULES["return.retain"], RULES["ops.shareholder"]
    assert "cold" in cold.tags and "cold" not in other.tags
    econ = _econ()
    # a designer has no strain factor: its strain is the rule's own (base and scalings)
    raw = resolve(cold, econ, "designer")["burn_pressure"]
    eased = raw + ARCHETYPE_RULES["operator"].tag_effects["cold"]["burn_pressure"]
    assert eased < raw
    assert resolve(cold, econ, "operator")["burn_pressure"] == round(
        eased * (0.7 if eased > 0 else 1.0), 1
    )
    raw = resolve(other, econ, "designer")["burn_pressure"]
    assert resolve(other, econ, "operator")["burn_pressure"] == round(raw * 0.7, 1)


def test_the_fork_shows_the_founders_extra_and_the_receipt_applies_it(new_session):
    s = new_session(seed=7, archetype="builder")
    s.give(RunStage)
    s.give(Approve)
    st = s.state
    assert st.dilemma is not None and st.stage is not None
    slow = [o for o in st.dilemma.options if "slow" in RULES[o.rule_id].tags]
    assert slow
    for o in slow:
        # the line a builder sees is the rule with the extra, and differs from a seller's view
        assert o.effect_line == preview(st, o.rule_id, st.stage.id)
        seller = copy.deepcopy(st)
        seller.founder.archetype = "seller"
        assert preview(seller, o.rule_id, st.stage.id) != o.effect_line
