"""Balance: play every fork path (always approving, events on their defaults) for each founder
archetype and seed, and report what a designer needs: win rate, defeat reasons and days, each
fork's option win rates and how often each option is the better one given the earlier choices,
the best and worst fixed paths, and how often the archetype changes the outcome.

Paths share their prefixes: a venture is played up to a fork, then each option's sub-tree is played
from there in turn (the save rolled back to a savepoint and the state to a copy in between), so
256 paths cost 255 stage plays, not 2,048.
A path that ends before its last fork stands for every path sharing its prefix. The sessions
explore (`GameSession.explore`): they keep no log, save no state and run no standups, none of
which the outcome reads. Jobs (one per seed, archetype and first choice) run in worker processes;
results are merged in a fixed order, so the report is the same however many processes ran.
"""

from __future__ import annotations

import itertools
import os
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, TypedDict

from engine.game.models import ARCHETYPES
from engine.game.shape import MAX_FORKS
from engine.play import POLICIES, policies
from engine.session.commands import AnswerEvent, Approve, Decide, RunStage

if TYPE_CHECKING:  # the session is imported where a job runs (its import is the engine's)
    from engine.session.api import GameSession

PITCH = "A booking and invoicing assistant for independent physiotherapy clinics"
# Every fixed path: one letter per fork of the longest venture (a venture with fewer forks reads
# its first letters; engine.game.shape adds or skips a stage by the company's state).
ALL_PATHS = ["".join(p) for p in itertools.product("AB", repeat=MAX_FORKS)]
ECON_KEYS = (
    "treasury_usd",
    "monthly_burn_usd",
    "monthly_revenue_usd",
    "runway_months",
    "trust",
    "burn_pressure",
    "threat",
    "market_share",
    "profitable",
)


class Row(TypedDict):
    """One venture's ending, for every path sharing its `prefix` (the choices it played)."""

    prefix: str
    seed: int
    archetype: str
    result: str
    ending: str
    reason: str
    day: int
    stage: int
    score: int
    grade: str
    economics: dict[str, float | bool | None]
    rules: list[str]
    dilemmas: list[str]
    events: list[str]
    forks: int  # the venture's forks: its stages, after any added or skipped (engine.game.shape)
    reshaped: list[str]  # how it changed shape, if it did


class PathRow(Row):
    """A row for one full path: a letter for each fork of the longest venture."""

    path: str


def _to_fork(session: GameSession) -> None:
    """Play (approving, events on their defaults) until the next fork or the end."""
    while session.state.phase not in ("fork", "ended"):
        if session.state.phase == "brief":
            session.give(RunStage)
        else:
            session.give(Approve)


def _row(session: GameSession, prefix: str, archetype: str, seed: int) -> Row:
    st = session.state
    o = st.outcome
    assert o is not None
    return {
        "prefix": prefix,
        "seed": seed,
        "archetype": archetype,
        "result": o.result,
        "ending": o.ending,
        "reason": o.title,
        "day": o.day,
        "stage": o.stage,
        "score": o.score,
        "grade": o.grade,
        "economics": {k: st.economics.shown()[k] for k in ECON_KEYS},
        "rules": [s.decision.rule_id for s in st.stages if s.decision],
        "dilemmas": [s.decision.variant for s in st.stages if s.decision],
        "events": [e.kind for e in st.world_events],
        "forks": len(st.stages),
        "reshaped": [r.kind for r in st.reshaped],
    }


def _venture(seed: int, archetype: str, pitch: str) -> GameSession:
    """A venture founded as any is, exploring from here on (it keeps no log)."""
    from engine.config import Settings
    from engine.routing import Router
    from engine.session.api import GameSession
    from worldforge_savedb.db import connect

    root = GameSession.start_venture(
        pitch=pitch,
        name="Balance Co",
        archetype=archetype,
        seed=seed,
        router=Router(Settings(demo_mode="simulation")),
        conn=connect(":memory:"),
        save_dir="/nonexistent-balance",
    )
    root.explore = True
    return root


def play_policy(seed: int, archetype: str, policy: str, pitch: str = PITCH) -> Row:
    """One whole venture played by a player of the skill ladder (engine.play.policies): its
    forks and event choices by the policy, every gate approved."""
    session = _venture(seed, archetype, pitch)
    path = ""
    while session.state.phase != "ended":
        st = session.state
        if st.phase == "fork":
            key = policies.fork_choice(policy, st)
            path += key
            session.give(Decide, key)
        elif st.phase == "brief" and (key_ev := policies.event_choice(policy, st)) is not None:
            session.give(AnswerEvent, key_ev)
        elif st.phase == "brief":
            session.give(RunStage)
        else:
            session.give(Approve)
    row = _row(session, path, archetype, seed)
    session.close()
    return row


def explore(seed: int, archetype: str, pitch: str = PITCH, prefix: str = "") -> list[Row]:
    """Every fork path of one (seed, archetype) that starts with `prefix`, depth first; one row
    per distinct ending prefix. A venture that ends before its `prefix` is played out is reported
    once, by the job whose remaining prefix is all A."""
    from worldforge_savedb.db import transaction

    rows: list[Row] = []

    def walk(session: GameSession, prefix: str) -> None:
        _to_fork(session)
        if session.state.phase == "ended":
            rows.append(_row(session, prefix, archetype, seed))
            return
        back = session.mark()
        session.give(Decide, "A")
        walk(session, prefix + "A")
        back()
        session.give(Decide, "B")
        walk(session, prefix + "B")

    root = _venture(seed, archetype, pitch)
    for i, choice in enumerate(prefix):
        _to_fork(root)
        if root.state.phase == "ended":
            if set(prefix[i:]) == {"A"}:
                rows.append(_row(root, prefix[:i], archetype, seed))
            root.close()
            return rows
        root.give(Decide, choice)
    # one transaction round the walk: each command's own joins it, and the savepoints nest in it
    with transaction(root.conn):
        walk(root, prefix)
    root.close()
    return rows


def _explore_job(job: tuple[int, str, str, str]) -> list[Row]:
    return explore(*job)


def _policy_job(job: tuple[int, str, str]) -> list[Row]:
    """Each player of the skill ladder's venture on one (seed, archetype), in POLICIES order."""
    seed, archetype, pitch = job
    return [play_policy(seed, archetype, policy, pitch) for policy in POLICIES]


def _share(hits: int, total: int) -> float:
    return round(hits / max(1, total), 3)


Pair = dict[str, int | str]  # one (seed, archetype)'s outcomes: `pairs` says what it holds


def pairs(rows: list[Row], played: list[list[Row]]) -> list[Pair]:
    """One record per (seed, archetype), in `played`'s order: each policy's result (1 a victory),
    hindsight's (some path wins) and `paths_won`, how many of the 2**MAX_FORKS fork paths win
    (a row that ended before its last letter stands for all its suffixes). The sweep's standard
    errors and its halves are read from these."""
    won: Counter[tuple[int, str]] = Counter()
    for r in rows:
        if r["result"] == "victory":
            won[(r["seed"], r["archetype"])] += 2 ** (MAX_FORKS - len(r["prefix"]))
    out: list[Pair] = []
    for p in played:
        if not p:
            continue
        key = (p[0]["seed"], p[0]["archetype"])
        out.append(
            {
                "seed": key[0],
                "archetype": key[1],
                **{policy: int(p[i]["result"] == "victory") for i, policy in enumerate(POLICIES)},
                "hindsight": int(won[key] > 0),
                "paths_won": won[key],
            }
        )
    return out


def ladder(rows: list[Row], played: list[list[Row]]) -> dict[str, Any]:
    """The skill ladder's win rates over the (seed, archetype) pairs: each policy's venture, the
    hindsight player (some path wins) and a uniformly random fork path (the mean over every path,
    events on their defaults); `by_archetype` holds the same figures over each founder
    archetype's pairs alone."""
    recs = pairs(rows, played)
    out: dict[str, object] = {**ladder_over(recs)}
    out["pairs"] = len(played)
    archetypes = sorted({r["archetype"] for r in recs}, key=ARCHETYPES.index)
    out["by_archetype"] = {
        a: ladder_over([r for r in recs if r["archetype"] == a]) for a in archetypes
    }
    return out


def ladder_over(recs: list[Pair]) -> dict[str, float]:
    """Each policy's win rate over these pairs' ventures, hindsight's and a random path's."""

    def total(key: str) -> int:
        return sum(int(r[key]) for r in recs)

    out = {policy: _share(total(policy), len(recs)) for policy in POLICIES}
    out["hindsight"] = _share(total("hindsight"), len(recs))
    out["random_path_mean"] = _share(total("paths_won"), len(recs) * len(ALL_PATHS))
    return out


def expand(rows: list[Row]) -> Iterator[PathRow]:
    """One row per full path of MAX_FORKS letters (a venture that ended before its last letter,
    early or with fewer forks, stands for all its suffixes)."""
    for r in rows:
        for tail in itertools.product("AB", repeat=MAX_FORKS - len(r["prefix"])):
            yield {**r, "path": r["prefix"] + "".join(tail)}


def fork_stats(paths: list[PathRow]) -> list[dict[str, Any]]:
    """Per fork: each option's win rate where the fork is reached, and how often each option is
    the better one (higher win rate over the continuations) given the same earlier choices."""
    out = []
    for k in range(MAX_FORKS):
        groups: dict[tuple[int, str, str], dict[str, list[int]]] = defaultdict(
            lambda: {"A": [], "B": []}
        )
        for r in paths:
            if len(r["prefix"]) <= k:  # ended before this fork: the fork is never reached
                continue
            groups[(r["seed"], r["archetype"], r["path"][:k])][r["path"][k]].append(
                r["result"] == "victory"
            )
        better: Counter[str] = Counter()
        wins = {"A": [0, 0], "B": [0, 0]}
        for g in groups.values():
            rate = {o: sum(v) / len(v) for o, v in g.items()}
            better["A" if rate["A"] > rate["B"] else "B" if rate["B"] > rate["A"] else "tie"] += 1
            for o, v in g.items():
                wins[o][0] += sum(v)
                wins[o][1] += len(v)
        n = len(groups)
        out.append(
            {
                "fork": k + 1,
                "histories": n,
                "win_rate": {o: round(w / t, 3) if t else None for o, (w, t) in wins.items()},
                "better": {o: round(better[o] / n, 3) if n else None for o in ("A", "B", "tie")},
            }
        )
    return out


def summarise(
    rows: list[Row],
    seeds: list[int],
    archetypes: list[str],
    elapsed: float,
    workers: int,
) -> dict[str, Any]:
    paths = list(expand(rows))
    total = len(paths)
    wins = sum(r["result"] == "victory" for r in paths)
    defeats = [r for r in rows if r["result"] == "defeat"]
    d_paths = [r for r in paths if r["result"] == "defeat"]
    combos = [(s, a) for s in seeds for a in archetypes]
    by_path: dict[str, int] = Counter()
    for r in paths:
        by_path[r["path"]] += r["result"] == "victory"
    rate = {p: round(by_path[p] / len(combos), 3) for p in ALL_PATHS}
    ranked = sorted(ALL_PATHS, key=lambda p: (-rate[p], p))
    outcome_sets: dict[tuple[int, str], set[str]] = defaultdict(set)
    for r in paths:
        outcome_sets[(r["seed"], r["path"])].add(r["result"])
    changed = sum(len(v) > 1 for v in outcome_sets.values())
    full = [r for r in rows if len(r["dilemmas"]) == r["forks"]]
    last = sum(r["stage"] == r["forks"] for r in d_paths)
    distinct = [len(set(r["dilemmas"])) for r in full]
    days = [r["day"] for r in d_paths]
    return {
        "seeds": seeds,
        "archetypes": archetypes,
        "paths": total,
        "ventures_played": len(rows),
        "victories": wins,
        "defeats": total - wins,
        "win_rate": round(wins / total, 3),
        "defeat_reasons": dict(Counter(r["reason"] for r in d_paths).most_common()),
        "defeat_stages": dict(sorted(Counter(r["stage"] for r in d_paths).items())),
        "defeat_days": {"min": min(days), "median": statistics.median(days), "max": max(days)}
        if days
        else None,
        "defeats_at_last_stage": round(last / len(d_paths), 3) if d_paths else 0.0,
        "defeats_before_stage_6": round(sum(r["stage"] < 6 for r in d_paths) / len(d_paths), 3)
        if d_paths
        else 0.0,
        "endings": dict(Counter(r["ending"] for r in paths).most_common()),
        "victories_profitable": round(
            sum(r["economics"]["profitable"] is True for r in paths if r["result"] == "victory")
            / max(1, wins),
            3,
        ),
        "paths_graded_f": round(sum(r["grade"] == "F" for r in paths) / max(1, total), 3),
        "victory_grades": dict(
            sorted(Counter(r["grade"] for r in paths if r["result"] == "victory").items())
        ),
        "score_median": statistics.median(r["score"] for r in paths),
        "forks": fork_stats(paths),
        "fixed_paths": {
            "best": [{"path": p, "win_rate": rate[p]} for p in ranked[:3]],
            "worst": [{"path": p, "win_rate": rate[p]} for p in ranked[-3:]],
            "max_win_rate": rate[ranked[0]],
            "all_a": rate["A" * MAX_FORKS],
            "all_b": rate["B" * MAX_FORKS],
        },
        "archetypes_change_outcome": round(changed / len(outcome_sets), 3),
        "win_rate_by_archetype": {
            a: round(
                sum(r["result"] == "victory" for r in paths if r["archetype"] == a)
                / max(1, sum(r["archetype"] == a for r in paths)),
                3,
            )
            for a in archetypes
        },
        "distinct_dilemmas_per_venture": {"min": min(distinct), "max": max(distinct)}
        if distinct
        else None,
        # ventures played to their end that met a dilemma twice (none should)
        "dilemmas_repeated": sum(len(set(r["dilemmas"])) < len(r["dilemmas"]) for r in full),
        "rules_fired": dict(sorted(Counter(x for r in rows for x in r["rules"]).items())),
        "events_seen": dict(sorted(Counter(x for r in rows for x in r["events"]).items())),
        "reshaped": round(sum(bool(r["reshaped"]) for r in paths) / max(1, total), 3),
        "reshapes_seen": dict(sorted(Counter(x for r in rows for x in r["reshaped"]).items())),
        "forks_per_venture": dict(sorted(Counter(r["forks"] for r in paths).items())),
        "defeat_ventures": len(defeats),
        "workers": workers,
        "elapsed_s": round(elapsed, 2),
    }


def _forked_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` processes that inherit the engine and the playbook index, loaded once
    here rather than in each of them."""
    import engine.session.api  # noqa: F401 - load once here: forked workers inherit it
    from knowledge.retrieval import default_index

    default_index()
    return ProcessPoolExecutor(max_workers=workers)


def run_balance(
    seed: int = 7,
    pitch: str = PITCH,
    workers: int | None = None,
    *,
    seeds: list[int] | None = None,
    archetypes: list[str] | None = None,
    progress: Callable[[str], None] | None = None,
    rows_out: list[PathRow] | None = None,
) -> dict[str, Any]:
    """Explore every path for each (seed, archetype); `rows_out` receives the per-path rows."""
    started = time.perf_counter()
    seeds = seeds or [seed]
    archetypes = archetypes or list(ARCHETYPES)
    # one job per (seed, archetype, first choice): halves even out the two processes' work
    jobs = [(s, a, pitch, first) for s in seeds for a in archetypes for first in "AB"]
    workers = max(1, min(workers or min(2, os.cpu_count() or 1), len(jobs)))
    parts: list[list[Row]] = []

    def tick(done: int) -> None:
        if progress and time.perf_counter() - started > 1.0:
            progress(
                f"balance: {done}/{len(jobs)} (seed, archetype, first choice) explored, "
                f"{time.perf_counter() - started:.1f} s"
            )

    pjobs = [(s, a, pitch) for s in seeds for a in archetypes]
    played: list[list[Row]] = []
    if workers == 1:
        for i, job in enumerate(jobs, 1):
            parts.append(_explore_job(job))
            tick(i)
        played = [_policy_job(job) for job in pjobs]
    else:
        with _forked_pool(workers) as pool:
            for i, part in enumerate(pool.map(_explore_job, jobs), 1):
                parts.append(part)
                tick(i)
            played = list(pool.map(_policy_job, pjobs))
    rows = [r for part in parts for r in part]
    report = summarise(rows, seeds, archetypes, time.perf_counter() - started, workers)
    report["ladder"] = ladder(rows, played)
    report["pairs"] = pairs(rows, played)
    report["elapsed_s"] = round(time.perf_counter() - started, 2)
    if rows_out is not None:
        rows_out.extend(sorted(expand(rows), key=lambda r: (r["seed"], r["archetype"], r["path"])))
    return report


def run_ladder(
    seeds: list[int],
    pitch: str = PITCH,
    workers: int | None = None,
    archetypes: list[str] | None = None,
) -> list[Pair]:
    """The skill ladder's players alone on each (seed, archetype), no fork path explored (a tenth
    of the sweep's time): one record per pair as `pairs` gives, without hindsight or paths_won."""
    archetypes = archetypes or list(ARCHETYPES)
    pjobs = [(s, a, pitch) for s in seeds for a in archetypes]
    workers = max(1, min(workers or min(2, os.cpu_count() or 1), len(pjobs)))
    if workers == 1:
        played = [_policy_job(job) for job in pjobs]
    else:
        with _forked_pool(workers) as pool:
            played = list(pool.map(_policy_job, pjobs))
    recs = pairs([], played)
    for r in recs:
        del r["hindsight"], r["paths_won"]
    return recs
