"""What every number on the board means, and how a venture is won, lost and scored, in words.

The names come from `engine.game.economy.METER_NAMES`, the losing lines from `DEFEATS`, the endings
from `engine.game.endings.ENDINGS` and the score from `SCORE_PARTS`: nothing here restates a number
the engine decides, so the help, the tooltips and the end screen say exactly what the engine does.
Pure Python (no textual), tested without a screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.game.economy import DEFEATS, METER_NAMES, TUNING, Defeat
from worldforge_tui.text.formatting import value_text

if TYPE_CHECKING:
    from engine.game.models import Economics

# engine.game.endings and engine.game.world load the state models: they are imported where the
# text is built (help, tooltips, the end screen), never before the board's first frame.


@dataclass(frozen=True, slots=True)
class Meter:
    """One number on the board: its field, its one name, its status-bar letter, what it means."""

    field: str
    name: str
    short: str  # the compact status bar's label ("" = the value alone)
    meaning: str


def _name(field: str, fallback: str) -> str:
    return METER_NAMES.get(field, fallback)


GLOSSARY: tuple[Meter, ...] = (
    Meter("treasury_usd", "treasury", "", "cash in the bank"),
    Meter(
        "runway_months",
        "runway",
        "rw",
        "months the treasury lasts at today's burn less revenue (∞: revenue covers burn)",
    ),
    Meter("monthly_burn_usd", "burn", "b", "what the team and overhead cost a month"),
    Meter("monthly_revenue_usd", "revenue", "r", "what paying customers bring in a month"),
    Meter("proof", _name("proof", "proof"), "P", "evidence the product works; trust follows it"),
    Meter("trust", _name("trust", "trust"), "T", "customers' and workers' faith in the company"),
    Meter(
        "velocity", _name("velocity", "velocity"), "V", "how fast the team ships; it adds strain"
    ),
    Meter(
        "burn_pressure",
        _name("burn_pressure", "strain"),
        "S",
        "how hard the team is pushed; it rises every day, faster at high velocity",
    ),
    Meter("threat", _name("threat", "threat"), "⚠", "the rival's grip on your market"),
    Meter("autonomy", _name("autonomy", "autonomy"), "", "how much of the company you own"),
)
METER_BY_FIELD = {m.field: m for m in GLOSSARY}


def ending_of(kind: str) -> str:
    """The title of the ending a defeat kind leads to ("The team broke")."""
    from engine.game.endings import ENDINGS

    return next((e.title for e in ENDINGS if e.defeat == kind), kind)


def line_text(defeat: Defeat) -> str:
    """'strain ≥ 100' for one defeat line, in the board's own names and number format."""
    meter = METER_BY_FIELD.get(defeat.field)
    name = meter.name if meter is not None else defeat.field
    op = {"<=": "≤", ">=": "≥"}.get(defeat.test.op, defeat.test.op)
    return f"{name} {op} {value_text(defeat.field, defeat.test.limit)}"


def defeat_of(field: str) -> Defeat | None:
    return next((d for d in DEFEATS if d.field == field), None)


def meaning(meter: Meter) -> str:
    """The meter's meaning, and where it ends the run when it can."""
    line = defeat_of(meter.field)
    if line is None:
        return meter.meaning
    return f"{meter.meaning}; {line_text(line)} ends the run ({ending_of(line.kind)})"


def fatal_text(kind: str) -> str:
    """What a fatal choice's card says: the ending and the line its numbers cross."""
    line = next((d for d in DEFEATS if d.kind == kind), None)
    crossed = f" ({line_text(line)})" if line is not None else ""
    return f"FATAL: these numbers end the run: {ending_of(kind)}{crossed}"


def loss_rule() -> str:
    """When and how a venture is lost, as `engine.session.steps.check_end` applies it."""
    lines = " · ".join(f"{line_text(d)} ({ending_of(d.kind)})" for d in DEFEATS)
    start = int(TUNING["defeat_from_stage"])
    return (
        f"Lose: from stage {start} on, after every step (a stage run, a redo, a decision, an "
        f"event's answer) the first line crossed ends the run: {lines}."
    )


def win_rule() -> str:
    """When a venture is won, as the engine decides it."""
    from engine.game.world import STAGE_IDS

    stages = len(STAGE_IDS)
    closing = int(TUNING["days_per_fork"] + TUNING["days_after_final"])
    return (
        f"Win: decide the last stage's fork (stage {stages}, or {stages - 1} or {stages + 1} when "
        f"the venture skipped or added a stage); the closing {closing} days then pass, and the company "
        "must still be inside every losing line after them (a line crossed then is a defeat)."
    )


def score_rule() -> str:
    """The score formula in words, from the engine's own parts."""
    from engine.game.endings import DEFEAT_CAP, DEFEAT_HALF, DEFEAT_PER_STAGE, GRADES, SCORE_PARTS

    parts = " + ".join(f"{p.points} × ({p.what})" for p in SCORE_PARTS)
    grades = ", ".join(f"{letter} ≥ {floor}" for floor, letter in GRADES if floor)
    return (
        f"Score (0–100): {parts}. A defeat scores {DEFEAT_HALF:g} × that + {DEFEAT_PER_STAGE} × "
        f"the share of forks decided, at most {DEFEAT_CAP:g}. Grades: {grades}, else F."
    )


def score_rows(economics: Economics, defeat_done: float | None = None) -> list[tuple[str, str]]:
    """For the end screen: each score part's points earned by this company ('margin', '18.6/30'),
    and for a defeat (`defeat_done` = the share of forks decided) how the total was cut."""
    from engine.game.endings import DEFEAT_CAP, DEFEAT_HALF, DEFEAT_PER_STAGE, SCORE_PARTS

    rows = []
    total = 0.0
    for part in SCORE_PARTS:
        earned = part.points * part.value(economics) / part.scale
        total += earned
        rows.append((part.name, f"{earned:.1f}/{part.points}"))
    if defeat_done is not None:
        cut = DEFEAT_HALF * total + DEFEAT_PER_STAGE * defeat_done
        how = f"{DEFEAT_HALF:g} × {total:.1f} + {DEFEAT_PER_STAGE} × {defeat_done:.2f} = {cut:.1f}"
        rows.append(("defeat", f"{how} (at most {DEFEAT_CAP:g})"))
    return rows


def meters_tooltip() -> str:
    """The status bar's tooltip: every meter's letter, name and meaning."""
    rows = []
    for meter in GLOSSARY:
        label = f"{meter.short} = {meter.name}" if meter.short else meter.name
        rows.append(f"{label}: {meaning(meter)}")
    rows.append("sparkline: the treasury over game days")
    return "\n".join(rows)
