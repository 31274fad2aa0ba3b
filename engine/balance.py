"""Balance: play every fork path (always approving) and report outcomes and rule coverage."""

from __future__ import annotations

import itertools
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.headless import FORKS, Plan, play
from engine.routing import Router
from engine.session import GameSession
from memory.db import connect, db_path

PITCH = "A booking and invoicing assistant for independent physiotherapy clinics"


def run_balance(seed: int = 7, pitch: str = PITCH, save_dir: Path | None = None) -> dict[str, Any]:
    started = time.perf_counter()
    outcomes: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    fired: Counter[str] = Counter()
    ends: dict[str, dict[str, Any]] = {}
    router = Router(Settings(demo_mode="simulation"))
    with tempfile.TemporaryDirectory(prefix="wf-balance-") as tmp:
        directory = save_dir or Path(tmp)
        conn = connect(db_path(directory))
        try:
            for letters in itertools.product("AB", repeat=FORKS):
                path = "".join(letters)
                s = GameSession.start_venture(pitch=pitch, name="Balance Co", seed=seed,
                                              save_dir=directory, router=router, conn=conn)
                play(s, Plan(path=path))
                o = s.state.outcome
                assert o is not None
                outcomes[o.result] += 1
                if o.result == "defeat":
                    reasons[o.reason] += 1
                for stage in s.state.stages:
                    if stage.decision:
                        fired[stage.decision.rule_id] += 1
                if path in ("A" * FORKS, "B" * FORKS):
                    ends[path] = {"result": o.result, "reason": o.reason, "day": o.day,
                                  "economics": s.state.economics.numbers(),
                                  "org": [w.title for w in s.state.org if w.active]}
        finally:
            conn.close()
    total = sum(outcomes.values())
    return {
        "seed": seed, "paths": total, "victories": outcomes["victory"], "defeats": outcomes["defeat"],
        "win_rate": round(outcomes["victory"] / total, 3),
        "defeat_reasons": dict(reasons.most_common()),
        "rules_fired": dict(sorted(fired.items())),
        "all_a": ends.get("A" * FORKS), "all_b": ends.get("B" * FORKS),
        "elapsed_s": round(time.perf_counter() - started, 2),
    }
