"""Model faults at scale: 200 ventures through the local tier against loopback servers with a seeded
random fault mix (hangs, trickled bodies, 429s, 500s, refused connections, garbage, truncated JSON).

Two worker processes (one per core) each run `soak_worker` with their own server. Every venture
must end and every STAGE_EXECUTED must name its tier and (when it fell back) why; the assertions
count and read labels, never wall time (the slowest stage is printed, not asserted: two busy
cores make per-call timing a flake; the call budget itself is tested in tests/routing).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.soak_worker import write_artifacts

ROOT = Path(__file__).resolve().parents[2]
VENTURES = 200
WORKERS = 2
# Not a speed limit: only a guard against a wedged worker; each worker's loops are bounded anyway.
HANG_GUARD_S = 3600


@pytest.mark.slow
def test_two_hundred_ventures_under_random_model_faults(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    share = VENTURES // WORKERS
    artifacts = tmp_path / "artifacts.json"
    write_artifacts(tmp_path / "sim", artifacts)
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.reliability.soak_worker",
                str(tmp_path / f"w{i}"),
                str(i * share),
                str(share),
                str(artifacts),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(WORKERS)
    ]
    summaries = []
    for proc in procs:
        out, err = proc.communicate(timeout=HANG_GUARD_S)
        assert proc.returncode == 0, err[-3000:]
        summaries.append(json.loads(out.strip().splitlines()[-1]))
    tried = sum(s["tried"] for s in summaries)
    completed = sum(s["completed"] for s in summaries)
    problems = [p for s in summaries for p in s["problems"]]
    served: dict[str, int] = {}
    kinds: dict[str, int] = {}
    faults: dict[str, int] = {}
    for s in summaries:
        for key, into in (("served", served), ("fallback_kinds", kinds), ("faults", faults)):
            for k, v in s[key].items():
                into[k] = into.get(k, 0) + v
    print(
        f"\nsoak: ventures completed/tried {completed}/{tried}; stages "
        f"{sum(s['stages'] for s in summaries)} served {served}; fallbacks {kinds}; "
        f"requests {sum(s['requests'] for s in summaries)} faults {faults}; replay-verified "
        f"{sum(s['verified'] for s in summaries)}; slowest stage "
        f"{max(s['max_stage_s'] for s in summaries):.2f} s; worker time "
        f"{[s['elapsed_s'] for s in summaries]} s"
    )
    assert tried == VENTURES and completed == VENTURES
    assert problems == []
    # the mix really happened: slow and fast faults were served, stages fell back and recovered
    assert {
        "hang",
        "trickle",
        "rate_limit",
        "server_error",
        "garbage_body",
        "truncated",
        "drop",
    } <= set(faults)
    # mostly good answers were sent (the seeded mix, not the machine's speed), both tiers served
    assert faults["ok"] > sum(faults.values()) / 2
    assert served.get("local", 0) > 0 and served.get("simulation", 0) > 0
    assert {"silent", "unreachable"} <= set(kinds)  # a hang reads "silent" (no first token)
