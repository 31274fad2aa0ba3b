"""Endings and the final score: which story the venture ends with, and a 0-100 score with a letter
computed from the final company (profitability, runway, trust, market share, ownership outcome).

Endings are rows checked in order: the first whose condition holds is the ending.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.game.models import Economics, GameState, Outcome
from engine.game.rules import RULES
from engine.language.grammar import number_word, possessive
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import numbers

GRADES = ((85, "A"), (70, "B"), (55, "C"), (40, "D"), (0, "F"))


@dataclass(frozen=True, eq=False, repr=False)
class Ending(FrozenRecord):
    """One of the venture's endings: when it applies and the story it tells."""

    id: str
    result: str  # victory or defeat
    title: str
    when: Callable[[GameState, str | None], bool]  # (state, defeat kind or None)
    story: str  # formatted with the facts below
    defeat: str | None = None  # the defeat kind (engine.game.economy.DEFEATS) this ending is


def _lost(id: str, kind: str, title: str, story: str) -> Ending:
    """The ending of one defeat kind."""
    return Ending(id, "defeat", title, lambda st, d: d == kind, story, defeat=kind)


def _owners(st: GameState) -> str | None:
    """Who owns the company after the last fork's decision (its rule's `ownership`)."""
    last = st.stages[-1].decision
    rule = RULES.get(last.rule_id) if last else None
    return rule.ownership if rule else None


ENDINGS: tuple[Ending, ...] = (
    _lost(
        "bankrupt",
        "bankrupt",
        "Out of cash",
        "{company} went down on day {day}, stage {stage}: revenue {revenue}/mo against burn {burn}/mo.",
    ),
    _lost(
        "trust_collapse",
        "trust",
        "Trust collapsed",
        "{company} went down on day {day}, stage {stage}: trust reached 0 with {runway}.",
    ),
    _lost(
        "burnout",
        "burnout",
        "The team broke",
        "{company} went down on day {day}, stage {stage}: strain reached 100 with {runway}.",
    ),
    _lost(
        "overrun",
        "rival",
        "The rival took the market",
        "{company} went down on day {day}, stage {stage}: {rivals} threat reached 100 with {runway}.",
    ),
    Ending(
        "commons",
        "victory",
        "A cooperative that pays its way",
        lambda st, d: _owners(st) == "insiders" and st.economics.profitable,
        "{company} is owned by the people who run it and is profitable: revenue {revenue}/mo "
        "against burn {burn}/mo.",
    ),
    Ending(
        "rocket",
        "victory",
        "Growth at a price",
        lambda st, d: _owners(st) == "outsiders",
        "{company} took outside money and is {profit}: {runway}. Trust {trust}/100.",
    ),
    Ending(
        "independent",
        "victory",
        "Profitable and independent",
        lambda st, d: st.economics.profitable,
        "{company} pays its own way: revenue {revenue}/mo against burn {burn}/mo.",
    ),
    Ending(
        "survivor",
        "victory",
        "Still standing",
        lambda st, d: True,
        "{company} survived all {stages} stages but is not yet profitable: revenue {revenue}/mo "
        "against burn {burn}/mo, {runway}.",
    ),
)


@dataclass(frozen=True, eq=False, repr=False)
class ScorePart(FrozenRecord):
    """points × value ÷ scale of the final company; `what` says it in words."""

    points: int
    name: str
    what: str
    value: Callable[[Economics], float]
    scale: float


def _margin(econ: Economics) -> float:
    return econ.monthly_revenue_usd / econ.monthly_burn_usd if econ.monthly_burn_usd else 1.0


SCORE_PARTS: tuple[ScorePart, ...] = (
    ScorePart(30, "margin", "revenue ÷ burn, at most 1", lambda e: min(1.0, _margin(e)), 1),
    ScorePart(
        20,
        "runway",
        "months of runway (12 at most; profitable counts 12) ÷ 12",
        lambda e: 12.0 if e.profitable else min(12.0, e.runway_months),
        12,
    ),
    ScorePart(20, "trust", "trust ÷ 100", lambda e: e.trust, 100),
    ScorePart(
        15, "share", "market share ÷ 30%, at most 1", lambda e: min(1.0, e.market_share / 30), 1
    ),
    ScorePart(15, "ownership", "autonomy ÷ 100", lambda e: e.autonomy, 100),
)
# A defeat: half the points above plus DEFEAT_PER_STAGE × the share of stages decided, capped
# below a C: graded by how far it got (a fall in the last stages can earn a D, an early one an F).
DEFEAT_CAP, DEFEAT_HALF, DEFEAT_PER_STAGE = 54.0, 0.5, 36


def score(econ: Economics, st: GameState, result: str) -> int:
    """0-100 from the final company; a defeat scores at most 54 (a D), less the earlier it came."""
    raw = sum(part.points * part.value(econ) / part.scale for part in SCORE_PARTS)
    if result == "defeat":
        done = sum(1 for s in st.stages if s.decision) / len(st.stages)
        raw = min(DEFEAT_CAP, raw * DEFEAT_HALF + DEFEAT_PER_STAGE * done)
    return max(0, min(100, round(raw)))


def grade(points: int) -> str:
    return next(letter for floor, letter in GRADES if points >= floor)


def finish(st: GameState, defeat_kind: str | None, reason: str | None) -> Outcome:
    """The outcome of a venture that just ended (a defeat of `defeat_kind`, or the last fork)."""
    econ = st.economics
    ending = next(e for e in ENDINGS if e.when(st, defeat_kind))
    runway = (
        "revenue covering burn"
        if econ.profitable
        else f"{numbers.months_said(econ.runway_months)} of runway left"
    )
    facts = {
        "day": st.day,
        "stage": min(st.stage_index + 1, len(st.stages)),
        "stages": number_word(len(st.stages)),  # eight, or nine when the venture added one
        "revenue": numbers.money(econ.monthly_revenue_usd, st.founder.currency),
        "burn": numbers.money(econ.monthly_burn_usd, st.founder.currency),
        "rival": st.antagonist.name,
        "rivals": possessive(st.antagonist.name),  # "Pipeline Partners'", never "Partners's"
        "company": st.founder.company,
        "profit": "profitable" if econ.profitable else "not yet profitable",
        "runway": runway,
        "trust": f"{econ.trust:.0f}",
    }
    story = ending.story.format(**facts)
    # a defeat's reason runs on into the company's own story: one sentence, not a stock line
    # every venture that fell the same way shares ("Strain broke the team.")
    text = (
        f"{ending.title}: {story}"
        if ending.result == "victory"
        else f"{(reason or '').strip().rstrip('.')}, and {story}"
    )
    points = score(econ, st, ending.result)
    return Outcome(
        result=ending.result,  # type: ignore[arg-type]
        reason=text,
        day=st.day,
        ending=ending.id,
        title=ending.title,
        score=points,
        grade=grade(points),
        stage=min(st.stage_index + 1, len(st.stages)),
    )
