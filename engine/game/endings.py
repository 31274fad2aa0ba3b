"""Endings and the final score: which story the venture ends with, and a 0-100 score with a letter
computed from the final company (profitability, runway, trust, market share, ownership outcome).

Endings are rows checked in order: the first whose condition holds is the ending.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.game.economy import profitable
from engine.game.models import Economics, GameState, Outcome

GRADES = ((85, "A"), (70, "B"), (55, "C"), (40, "D"), (0, "F"))


@dataclass(frozen=True)
class Ending:
    id: str
    result: str  # victory or defeat
    title: str
    when: Callable[[GameState, str | None], bool]  # (state, defeat kind or None)
    story: str  # formatted with the facts below


def _owner(st: GameState) -> str:
    last = st.stages[-1].decision
    return last.rule_id if last else ""


ENDINGS: tuple[Ending, ...] = (
    Ending(
        "bankrupt",
        "defeat",
        "Out of cash",
        lambda st, d: d == "bankrupt",
        "Day {day}, stage {stage}: revenue ${revenue}/mo against burn ${burn}/mo.",
    ),
    Ending(
        "trust_collapse",
        "defeat",
        "Trust collapsed",
        lambda st, d: d == "trust",
        "Day {day}, stage {stage}: trust reached 0 with {runway}.",
    ),
    Ending(
        "burnout",
        "defeat",
        "The team broke",
        lambda st, d: d == "burnout",
        "Day {day}, stage {stage}: strain reached 100 with {runway}.",
    ),
    Ending(
        "overrun",
        "defeat",
        "The rival took the market",
        lambda st, d: d == "rival",
        "Day {day}, stage {stage}: {rival}'s threat reached 100 with {runway}.",
    ),
    Ending(
        "commons",
        "victory",
        "A cooperative that pays its way",
        lambda st, d: (
            _owner(st) in ("ops.cooperative", "change.steward") and profitable(st.economics)
        ),
        "{company} is owned by the people who run it and is profitable: revenue ${revenue}/mo "
        "against burn ${burn}/mo.",
    ),
    Ending(
        "rocket",
        "victory",
        "Growth at a price",
        lambda st, d: _owner(st) in ("ops.shareholder", "change.partner"),
        "{company} took outside money and is {profit}: {runway}. Trust {trust}/100.",
    ),
    Ending(
        "independent",
        "victory",
        "Profitable and independent",
        lambda st, d: profitable(st.economics),
        "{company} pays its own way: revenue ${revenue}/mo against burn ${burn}/mo.",
    ),
    Ending(
        "survivor",
        "victory",
        "Still standing",
        lambda st, d: True,
        "{company} survived the eight stages but is not yet profitable: revenue ${revenue}/mo "
        "against burn ${burn}/mo, {runway}.",
    ),
)


def score(econ: Economics, st: GameState, result: str) -> int:
    """0-100 from the final company; a defeat scores at most 35, less the earlier it came."""
    margin = econ.monthly_revenue_usd / econ.monthly_burn_usd if econ.monthly_burn_usd else 1.0
    runway = 12.0 if profitable(econ) else min(12.0, econ.runway_months)
    ownership = econ.autonomy
    raw = (
        30 * min(1.0, margin)
        + 20 * runway / 12
        + 20 * econ.trust / 100
        + 15 * min(1.0, econ.market_share / 30)
        + 15 * ownership / 100
    )
    if result == "defeat":
        done = sum(1 for s in st.stages if s.decision) / len(st.stages)
        raw = min(35.0, raw * 0.5 + 15 * done)
    return max(0, min(100, round(raw)))


def grade(points: int) -> str:
    return next(letter for floor, letter in GRADES if points >= floor)


def finish(st: GameState, defeat_kind: str | None, reason: str | None) -> Outcome:
    """The outcome of a venture that just ended (a defeat of `defeat_kind`, or the last fork)."""
    econ = st.economics
    ending = next(e for e in ENDINGS if e.when(st, defeat_kind))
    runway = (
        "revenue covering burn"
        if profitable(econ)
        else f"{econ.runway_months:.1f} months of runway left"
    )
    facts = {
        "day": st.day,
        "stage": min(st.stage_index + 1, len(st.stages)),
        "revenue": f"{econ.monthly_revenue_usd:,.0f}",
        "burn": f"{econ.monthly_burn_usd:,.0f}",
        "rival": st.antagonist.name,
        "company": st.founder.company,
        "profit": "profitable" if profitable(econ) else "not yet profitable",
        "runway": runway,
        "trust": f"{econ.trust:.0f}",
    }
    story = ending.story.format(**facts)
    text = f"{ending.title}: {story}" if ending.result == "victory" else f"{reason} {story}"
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
