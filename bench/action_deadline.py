"""Bench: the wall time of one player action against a slow model (one deadline per action).

A fork decision runs three standup calls; against a model that streams one token every
`--token-s` seconds none of them can finish, and before the shared deadline each took its own
AGENT_REQUEST_TIMEOUT (a 45 s budget made one decision take 135 s). The venture runs on the local
tier against a loopback OpenAI-compatible server; stage 1 is served at full speed, then the server
slows to `--token-s` a token and the decision is timed, `--runs` times (a fresh venture each).
Also timed: the same decision against a server that accepts and never answers (a hung tier).

Run: `.venv/bin/python -m bench.action_deadline [--budget 10] [--token-s 2] [--runs 3]`
(prints one JSON object; `ratio` is the median wall time over the budget, the goal is <= 1.1).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from typing import Any

from bench import machine
from engine.config import Settings
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from tests.servers.artifacts import stage_one_artifact
from tests.servers.openai_server import FakeOpenAI

PITCH = "Repair bookings for independent bike shops"


def _artifact(seed: int) -> dict[str, Any]:
    """Stage 1's artifact as the simulator writes it (what the fast server answers)."""
    with tempfile.TemporaryDirectory() as tmp:
        return stage_one_artifact(tmp, pitch=PITCH, name="Spoke Co", seed=seed)


def _decision(budget: float, token_s: float, fault: str, seed: int) -> dict[str, Any]:
    artifact = _artifact(seed)
    server = FakeOpenAI(payload=artifact, stream_piece=4, hang_max=budget * 4).start()
    try:
        settings = Settings(
            demo_mode="local",
            local_agent_base_url=server.url,
            local_agent_model="qwen2.5",
            agent_request_timeout=budget,
            agent_cooldown_seconds=0,
        )
        with tempfile.TemporaryDirectory() as tmp:
            session = GameSession.start_venture(
                pitch=PITCH,
                name="Spoke Co",
                seed=seed,
                save_dir=tmp,
                router=Router(settings, caps_cache=False),
            )
            try:
                session.give(RunStage)
                session.give(Approve)
                server.state.stream_delay = token_s
                server.set_default(fault)
                last = session.events()[-1].id
                t0 = time.monotonic()
                session.give(Decide, "A")
                wall = time.monotonic() - t0
                after = session.events(last)
                return {
                    "wall_s": round(wall, 3),
                    "standup_lines": sum(e.type == "AGENT_STANDUP" for e in after),
                    "fallbacks": [e.payload["reason"] for e in after if e.type == "ROUTE_FALLBACK"],
                }
            finally:
                session.close()
    finally:
        server.release_hangs()
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=10.0, help="AGENT_REQUEST_TIMEOUT (seconds)")
    ap.add_argument("--token-s", type=float, default=2.0, help="seconds per streamed token")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    report: dict[str, Any] = {"budget_s": args.budget, "token_s": args.token_s}
    for fault in ("ok", "hang"):  # "ok" streamed slowly; "hang": accepted, never answered
        runs = [_decision(args.budget, args.token_s, fault, 11 + i) for i in range(args.runs)]
        median = statistics.median(r["wall_s"] for r in runs)
        report["slow_model" if fault == "ok" else "hung_model"] = {
            "median_wall_s": median,
            "ratio": round(median / args.budget, 3),
            "runs": runs,
        }
    report["machine"] = machine()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
