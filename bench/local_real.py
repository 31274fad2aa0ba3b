"""Bench: a venture against the REAL llama-cpp-python server (llama.cpp's engine, the tiny model).

Reports stages served locally (of the stages the venture reached, and of 8), standups served
locally, re-asks and adaptations, time to first token and tokens/s as the TUI sees them (from the
router's stream events, the same ones the story pane renders), and the router's own time per call:
the call's wall time minus the time inside its HTTP exchanges (request sent to stream end).
`approved` lists what the gate said of each artifact the CEO approved: the tiny model's prose is
noise, the rubric flags it, and a venture that ships flawed work pays for it (how far it gets is
the game's verdict on the work, not the router's: every stage it reaches is served locally).
`--choose careful` plays forks and event choices by engine.careful's stated policy.

Needs `make llm-runtime` (the wheel in ../shared/runtimes). Run:
`.venv/bin/python -m bench.local_real --json [--seed 7] [--choose A|AABBAABB|careful]`
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.errors import InputError
from engine.headless import Plan, parse_path, play
from engine.routing import Router
from engine.routing.types import RouteResult, StreamEvent
from engine.session import GameSession

PITCH = "Repair bookings for independent bike shops"


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def _summary(values: list[float]) -> dict[str, float | None]:
    return {
        "p50": _pct(values, 0.5),
        "p95": _pct(values, 0.95),
        "mean": round(statistics.fmean(values), 2) if values else None,
        "n": len(values),
    }


def run(server_url: str, model: str, seed: int, choose: str, save_dir: Path) -> dict[str, Any]:
    """One venture; `choose` is fork letters (one or eight) or "CAREFUL" (engine.careful)."""
    router = Router(
        Settings(
            demo_mode="local",
            local_agent_base_url=server_url,
            local_agent_model=model,
            agent_request_timeout=120,
        ),
        caps_cache=None,
    )  # learn from scratch, as a first run does
    results: list[RouteResult] = []
    real_call = router.call

    def call(req: Any, simulate: Any) -> RouteResult:
        result = real_call(req, simulate)
        results.append(result)
        return result

    router.call = call  # type: ignore[method-assign]
    last: dict[str, StreamEvent] = {}
    router.watch(lambda e: last.__setitem__(e.call_key, e) if e.kind == "delta" else None)
    started = time.perf_counter()
    session = GameSession.start_venture(
        pitch=PITCH,
        name="Spoke Co",
        archetype="builder",
        seed=seed,
        save_dir=save_dir,
        router=router,
    )
    try:
        careful = choose == "CAREFUL"
        play(session, Plan(path=parse_path("A" if careful else choose), careful=careful))
        events = session.events()
        executed = [e for e in events if e.type == "STAGE_EXECUTED"]
        standups = [e for e in events if e.type == "AGENT_STANDUP"]
        approved = [e for e in events if e.type == "ARTIFACT_APPROVED"]
        taken = "".join(str(e.payload["option"]) for e in events if e.type == "CEO_DECISION")
        outcome = session.state.outcome
    finally:
        session.close()
    wall = time.perf_counter() - started
    model_calls = [r for r in results if r.served_by == "local"]
    ttft = [r.usage.first_token_ms for r in model_calls if r.usage.first_token_ms is not None]
    tps = [ev.tokens_per_s for ev in last.values() if ev.tokens_per_s > 0]
    overhead = [r.usage.latency_ms - r.usage.http_ms for r in model_calls]
    reasks = sum(1 for r in results for a in r.attempts if a.outcome == "invalid")
    adaptations: dict[str, int] = {}
    for r in results:
        for a in r.adaptations:
            adaptations[a] = adaptations.get(a, 0) + 1
    served_stages = sum(1 for e in executed if e.payload["served_by"] == "local")
    served_standups = sum(1 for e in standups if e.payload.get("served_by") == "local")
    return {
        "server": "llama-cpp-python 0.3.36 (tiny random-weight GGUF, n_ctx 4096)",
        "seed": seed,
        "choose": choose.lower() if choose == "CAREFUL" else choose,
        "path_taken": taken,
        "outcome": (
            {"result": outcome.result, "day": outcome.day, "reason": outcome.reason}
            if outcome
            else None
        ),
        "stages_served_locally": served_stages,
        "stages_run": len(executed),
        "stages_total": 8,
        "standups_served_locally": served_standups,
        "standups": len(standups),
        "calls": len(results),
        "calls_served_locally": len(model_calls),
        "fallbacks": sum(1 for r in results if r.fallback_reason),
        "reasks": reasks,
        "adaptations": adaptations,
        "time_to_first_token_ms": _summary(ttft),
        "tokens_per_s": _summary(tps),
        "router_overhead_ms": _summary(overhead),
        "venture_wall_s": round(wall, 1),
        # what the gate said of each approved artifact: why a venture of noise does not last
        "approved": [
            {
                "stage_id": e.payload["stage_id"],
                "score": e.payload["score"],
                "drift": e.payload["drift"],
                "flaws": e.payload["flaws"],
            }
            for e in approved
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--choose",
        default="A",
        help="fork letters, one or eight (default A), or 'careful': forks and event choices by "
        "engine.careful's stated policy (the option leaving the company furthest from defeat)",
    )
    parser.add_argument("--json", action="store_true", help="one line of JSON (default: indented)")
    args = parser.parse_args()
    choose = args.choose.strip().upper()
    try:
        choose = choose if choose == "CAREFUL" else parse_path(choose)
    except InputError as err:
        sys.stderr.write(f"local_real: {err}\n")
        return 2
    from tests.servers.llama_real import running_server, unavailable_reason

    reason = unavailable_reason()
    if reason:
        print(json.dumps({"skipped": reason}))
        return 1
    with tempfile.TemporaryDirectory(prefix="wf-local-real-") as tmp:
        servers = running_server(Path(tmp))
        server = next(servers)
        try:
            report = run(server.url, server.model, args.seed, choose, Path(tmp) / "saves")
        finally:
            servers.close()
    sys.stdout.write(json.dumps(report, indent=None if args.json else 2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
