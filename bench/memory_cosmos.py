"""Load figure for the Cosmos DB memory tier against a real Cosmos DB server on loopback.

    python -m bench.memory_cosmos --json

Starts `@vercel/cosmosdb-server` (installed by npm into the test cache, as the tests do) on
127.0.0.2 behind a throw-away CA, then:

- load: 1,000 writes (`remember`, with its restatement check) over 5 runs and 200 recalls
  (the full budgeted `<campaign_memory>` block), interleaved one recall per five writes; the
  audit rows of each five writes go out as one batch (`flush_cloud`), as after a game step.
  Latency p50/p95 in ms and HTTP requests per operation (every request the SDK sends, retries
  included) are reported.
- game: one whole simulated venture with MEMORY_BACKEND=cosmos; requests per store call
  (recall, remember, worker_write, harden, flush) and per session command.

Targets (issue 16): at most 3 requests per recall and 2 per write. Latency here is a loopback
server in Node, not the service: it measures our client path and request count, not Azure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench import machine
from engine.session.commands import Approve, Decide, RunStage
from memory.models import NewNote

KEY = "YmVuY2gta2V5LW5vdC1hLXNlY3JldA=="
WORDS = [
    "solar",
    "battery",
    "lease",
    "farm",
    "clinic",
    "school",
    "grid",
    "tariff",
    "invoice",
    "subsidy",
    "cooperative",
    "diesel",
    "panel",
    "inverter",
    "storage",
    "outage",
    "pilot",
    "village",
    "permit",
    "installer",
    "warranty",
    "financing",
    "payback",
    "monsoon",
    "irrigation",
    "pump",
    "cold",
    "chain",
    "dairy",
    "mill",
    "broadband",
    "district",
]
KINDS = ("context", "preference", "chat_summary", "procedural")
PITCH = "A solar microgrid cooperative for rural farmers"


def _pct(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1))))
    return round(ordered[k], 2) if ordered else 0.0


def _summary(ms: list[float], requests: list[int]) -> dict[str, Any]:
    return {
        "n": len(ms),
        "p50_ms": _pct(ms, 50),
        "p95_ms": _pct(ms, 95),
        "median_ms": round(statistics.median(ms), 2) if ms else 0.0,
        "requests_p50": _pct([float(r) for r in requests], 50),
        "requests_max": max(requests, default=0),
    }


def load(
    endpoint: str, writes: int = 1000, recalls: int = 200, runs: int = 5, seed: int = 7
) -> dict[str, Any]:
    from memory.cosmos.client import CosmosConfig
    from memory.cosmos.store import CosmosMemoryStore

    rng = random.Random(seed)
    config = CosmosConfig(endpoint=endpoint, key=KEY, database=f"bench-{uuid.uuid4().hex[:8]}")
    stores = [CosmosMemoryStore(config, f"bench-run-{i}") for i in range(runs)]
    counter = stores[0].partition.counter
    every = max(1, writes // recalls)
    write_ms: list[float] = []
    write_req: list[int] = []
    recall_ms: list[float] = []
    recall_req: list[int] = []
    flush_req: list[int] = []
    day = [1] * runs
    for i in range(writes):
        r = i % runs
        store = stores[r]
        kind = KINDS[i % len(KINDS)] if i % 7 else "procedural"
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))) + f" note {i}"
        before, t0 = counter.count, time.perf_counter()
        store.remember(
            NewNote(
                kind,
                text,
                author="ceo" if kind == "procedural" else "system",
                game_day=day[r],
                importance=rng.uniform(1, 9),
                axis=rng.choice(WORDS) if kind == "procedural" else None,
            )
        )
        write_ms.append((time.perf_counter() - t0) * 1000)
        write_req.append(counter.count - before)
        day[r] += 1 if i % 3 == 0 else 0
        if (i + 1) % every == 0 and len(recall_ms) < recalls:
            before = counter.count
            store.flush_cloud()
            flush_req.append(counter.count - before)
            query = " ".join(rng.choice(WORDS) for _ in range(4))
            before, t0 = counter.count, time.perf_counter()
            res = store.recall(query, game_day=day[r])
            recall_ms.append((time.perf_counter() - t0) * 1000)
            recall_req.append(counter.count - before)
            assert res.block.startswith("<campaign_memory>")
    return {
        "writes": _summary(write_ms, write_req),
        "recalls": _summary(recall_ms, recall_req),
        "audit_flush_requests_max": max(flush_req, default=0),
        "runs": runs,
        "memories_per_run": writes // runs,
    }


def game(endpoint: str, save_dir: Path) -> dict[str, Any]:
    from engine.config import Settings
    from engine.play.headless import Plan, letter
    from engine.routing import Router
    from engine.session.api import GameSession

    settings = Settings(
        demo_mode="simulation",
        memory_backend="cosmos",
        azure_cosmos_endpoint=endpoint,
        azure_cosmos_key=KEY,
        azure_cosmos_database=f"game-{uuid.uuid4().hex[:8]}",
    )
    session = GameSession.start_venture(
        pitch=PITCH, seed=7, save_dir=save_dir, router=Router(settings)
    )
    memory: Any = session.memory
    cosmos = memory._primary()
    counter = cosmos.partition.counter
    per_call: dict[str, list[int]] = defaultdict(list)
    for name in (
        "recall",
        "remember",
        "worker_write",
        "harden",
        "flush_cloud",
        "records",
        "counts",
    ):
        original = getattr(cosmos, name)

        def counted(*a: Any, _name: str = name, _fn: Any = original, **kw: Any) -> Any:
            before = counter.count
            try:
                return _fn(*a, **kw)
            finally:
                per_call[_name].append(counter.count - before)

        setattr(cosmos, name, counted)
    per_step: dict[str, list[int]] = defaultdict(list)
    plan = Plan(path="ABABABAB")
    while session.state.phase != "ended":
        st = session.state
        before = counter.count
        if st.phase == "brief":
            session.give(RunStage)
            per_step["run_stage"].append(counter.count - before)
        elif st.phase == "gate":
            session.give(Approve)
            per_step["approve"].append(counter.count - before)
        else:
            assert st.stage is not None
            session.give(Decide, letter(plan.path, st.stage_index))
            per_step["decide+standup"].append(counter.count - before)
    outcome = session.state.outcome.result if session.state.outcome else None
    label = session.memory_store_label()
    session.close()
    calls = {
        k: {
            "calls": len(v),
            "requests_max": max(v),
            "requests_p50": _pct([float(x) for x in v], 50),
        }
        for k, v in sorted(per_call.items())
    }
    steps = {
        k: {"steps": len(v), "requests_max": max(v), "requests_median": statistics.median(v)}
        for k, v in sorted(per_step.items())
    }
    return {"outcome": outcome, "store": label, "per_call": calls, "per_step": steps}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON (the default output)")
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--recalls", type=int, default=200)
    args = parser.parse_args(argv)
    from tests.servers import cosmos_server

    with tempfile.TemporaryDirectory() as tmp:
        try:
            server = cosmos_server.start(Path(tmp) / "ca", package=cosmos_server.install())
        except cosmos_server.ServerUnavailable as exc:
            print(f"bench.memory_cosmos: error: {exc}", file=sys.stderr)
            return 2
        os.environ["REQUESTS_CA_BUNDLE"] = os.environ["SSL_CERT_FILE"] = str(server.ca_file)
        try:
            out = {
                "server": "@vercel/cosmosdb-server " + cosmos_server.VERSION,
                "load": load(server.endpoint, args.writes, args.recalls),
                "game": game(server.endpoint, Path(tmp) / "saves"),
            }
        finally:
            server.stop()
    rec, wr = out["load"]["recalls"], out["load"]["writes"]
    out["targets"] = {
        "recall_requests_max<=3": rec["requests_max"] <= 3,
        "write_requests_p50<=2": wr["requests_p50"] <= 2,
        "game_recall_requests_max<=3": out["game"]["per_call"]["recall"]["requests_max"] <= 3,
        "game_write_requests_max<=2": max(
            out["game"]["per_call"][k]["requests_max"] for k in ("remember", "worker_write")
        )
        <= 2,
    }
    out["machine"] = machine()
    sys.stdout.write(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
