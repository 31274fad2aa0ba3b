"""Balance: play every fork path (always approving) and report outcomes and rule coverage.

Paths are split across worker processes (one save file each, on disk); results are merged in path
order, so the report is the same however many processes ran.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from engine.headless import FORKS, Plan, play

PITCH = "A booking and invoicing assistant for independent physiotherapy clinics"
ALL_PATHS = ["".join(p) for p in itertools.product("AB", repeat=FORKS)]


def play_paths(paths: list[str], seed: int, pitch: str, directory: str) -> list[dict[str, Any]]:
    """Play each path as its own run in one save file under `directory`; one row per path."""
    from engine.config import Settings
    from engine.routing import Router
    from engine.session import GameSession
    from memory.db import connect

    router = Router(Settings(demo_mode="simulation"))
    rows = []
    file = Path(directory) / f"balance-{os.getpid()}.db"
    conn = connect(file)  # one save file per process; every venture is its own run in it
    try:
        for path in paths:
            s = GameSession.start_venture(pitch=pitch, name="Balance Co", seed=seed, router=router,
                                          conn=conn, save_dir=directory)
            play(s, Plan(path=path))
            o = s.state.outcome
            assert o is not None
            rows.append({"path": path, "result": o.result, "reason": o.reason, "day": o.day,
                         "rules": [st.decision.rule_id for st in s.state.stages if st.decision],
                         "economics": s.state.economics.numbers(),
                         "org": [w.title for w in s.state.org if w.active]})
    finally:
        conn.close()
    return rows


def run_balance(seed: int = 7, pitch: str = PITCH, workers: int | None = None) -> dict[str, Any]:
    started = time.perf_counter()
    workers = workers or min(2, os.cpu_count() or 1)
    with tempfile.TemporaryDirectory(prefix="wf-balance-") as tmp:
        if workers == 1:
            rows = play_paths(ALL_PATHS, seed, pitch, tmp)
        else:
            # Load the engine and the playbook index once here: forked workers inherit both.
            import engine.session  # noqa: F401
            from knowledge import default_index

            default_index()
            chunks = [ALL_PATHS[i::workers] for i in range(workers)]
            with ProcessPoolExecutor(max_workers=workers) as pool:
                parts = list(pool.map(play_paths, chunks, [seed] * workers, [pitch] * workers,
                                      [tmp] * workers))
            rows = sorted((r for part in parts for r in part), key=lambda r: r["path"])
    outcomes = Counter(r["result"] for r in rows)
    reasons = Counter(r["reason"] for r in rows if r["result"] == "defeat")
    fired = Counter(rule for r in rows for rule in r["rules"])
    ends = {r["path"]: {k: r[k] for k in ("result", "reason", "day", "economics", "org")}
            for r in rows if r["path"] in ("A" * FORKS, "B" * FORKS)}
    total = len(rows)
    return {
        "seed": seed, "paths": total, "victories": outcomes["victory"], "defeats": outcomes["defeat"],
        "win_rate": round(outcomes["victory"] / total, 3),
        "defeat_reasons": dict(reasons.most_common()),
        "rules_fired": dict(sorted(fired.items())),
        "all_a": ends.get("A" * FORKS), "all_b": ends.get("B" * FORKS),
        "workers": workers, "elapsed_s": round(time.perf_counter() - started, 2),
    }
