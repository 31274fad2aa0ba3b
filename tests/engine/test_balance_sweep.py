"""The balance sweep's seed ranges and its standard errors (bench.balance_sweep): the ranges are
sized so a per-archetype figure can be judged, every per-archetype figure is printed with its
standard error, the tuning range splits into halves, and a range run in parts merges to the
figures of one run.

The sweep's functions run in a child process: importing `bench` gives the process a temporary
home of its own (bench/__init__.py), which must not leak into the tests that share this worker."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from engine.game.shape import MAX_FORKS
from engine.play import POLICIES
from engine.play.balance import pairs, play_policy, run_ladder
from tests.bench_child import bench_child

PATHS = 2**MAX_FORKS
ROOT = Path(__file__).resolve().parents[2]
PER_ARCHETYPE = ("random", "greedy", "lookahead", "hindsight", "random_path_mean")


def sweep(*calls: tuple[Any, ...]) -> list[Any]:
    """Each (name, *args) called on bench.balance_sweep in one child process, results in order
    (as JSON reads them back: a dict's number keys are strings); a name that is no function
    gives the module's value of that name."""
    code = (
        "import json, sys\n"
        "from bench import balance_sweep as bs\n"
        "out = []\n"
        "for name, *args in json.load(sys.stdin):\n"
        "    v = getattr(bs, name)\n"
        "    out.append(v(*args) if callable(v) else v)\n"
        "print(json.dumps(out))\n"
    )
    return list(bench_child(code, calls))


def test_the_ranges_are_disjoint_and_sized_to_judge_an_eight_point_gap():
    (ranges,) = sweep(("RANGES",))
    names = ("tune", "held-out", "tune-18", "held-out-18", "tune-a", "tune-b")
    got = sweep(*(("seed_list", ranges[n]) for n in names))
    seeds = dict(zip(names, got, strict=True))
    tune, held = set(seeds["tune"]), set(seeds["held-out"])
    assert len(tune) == len(held) == 300
    assert not tune & held
    # the old ranges keep their seeds under their own names
    assert seeds["tune-18"] == [*range(7, 15), *range(101, 111)]
    assert seeds["held-out-18"] == list(range(401, 419))
    assert set(seeds["tune-18"]) <= tune
    assert not set(seeds["held-out-18"]) & (tune | held)
    # the halves split the tuning range in two of 150, first and second in order
    a, b = seeds["tune-a"], seeds["tune-b"]
    assert a + b == seeds["tune"] and len(a) == len(b) == 150
    # the standard error of a held-out-minus-tune difference near .5: about half of 8 points
    assert math.sqrt(0.5 / len(tune)) < 0.08 / 1.9


def test_standard_errors_are_binomial_for_wins_and_across_seeds_for_shares():
    got = sweep(
        ("standard_error", [1, 0, 1, 0]),
        ("standard_error", [1, 1, 1]),
        ("standard_error", [0.1, 0.3]),
        ("standard_error", [0.5]),
    )
    # sqrt(.5 * .5 / 4); none; the sample sd over sqrt(n); one seed says nothing
    assert got == [0.25, 0.0, round(math.sqrt(0.02 / 2), 3), 0.0]


def _rec(seed: int, archetype: str, won: int, paths_won: int) -> dict[str, int | str]:
    return {
        "seed": seed,
        "archetype": archetype,
        **dict.fromkeys(POLICIES, won),
        "hindsight": int(paths_won > 0),
        "paths_won": paths_won,
    }


def test_each_archetype_figure_is_printed_with_its_standard_error():
    recs = [_rec(s, "seller", s % 2, 128 * (s % 2)) for s in range(1, 5)]
    recs += [_rec(s, "builder", 1, 256) for s in range(1, 5)]
    (out,) = sweep(("with_errors", recs))
    assert list(out) == ["builder", "seller"]  # in the archetypes' order
    for fig in PER_ARCHETYPE:
        assert f"{fig}_se" in out["seller"] and f"{fig}_se" in out["builder"]
    assert out["seller"]["n"] == 4
    assert out["seller"]["greedy"] == 0.5 and out["seller"]["greedy_se"] == 0.25
    assert out["seller"]["random_path_mean"] == 0.125
    assert out["seller"]["random_path_mean_se"] == round(math.sqrt(4 * 0.125**2 / 3 / 4), 3)
    assert out["builder"]["random_path_mean"] == 0.5 and out["builder"]["greedy_se"] == 0.0


def test_the_halves_say_whether_each_archetype_holds_between_them():
    seeds = list(range(1, 9))
    same = [_rec(s, "seller", s % 2, 100) for s in seeds]
    # the second half's greedy wins everything, the first half's half of it: 50 points apart
    moved = [_rec(s, "seller", 1 if s > 4 else s % 2, 100) for s in seeds]
    out, moved_out = sweep(("halves", same, seeds), ("halves", moved, seeds))
    assert out["first"] == "1-4" and out["second"] == "5-8"
    assert out["difference"]["seller"]["greedy"]["diff"] == 0.0 and out["within"]
    out = moved_out
    assert out["difference"]["seller"]["greedy"] == {"diff": 0.5, "se": 0.25}
    assert not out["within"]


def test_pairs_count_every_path_a_row_stands_for():
    """A venture that ended before its last fork stands for every path sharing its prefix."""
    played = [[play_policy(7, "seller", p) for p in POLICIES]]
    base = {"seed": 7, "archetype": "seller"}
    rows = [
        {**base, "prefix": "A", "result": "victory"},  # half the paths
        {**base, "prefix": "BA", "result": "victory"},  # a quarter
        {**base, "prefix": "BB", "result": "defeat"},
    ]
    (rec,) = pairs(rows, played)
    assert rec["paths_won"] == PATHS // 2 + PATHS // 4 and rec["hindsight"] == 1
    for i, p in enumerate(POLICIES):
        assert rec[p] == int(played[0][i]["result"] == "victory")


def test_the_quick_ladder_plays_the_same_players_as_the_full_sweep():
    recs = run_ladder([7], workers=1, archetypes=["seller", "operator"])
    assert [(r["seed"], r["archetype"]) for r in recs] == [(7, "seller"), (7, "operator")]
    for r in recs:
        assert "paths_won" not in r and "hindsight" not in r
        for p in POLICIES:
            assert r[p] == int(play_policy(7, str(r["archetype"]), p)["result"] == "victory")


def _part(seeds: str, recs: list[dict[str, int | str]], **figs: object) -> dict[str, object]:
    fork = {"fork": 1, "histories": 10, "better_a": 0.5, "better_b": 0.5}
    return {
        "seeds": seeds,
        "pair_records": recs,
        "paths": len(recs) * PATHS,
        "forks_better_share": [fork],
        "best_fixed_path": {"path": "A" * MAX_FORKS, "win_rate": 0.5},
        "met": {},
        **figs,
    }


def test_a_range_run_in_parts_merges_to_one_runs_figures():
    a = [_rec(s, "seller", 1, 200) for s in (1, 2)]
    b = [_rec(s, "seller", 0, 100) for s in (3, 4)]
    figs = {"archetypes_change_outcome": 0.5, "paths_graded_f": 0.2, "victories_profitable": 0.4}
    first = _part("1-2", a, defeat_stages={"4": 300, "8": 324}, defeats_at_last_stage=0.5, **figs)
    second = _part("3-4", b, defeat_stages={"8": 824}, defeats_at_last_stage=0.1, **figs)
    ladder_recs = [{"seed": s, "archetype": "seller", **dict.fromkeys(POLICIES, 0)} for s in (5, 6)]
    quick = {"seeds": "5-6", "pair_records": ladder_recs}
    out, mixed, quick_only = sweep(
        ("merge", [first, second]), ("merge", [first, second, quick]), ("merge", [quick])
    )
    assert quick_only["mode"].startswith("merged, ladder-only") and quick_only["seeds"] == "5-6"
    assert quick_only["by_archetype"]["seller"]["greedy"] == 0.0
    assert "random_path_mean" not in quick_only["by_archetype"]["seller"]
    assert out["seeds"] == "1-4" and out["paths"] == 4 * PATHS
    assert out["ladder"]["greedy"] == 0.5 and out["ladder"]["se"]["greedy"] == 0.25
    assert out["ladder"]["random_path_mean"] == round(600 / (4 * PATHS), 3)
    assert out["defeat_stages"] == {"4": 300, "8": 1148}
    assert out["defeats_before_stage_6"] == round(300 / 1448, 3)
    assert out["defeats_at_last_stage"] == round((0.5 * 624 + 0.1 * 824) / 1448, 3)
    assert out["halves"]["difference"]["seller"]["greedy"]["diff"] == -1.0
    # a ladder-only part adds its players, not its paths
    out = mixed
    assert out["path_figures_over"] == "1-4" and out["seed_count"] == 6
    assert out["by_archetype"]["seller"]["n"] == 6
    assert out["by_archetype"]["seller"]["n_explored"] == 4
    assert out["ladder"]["greedy"] == pytest.approx(2 / 6, abs=1e-3)
