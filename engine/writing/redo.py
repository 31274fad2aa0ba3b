"""The price and channel helpers a simulated worker's first attempt shares with its redo, and the
field each kind of honest mistake lands in. (A redo itself changes exactly what the rejection's
typed directions name: engine.writing.realise, called from engine.writing.simulate.)
"""

from __future__ import annotations

from engine.game.economy import list_price
from engine.game.models import Economics, Stage
from textkit.patterns import Pattern

# Where an honest mistake lands, per role: an over-claim ("claims") and a wrong audience.
TOPIC_FIELDS: dict[str, dict[str, str]] = {
    "audience": {
        "strategist": "target_audience",
        "designer": "hero_headline",
        "marketer": "subject",
        "ops": "nps_plan",
    },
    "claims": {
        "strategist": "value_proposition",
        "designer": "hero_headline",
        "marketer": "body",
        "ops": "nps_plan",
    },
}
CHANNELS = (
    "founder outbound",
    "partner referrals",
    "{place}",
    "a pilot with one {unit}",
    "short how-to videos",
    "a newsletter for {customer}",
)
_PRICE_LINE = Pattern(r"^Pilot price: ")


def price_for(economics: Economics, seed: int, stage: Stage) -> int:
    """The price a worker quotes when no recalled direction names one: the venture's list price
    (engine.game.economy.list_price), not what customers pay now (`economics.arpu_usd`, which a
    named price moves), so a withheld price note takes its price out of the work."""
    return list_price(seed)
