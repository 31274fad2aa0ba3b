"""Stress: ventures on MEMORY_BACKEND=cosmos while the Cosmos server is restarted, killed, hung and
restored from older backups between steps; every brief must recall what the same venture's brief
recalls on the local store, and every run must pass `replay --verify`.

    python -m bench.cosmos_stress [--ventures 8] [--seed 1]

Starts `@vercel/cosmosdb-server` (npm, into the tests' cache, as `make cosmos-server` does) on
127.0.0.2 behind a throw-away CA. Each venture plays the same fork path twice, once on the local
store and once on Cosmos; before each Cosmos step a seeded draw picks what happens to the server:

- restart: SIGTERM-free SIGKILL and a new server on the same port, empty (a restarted emulator, a
  deleted and recreated database);
- backup: the same, then the run's documents as they were a few steps earlier are written back (a
  restore from an older backup: the container comes back with data, but less than the run wrote);
- hang: SIGSTOP for one step (requests wait out the deadline), then SIGCONT (data kept);
- nothing.

Prints one JSON object: the faults played, briefs compared and equal, runs verified.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import machine
from engine.config import Settings
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from engine.session.replay import verify

KEY = "YmVuY2gta2V5LW5vdC1hLXNlY3JldA=="
PITCHES = (
    "A solar microgrid cooperative for rural farmers",
    "Repair bookings for independent bike shops",
    "Meal kits for night-shift nurses",
    "Bookkeeping for small vineyards",
)


def _next(game: GameSession, path: str) -> str | None:
    """The command the player gives now (run, approve, or the path's choice at this fork)."""
    phase = game.state.phase
    if phase == "brief":
        return "run"
    if phase == "gate":
        return "approve"
    if phase == "fork":
        return path[game.state.stage_index % len(path)]
    return None


def _give(game: GameSession, what: str) -> None:
    if what == "run":
        game.give(RunStage)
    elif what == "approve":
        game.give(Approve)
    else:
        game.give(Decide, what)


def _briefs(game: GameSession) -> list[list[str]]:
    return [
        [f"{m['id']} {m.get('text', '')}" for m in e.payload["memory_injected"]]
        for e in game.events()
        if e.type == "STAGE_BRIEFED"
    ]


def _run_docs(server: Any, database: str, run_id: str) -> list[dict[str, Any]]:
    """The run's memory documents as the server holds them now (a backup of them)."""
    from azure.cosmos import CosmosClient

    from memory.cosmos.client import DEFAULT_MEMORIES

    client = CosmosClient(server.endpoint, credential=KEY)
    container = client.get_database_client(database).get_container_client(DEFAULT_MEMORIES)
    try:
        docs = container.query_items(
            "SELECT * FROM c WHERE c.runId = @run",
            parameters=[{"name": "@run", "value": run_id}],
            partition_key=run_id,
        )
        return [{k: v for k, v in d.items() if not k.startswith("_")} for d in docs]
    except Exception:  # noqa: BLE001 - no database yet: an empty backup
        return []


def _restore(server: Any, database: str, docs: list[dict[str, Any]]) -> None:
    """Write an older backup of the run back into the (empty, restarted) server."""
    from azure.cosmos import CosmosClient, PartitionKey

    from memory.cosmos.client import DEFAULT_AUDIT, DEFAULT_MEMORIES

    client = CosmosClient(server.endpoint, credential=KEY)
    db = client.create_database_if_not_exists(database)
    container = db.create_container_if_not_exists(
        DEFAULT_MEMORIES, partition_key=PartitionKey(path="/runId"), default_ttl=-1
    )
    db.create_container_if_not_exists(DEFAULT_AUDIT, partition_key=PartitionKey(path="/runId"))
    for doc in docs:
        container.upsert_item(doc)


def venture(
    server: Any, index: int, rng: random.Random, tmp: Path, counts: dict[str, int]
) -> dict[str, Any]:
    pitch = PITCHES[index % len(PITCHES)]
    path = "".join(rng.choice("AB") for _ in range(8))
    seed = rng.randrange(1, 10_000)
    database = f"stress{index}"
    settings = Settings(
        demo_mode="simulation",
        memory_backend="cosmos",
        azure_cosmos_endpoint=server.endpoint,
        azure_cosmos_key=KEY,
        azure_cosmos_database=database,
        agent_request_timeout=2.0,  # the Cosmos calls' deadline: a hung server costs 2 s a call
    )
    local = GameSession.start_venture(
        pitch=pitch, seed=seed, save_dir=tmp / f"local{index}", router=Router(Settings())
    )
    game = GameSession.start_venture(
        pitch=pitch, seed=seed, save_dir=tmp / f"cosmos{index}", router=Router(settings)
    )
    from memory.cosmos.failover import FailoverMemory

    assert isinstance(game.memory, FailoverMemory)
    game.memory.retry_seconds = 0.0  # probe a parked Cosmos after every step
    backups: list[list[dict[str, Any]]] = []
    stopped = False
    try:
        while (what := _next(local, path)) is not None:
            if True:
                _give(local, what)
                if stopped:  # the hang lasted one step
                    server.proc.send_signal(signal.SIGCONT)
                    stopped = False
                backups.append(_run_docs(server, database, game.state.run_id))
                fault = rng.choices(("restart", "backup", "hang", "none"), weights=(3, 2, 1, 3))[0]
                if fault == "restart":
                    server.restart()
                elif fault == "backup":
                    old = backups[max(0, len(backups) - 1 - rng.randrange(1, 4))]
                    server.restart()
                    _restore(server, database, old)
                elif fault == "hang":
                    server.proc.send_signal(signal.SIGSTOP)
                    stopped = True
                counts[fault] += 1
                _give(game, what)
        if stopped:
            server.proc.send_signal(signal.SIGCONT)
        mine, theirs = _briefs(game), _briefs(local)
        report = verify(game.conn, game.state.run_id)
        notices = [e.payload for e in game.events() if e.type == "MEMORY_BACKEND"]
        return {
            "path": path,
            "seed": seed,
            "briefs": len(theirs),
            "briefs_equal": sum(a == b for a, b in zip(mine, theirs, strict=False))
            if len(mine) == len(theirs)
            else 0,
            "verified": report.ok,
            "first_difference": None if report.ok else str(report.first_difference)[:300],
            "first_brief_differing": next(
                (i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), None
            ),
            "resent_notices": sum(1 for n in notices if n.get("resent")),
            "outage_notices": sum(1 for n in notices if n.get("state") == "fallback"),
        }
    finally:
        if stopped:
            server.proc.send_signal(signal.SIGCONT)
        game.close()
        local.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ventures", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    from tests.servers import cosmos_server

    rng = random.Random(args.seed)
    counts = dict.fromkeys(("restart", "backup", "hang", "none"), 0)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            server = cosmos_server.start(Path(tmp) / "ca", package=cosmos_server.install())
        except cosmos_server.ServerUnavailable as exc:
            print(json.dumps({"skipped": str(exc)}))
            return 0
        os.environ["REQUESTS_CA_BUNDLE"] = os.environ["SSL_CERT_FILE"] = str(server.ca_file)
        started = time.monotonic()
        try:
            runs = [venture(server, i, rng, Path(tmp), counts) for i in range(args.ventures)]
        finally:
            server.stop()
    out = {
        "server": "@vercel/cosmosdb-server " + cosmos_server.VERSION,
        "ventures": len(runs),
        "restarts_empty": counts["restart"],
        "restarts_with_older_data": counts["backup"],
        "hangs": counts["hang"],
        "steps_without_fault": counts["none"],
        "briefs": sum(r["briefs"] for r in runs),
        "briefs_equal": sum(r["briefs_equal"] for r in runs),
        "runs_verified": sum(r["verified"] for r in runs),
        "resent_notices": sum(r["resent_notices"] for r in runs),
        "seconds": round(time.monotonic() - started, 1),
        "runs": runs,
        "machine": machine(),
    }
    print(json.dumps(out, indent=2))
    return 0 if out["briefs_equal"] == out["briefs"] and out["runs_verified"] == len(runs) else 1


if __name__ == "__main__":
    sys.exit(main())
