"""The balance targets over many seeds: every fork path of every archetype on each seed of a list
(`worldforge balance`'s explorer), summarised against issue 20's targets. Tune on one list, check on
another you never tuned on. Prints JSON with the load it ran under.

    python -m bench.balance_sweep --seeds 7-14,101-124 --json          # the 32 tuning seeds
    python -m bench.balance_sweep --seeds 301-316 --json               # 16 held-out seeds
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from bench import machine
from engine.play.balance import run_balance

TARGETS: dict[str, Any] = {
    "win_rate_each_archetype": [0.35, 0.65],
    "every_option_sometimes_better": True,  # no fork has an option that is never worse
    "best_fixed_path_max": 0.80,
    "archetypes_change_outcome_min": 0.30,
    "victories_profitable_min": 0.25,
}


def _stderr_progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def seed_list(text: str) -> list[int]:
    """'7-14,101-124' -> [7, ..., 14, 101, ..., 124]."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def figures(report: dict[str, Any]) -> dict[str, Any]:
    """The issue's balance figures from one `run_balance` report, each beside its verdict."""
    by_arch = report["win_rate_by_archetype"]
    forks = [
        {"fork": f["fork"], "better_a": f["better"]["A"], "better_b": f["better"]["B"]}
        for f in report["forks"]
    ]
    never_worse = [f["fork"] for f in forks if min(f["better_a"] or 0, f["better_b"] or 0) == 0]
    grades = report["victory_grades"]
    victories = sum(grades.values())
    out: dict[str, Any] = {
        "win_rate": report["win_rate"],
        "win_rate_by_archetype": by_arch,
        "forks_better_share": forks,
        "forks_with_a_never_worse_option": never_worse,
        "lowest_better_share": min(min(f["better_a"], f["better_b"]) for f in forks),
        "best_fixed_path": report["fixed_paths"]["best"][0],
        "all_a": report["fixed_paths"]["all_a"],
        "all_b": report["fixed_paths"]["all_b"],
        "archetypes_change_outcome": report["archetypes_change_outcome"],
        "victories_profitable": report["victories_profitable"],
        "victories_graded_f": round(grades.get("F", 0) / max(1, victories), 3),
        "victory_grades": grades,
        "defeat_reasons": report["defeat_reasons"],
        "defeats_before_stage_6": report["defeats_before_stage_6"],
        "endings": report["endings"],
    }
    lo, hi = TARGETS["win_rate_each_archetype"]
    out["met"] = {
        "win_rate_each_archetype": all(lo <= v <= hi for v in by_arch.values()),
        "every_option_sometimes_better": not never_worse,
        "best_fixed_path": out["best_fixed_path"]["win_rate"] <= TARGETS["best_fixed_path_max"],
        "archetypes_change_outcome": out["archetypes_change_outcome"]
        >= TARGETS["archetypes_change_outcome_min"],
        "victories_profitable": out["victories_profitable"] >= TARGETS["victories_profitable_min"],
    }
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", default="7-14,101-124", help="seed list, e.g. 7-14,101-124")
    p.add_argument("--workers", type=int, default=None, help="processes (default: 2)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--json", action="store_true", help="one line of JSON")
    a = p.parse_args()
    seeds = seed_list(a.seeds)
    load_before = machine()
    started = time.perf_counter()
    report = run_balance(
        seeds=seeds, workers=a.workers, progress=None if a.quiet else _stderr_progress
    )
    out = {
        "seeds": a.seeds,
        "seed_count": len(seeds),
        "paths": report["paths"],
        "ventures_played": report["ventures_played"],
        **figures(report),
        "targets": TARGETS,
        "elapsed_s": round(time.perf_counter() - started, 1),
        "workers": report["workers"],
        "machine": {"before": load_before, "after": machine()},
    }
    print(json.dumps(out, indent=None if a.json else 2))


if __name__ == "__main__":
    main()
