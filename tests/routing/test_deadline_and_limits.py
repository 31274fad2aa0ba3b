"""The total deadline from a process's first call, the per-attempt limits, the first tier's floor,
the answer cap in bytes, and the JSON repair step on the unconstrained rungs."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import textwrap

import pytest

from engine.routing import Router, RouteResult
from engine.routing.extract import OutputError, parse_artifact
from engine.routing.faults.server import FaultAnswer, FaultServer
from tests.routing.artifacts import GOOD, Pitch, simulate
from tests.routing.helpers import live_settings, local_settings, req


@pytest.fixture(autouse=True)
def _model_tier_loaded():
    """These budgets are for the model, not the client's import (the fresh-process test has its
    own process, where the import does count)."""
    from engine.routing.router import model_tier_ready

    model_tier_ready().result()


FIRST_CALL = textwrap.dedent(
    """
    import json, sys, time
    import engine.routing.router as router_module
    from engine.config import Settings
    from engine.routing import Router, RouteRequest
    from engine.routing.faults.server import FaultAnswer
    budget, slow = float(sys.argv[2]), float(sys.argv[3])
    load = router_module._load_model_tier

    def slow_load():  # a cold import slower than the budget, as on a loaded or slow machine
        time.sleep(slow)
        load()

    router_module._load_model_tier = slow_load
    router = Router(Settings(demo_mode="local", local_agent_base_url=sys.argv[1],
                             local_agent_model="m", agent_request_timeout=budget), caps_cache=False)
    out = []
    for i in range(2):
        r = RouteRequest(role="npc", system="s", user="u", contract=lambda: FaultAnswer, call_key=f"k{i}")
        t = time.monotonic()
        res = router.call(r, lambda: {"answer": "sim"})
        out.append([time.monotonic() - t, res.served_by, res.fallback_reason])
        router.update_settings(router.settings)  # forget the park: the second call asks again
    print(json.dumps(out))
    """
)


@pytest.mark.parametrize("budget", [0.6, 1.5])
def test_no_call_of_a_fresh_process_runs_past_the_deadline(budget):
    """The first call of a process counts the model tier's import and client set-up against its
    deadline (it runs on the warm-up thread, awaited inside the budget): with a silent server and
    an import that takes 4 s longer than the budget, each call still ends at its deadline and falls
    back before the import is done. (No bound nearer the deadline than that: a loaded machine wakes
    a timed wait late, and the test must pass with the CPU saturated.)"""
    slow = budget + 4.0
    with FaultServer() as server:
        server.use("S06")  # accepts and never answers
        proc = subprocess.run(
            [sys.executable, "-c", FIRST_CALL, server.url, str(budget), str(slow)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr
    for elapsed, served_by, reason in json.loads(proc.stdout):
        # Not before its deadline, and before the import would have ended (the reason says it was
        # still loading): how soon after the deadline a loaded machine wakes the wait is its load's.
        assert budget * 0.9 <= elapsed < slow, (elapsed, reason)
        assert served_by == "simulation"
        assert reason.startswith("local: out of time (the model client was still loading)"), reason


def _hybrid(
    local_fault: str, *, scale: float = 1.0, **limits: float
) -> tuple[RouteResult, FaultServer]:
    """One call in the hybrid set-up, the local fault server playing `local_fault` and a healthy
    Foundry behind it: the result, and the Foundry server (what it was asked)."""
    with FaultServer(scale=scale) as local, FaultServer() as cloud:
        local.use(local_fault)
        cloud.use("ok")
        settings = live_settings(cloud.url, local_url=local.url, local_agent_model="m", **limits)
        return Router(settings, caps_cache=False).call(_fault_req(), _sim), cloud


def test_first_tier_keeps_its_floor_of_the_budget():
    """A local model whose first token comes at half the budget answers in the hybrid set-up when
    the player raised the first-token limit (an even split would have cut it)."""
    # the first token after 20 s × 0.05 = 1.0 s
    result, cloud = _hybrid(
        "S07", scale=0.05, agent_request_timeout=2.0, agent_first_token_timeout=30.0
    )
    assert result.served_by == "local", result.fallback_reason
    assert cloud.hits == []


def test_first_token_limit_hands_the_rest_to_the_next_tier():
    result, _ = _hybrid("S06", agent_request_timeout=3.0, agent_first_token_timeout=0.4)
    assert result.served_by == "foundry"
    assert result.fallback_reason == "local: silent (no first token in 0.4 s)"
    assert result.usage.latency_ms < 3000


def test_idle_limit_ends_a_stalled_stream():
    with FaultServer(scale=0.2) as local:
        local.use("S09")  # 20 tokens, then 6 s of silence
        settings = local_settings(
            local.url, agent_request_timeout=4.0, agent_stream_idle_timeout=0.3
        )
        result = Router(settings, caps_cache=False).call(_fault_req(), _sim)
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: stalled mid-answer (silent for 0.3 s after 2")
    assert len(local.hits) == 1  # a stall is not resent: the server was up, but stuck


def test_a_huge_answer_is_refused_unread(fake_openai):
    fake_openai.set_payload({"title": "x" * 300_000, "steps": ["a"], "confidence": 5})
    # a generous deadline (a budget, not a speed limit): at load 21 the 2 s default ran out first
    settings = local_settings(
        fake_openai.url, agent_max_answer_bytes=10_000, agent_request_timeout=30.0
    )
    result = Router(settings).call(req(), simulate)
    assert result.served_by == "simulation"
    assert result.fallback_reason == (
        "local: answer not valid (answer over 10,000 bytes, cut off unread)"
    )
    assert len(fake_openai.chat_requests) == 1  # not re-asked: it would only write as much again


def test_a_content_filter_finish_is_final(fake_openai_factory):
    with FaultServer() as cloud:
        cloud.use("S13")
        local = fake_openai_factory("ollama", payload=GOOD)
        settings = live_settings(cloud.url, local_url=local.url, agent_routing="cloud_first")
        result = Router(settings, caps_cache=False).call(req(), simulate)
    assert result.served_by == "simulation"  # the local tier was not asked to route round it
    assert local.chat_requests == []
    assert result.fallback_reason.startswith(
        "foundry: refused by the content filter (Error code: 400 - Your request was rejected"
    )


# ---- JSON repair on the unconstrained rungs ---------------------------------------------------

SLIPS = [
    '{"title": "Dock", "steps": ["a", "b",], "confidence": 7,}',  # trailing commas
    "{'title': 'Dock', 'steps': ['a'], 'confidence': 7}",  # single quotes
    '{"title": "Dock\nline", "steps": ["a"], "confidence": 7}',  # a raw newline in a string
    '{"title": "Dock", "steps": ["a"], "confidence": 7, "draft": True, "note": None}',
]


@pytest.mark.parametrize("text", SLIPS)
def test_small_slips_are_repaired_only_where_asked(text):
    with pytest.raises(OutputError):
        parse_artifact(text, Pitch)
    fixed = parse_artifact(text, Pitch, repair=True)
    assert fixed.output["title"].startswith("Dock")
    assert any(s.startswith("json_repaired:") for s in fixed.steps)


def test_a_truncated_value_is_never_completed_by_repair():
    with pytest.raises(OutputError) as err:
        parse_artifact('{"title": "Dock", "steps": ["a", "b"', Pitch, repair=True)
    assert err.value.label == "truncated"


def test_router_repairs_on_the_prompt_only_rung_and_logs_it(fake_openai):
    fake_openai.set_rejects("response_format")  # every structured-output rung refused
    fake_openai.set_payload("{'title': 'Dock', 'steps': ['a', 'b',], 'confidence': 7,}")
    seen: list[str] = []

    class _Catch(logging.Handler):  # on the router's own logger: the CLI may stop propagation
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    routing_log = logging.getLogger("worldforge.routing")
    handler, level = _Catch(), routing_log.level
    routing_log.addHandler(handler)
    routing_log.setLevel(logging.INFO)
    try:
        result = Router(local_settings(fake_openai.url), caps_cache=False).call(req(), simulate)
    finally:
        routing_log.removeHandler(handler)
        routing_log.setLevel(level)
    assert result.served_by == "local"
    assert "json_mode:none" in result.adaptations
    assert any(a.startswith("json_repaired:") for a in result.adaptations)
    assert any("json repaired" in m and "none rung" in m for m in seen), seen


def test_no_repair_on_the_schema_rung(fake_openai):
    fake_openai.set_payload("{'title': 'Dock', 'steps': ['a'], 'confidence': 7}")
    result = Router(local_settings(fake_openai.url), caps_cache=False).call(req(), simulate)
    assert (
        result.served_by == "simulation"
    )  # json_schema rung: the slip costs the re-ask, as before
    assert not any(a.startswith("json_repaired") for a in result.adaptations)


def _fault_req():
    from engine.routing import RouteRequest

    return RouteRequest(
        role="strategist", system="s", user="u", contract=lambda: FaultAnswer, call_key="t/1"
    )


def _sim() -> dict[str, str]:
    return {"answer": "sim"}


def test_the_hard_wait_labels_a_silent_call_as_its_own_clock_would():
    """Two clocks end a silent call at its deadline: the attempt's own (on the router loop) and
    the caller's hard wait. With the loop held busy past the deadline, as a saturated machine can,
    the hard wait ends the call first, and still names the cause the attempt would have: silent
    (the request went out, no first token came), the endpoint parked for it."""
    import socket
    import threading
    import time

    from engine.routing.router import asyncio_submit

    asked, done = threading.Event(), threading.Event()

    async def hold_the_loop() -> None:
        time.sleep(2.0)  # blocking on purpose: no timer on the router loop can fire meanwhile

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()

        def swallow() -> None:  # reads the request and never answers
            conn, _ = listener.accept()
            with conn:
                conn.recv(65536)
                asked.set()
                done.wait(30)

        threading.Thread(target=swallow, daemon=True).start()
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
        router = Router(local_settings(url, agent_request_timeout=1.0), caps_cache=False)
        held: list = []
        holder = threading.Thread(
            target=lambda: asked.wait(30) and held.append(asyncio_submit(hold_the_loop())),
            daemon=True,
        )
        holder.start()
        try:
            result = router.call(req(), simulate)
        finally:
            done.set()
            holder.join(30)
            for fut in held:
                fut.result(30)  # the loop is free again before the next test calls
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: silent (no first token in"), result
    assert router.status()["cooldowns"][url]["reason"] == "silent"
