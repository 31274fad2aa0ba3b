"""The local tier against the REAL llama-cpp-python server (llama.cpp's engine, a tiny random model).

What the loopback fake cannot prove: the real server's answers to our requests. It rejects
`json_schema` with a 500, takes `{"type": "json_object", "schema": …}`, streams server-sent events,
and refuses a prompt beyond its context. Skipped, with one reason, where the wheel is not installed.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import signal
import subprocess
import sys

from engine.config import config_dir
from engine.routing import Router
from engine.routing.types import StreamEvent
from engine.workers.standup import line_contract
from tests.routing.artifacts import GOOD, Pitch, simulate
from tests.routing.helpers import local_env, local_settings, outcomes, req
from worldforge_tui.cli import routing as cli_routing

PITCH = "Repair bookings for independent bike shops"
# One call's deadline for the calls that must be served. Not a speed limit: the tiny model writes a
# long stage in seconds on a quiet machine, but beside a second suite on two cores one took over
# 60 s (stage 5 fell back 'out of time' after 349 tokens); the budget only bounds a wedged call.
CALL_BUDGET_S = 300.0


def _settings(server, **extra):
    return local_settings(
        server.url,
        **{"local_agent_model": server.model, "agent_request_timeout": CALL_BUDGET_S, **extra},
    )


def _env(server, monkeypatch) -> None:
    local_env(monkeypatch, server.url, server.model)
    monkeypatch.setenv("AGENT_REQUEST_TIMEOUT", str(CALL_BUDGET_S))


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="worldforge")
    cli_routing.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_routing_test_reaches_the_real_server(llama_server, monkeypatch, capsys):
    _env(llama_server, monkeypatch)
    assert _cli(["routing", "test", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    local = next(t for t in data["tiers"] if t["tier"] == "local")
    assert local["ok"] and local["models"] == ["tiny"]


def test_json_schema_500_steps_down_and_is_remembered(llama_server, monkeypatch, capsys):
    router = Router(_settings(llama_server))
    first = router.call(req(), simulate)
    assert first.served_by == "local", first.fallback_reason
    # The real server answers json_schema with HTTP 500 (a validation error naming the format).
    assert first.adaptations[0] == "json_mode:json_object_schema"
    assert first.attempts[0].error.startswith("bad_param: response_format")
    key = f"{llama_server.url}#tiny"
    assert router.status()["capabilities"][key]["json_mode"] == "json_object_schema"
    # A new process (a new router) starts on the rung that worked: the settings' cache.
    again = Router(_settings(llama_server))
    second = again.call(req(), simulate)
    assert second.served_by == "local" and "json_mode" not in " ".join(second.adaptations)
    assert outcomes(second)[0] == ("local", "ok") or second.attempts[0].outcome == "invalid"
    status = again.status()["capabilities"][key]
    assert status == {**status, "json_mode": "json_object_schema", "source": "cache"}
    cached = json.loads((config_dir() / "capabilities.json").read_text())
    assert cached[key]["json_mode"] == "json_object_schema"
    _env(llama_server, monkeypatch)
    assert _cli(["routing", "status", "--no-probe"]) == 0
    assert f"learned    {key}: output json_object_schema, max_tokens (cache)" in (
        capsys.readouterr().out
    )


def test_streaming_shows_the_text_as_it_grows(llama_server):
    router = Router(_settings(llama_server))
    events: list[StreamEvent] = []
    router.watch(events.append)
    result = router.call(req(), simulate)
    assert result.served_by == "local"
    deltas = [e for e in events if e.kind == "delta"]
    assert len(deltas) > 5  # the answer arrived in pieces, not at once
    assert all(
        b.text.startswith(a.text) and len(b.text) > len(a.text)
        for a, b in itertools.pairwise(deltas)
    )
    assert deltas[-1].text == result.raw_text
    assert events[-1].kind == "end" and events[-1].tier == "local"
    assert result.usage.first_token_ms is not None and result.usage.tokens_out >= len(deltas)
    Pitch.model_validate_json(result.raw_text)


def test_context_overflow_falls_to_the_floor_labelled(llama_server):
    router = Router(_settings(llama_server))
    big = dataclasses.replace(req(), user="bike shop repair booking " * 4000)
    result = router.call(big, simulate)
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: context too long")
    assert outcomes(result)[-1] == ("local", "error")
    assert sum(1 for a in result.attempts if a.error and "context_window" in a.error) == 1


def test_schema_limits_are_ours_to_enforce(llama_server):
    """The grammar ignores minimum/maximum: whatever the tiny model writes, the router returns a
    valid artifact (validated, re-asked or clamped with a label), never an out-of-range one."""
    router = Router(_settings(llama_server))
    for i in range(3):
        result = router.call(req(key=f"limits-{i}"), simulate)
        if result.served_by == "local":
            out = result.output
            Pitch.model_validate(out)
            assert 0 <= out["confidence"] <= 100 and len(out["title"]) >= 3
            clamps = [a for a in result.adaptations if a.startswith("clamped:")]
            raw = json.loads(result.raw_text)
            assert bool(clamps) == (raw != out or not (0 <= raw["confidence"] <= 100))
    assert GOOD["confidence"] <= 100


def test_full_simulate_served_locally_at_every_stage(fresh_llama_server, tmp_path):
    llama_server = fresh_llama_server
    env = {
        "WORLDFORGE_HOME": str(tmp_path / "home"),
        "DEMO_MODE": "local",
        "LOCAL_AGENT_BASE_URL": llama_server.url,
        "LOCAL_AGENT_MODEL": llama_server.model,
        "AGENT_REQUEST_TIMEOUT": str(CALL_BUDGET_S),
        "PATH": "/usr/bin:/bin",
    }
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "worldforge_tui.cli", "simulate", "--pitch", PITCH, "--json"),
            *("--save-dir", str(tmp_path / "saves")),
        ],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=3600,  # a guard against a wedged run, not a speed limit
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    executed = data["events"]["STAGE_EXECUTED"]
    # the report card's runtime names what served the calls (the event log), not the settings:
    # opened here under simulation settings, it still says the local model served them
    from engine.config import Settings
    from engine.session.api import GameSession
    from engine.views.report import render_report

    session = GameSession.load(
        data["run_id"],
        save_dir=tmp_path / "saves",
        router=Router(Settings(demo_mode="simulation")),
    )
    try:
        card = render_report(session.read_model())
        fallbacks = [e.payload for e in session.events() if e.type == "ROUTE_FALLBACK"]
    finally:
        session.close()
    assert data["served_by"] == {"local": executed}, fallbacks  # every stage the venture reached
    assert not fallbacks  # standups included: nothing fell back
    standups = data["events"]["AGENT_STANDUP"]
    assert standups >= 3 * (executed - 1)
    calls = executed + standups
    assert f"runtime local: {llama_server.model} {calls} of {calls} calls" in card


def test_standup_line_is_served_by_the_real_server(llama_server):
    from engine.routing import RouteRequest

    router = Router(_settings(llama_server))
    result = router.call(
        RouteRequest(
            role="npc",
            system="You are ops at a standup.",
            user="CEO decision: ship weekly.",
            contract=line_contract,
            call_key="x/standup-0",
            max_output_tokens=200,
        ),
        lambda: {"line": "sim"},
    )
    assert result.served_by == "local" and result.output["line"] != "sim"


# The frozen call's own budget: it only has to find a hung server silent, so it spends all of it.
FROZEN_BUDGET_S = 2.0


def test_a_frozen_server_opens_the_breaker_then_one_probe_closes_it(llama_server, capsys):
    """A real server that stops answering (SIGSTOP: a hung process) times out; `routing status`
    shows the breaker open; after the rest one half-open probe finds it back and closes it.

    The warm call and the probe are real completions that a saturated machine may slow down, so
    they keep the generous CALL_BUDGET_S; only the frozen call, which spends its whole budget
    waiting for a first token that never comes, gets FROZEN_BUDGET_S (a setting read per call)."""
    now = [1000.0]
    router = Router(
        _settings(
            llama_server,
            agent_max_retries=0,
            agent_cooldown_seconds=30,
            agent_breaker_skips=0,
        ),
        clock=lambda: now[0],
    )
    assert router.call(req(key="warm"), simulate).served_by == "local"  # output mode learned
    router.settings.agent_request_timeout = FROZEN_BUDGET_S
    os.kill(llama_server.process.pid, signal.SIGSTOP)
    try:
        hung = router.call(req(key="frozen"), simulate)
    finally:
        os.kill(llama_server.process.pid, signal.SIGCONT)
        router.settings.agent_request_timeout = CALL_BUDGET_S
    assert hung.served_by == "simulation" and hung.fallback_reason.startswith("local: silent")
    cli_routing._print_status(cli_routing._status(router, probe=False))
    assert f"breaker    {llama_server.url}: open (silent" in capsys.readouterr().out
    assert outcomes(router.call(req(key="resting"), simulate)) == [("local", "parked")]
    now[0] += 31  # the rest is over: the next call is the one probe
    probe = router.call(req(key="probe"), simulate)
    assert probe.served_by == "local", probe.fallback_reason
    assert router.status()["cooldowns"] == {}
    cli_routing._print_status(cli_routing._status(router, probe=False))
    assert "breaker    closed on every endpoint" in capsys.readouterr().out


def test_routing_test_completes_one_token_and_finds_the_schema_enforced(llama_server):
    """llama-cpp-python refuses json_schema (500) and grammar-constrains json_object + schema: the
    probe steps down as a call would and finds the schema enforced on that rung."""
    router = Router(_settings(llama_server), caps_cache=False)
    (row,) = router.test_completions()
    assert row["ok"], row  # answered (the tiny model's unconstrained turn may end at once)
    assert row["schema"]["mode"] == "json_object_schema" and row["schema"]["enforced"] is True
