"""Founder archetypes as data: a head start, a modifier on some rule effects, and a kind of move
(a rule tag) that pays this founder something extra, so an option's value depends on who plays it.
The one dilemma variant only an archetype is offered names it (engine/game/dilemmas.py), as its
rule does."""

from __future__ import annotations

from dataclasses import dataclass, field

from worldforge_savedb.records import FrozenRecord


@dataclass(frozen=True, eq=False, repr=False)
class Archetype(FrozenRecord):
    """A founder archetype: its starting meters, its factors on effects and role costs."""

    id: str
    label: str  # the new-venture form's choice
    mechanic: str  # one line the form shows under the choice
    start: dict[str, float] = field(default_factory=dict)  # meter points, cash, revenue at day 0
    effect_mult: dict[str, float] = field(default_factory=dict)  # rule effect field -> factor
    role_cost: float = 1.0  # factor on the monthly cost of roles a decision adds
    # a kind of move (rule tag) -> what it adds for this founder (before the factors above), so
    # it shows in the option's effect line as in the receipt (engine.game.rules.resolve)
    tag_effects: dict[str, dict[str, float]] = field(default_factory=dict)


ARCHETYPE_RULES: dict[str, Archetype] = {
    a.id: a
    for a in [
        Archetype(
            "builder",
            "Builder — ships product",
            "Proof and speed effects x1.3, roles 15% cheaper, a slow careful move saves $2,500; "
            "only a builder can build the MVP in-house.",
            start={"proof": 8, "velocity": 5, "trust": 3},
            effect_mult={"proof": 1.3, "velocity": 1.3},
            role_cost=0.85,
            tag_effects={"slow": {"cash": 2_500}},
        ),
        Archetype(
            "seller",
            "Seller — opens doors",
            "Revenue and cash effects x1.3, trust gains x0.9, a premium move brings $2,500 more; "
            "only a seller can pre-sell annual contracts.",
            start={"revenue": 1_500, "cash": 10_000},
            effect_mult={"revenue": 1.3, "cash": 1.3, "trust+": 0.9},
            tag_effects={"premium": {"cash": 2_500}},
        ),
        Archetype(
            "designer",
            "Designer — crafts experience",
            "Trust effects x1.4 both ways, a trusted but slower start, a slow careful move earns "
            "trust +3; only a designer can co-design.",
            start={"trust": 6, "velocity": -6, "cash": 4_000},
            effect_mult={"trust": 1.4},
            tag_effects={"slow": {"trust": 3}},
        ),
        Archetype(
            "operator",
            "Operator — runs the machine",
            "Strain gains and overhead x0.7, speed gains x0.8, a cold efficient move eases strain "
            "5; only an operator can run the org lean.",
            start={"burn_pressure": -8, "autonomy": 10, "velocity": -4},
            effect_mult={"burn_pressure+": 0.7, "overhead": 0.7, "velocity+": 0.8},
            tag_effects={"cold": {"burn_pressure": -5}},
        ),
    ]
}


def effect_factor(archetype: str, fld: str, value: float) -> float:
    """The archetype's factor for one effect: `field` applies both ways, `field+` to gains only."""
    mult = ARCHETYPE_RULES[archetype].effect_mult
    factor = mult.get(fld, 1.0)
    if value > 0:
        factor *= mult.get(f"{fld}+", 1.0)
    return factor
