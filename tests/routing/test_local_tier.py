"""The local tier against a real loopback server: request shape, retries, deadline, parks, re-ask."""

from __future__ import annotations

import subprocess
import sys
import time

from engine.routing import Router
from tests.routing.artifacts import GOOD, SIMULATED, simulate
from tests.routing.helpers import local_router, local_settings, outcomes, req
from tests.servers.openai_server import refused_url


def test_local_serves_and_sends_schema_temperature_and_max_tokens(fake_openai):
    router = local_router(fake_openai)
    result = router.call(req(), simulate)
    assert result.served_by == "local"
    assert result.model == "qwen2.5"
    assert result.output == GOOD
    assert result.fallback_reason is None and result.fallbacks == []
    assert outcomes(result) == [("local", "ok")]
    assert result.usage.tokens_in > 0 and result.usage.tokens_out > 0
    assert result.raw_text is not None and "Dockside" in result.raw_text
    body = fake_openai.chat_requests[0].body
    assert body["model"] == "qwen2.5"
    assert body["max_tokens"] == 400 and "max_completion_tokens" not in body
    assert body["temperature"] == 0.7
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["title"] == "Pitch"
    assert '"confidence"' in body["messages"][0]["content"]  # schema also in the system prompt
    assert router.pill() == "local: qwen2.5"
    assert router.runtime_label() == "local"


def test_sdk_retries_are_off_and_ours_is_bounded(fake_openai):
    fake_openai.set_default("server_error")
    router = Router(local_settings(fake_openai.url, agent_max_retries=1))
    result = router.call(req(), simulate)
    assert len(fake_openai.chat_requests) == 2  # one try + one retry of ours, none from the SDK
    assert all(
        r.headers.get("x-stainless-retry-count", "0") == "0" for r in fake_openai.chat_requests
    )
    assert result.served_by == "simulation"
    assert outcomes(result) == [("local", "error"), ("local", "error")]
    assert result.fallback_reason.startswith("local: server error")
    assert [(f.from_tier, f.to_tier) for f in result.fallbacks] == [("local", "simulation")]


def test_no_retries_when_max_retries_zero(fake_openai):
    fake_openai.set_default("server_error")
    Router(local_settings(fake_openai.url, agent_max_retries=0)).call(req(), simulate)
    assert len(fake_openai.chat_requests) == 1


def test_refused_falls_to_simulation_and_parks_the_endpoint():
    url = refused_url()
    router = Router(local_settings(url))
    first = router.call(req(), simulate)
    assert first.served_by == "simulation" and first.output == SIMULATED
    assert outcomes(first) == [("local", "error")]  # unreachable is not retried
    assert first.fallback_reason.startswith("local: unreachable")
    second = router.call(req(), simulate)
    assert outcomes(second) == [("local", "parked")]
    assert "breaker open (unreachable" in second.attempts[0].error
    assert router.pill().startswith("fallback: simulation")


def test_reset_is_retried_once_on_the_same_endpoint_without_parking(fake_openai):
    router = local_router(fake_openai, "drop")
    result = router.call(req(), simulate)
    assert result.served_by == "local"
    assert outcomes(result) == [("local", "error"), ("local", "ok")]
    assert result.attempts[0].error.startswith("reset")
    assert router.status()["cooldowns"] == {}  # the server was up: nothing rests


def test_two_resets_fall_back_labelled_and_park_nothing(fake_openai):
    fake_openai.script("drop", "drop")
    router = Router(local_settings(fake_openai.url))
    result = router.call(req(), simulate)
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: connection reset (")
    assert router.status()["cooldowns"] == {}


def test_hang_is_cut_at_the_total_deadline(fake_openai):
    fake_openai.set_default("hang")
    # a budget a saturated machine cannot eat before the request is sent (0.5 s could run out
    # while connecting, which is not the hang this is about); the server holds it for 30 s
    router = Router(local_settings(fake_openai.url, agent_request_timeout=3.0))
    started = time.perf_counter()
    result = router.call(req(), simulate)
    elapsed = time.perf_counter() - started
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: silent")
    assert len(fake_openai.chat_requests) == 1  # the timeout ate the budget: no retry after it
    assert elapsed < 15.0  # cut at the budget, not held for the server's 30 s


def test_trickle_is_cut_at_the_total_deadline(fake_openai_factory):
    server = fake_openai_factory("ollama", payload=GOOD, trickle_chunk=4, trickle_delay=0.2)
    server.set_default("trickle")
    started = time.perf_counter()
    result = Router(local_settings(server.url, agent_request_timeout=1.5)).call(req(), simulate)
    elapsed = time.perf_counter() - started
    assert result.served_by == "simulation"
    # still streaming at the deadline ("out of time … after N tokens"); on a saturated machine the
    # first piece may not even have arrived ("silent"): either way the cause is named
    assert result.fallback_reason.startswith(("local: out of time", "local: silent"))
    assert elapsed < 6.0  # the full trickle takes well over 10 s with reads every 0.2 s


def test_short_retry_after_waits_once_then_serves(fake_openai):
    result = local_router(fake_openai, "rate_limit").call(req(), simulate)
    assert result.served_by == "local"
    assert outcomes(result) == [("local", "error"), ("local", "ok")]
    assert result.attempts[0].error.startswith("rate_limited")


def test_long_retry_after_does_not_wait(fake_openai_factory):
    server = fake_openai_factory("ollama", payload=GOOD, retry_after=30)
    server.script("rate_limit")
    started = time.perf_counter()
    router = Router(local_settings(server.url))
    result = router.call(req(), simulate)
    assert time.perf_counter() - started < 5.0
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: rate-limited")
    assert router.status()["cooldowns"][f"{server.url}#qwen2.5"]["seconds_left"] > 20


def test_429_without_retry_after_backs_off_once_then_moves_on(fake_openai):
    result = local_router(fake_openai, "rate_limit_no_retry_after").call(req(), simulate)
    assert result.served_by == "local"  # one jittered back-off, then it answered
    fake_openai.script("rate_limit_no_retry_after", "rate_limit_no_retry_after")
    router = Router(local_settings(fake_openai.url))
    before = len(fake_openai.chat_requests)
    second = router.call(req(), simulate)
    assert second.served_by == "simulation"
    assert second.fallback_reason.startswith("local: rate-limited")
    assert len(fake_openai.chat_requests) - before == 2


def test_model_missing_is_labelled_and_parked(fake_openai):
    router = Router(local_settings(fake_openai.url, local_agent_model="llama9"))
    result = router.call(req(), simulate)
    assert result.fallback_reason.startswith("local: model not found")
    assert len(fake_openai.chat_requests) == 1
    assert router.call(req(), simulate).attempts[0].outcome == "parked"


def test_update_settings_applies_to_the_next_call(fake_openai):
    fake_openai.set_payload(GOOD)
    router = Router(local_settings(refused_url()))
    assert router.call(req(), simulate).served_by == "simulation"
    router.update_settings(local_settings(fake_openai.url))
    assert router.call(req(), simulate).served_by == "local"


def test_status_and_probe(fake_openai):
    router = Router(local_settings(fake_openai.url, local_designer_model="phi4"))
    status = router.status()
    assert status["runtime"] == "local"
    assert status["roles"]["designer"]["local"] == "phi4"
    assert status["roles"]["ops"]["order"] == ["local:qwen2.5", "simulation"]
    probes = {p["tier"]: p for p in router.probe()}
    assert probes["local"]["ok"] is True and probes["local"]["models"] == ["qwen2.5"]
    assert probes["local"]["missing_models"] == ["phi4"]
    assert probes["simulation"]["ok"] is True


def test_probe_lifts_a_cooldown(fake_openai):
    from engine.routing.router import model_tier_ready

    model_tier_ready().result()  # the hang must park the endpoint, not the client's import
    router = local_router(fake_openai, "hang", agent_request_timeout=0.4)
    assert router.call(req(), simulate).served_by == "simulation"
    assert router.call(req(), simulate).attempts[0].outcome == "parked"
    # Only the hung call needs the short budget; the probe and the served call get a loaded
    # machine's (a setting read per call: the park stays, unlike update_settings).
    router.settings.agent_request_timeout = 60.0
    assert router.probe()[1]["ok"] is True
    assert router.call(req(), simulate).served_by == "local"


def test_cooldown_expires_with_the_clock(fake_openai):
    from engine.routing.router import model_tier_ready

    model_tier_ready().result()  # the hang must park the endpoint, not the client's import
    now = [1000.0]
    fake_openai.set_payload(GOOD)
    fake_openai.script("hang")
    router = Router(
        local_settings(fake_openai.url, agent_cooldown_seconds=30, agent_request_timeout=0.4),
        clock=lambda: now[0],
    )
    assert router.call(req(), simulate).served_by == "simulation"
    assert router.call(req(), simulate).attempts[0].outcome == "parked"
    now[0] += 31
    assert router.call(req(), simulate).served_by == "local"


def test_schema_is_stated_once_when_the_engine_already_did(fake_openai):
    import json as _json

    from engine.routing import RouteRequest
    from tests.routing.artifacts import Pitch

    fake_openai.set_payload(GOOD)
    system = "Brief.\n\nSchema:\n" + _json.dumps(Pitch.model_json_schema())
    request = RouteRequest(
        role="designer", system=system, user="u", contract=lambda: Pitch, call_key="k"
    )
    Router(local_settings(fake_openai.url)).call(request, simulate)
    assert fake_openai.chat_requests[0].body["messages"][0]["content"] == system


def test_two_hanging_tiers_cost_one_budget_not_budget_x_retries_x_tiers(fake_openai_factory):
    from tests.routing.helpers import live_settings

    local = fake_openai_factory("ollama", payload=GOOD)
    cloud = fake_openai_factory("azure", payload=GOOD, rejects=())
    local.set_default("hang")
    cloud.set_default("hang")
    settings = live_settings(cloud.url, local.url, agent_request_timeout=1.0, agent_max_retries=1)
    started = time.perf_counter()
    result = Router(settings).call(req(), simulate)
    elapsed = time.perf_counter() - started
    assert outcomes(result) == [("local", "error"), ("foundry", "error")]
    assert [(f.from_tier, f.to_tier) for f in result.fallbacks] == [
        ("local", "foundry"),
        ("foundry", "simulation"),
    ]
    assert result.served_by == "simulation"
    assert elapsed < 3.0  # budget 1 s; budget × (1 + retries) × tiers would be 4 s


def test_non_json_body_and_empty_choices_are_labelled_not_crashes(fake_openai):
    router = local_router(
        fake_openai, "garbage_body", "garbage_body", "no_choices", "no_choices", agent_max_retries=1
    )
    first = router.call(req(), simulate)
    assert first.served_by == "simulation"
    assert first.fallback_reason.startswith("local: not a model answer")
    assert len(fake_openai.chat_requests) == 2  # one retry of ours
    # An empty stream is asked once more without streaming (how llama.cpp's errors are read):
    # that answer has no choices either, so the attempt is invalid, and the re-ask serves.
    second = router.call(req(), simulate)
    assert outcomes(second) == [("local", "invalid"), ("local", "ok")]
    assert [r.body.get("stream") for r in fake_openai.chat_requests[2:]] == [True, False, True]
    assert second.served_by == "local"


async def test_call_works_from_inside_a_running_event_loop(fake_openai):
    result = local_router(fake_openai).call(req(), simulate)
    assert result.served_by == "local"


def test_concurrent_calls_share_one_router(fake_openai):
    from concurrent.futures import ThreadPoolExecutor

    router = local_router(fake_openai)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda i: router.call(req(key=f"k{i}"), simulate), range(8)))
    assert {r.served_by for r in results} == {"local"}
    assert router.status()["served"] == {"local": 8}


def test_model_client_code_loads_in_the_background_once_a_model_is_configured():
    """The first model call must not spend its deadline importing openai or loading CA certs."""
    code = (
        "import sys, threading\n"
        "from engine.config import Settings\n"
        "from engine.routing import Router\n"
        "def join_warm_ups():\n"
        "    warm = [t for t in threading.enumerate() if t.name == 'wf-router-warm']\n"
        "    for t in warm:\n"
        "        t.join(60)\n"
        "        assert not t.is_alive(), 'the warm-up never finished'\n"
        "    return len(warm)\n"
        "Router(Settings())\n"
        "assert join_warm_ups() == 0, 'simulation started a warm-up'\n"
        "assert 'engine.routing.openai_tier' not in sys.modules, 'simulation loaded a model tier'\n"
        "Router(Settings(demo_mode='local', local_agent_base_url='http://127.0.0.1:9/v1',"
        " local_agent_model='qwen2.5'))\n"
        "join_warm_ups()\n"
        "assert {'openai', 'engine.routing.openai_tier'} <= set(sys.modules), 'tier not loaded'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=90)
