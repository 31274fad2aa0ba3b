"""One soak worker: plays ventures through the local tier against its own loopback model server
under a seeded random fault mix, checks every stage's labels and time, and prints a JSON summary.

Run as `python -m tests.reliability.soak_worker SAVE_DIR FIRST COUNT ARTIFACTS` (ARTIFACTS: the JSON
file `write_artifacts` made, the answers the server gives). The soak test writes that file once,
starts two workers (one per core) and asserts on their summaries. Workers (strategist, designer, marketer, ops) are
routed to the model; the standup voices (npc) and narrator stay on the simulation floor, so the
model calls that are made are the ones each stage's proof points describe. Every REFUSED_EVERY-th
venture points at a loopback port nothing listens on (connection refused).
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.game.shape import MAX_FORKS
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.replay import verify
from tests.servers.openai_server import FakeOpenAI, refused_url

# AGENT_REQUEST_TIMEOUT for the soak: one budget per call, shared by every attempt. Hangs (30 s)
# and trickles (~12 s a body) outlast it by design, and each costs the whole budget in waiting
# (~30 calls of the ~2,000 the soak makes): 1.5 s keeps that wait short. An answered call is
# ~0.02 s, so a saturated machine is far from turning a good answer into a timeout (and one that
# did would only be one more labelled fallback, which the soak accepts).
TIMEOUT = 1.5
# A refused port refuses every call the same way (no timing, no randomness): 8 of the 200 ventures
# prove every stage falls back labelled 'unreachable' (it was 20, each ~1-2 s of backoffs).
REFUSED_EVERY = 25
VERIFY_EVERY = 4
PITCHES = (
    "Repair bookings for independent bike shops",
    "Meal plans for night shift nurses",
    "Bookkeeping for small farm co-ops",
)
# Mostly fast faults; hangs and trickles each cost a whole call budget, so they stay rare.
FAULT_MIX = {
    "ok": 60,
    "server_error": 5,
    "rate_limit": 4,
    "rate_limit_no_retry_after": 2,
    "drop": 4,
    "garbage_body": 3,
    "truncated": 5,
    "invalid_schema": 3,
    "think": 3,
    "fenced": 3,
    "no_choices": 2,
    "hang": 0.8,
    "trickle": 0.8,
}
STAGE_ROLES = ("strategist", "designer", "marketer", "ops")


def _artifacts(save_dir: Path, pitch: str) -> dict[int, dict[str, Any]]:
    """Role-valid artifacts per stage number, from a simulation run of the same pitch: each
    number of that venture's stages (7 to 9 of them: engine.game.shape), and its last stage's
    for a number past them."""
    session = GameSession.start_venture(
        pitch=pitch, seed=1, save_dir=save_dir, router=Router(Settings(demo_mode="simulation"))
    )
    try:
        play(session, Plan())
        by_id = {
            e.payload["stage_id"]: e.payload["artifact"]
            for e in session.events()
            if e.type == "STAGE_EXECUTED"
        }
        ran = [s for s in session.state.stages if s.id in by_id]
        out = {s.number: by_id[s.id] for s in ran}
        for n in range(1, MAX_FORKS + 1):
            out.setdefault(n, by_id[ran[-1].id])
        return out
    finally:
        session.close()


def write_artifacts(save_dir: Path, into: Path) -> None:
    """The server's answers for every pitch, played once for all workers (each played them)."""
    artifacts = {p: _artifacts(save_dir, p) for p in PITCHES}
    into.write_text(json.dumps(artifacts), encoding="utf-8")


def read_artifacts(path: Path) -> dict[str, dict[int, dict[str, Any]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {p: {int(n): a for n, a in by_stage.items()} for p, by_stage in data.items()}


def _payload(artifacts: dict[str, dict[int, dict[str, Any]]]):
    def payload(body: dict[str, Any]) -> dict[str, Any]:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        pitch = next(p for p in artifacts if p in user)
        return artifacts[pitch][int(re.search(r"Stage (\d+) ", user).group(1))]

    return payload


def _settings(url: str) -> Settings:
    per_role = {f"local_{role}_model": "qwen2.5" for role in STAGE_ROLES}
    return Settings(
        demo_mode="local",
        local_agent_base_url=url,
        agent_request_timeout=TIMEOUT,
        agent_max_retries=1,
        agent_cooldown_seconds=0,
        **per_role,
    )


def _check_stage(e: Any, problems: list[str]) -> float:
    p = e.payload
    where = f"{e.run_id}/{p.get('stage_id')}#{p.get('attempt')}"
    if p.get("served_by") not in ("local", "simulation"):
        problems.append(f"{where}: served_by {p.get('served_by')!r}")
    fell = p.get("served_by") == "simulation"
    if fell != bool(p.get("fallback_reason")):
        problems.append(
            f"{where}: served_by {p['served_by']} with fallback {p.get('fallback_reason')!r}"
        )
    if not p.get("attempts"):
        problems.append(f"{where}: no attempts recorded")
    return float(p["usage"]["latency_ms"]) / 1000  # reported, not asserted: the machine is shared


def run(save_dir: Path, first: int, count: int, artifacts_file: Path) -> dict[str, Any]:
    import engine.routing.openai_tier  # noqa: F401 - load the SDK (~1 s) before any stage is timed

    artifacts = read_artifacts(artifacts_file)
    server = FakeOpenAI(
        "ollama", payload=_payload(artifacts), hang_max=30.0, trickle_delay=0.05
    ).start()
    # Each fault of the mix is served once first, between good answers (the slow ones last), so
    # the mix really happens however few requests the breaker lets through on a busy machine;
    # then the seeded random mix.
    kinds = sorted((f for f in FAULT_MIX if f != "ok"), key=lambda f: -FAULT_MIX[f])
    server.script(*(x for f in kinds for x in ("ok", f)))
    server.random_faults(first, FAULT_MIX)
    good, refused = Router(_settings(server.url)), Router(_settings(refused_url()))
    summary: dict[str, Any] = {
        "tried": 0,
        "completed": 0,
        "stages": 0,
        "served": Counter(),
        "fallback_kinds": Counter(),
        "verified": 0,
        "problems": [],
        "max_stage_s": 0.0,
    }
    started = time.perf_counter()
    try:
        for n in range(first, first + count):
            rng = random.Random(n)
            plan = Plan(path="".join(rng.choice("AB") for _ in range(MAX_FORKS)))
            if rng.random() < 0.3:
                plan.say("reject", "stage_3_go", "Name the first ten customers and the price")
            router = refused if n % REFUSED_EVERY == 0 else good
            summary["tried"] += 1
            session = GameSession.start_venture(
                pitch=PITCHES[n % len(PITCHES)],
                name=f"Soak {n}",
                seed=n,
                save_dir=save_dir,
                router=router,
            )
            try:
                play(session, plan)
                if session.state.phase != "ended":
                    summary["problems"].append(f"{session.state.run_id}: did not end")
                    continue
                summary["completed"] += 1
                fallbacks = {
                    e.payload.get("stage_id")
                    for e in session.events()
                    if e.type == "ROUTE_FALLBACK"
                }
                for e in session.events():
                    if e.type != "STAGE_EXECUTED":
                        continue
                    summary["stages"] += 1
                    summary["served"][e.payload["served_by"]] += 1
                    if e.payload["fallback_reason"]:
                        summary["fallback_kinds"][
                            e.payload["fallback_reason"].split(":")[1].split("(")[0].strip()
                        ] += 1
                        if e.payload["stage_id"] not in fallbacks:
                            summary["problems"].append(
                                f"{e.run_id}: fallback without ROUTE_FALLBACK"
                            )
                    summary["max_stage_s"] = max(
                        summary["max_stage_s"], _check_stage(e, summary["problems"])
                    )
                if n % VERIFY_EVERY == 0:
                    report = verify(session.conn, session.state.run_id)
                    summary["verified"] += 1
                    if not report.ok:
                        summary["problems"].append(
                            f"{report.run_id}: replay {report.first_difference}"
                        )
            finally:
                session.close()
    finally:
        server.stop()
    summary["requests"] = len(server.chat_requests)
    summary["faults"] = Counter(r.fault for r in server.chat_requests)
    summary["elapsed_s"] = round(time.perf_counter() - started, 1)
    return summary


if __name__ == "__main__":
    out = run(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]))
    sys.stdout.write(json.dumps(out, default=str) + "\n")
