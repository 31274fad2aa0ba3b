"""Who served a run's model calls, and why any fell back: the headless output's routing lines.

`simulate` (text and `--json`) and `play` (after the app closes) state the served-by split and
every fallback reason, and warn when a model tier was asked for and none answered, so a dead or
misconfigured endpoint never passes as a played venture. Pure: the caller passes the router's
served counts and the run's ROUTE_FALLBACK payloads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TypedDict

MODEL_TIERS = ("local", "foundry")
SHOWN_REASONS = 6

# One fallback step and how often it happened ("from" is a keyword: the functional form).
Fallback = TypedDict("Fallback", {"from": str, "to": str, "reason": str, "count": int})


class Served(TypedDict):
    """Who served a run's calls (`simulate --json`'s "routing")."""

    asked: str  # the runtime label: simulation | local | live | hybrid
    calls: int
    served_by: dict[str, int]
    model_answered: bool | None  # whether a model tier served a call (None: none was asked)
    fallbacks: list[Fallback]


def served_summary(
    runtime: str, served: Mapping[str, int], fallbacks: Iterable[Mapping[str, object]]
) -> Served:
    """The served-by split and each fallback step with its count, most frequent first."""
    steps = Counter(
        (str(f.get("from_tier")), str(f.get("to_tier")), str(f.get("reason") or "?"))
        for f in fallbacks
    )
    asked = runtime != "simulation"
    answered = sum(served.get(t, 0) for t in MODEL_TIERS)
    return {
        "asked": runtime,
        "calls": sum(served.values()),
        "served_by": dict(sorted(served.items())),
        "model_answered": (answered > 0) if asked else None,
        "fallbacks": [
            {"from": a, "to": b, "reason": why, "count": n}
            for (a, b, why), n in sorted(steps.items(), key=lambda item: (-item[1], item[0]))
        ],
    }


def served_lines(summary: Served) -> list[str]:
    """The text lines: the split, then each fallback reason with its count."""
    split = ", ".join(f"{tier} {n}" for tier, n in summary["served_by"].items()) or "none"
    lines = [f"calls: {summary['calls']} served by {split} (asked for: {summary['asked']})"]
    steps = summary["fallbacks"]
    for step in steps[:SHOWN_REASONS]:
        lines.append(f"  fallback {step['count']}× {step['from']} → {step['to']}: {step['reason']}")
    if len(steps) > SHOWN_REASONS:
        rest = sum(s["count"] for s in steps[SHOWN_REASONS:])
        lines.append(f"  and {rest} more fallbacks for {len(steps) - SHOWN_REASONS} other reasons")
    return lines


def tier_warning(summary: Served) -> str | None:
    """One line when a model tier was asked for and none answered a call, else None (also when
    no call was made: nothing was asked of it yet)."""
    if summary["model_answered"] is not False or not summary["calls"]:
        return None
    reasons = [s["reason"] for s in summary["fallbacks"]]
    # The cause rather than the breaker resting after it: "unreachable (…)", not "cooldown(…)".
    cause = next((r for r in reasons if not r.startswith("cooldown(")), None)
    why = cause or (reasons[0] if reasons else "no call reached it")
    calls = summary["calls"]
    return (
        f"a model tier was asked for ({summary['asked']}) and none answered: "
        f"{'all ' if calls > 1 else ''}{calls} call{'s' * (calls != 1)} fell back to the "
        f"simulation ({why})"
    )
