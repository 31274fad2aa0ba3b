"""Bench: router overhead per call on the simulation tier, a local round trip on loopback, and the
worst-case time of one call when the model servers hang or trickle (budget, not budget × retries × tiers),
beside a plain client's (the OpenAI SDK with the same timeout and retries) on the same servers.

Run: `.venv/bin/python -m bench.router [--calls N] [--budget S]` (prints one JSON object).
`--pace-only [--scale F]`: only the slow-not-silent figures, on the fault catalogue's loopback
server with its times and the router's defaults scaled by F (0.25: the 20 s first token at 5 s):
the share of calls a slow local model serves with Foundry behind it, and how long local only waits
on a silent server before the simulator, against a reference client that gives up at 10 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel

from bench import machine
from engine.config import Settings
from engine.routing import Router, RouteRequest
from tests.servers.openai_server import FakeOpenAI


class _Plan(BaseModel):
    title: str
    steps: list[str]


_PLAN = {"title": "bench", "steps": ["a", "b"]}
_PAYLOAD = {"title": "bench", "steps": ["a", "b"]}


def _req(i: int) -> RouteRequest:
    return RouteRequest(
        role="strategist", system="s", user="u", contract=lambda: _Plan, call_key=f"bench/{i}"
    )


def _percentiles(samples_s: list[float]) -> dict[str, float]:
    ordered = sorted(samples_s)

    def pick(q):
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "mean_us": round(statistics.fmean(ordered) * 1e6, 1),
        "p50_us": round(pick(0.50) * 1e6, 1),
        "p99_us": round(pick(0.99) * 1e6, 1),
    }


def simulation_overhead(calls: int) -> dict[str, Any]:
    """Time Router.call on the floor minus nothing: the simulate callable returns a prebuilt answer."""
    router = Router(Settings())
    for i in range(50):
        router.call(_req(i), lambda: _PLAN)
    samples = []
    for i in range(calls):
        start = time.perf_counter()
        router.call(_req(i), lambda: _PLAN)
        samples.append(time.perf_counter() - start)
    return {"calls": calls, **_percentiles(samples)}


def local_round_trip(calls: int) -> dict[str, Any]:
    """A full local-tier call (HTTP on loopback, stream parse, validate) against the bundled fault
    server playing a healthy endpoint (TCP_NODELAY on: no delayed-ACK stall counted as ours).
    `overhead` is the router's own time per call: the call's latency minus its HTTP exchange."""
    from engine.routing.faults.server import FaultAnswer, FaultServer

    def req(i):
        return RouteRequest(
            role="strategist",
            system="s",
            user="u",
            contract=lambda: FaultAnswer,
            call_key=f"bench/{i}",
        )

    with FaultServer() as server:
        server.use("ok")
        router = Router(
            Settings(
                demo_mode="local", local_agent_base_url=server.url, local_agent_model="qwen2.5"
            ),
            caps_cache=False,
        )
        for i in range(5):  # warm: the client import, the first connection
            router.call(req(i), lambda: {"answer": "sim"})
        samples, overhead = [], []
        for i in range(calls):
            start = time.perf_counter()
            result = router.call(req(i), lambda: {"answer": "sim"})
            samples.append(time.perf_counter() - start)
            overhead.append((result.usage.latency_ms - result.usage.http_ms) / 1000)
            assert result.served_by == "local"
    stats = _percentiles(samples)
    own = _percentiles(overhead)
    return {
        "calls": calls,
        **{k.replace("_us", "_ms"): round(v / 1000, 2) for k, v in stats.items()},
        "overhead": {k.replace("_us", "_ms"): round(v / 1000, 3) for k, v in own.items()},
    }


@contextmanager
def misbehaving(fault: str) -> Iterator[tuple[FakeOpenAI, FakeOpenAI]]:
    """A local and a cloud model server on loopback, both playing `fault` (hang, trickle…)."""
    with (
        FakeOpenAI("ollama", payload=_PAYLOAD, trickle_chunk=4, trickle_delay=0.2) as local,
        FakeOpenAI(
            "azure", payload=_PAYLOAD, rejects=(), trickle_chunk=4, trickle_delay=0.2
        ) as cloud,
    ):
        local.set_default(fault)
        cloud.set_default(fault)
        yield local, cloud


def worst_case(fault: str, budget: float, retries: int) -> dict[str, Any]:
    """One call with both model tiers (local, then foundry) misbehaving; floor answers."""
    with misbehaving(fault) as (local, cloud):
        router = Router(
            Settings(
                demo_mode="live",
                agent_routing="local_first",
                local_agent_base_url=local.url,
                local_agent_model="qwen2.5",
                foundry_base_url=cloud.url,
                foundry_api_key="bench",
                strategist_model="gpt-5-mini",
                agent_request_timeout=budget,
                agent_max_retries=retries,
            )
        )
        start = time.perf_counter()
        result = router.call(_req(0), lambda: _PLAN)
        elapsed = time.perf_counter() - start
    return {
        "fault": fault,
        "budget_s": budget,
        "retries": retries,
        "tiers": 2,
        "elapsed_s": round(elapsed, 3),
        "plain_client_s": plain_client(fault, budget, retries),
        "within_budget": elapsed <= budget + 0.5,
        "served_by": result.served_by,
        "attempts": [f"{a.tier}:{a.outcome}" for a in result.attempts],
    }


def plain_client(fault: str, budget: float, retries: int) -> float:
    """The same call made by a plain client (the OpenAI SDK with `timeout=budget` and
    `max_retries=retries`, local then the cloud, as the router's tiers are tried) against the same
    misbehaving servers, timed: what a client without one total deadline waits (a trickle resets
    its read timeout on every chunk). Measured, not budget × tries arithmetic."""
    from openai import OpenAI, OpenAIError

    with misbehaving(fault) as (local, cloud):
        start = time.perf_counter()
        for url, model in ((local.url, "qwen2.5"), (cloud.url, "gpt-5-mini")):
            client = OpenAI(base_url=url, api_key="bench", timeout=budget, max_retries=retries)
            try:
                client.chat.completions.create(
                    model=model, messages=[{"role": "user", "content": "u"}]
                )
                break
            except OpenAIError:
                continue
        return round(time.perf_counter() - start, 3)


def slow_local_hybrid(scale: float, calls: int) -> dict[str, Any]:
    """A local model whose first token comes at 20 s × scale, Foundry healthy behind it: how many
    calls the local model serves, and what the pill says (game defaults, scaled). The game starts
    its probe of the local model's first token (`Router.measure_pace`) as it opens, while the
    player writes a pitch; here the first call waits for that probe to end."""
    from engine.routing.faults.scorecard import SIMULATED, request, settings_for
    from engine.routing.faults.server import FaultServer

    with FaultServer(scale=scale) as local, FaultServer(scale=scale) as cloud:
        local.use("S07")
        cloud.use("ok")
        router = Router(settings_for("hybrid", local.url, cloud.url, scale), caps_cache=False)
        t0 = time.perf_counter()
        probe = router.measure_pace().result()
        probe_s = time.perf_counter() - t0
        served: list[str] = []
        pills: list[str] = []
        for i in range(calls):
            served.append(router.call(request(f"pace/{i}"), lambda: SIMULATED).served_by)
            pills.append(router.pill())
            if i == 0 and served[0] != "local":  # its request is watched on: let it report
                time.sleep(20.0 * scale)
    return {
        "first_token_s": 20.0 * scale,
        "probe_s": round(probe_s, 3),
        "probe_first_token_ms": probe[0].get("first_token_ms") if probe else None,
        "calls": calls,
        "served_local": served.count("local"),
        "served_local_share": round(served.count("local") / calls, 3),
        "served": served,
        "pill_last": pills[-1],
        "pill_first": pills[0],
    }


def silent_local_only(scale: float, runs: int) -> dict[str, Any]:
    """Local only, a server that never answers: seconds to the simulator, against a reference
    client that gives up at 10 s (both × scale)."""
    from engine.routing.faults.scorecard import SIMULATED, request, settings_for
    from engine.routing.faults.server import FaultServer

    samples = []
    with FaultServer(scale=scale) as local:
        local.use("S06")
        for i in range(runs):
            router = Router(settings_for("local", local.url, None, scale), caps_cache=False)
            t0 = time.perf_counter()
            result = router.call(request(f"silent/{i}"), lambda: SIMULATED)
            samples.append(time.perf_counter() - t0)
            assert result.served_by == "simulation"
    median = statistics.median(samples)
    reference = 10.0 * scale
    return {
        "reference_s": reference,
        "median_s": round(median, 3),
        "max_s": round(max(samples), 3),
        "ratio_median": round(median / reference, 3),
        "runs": runs,
        "reason": result.fallback_reason,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--json", action="store_true", help="one line of JSON (default: indented)")
    parser.add_argument("--pace-only", action="store_true", help="only the slow/silent figures")
    parser.add_argument("--scale", type=float, default=0.25, help="time scale for --pace-only")
    args = parser.parse_args()
    if args.pace_only:
        from engine.routing.router import model_tier_ready

        model_tier_ready().result()
        pace = {
            "scale": args.scale,
            "slow_local_hybrid": slow_local_hybrid(args.scale, 20),
            "silent_local_only": silent_local_only(args.scale, 5),
            "machine": machine(),
        }
        print(json.dumps(pace, indent=None if args.json else 2))
        return
    report = {
        "simulation_overhead": simulation_overhead(args.calls),
        "local_round_trip": local_round_trip(max(100, args.calls // 10)),
        "worst_case_hang": worst_case("hang", args.budget, 1),
        "worst_case_trickle": worst_case("trickle", args.budget, 1),
    }
    report["machine"] = machine()
    print(json.dumps(report, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
