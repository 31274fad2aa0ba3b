"""Bench: a venture against the REAL llama-cpp-python server (llama.cpp's engine, the tiny model).

Reports stages served locally (of the stages the venture reached, and of 8), standups served
locally, re-asks and adaptations, time to first token and tokens/s as the TUI sees them (from the
router's stream events, the same ones the story pane renders), and the router's own time per call:
the call's wall time minus the time inside its HTTP exchanges (request sent to stream end).
`approved` lists what the gate said of each artifact the CEO approved: the tiny model's prose is
noise, the rubric flags it, and a venture that ships flawed work pays for it: how far a venture
gets is the game's verdict on the work; which tier served the stages it reached is the router's.
The CEO plays carefully by default (engine.play.careful: at forks and event choices the option whose
previewed numbers leave the company furthest from defeat); `--choose AABBAABB` plays a fixed path.
`--seeds N` plays N ventures (seeds from --seed on) and reports each one's row and the routing
figures over all their calls: how far a venture of noise gets varies with the seed.

Needs `make llm-runtime` (the wheel in ../shared/runtimes). Run:
`.venv/bin/python -m bench.local_real --json [--seed 7] [--seeds 1] [--choose careful|A|AABBAABB]`
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

from bench import machine
from engine.config import Settings
from engine.errors import InputError
from engine.play.headless import Plan, parse_path, play
from engine.routing import Router
from engine.routing.types import RouteResult, StreamEvent
from engine.session.api import GameSession

PITCH = "Repair bookings for independent bike shops"
STAGES = 8


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


def _router(server_url: str, model: str) -> Router:
    return Router(
        Settings(
            demo_mode="local",
            local_agent_base_url=server_url,
            local_agent_model=model,
            agent_request_timeout=120,
        ),
        caps_cache=None,
    )  # learn from scratch, as a first run does (one process: later ventures reuse what it learned)


def _venture(router: Router, seed: int, choose: str, save_dir: Path) -> dict[str, Any]:
    """Play one venture; its row (stages, standups, outcome, the gate's verdicts)."""
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
        outcome = session.state.outcome
    finally:
        session.close()
    executed = [e for e in events if e.type == "STAGE_EXECUTED"]
    standups = [e for e in events if e.type == "AGENT_STANDUP"]
    return {
        "seed": seed,
        "path_taken": "".join(str(e.payload["option"]) for e in events if e.type == "CEO_DECISION"),
        "outcome": (
            {"result": outcome.result, "day": outcome.day, "reason": outcome.reason}
            if outcome
            else None
        ),
        "stages_served_locally": sum(1 for e in executed if e.payload["served_by"] == "local"),
        "stages_run": len(executed),
        "standups_served_locally": sum(
            1 for e in standups if e.payload.get("served_by") == "local"
        ),
        "standups": len(standups),
        # what the gate said of each approved artifact: why a venture of noise does not last
        "approved": [
            {k: e.payload[k] for k in ("stage_id", "score", "drift", "flaws")}
            for e in events
            if e.type == "ARTIFACT_APPROVED"
        ],
    }


def _counts(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out


def _reask_causes(results: list[RouteResult]) -> dict[str, int]:
    """Why answers were sent back: missing required fields (a schema the server did not hold),
    another validation error, a binding direction broken (drift), a cut or garbled answer."""
    causes: dict[str, int] = {}
    for r in results:
        for a in r.attempts:
            if a.outcome != "invalid":
                continue
            err = a.error or ""
            cause = (
                "drift"
                if err.startswith("drift")
                else "missing_fields"
                if "Field required" in err
                else err.split(":")[0] or "other"
            )
            causes[cause] = causes.get(cause, 0) + 1
    return causes


def run(
    server_url: str, model: str, seeds: list[int], choose: str, save_dir: Path
) -> dict[str, Any]:
    """Ventures on these seeds, one router; `choose` is fork letters or "CAREFUL" (engine.play.careful).
    One seed: that venture's figures. Several: each venture's row, routing figures over all calls."""
    router = _router(server_url, model)
    results: list[RouteResult] = []
    real_call = router.call

    invalid: list[str] = []  # served model answers the contract rejects when checked again here

    def call(req: Any, simulate: Any) -> RouteResult:
        result = real_call(req, simulate)
        results.append(result)
        if result.served_by == "local":
            try:
                req.contract().model_validate(result.output)
            except ValueError:
                invalid.append(req.call_key)
        return result

    router.call = call  # type: ignore[method-assign]
    last: dict[str, StreamEvent] = {}  # the newest delta of each call in flight
    tps: list[float] = []

    def on_event(e: StreamEvent) -> None:
        if e.kind == "delta":
            last[e.call_key] = e
        elif e.kind == "end" and e.call_key in last:
            rate = last.pop(e.call_key).tokens_per_s  # as the TUI's progress line showed it last
            if rate > 0:
                tps.append(rate)

    router.watch(on_event)
    started = time.perf_counter()
    ventures = [_venture(router, seed, choose, save_dir) for seed in seeds]
    wall = time.perf_counter() - started
    model_calls = [r for r in results if r.served_by == "local"]
    ttft = [r.usage.first_token_ms for r in model_calls if r.usage.first_token_ms is not None]
    overhead = [r.usage.latency_ms - r.usage.http_ms for r in model_calls]
    adaptations: dict[str, int] = {}
    for r in results:
        for a in r.adaptations:
            adaptations[a] = adaptations.get(a, 0) + 1
    totals = {
        k: sum(v[k] for v in ventures)
        for k in ("stages_served_locally", "stages_run", "standups_served_locally", "standups")
    }
    out: dict[str, Any] = {
        "server": "llama-cpp-python 0.3.36 (tiny random-weight GGUF, n_ctx 8192)",
        "choose": choose.lower() if choose == "CAREFUL" else choose,
    }
    if len(ventures) == 1:
        out.update({k: v for k, v in ventures[0].items() if k != "approved"})
        out["stages_total"] = STAGES
    else:
        out["seeds"] = seeds
        out.update(totals)
        out["ventures_reaching_the_last_stage"] = sum(
            1 for v in ventures if v["stages_run"] == STAGES
        )
    out.update(
        {
            "calls": len(results),
            "calls_served_locally": len(model_calls),
            "fallbacks": sum(1 for r in results if r.fallback_reason),
            "fallback_reasons": _counts(
                (r.fallback_reason or "").split(" (")[0] for r in results if r.fallback_reason
            ),
            "reasks": sum(1 for r in results for a in r.attempts if a.outcome == "invalid"),
            "reasks_by_cause": _reask_causes(results),
            # a served answer is one the contract validated: an invalid one is never accepted
            "invalid_accepted": len(invalid),
            "adaptations": adaptations,
            "time_to_first_token_ms": _summary(ttft),
            "tokens_per_s": _summary(tps),
            "router_overhead_ms": _summary(overhead),
            "wall_s": round(wall, 1),
        }
    )
    if len(ventures) == 1:
        out["approved"] = ventures[0]["approved"]
    else:
        out["ventures"] = [{k: v for k, v in row.items() if k != "approved"} for row in ventures]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--seeds",
        type=int,
        default=1,
        help="play this many ventures, seeds from --seed on (default 1): each venture's row "
        "and the routing figures over all their calls",
    )
    parser.add_argument(
        "--choose",
        default="careful",
        help="'careful' (default): forks and event choices by engine.play.careful's stated policy "
        "(the option leaving the company furthest from defeat); or fork letters, one or eight",
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
    with (
        tempfile.TemporaryDirectory(prefix="wf-local-real-") as tmp,
        running_server(Path(tmp)) as server,
    ):
        seeds = list(range(args.seed, args.seed + max(1, args.seeds)))
        report = run(server.url, server.model, seeds, choose, Path(tmp) / "saves")
    report["machine"] = machine()
    sys.stdout.write(json.dumps(report, indent=None if args.json else 2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
