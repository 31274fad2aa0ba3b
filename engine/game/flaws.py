"""Honest mistakes: what a worker can get wrong, how often, how the rubric sees it, and what
approving it costs later. Rules as data: a flaw is a row.

The simulation tier draws a flaw from (seed, stage, attempt) with odds that rise under pressure
(thin runway, team strain, a new hire still ramping) and fall for a strong worker (the founder's
own craft). The rubric never trusts that draw: it looks at the artifact itself, so a model tier's
artifact is judged by the same checks.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.game.economy import METER_NAMES, bump
from engine.game.models import Economics, GameState, Stage
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import content_words, has_phrase, words

T = TypeVar("T")


@dataclass(frozen=True, eq=False, repr=False)
class Flaw(FrozenRecord):
    """A flaw an artifact can ship with: roles, the rubric's note, its cost when due."""

    kind: str
    roles: tuple[str, ...]
    note: str  # what the rubric says, in plain words
    cost: dict[str, float]  # meter points lost when an approved flaw comes due
    cost_story: str  # what happened, "{beat}" is the stage it shipped at


FLAWS: dict[str, Flaw] = {
    f.kind: f
    for f in [
        Flaw(
            "missing_price",
            ("designer", "marketer"),
            "names no price: a buyer cannot tell what it costs",
            {"proof": -5, "trust": -2},
            "The {beat} work you approved named no price; pilots stalled at the first invoice",
        ),
        Flaw(
            "over_claim",
            ("strategist", "designer", "marketer", "ops"),
            "promises what the company cannot prove yet ({phrase})",
            {"trust": -8},
            "The over-claim you approved at {beat} came back: early customers asked where the "
            "promised results were",
        ),
        Flaw(
            "wrong_audience",
            ("strategist", "designer", "marketer"),
            "speaks to the wrong audience ({found}) instead of {customer}",
            {"proof": -4, "velocity": -4},
            "The {beat} work you approved spoke to the wrong people; a week of leads went nowhere",
        ),
        Flaw(
            "ignores_decision",
            ("strategist", "designer", "marketer", "ops"),
            "ignores the binding decision ({decision})",
            {"trust": -4, "burn_pressure": 5},
            "The {beat} plan you approved pulled against your own decision; the team spent days "
            "arguing about which one to follow",
        ),
    ]
}

# Odds of a flaw on one attempt (rules as data).
ODDS = {
    "base": 0.07,
    "thin_runway": 0.05,
    "burn_pressure": 0.03,
    "new_hire": 0.03,
    "strong_worker": 0.5,
    "drift": 0.06,  # a seeded DRIFT on an attempt with no other mistake, when memory binds it
}
# How often each kind is the mistake made, relative to the others.
WEIGHT = {"missing_price": 2.0, "over_claim": 2.0, "wrong_audience": 2.0, "ignores_decision": 1.0}
THIN_RUNWAY_MONTHS = 4.0
HIGH_BURN_PRESSURE = 60.0
STRONG_ROLE = {
    "builder": "designer",
    "seller": "marketer",
    "designer": "designer",
    "operator": "ops",
}
PENALTY = 20  # rubric points a flaw costs

OVER_CLAIMS = (
    "guaranteed",
    "guarantee",
    "100 percent",
    "100%",
    "zero churn",
    "overnight",
    "instantly",
    "never fails",
    "best in the world",
    "no risk",
    "risk-free",
    "every single",
    "double your",
    "triple your",
    "10x",
)


def over_claim(text: str) -> str | None:
    """The first over-claim the text makes: said as written ("100%" is never "$100 a month"),
    and a one-word claim as a whole word ("guaranteed", never inside another word)."""
    low, toks = text.lower(), words(text)
    return next(
        (c for c in OVER_CLAIMS if c in low and (has_phrase(toks, c) or not c.isalnum())), None
    )


_PRICE = re.compile(
    r"(?:[$€£¥]\s?\d|\d\s?(?:usd|eur|gbp|dollars|euros|円)|\bper (?:month|seat|"
    r"user|year|week|site|clinic|farm|team)\b|/mo\b|\bfree tier\b)",
    re.IGNORECASE,
)
PRICE_FIELDS = {
    "designer": ("features", "cta_text", "wireframe_notes", "hero_headline"),
    "marketer": ("body", "subject"),
}
AUDIENCE_FIELDS = {
    "strategist": ("target_audience",),
    "designer": ("hero_headline",),
    "marketer": ("subject", "body"),
}
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"")
# Audiences a distracted worker writes for instead of the real customer.
WRONG_AUDIENCES = (
    "small businesses everywhere",
    "busy professionals",
    "enterprise IT buyers",
    "students and hobbyists",
    "retail investors",
)


def odds(state: GameState, stage: Stage) -> float:
    """The chance a first attempt ships a flaw (a redo never ships one): it rises under pressure
    and falls for the founder's own craft. The player sees the pressures, the rubric the flaw."""
    econ = state.economics
    p = ODDS["base"]
    if econ.runway_months < THIN_RUNWAY_MONTHS:
        p += ODDS["thin_runway"]
    if econ.burn_pressure >= HIGH_BURN_PRESSURE:
        p += ODDS["burn_pressure"]
    last = state.receipts[-1] if state.receipts else None
    if (
        last
        and last.org_delta.added_role_id
        and any(
            w.id == last.org_delta.added_role_id and w.active and w.reports_to == stage.worker_id
            for w in state.org
        )
    ):
        p += ODDS["new_hire"]
    if STRONG_ROLE.get(state.founder.archetype) == stage.owner_role:
        p *= ODDS["strong_worker"]
    return p


def draw(state: GameState, stage: Stage, attempt: int, *, bound: bool) -> str | None:
    """Seeded: which flaw (if any) this attempt ships. `bound` says whether recalled memory binds
    this attempt (a seeded DRIFT needs a direction to break). A redo never ships a new flaw."""
    if attempt > 1:
        return None
    history = ",".join(s.decision.rule_id for s in state.stages if s.decision)
    rng = random.Random(f"{state.seed}:{stage.id}:{attempt}:{history}:{state.day}:flaw")
    p = odds(state, stage)
    if rng.random() >= p:
        # a seeded DRIFT: the worker breaks one recalled direction (the gate must catch it)
        return "ignores_decision" if bound and rng.random() < ODDS["drift"] else None
    # every role can over-claim, so there is always a kind to draw
    kinds = [
        k
        for k, f in FLAWS.items()
        if stage.owner_role in f.roles and (k != "ignores_decision" or bound)
    ]
    return rng.choices(kinds, weights=[WEIGHT.get(k, 1.0) for k in kinds])[0]


def drift_target(state: GameState, stage: Stage, candidates: list[T]) -> T | None:
    """The one recalled direction a seeded DRIFT breaks (seeded from the run and the stage)."""
    if not candidates:
        return None
    rng = random.Random(f"{state.seed}:{stage.id}:drift-target")
    return candidates[rng.randrange(len(candidates))]


# ------------------------------------------------------------------ what the rubric sees
def _field_text(artifact: Mapping[str, object], names: tuple[str, ...]) -> str:
    out: list[object] = []
    for n in names:
        v = artifact.get(n)
        out.extend(v if isinstance(v, list) else [v])
    return " ".join(str(x) for x in out if isinstance(x, str | int | float))


def find_flaws(
    role: str, artifact: Mapping[str, object], *, customer: str, drift_note: str | None = None
) -> list[dict[str, str]]:
    """The flaws visible in an artifact, each named in plain words."""
    found: list[dict[str, str]] = []
    if role in PRICE_FIELDS and not _PRICE.search(_field_text(artifact, PRICE_FIELDS[role])):
        found.append({"kind": "missing_price", "note": FLAWS["missing_price"].note})
    prose = _QUOTED.sub(" ", " ".join(_prose(artifact)))  # never the CEO's own quoted words
    claim = over_claim(prose)
    if claim:
        found.append(
            {"kind": "over_claim", "note": FLAWS["over_claim"].note.format(phrase=f"“{claim}”")}
        )
    if role in AUDIENCE_FIELDS:
        audience = _field_text(artifact, AUDIENCE_FIELDS[role])
        need = [w for w in content_words(customer) if len(w) > 2]
        wrong = next(  # written for someone else, even where a customer word is left in it
            (
                w
                for w in WRONG_AUDIENCES
                if w.lower() in audience.lower() and w.lower() not in customer.lower()
            ),
            None,
        )
        if wrong or (need and not any(has_phrase(audience, w) for w in need)):
            note = FLAWS["wrong_audience"].note.format(
                found=wrong or "someone else", customer=customer
            )
            found.append({"kind": "wrong_audience", "note": note})
    if drift_note:
        found.append(
            {
                "kind": "ignores_decision",
                "note": FLAWS["ignores_decision"].note.format(decision=drift_note),
            }
        )
    return found


def _prose(v: object) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, dict):
        return [
            s
            for k, x in v.items()
            if k not in ("follows_decision", "memory_writes", "url")
            for s in _prose(x)
        ]
    if isinstance(v, list):
        return [s for x in v for s in _prose(x)]
    return []


# ------------------------------------------------------------------ the later cost
def plant(state: GameState, stage: Stage, flaws: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Approving a flawed artifact plants its cost; it comes due when the next stage runs."""
    planted = [
        {
            "kind": f["kind"],
            "stage_id": stage.id,
            "beat": stage.beat,
            "due_index": state.stage_index + 1,
        }
        for f in flaws
        if f["kind"] in FLAWS
    ]
    state.planted.extend(planted)
    return planted


def come_due(state: GameState) -> list[dict[str, Any]]:
    """Apply every planted cost now due; return one line and the meter changes for each."""
    due = [p for p in state.planted if p["due_index"] <= state.stage_index]
    state.planted = [p for p in state.planted if p["due_index"] > state.stage_index]
    out: list[dict[str, Any]] = []
    for p in due:
        flaw = FLAWS[p["kind"]]
        econ: Economics = state.economics
        changes = {}
        for k, v in flaw.cost.items():
            changes[k] = bump(econ, k, v)  # clamped and rounded as every meter is
        shown = ", ".join(f"{METER_NAMES.get(k, k)} {v:+g}" for k, v in changes.items())
        out.append(
            {
                "kind": p["kind"],
                "stage_id": p["stage_id"],
                "changes": changes,
                "line": f"{flaw.cost_story.format(beat=p['beat'])} ({shown}).",
            }
        )
    return out
