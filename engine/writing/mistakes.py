"""The honest mistakes a simulated worker makes under pressure (engine.game.flaws draws which),
made in the field each kind lands in, so the rubric must find them from the artifact alone."""

from __future__ import annotations

import random
import re
from typing import Any

from engine.game.flaws import WRONG_AUDIENCES
from engine.language.grammar import cap, relative
from engine.writing.phrases import Voice
from engine.writing.realise import add_sentence
from worldforge_textkit.patterns import Pattern

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
_PRICE_LINE = Pattern(r"^Pilot price: ")


def inject(role: str, art: dict[str, Any], flaw: str, v: Voice) -> None:
    """Make the mistake the flaw names (the rubric must find it from the artifact alone)."""
    if flaw == "missing_price":
        if role == "designer":
            art["features"] = [f for f in art["features"] if not _PRICE_LINE.match(f)]
        else:
            # the priced sentence goes, the space before the next one stays ("planning.In our")
            art["body"] = " ".join(re.sub(r"[^.]*[$£€][\d,]+[^.]*\.", "", art["body"]).split())
    elif flaw == "over_claim":
        field = TOPIC_FIELDS["claims"][role]
        claim = v.fill("Results guaranteed within a week for every {unit}.")
        art[field] = add_sentence(art[field], claim)
    elif flaw == "wrong_audience":
        wrong = WRONG_AUDIENCES[random.Random(v.seed).randrange(len(WRONG_AUDIENCES))]
        field = TOPIC_FIELDS["audience"][role]
        if role == "strategist":
            art[field] = cap(relative(wrong, "want a simpler week"))
        elif role == "designer":
            art[field] = v.fill("{cap_outcome} for ") + wrong
        else:
            art["subject"] = f"For {wrong}: " + v.fill("{outcome}")
            art["body"] = art["body"].replace(v.slots["customer"], wrong)
