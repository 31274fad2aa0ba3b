"""Lines that say what happened in this venture, not what happens in every venture: a decision's
consequence with the numbers it moved at this company, a later effect as it lands, and a shipped
stage's note with its worker, company, day, rejections and score. A rule's summary alone ("The
company takes a corner of the market the rival ignores.") reads the same in every venture that
chose it; the same summary going on "— at Meal Kits Co, paying customers rose from 19 to 27." is
this venture's. Pure functions of their inputs, so a replay words every line exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.game.economy import METER_NAMES, METERS, meter_shown
from engine.game.models import Economics
from engine.language.grammar import count, join_prose, possessive
from worldforge_textkit.numbers import money


def _whole(n: float) -> str:
    return f"{round(n):,}"


# The amounts a receipt shows beside the meters, each with its name in prose, how a value is
# written and what follows it.
_MONEY: tuple[tuple[str, str, Callable[[float], str], str], ...] = (
    ("paying_customers", "paying customers", _whole, ""),
    ("monthly_revenue_usd", "revenue", money, " a month"),
    ("treasury_usd", "cash", money, ""),
    ("monthly_burn_usd", "burn", money, " a month"),
)


def _moves(before: Economics, after: Economics) -> list[tuple[float, str]]:
    """Every number that moved, with its weight: a meter by its points as shown (ten points weigh
    1), money and customers by the share of where they stood (a third weighs 1)."""
    found: list[tuple[float, str]] = []
    for field in METERS:
        a, b = meter_shown(field, getattr(before, field)), meter_shown(field, getattr(after, field))
        if a != b:
            verb = "rose" if b > a else "fell"
            found.append((abs(b - a) / 10, f"{METER_NAMES[field]} {verb} from {a} to {b}"))
    for field, name, show, per in _MONEY:
        was, now = float(getattr(before, field)), float(getattr(after, field))
        if round(was) != round(now):
            verb = "rose" if now > was else "fell"
            weight = abs(now - was) / max(abs(was), 1.0) * 3
            found.append((weight, f"{name} {verb} from {show(was)} to {show(now)}{per}"))
    return found


def moved(before: Economics, after: Economics, limit: int = 2) -> list[str]:
    """The numbers that moved most, biggest first ("cash fell from $34,646 to $29,446")."""
    found = sorted(_moves(before, after), key=lambda m: -m[0])
    return [text for _, text in found[:limit]]


def consequence_line(
    summary: str, company: str, before: Economics, after: Economics, later: str = ""
) -> str:
    """A rule's summary told of this company: what it moved here, or when it lands ("at stage 3
    (GO): …" from engine.game.pending) when nothing moved yet."""
    head = summary.strip().rstrip(".")
    numbers = moved(before, after)
    if numbers:
        tail = f"at {company}, {join_prose(numbers)}"
    elif later:
        when = later.split(":")[0].strip().removeprefix("at ")  # "at stage 3 (GO): …"
        tail = f"nothing on {possessive(company)} books moves until {when}"
    else:
        tail = f"nothing on {possessive(company)} books moved"
    return f"{head} — {tail}."


def landed_line(decided: str, company: str, before: Economics, after: Economics) -> str:
    """A decision's later effect as it lands, with what it moved at this company ("Your earlier
    call, to flank the rival, lands at Meal Kits Co: threat rose from 31 to 39."); the commas
    keep a call that ends in "now" from reading "now lands"."""
    numbers = moved(before, after)
    if not numbers:
        return f"Your earlier call, to {decided}, lands at {company}, and no number moves."
    return f"Your earlier call, to {decided}, lands at {company}: {join_prose(numbers)}."


def both_summary(summaries: list[str]) -> str:
    """An answer of both options in one sentence ("Both: The company positions itself head-on
    against the rival, and the company takes a corner …"), so it runs on into what it moved."""
    parts = [x.strip().rstrip(".") for x in summaries]
    rest = [x[:1].lower() + x[1:] for x in parts[1:]]
    return "Both: " + ", and ".join([parts[0], *rest]) + "."


def shipped_note(
    beat: str, title: str, worker: str, score: int, redos: int, day: int, company: str, goal: str
) -> str:
    """The note a shipped stage leaves in memory, one sentence: who shipped what for which
    company, on which day, after how many redos, with what score, and the goal it answered (the
    stage's own goal, without the pressure of the moment the board's goal leads with)."""
    tries = f"after {count(redos, 'rejection')}" if redos else "at the first attempt"
    aim = goal.strip().rstrip(".")
    aim = aim[:1].lower() + aim[1:]
    return (
        f"{worker} shipped {beat} '{title}' for {company} on day {day} {tries}, "
        f"scoring {score}/100; the goal was to {aim}."
    )
