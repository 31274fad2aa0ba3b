"""No internal phrase in customer copy: a fork option's bound value ("half the backlog, cut", "a
team profit share", "a side-by-side with what they use now") is a note to the team; the simulated
worker says it in the artifact's own voice in the headline, the features, the email's subject and
body, never pasted verbatim, and the gate still finds the direction honoured (beside a place,
whose line is its own: a customer's words with " in " once lost the scope's line to it)."""

from __future__ import annotations

import pytest

from engine.game.adherence import check
from engine.game.dilemmas import option_directions
from engine.game.economy import founding_org, initial_economics
from engine.game.models import Founder
from engine.game.rules import RULES
from engine.game.world import build_stages
from engine.language.directions import Binding, Direction
from engine.writing.simulate import simulate_artifact

# The fields a customer reads: the landing page (designer) and the launch email (marketer).
CUSTOMER_FIELDS = {
    "designer": ("hero_headline", "features", "cta"),
    "marketer": ("subject", "body"),
}
STAGE_OF = {"designer": 3, "marketer": 4}
VENTURES = [
    ("Herbal tea subscriptions for night-shift nurses", "night-shift nurses", "Night Tea Co"),
    ("Tenant screening for small landlords", "small landlords", "Keyfolk"),
    ("Knife sharpening by post for home cooks", "home cooks", "EdgeMail"),
    ("Cold-storage lockers for farmers-market vendors", "farmers-market vendors", "ColdSlot"),
]
FORK_RULES = sorted(r for r, rule in RULES.items() if any(b.value for b in rule.binds))


def _copy(art: dict, role: str) -> str:
    out = []
    for k in CUSTOMER_FIELDS[role]:
        v = art.get(k)
        out += v if isinstance(v, list) else [v] if v else []
    return " ".join(str(x) for x in out).lower()


@pytest.mark.parametrize("role", ["designer", "marketer"])
@pytest.mark.parametrize(("pitch", "customer", "company"), VENTURES)
def test_no_fork_option_value_is_pasted_into_customer_copy(role, pitch, customer, company):
    founder = Founder(
        name="You",
        company=company,
        archetype="operator",
        pitch=pitch,
        customer=customer,
        keywords=pitch.lower().split()[:3],
    )
    stage = build_stages(founding_org())[STAGE_OF[role]]
    econ = initial_economics(founding_org())
    base = Direction(axis="price", value="", amount=40)
    pasted = []
    for seed, rule_id in enumerate(FORK_RULES):
        bound = option_directions(rule_id, base=base, customer=customer, stage="s2")
        bound.append(Direction(axis="place", value="north Bristol"))  # a place keeps its own line
        internal = [d for d in bound if d.axis in ("scope", "channel") and d.value]
        if not internal:
            continue
        art = simulate_artifact(
            role,
            founder=founder,
            stage=stage,
            binding=Binding(rule_id=rule_id, directions=bound),
            economics=econ,
            seed=seed,
            attempt=1,
        )
        copy = _copy(art, role)
        pasted += [(rule_id, d.value) for d in internal if d.value.lower() in copy]
        assert check(role, art, bound) == [], (rule_id, check(role, art, bound))
    assert not pasted, "; ".join(f"{r}: {v}" for r, v in pasted)
