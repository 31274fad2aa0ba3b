"""Bench: how often the fault soak finds the local tier parked, and why, on a busy machine.

Plays the fault soak's ventures (tests/reliability/soak_worker.py: the local tier on a loopback
server with a seeded random fault mix, a 1.5 s call budget) in two worker processes, beside
CPU-bound processes that load the machine, and counts the stages whose first local attempt was
parked (its breaker open), by the reason the router recorded, with what the server was sent.

Run: `.venv/bin/python -m bench.soak_parked [--ventures N] [--burners K]` (prints one JSON
object; N ventures a worker, default 100; K busy loops beside them, default 2).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from bench import machine

ROOT = Path(__file__).resolve().parents[1]
WORKERS = 2
LOAD_EVERY_S = 5.0


def _worker(save_dir: Path, first: int, count: int, artifacts: Path) -> dict[str, Any]:
    """One soak worker, its stages counted by their first local attempt's outcome."""
    from engine.play import headless
    from tests.reliability import soak_worker

    first_local: Counter[str] = Counter()
    parked: Counter[str] = Counter()

    def counted(session: Any, plan: Any, *rest: Any) -> Any:
        played = headless.play(session, plan, *rest)
        for e in session.events():
            if e.type != "STAGE_EXECUTED":
                continue
            local = [a for a in e.payload.get("attempts") or [] if a.get("tier") == "local"]
            if local:
                first_local[local[0]["outcome"]] += 1
                if local[0]["outcome"] == "parked":
                    parked[re.sub(r"\d+(\.\d+)?", "N", str(local[0].get("error")))] += 1
        return played

    soak_worker.play = counted  # type: ignore[assignment]  # the same play, counted
    summary = soak_worker.run(save_dir, first, count, artifacts)
    return {
        "stages": summary["stages"],
        "served": dict(summary["served"]),
        "first_local": dict(first_local),
        "parked": dict(parked),
        "requests": summary["requests"],
        "faults": dict(summary["faults"]),
    }


def _sum(parts: list[dict[str, Any]], key: str) -> dict[str, int]:
    total: Counter[str] = Counter()
    for part in parts:
        total.update(part[key])
    return dict(total.most_common())


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ventures", type=int, default=100, help="ventures a worker")
    parser.add_argument("--burners", type=int, default=2, help="CPU-bound processes beside")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        save, first, count, artifacts = args.worker
        out = _worker(Path(save), int(first), int(count), Path(artifacts))
        sys.stdout.write(json.dumps(out) + "\n")
        return
    from tests.reliability.soak_worker import write_artifacts

    loads: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(LOAD_EVERY_S):
            loads.append(os.getloadavg()[0])

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    burn = [sys.executable, "-c", "while True: pass"]
    with tempfile.TemporaryDirectory(prefix="wf-soak-parked-") as tmp:
        artifacts = Path(tmp) / "artifacts.json"
        write_artifacts(Path(tmp) / "sim", artifacts)
        burners = [subprocess.Popen(burn) for _ in range(args.burners)]
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            worker = [sys.executable, "-m", "bench.soak_parked", "--worker"]
            share = [str(args.ventures), str(artifacts)]
            procs = [
                subprocess.Popen(
                    [*worker, str(Path(tmp) / f"w{i}"), str(i * args.ventures), *share],
                    cwd=ROOT,
                    env=env,
                    stdout=subprocess.PIPE,
                    text=True,
                )
                for i in range(WORKERS)
            ]
            parts = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
        finally:
            done.set()
            for b in burners:
                b.kill()
                b.wait()
    stages = sum(p["stages"] for p in parts)
    first_local = _sum(parts, "first_local")
    report = {
        "ventures": WORKERS * args.ventures,
        "burners": args.burners,
        "stages": stages,
        "parked_stages": first_local.get("parked", 0),
        "parked_reasons": _sum(parts, "parked"),
        "first_local_outcome": first_local,
        "served": _sum(parts, "served"),
        "requests": sum(p["requests"] for p in parts),
        "faults_served": _sum(parts, "faults"),
        "load_average_1m_median": round(statistics.median(loads), 2) if loads else None,
        "machine": machine(),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
