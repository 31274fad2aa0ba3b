"""Ventures per second in-process on the simulation tier with SQLite on disk, plus the whole-process
`worldforge simulate --json` time and the balance time (4 archetypes x 256 paths on one seed). Prints JSON; quotes medians.

    python -m bench.venture --json [--ventures 40] [--runs 5] [--process-only | --balance-only]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PITCH = "A solar microgrid cooperative for rural farmers"


def ventures_per_second(n: int) -> float:
    from engine.config import Settings
    from engine.play.headless import Plan, play
    from engine.routing import Router
    from engine.session.api import GameSession

    router = Router(Settings(demo_mode="simulation"))
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        for i in range(n):
            s = GameSession.start_venture(pitch=PITCH, seed=i, save_dir=Path(tmp), router=router)
            play(s, Plan(path="AB"[i % 2] * 8))
            s.close()
        return n / (time.perf_counter() - start)


def simulate_process_s() -> float:
    """One `worldforge simulate --json` process, start to exit. Bytecode caching on, as on a
    player's machine (this sandbox sets PYTHONDONTWRITEBYTECODE); main() runs one warm-up first."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["DEMO_MODE"] = "simulation"
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(sys.executable).with_name("worldforge")
        cmd = [str(exe), "simulate", "--pitch", PITCH, "--json", "--save-dir", tmp]
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        return time.perf_counter() - start


FLOOR_CODE = "from pydantic import BaseModel\n\nclass Floor(BaseModel):\n    x: int = 0\n"


def floor_process_s() -> float:
    """The same interpreter doing nothing but importing pydantic and building one model: the part
    of `simulate`'s time no engine change can remove while the engine is built on pydantic."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", FLOOR_CODE], check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def balance_s() -> float:
    from engine.play.balance import run_balance

    start = time.perf_counter()
    run_balance(seed=7)  # every archetype (4 x 256 paths)
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--ventures", type=int, default=40)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--balance-runs", type=int, default=3)
    p.add_argument(
        "--process-only",
        action="store_true",
        help="only the whole-process simulate figure (and its pydantic floor)",
    )
    p.add_argument(
        "--balance-only",
        action="store_true",
        help="only the balance figure (4 archetypes x 256 paths on one seed)",
    )
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    vps = (
        []
        if a.process_only or a.balance_only
        else [ventures_per_second(a.ventures) for _ in range(a.runs)]
    )
    proc, floor = [], []
    if not a.balance_only:
        simulate_process_s()  # warm-up: writes the bytecode cache, as a first launch would
        for _ in range(a.runs):  # interleaved, so both see the same machine load
            proc.append(simulate_process_s())
            floor.append(floor_process_s())
    bal = [] if a.process_only else [balance_s() for _ in range(a.balance_runs)]

    def median(values: list[float], digits: int) -> float | None:
        return round(statistics.median(values), digits) if values else None

    out = {
        "ventures_per_s_median": median(vps, 1),
        "ventures_per_s_runs": [round(v, 1) for v in vps],
        "simulate_process_s_median": median(proc, 3),
        "simulate_process_s_runs": [round(v, 3) for v in proc],
        "pydantic_floor_process_s_median": median(floor, 3),
        "balance_4x256_s_median": median(bal, 2),
        "balance_4x256_s_runs": [round(v, 2) for v in bal],
        "targets": {"balance_4x256_s": 30.0, "simulate_process_s": 0.3},
        "cpus": os.cpu_count(),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(out, indent=None if a.json else 2))


if __name__ == "__main__":
    main()
