"""Slow is not silent: the first-token limit follows what a model has shown, a silent model falls
back within its first-token limit, repeated stalls open the breaker, and the pill says when the
next probe is.

Real waits run on the fault catalogue's loopback server with its times scaled down; every verdict
is decided with a wide margin between the limit and the fault's own time, and nothing asserts
wall time beyond "far less than the budget"."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from engine.routing import Router, pace
from engine.routing.faults.scorecard import PRIMARY, SIMULATED, request, settings_for
from engine.routing.faults.server import FaultServer
from engine.routing.health import Capabilities, Cooldowns

SCALE = 0.1  # the catalogue's S07 first token at 2 s; the router's first-token limit 1 s


@pytest.fixture
def servers() -> Iterator[tuple[FaultServer, FaultServer]]:
    with FaultServer(scale=SCALE) as local, FaultServer(scale=SCALE) as cloud:
        yield local, cloud


def _learned(router: Router, url: str, timeout: float = 60.0) -> float | None:
    """The first-token figure the router keeps for the local model, once a watched request has
    reported it (polled: the watch ends on the model's first token, not on a timer here)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for key, caps in router.status()["capabilities"].items():
            if key.startswith(url) and caps.get("first_token_s") is not None:
                return float(caps["first_token_s"])
        time.sleep(0.02)
    return None


def test_a_slow_local_model_keeps_serving_in_hybrid_labelled_slow(servers):
    """A local model whose first token comes at 2 s (the issue's 20 s, ×0.1), Foundry behind it,
    a 1 s first-token setting: the first call falls over at the limit (as the catalogue's S07
    asks), the request is watched on and its first token learned, and every later call is served
    locally, the pill saying it is slow."""
    local, cloud = servers
    local.use("S07")
    cloud.use("ok")
    settings = settings_for("hybrid", local.url, cloud.url, SCALE, agent_request_timeout=10.0)
    router = Router(settings, caps_cache=False)
    first = router.call(request("slow/0"), lambda: SIMULATED)
    assert first.served_by == "foundry"
    assert first.fallback_reason.startswith("local: silent (no first token in 1.")
    figure = _learned(router, local.url)
    assert figure is not None and figure >= 2.0 * SCALE * 10 * 0.9  # ~2 s: it was slow
    served = [router.call(request(f"slow/{i}"), lambda: SIMULATED) for i in range(1, 5)]
    assert [r.served_by for r in served] == ["local"] * 4, [r.fallback_reason for r in served]
    assert all(r.model == PRIMARY and r.fallback_reason is None for r in served)
    assert any(a.startswith("slow:") for a in served[-1].adaptations)
    assert router.pill().startswith("local: slow (first token in 2 s)"), router.pill()


def test_after_the_start_up_probe_a_slow_models_first_call_is_served_locally(servers):
    """The start-up probe (`measure_pace`, started by the game as it opens) learns the model's own
    first-token time, so even the first call on the endpoint is given it: served locally, labelled
    slow, and nothing goes to Foundry."""
    local, cloud = servers
    local.use("S07")
    cloud.use("ok")
    settings = settings_for("hybrid", local.url, cloud.url, SCALE, agent_request_timeout=10.0)
    router = Router(settings, caps_cache=False)
    rows = router.measure_pace().result(timeout=30)
    assert len(rows) == 1 and rows[0]["ok"] and rows[0]["first_token_ms"] >= 2000 * 0.9
    assert _learned(router, local.url, timeout=1.0) is not None
    first = router.call(request("slow/0"), lambda: SIMULATED)
    assert first.served_by == "local" and first.fallback_reason is None, first.fallback_reason
    assert router.pill().startswith("local: slow (first token in 2 s)"), router.pill()
    assert cloud.hits == []
    assert router.measure_pace().result(timeout=5) == []  # known now: not probed again


def test_local_only_a_silent_server_falls_back_within_the_first_token_limit(servers):
    """No headers, no token: the simulator at the first-token limit, not at the whole budget."""
    local, _ = servers
    local.use("S06")
    settings = settings_for("local", local.url, None, SCALE, agent_request_timeout=30.0)
    router = Router(settings, caps_cache=False)
    result = router.call(request("silent"), lambda: SIMULATED)
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: silent (no first token in 1.")
    assert len(local.hits) == 1
    assert result.usage.latency_ms < 30_000 / 3  # far inside the 30 s budget (limit: 1 s)


def test_local_only_a_server_that_answered_is_given_the_budget_to_start(servers):
    """Headers at once, the first token at 2 s: local only, with nothing learned, it is waited
    for (the catalogue's S07 passes local only), and its time is learned."""
    local, _ = servers
    local.use("S07")
    settings = settings_for("local", local.url, None, SCALE)
    router = Router(settings, caps_cache=False)
    result = router.call(request("slow-local"), lambda: SIMULATED)
    assert result.served_by == "local" and result.fallback_reason is None
    assert _learned(router, local.url, timeout=1.0) is not None


def test_repeated_stalls_open_the_breaker():
    """A server that stalls mid-stream on every call is parked after three stalls (as three 5xx
    would park it), and the attempt trace says when it is probed next."""
    with FaultServer(scale=0.05) as local:
        local.use("S09")
        settings = settings_for("local", local.url, None, 0.05, agent_breaker_skips=3)
        router = Router(settings, caps_cache=False)
        results = [router.call(request(f"stall/{i}"), lambda: SIMULATED) for i in range(4)]
    for r in results[:3]:
        assert r.served_by == "simulation" and "stalled mid-answer" in r.fallback_reason
    assert len(local.hits) == 3
    parked = results[3].attempts[0]
    assert parked.outcome == "parked"
    assert parked.error.startswith("breaker open (stalled mid-answer; next probe in "), parked
    assert "or after 2 more calls" in parked.error


def test_next_probe_words_follow_the_clock_and_the_skips():
    now = [100.0]
    cd = Cooldowns(lambda: now[0], max_skips=3)
    assert cd.next_probe("e") is None
    cd.park("e", 30, "silent")
    assert cd.next_probe("e") == "in 30 s or after 3 more calls"
    assert cd.active("e") is not None  # one call skipped it
    assert cd.next_probe("e") == "in 30 s or after 2 more calls"
    cd.active("e")
    assert cd.next_probe("e") == "in 30 s or after 1 more call"
    cd.active("e")
    assert cd.next_probe("e") == "on the next call"  # the skips are spent: the next call probes
    cd = Cooldowns(lambda: now[0], max_skips=0)
    cd.park("e", 30, "silent")
    now[0] += 12
    assert cd.next_probe("e") == "in 18 s"
    now[0] += 20
    assert cd.next_probe("e") == "on the next call"


def test_the_pill_names_the_next_probe_not_a_rest_that_a_probe_ends(servers):
    local, cloud = servers
    local.use("S06")
    cloud.use("ok")
    settings = settings_for("hybrid", local.url, cloud.url, SCALE, agent_breaker_skips=1)
    router = Router(settings, caps_cache=False)
    router.call(request("pill/0"), lambda: SIMULATED)
    assert router.pill().startswith("fallback: foundry (local: silent; next probe in "), (
        router.pill()
    )
    assert "or after 1 more call)" in router.pill()
    router.call(request("pill/1"), lambda: SIMULATED)  # skipped: the next call is the probe
    assert router.pill() == "fallback: foundry (local: breaker open; next probe on the next call)"


def test_first_token_limit_follows_the_learned_figure_within_the_budget():
    assert pace.limit(10.0, None, 45.0) == 10.0
    assert pace.limit(10.0, 20.0, 45.0) == 30.0
    assert pace.limit(10.0, 20.0, 12.0) == 12.0  # never past what is left of the budget
    assert pace.limit(10.0, 2.0, 45.0) == 10.0  # a fast model keeps the setting
    clocks = pace.first_token(10.0, None, 45.0, has_next=False)
    assert (clocks.headers, clocks.token) == (10.0, 45.0)
    clocks = pace.first_token(10.0, 0.4, 45.0, has_next=False)  # a loaded CPU: no cut at 10 s
    assert (clocks.headers, clocks.token) == (10.0, 45.0)
    clocks = pace.first_token(10.0, 20.0, 45.0, has_next=True)
    assert (clocks.headers, clocks.token) == (30.0, 30.0)
    assert pace.learned(None, 19.0) == 19.0
    assert pace.learned(19.0, 25.0) == 25.0  # slower: taken at once
    assert pace.learned(20.0, 10.0) == 15.0  # faster: halfway


def test_the_learned_first_token_time_is_kept_in_the_cache(tmp_path):
    path = tmp_path / "capabilities.json"
    caps = Capabilities(path)
    caps.for_deployment("http://127.0.0.1:9/v1", "m", "max_tokens")
    assert caps.note_first_token("http://127.0.0.1:9/v1", "m", 19.2) == 19.2
    again = Capabilities(path).for_deployment("http://127.0.0.1:9/v1", "m", "max_tokens")
    assert again.first_token_s == 19.2
    data = json.loads(path.read_text())
    data["http://127.0.0.1:9/v1#m"]["first_token_s"] = "soon"  # a damaged entry is ignored
    path.write_text(json.dumps(data))
    damaged = Capabilities(path).for_deployment("http://127.0.0.1:9/v1", "m", "max_tokens")
    assert damaged.first_token_s is None


@pytest.mark.parametrize("dialect", ["ollama", "llamacpp", "lmstudio"])
def test_a_first_call_is_given_the_models_loading_time(dialect):
    """A model its server says is loading (Ollama: not in /api/ps; llama.cpp: /health 503 'Loading
    model'; LM Studio: state not-loaded) is waited for within the budget on its first call, though
    nothing comes before the first-token limit; a loaded model that says nothing is silent."""
    from tests.routing.artifacts import GOOD, simulate
    from tests.routing.helpers import local_settings, req
    from tests.servers.runtimes import RuntimeFake

    answer = json.dumps(GOOD)
    quick = {"agent_first_token_timeout": 0.3, "agent_request_timeout": 20.0}
    with RuntimeFake(dialect, model="m", answer=answer, loaded=False, loading_s=1.5) as server:
        router = Router(
            local_settings(server.url, local_agent_model="m", **quick), caps_cache=False
        )
        result = router.call(req(), simulate)
        assert result.served_by == "local", result.fallback_reason
        assert [a.outcome for a in result.attempts] == ["ok"]
    with RuntimeFake(dialect, model="m", answer=answer, delay_s=1.5) as server:
        router = Router(
            local_settings(server.url, local_agent_model="m", **quick), caps_cache=False
        )
        result = router.call(req(), simulate)
        assert result.served_by == "simulation"
        assert result.fallback_reason.startswith("local: silent (no first token in 0.")


def test_a_request_watched_past_its_verdict_ends_on_cancel(servers):
    """The request a hybrid call gave up on is watched to its own deadline, unless Esc cancels:
    then it ends at once (nothing keeps a silent server's connection open behind the player)."""
    local, cloud = servers
    local.use("S06")
    cloud.use("ok")
    settings = settings_for("hybrid", local.url, cloud.url, SCALE, agent_request_timeout=60.0)
    router = Router(settings, caps_cache=False)
    assert router.call(request("watch"), lambda: SIMULATED).served_by == "foundry"
    assert router.watched() == 1
    router.cancel()
    end = time.monotonic() + 30
    while router.watched() and time.monotonic() < end:
        time.sleep(0.01)
    assert router.watched() == 0


def test_a_long_briefs_first_call_is_given_the_time_the_model_takes_to_read_it():
    """A model that reads 500 tokens a second: its one-line probe answers at once, a ~2,000-token
    brief's first token comes at ~4 s. The start-up probe's long prompt measures the reading rate,
    so the first call is given the time to read its brief (1 s setting, Foundry behind it) and is
    served locally; without it the call would be taken for silent at 1 s."""
    import dataclasses

    with (
        FaultServer(scale=SCALE, read_rate=500.0) as local,
        FaultServer(scale=SCALE) as cloud,
    ):
        local.use("ok")
        cloud.use("ok")
        settings = settings_for("hybrid", local.url, cloud.url, SCALE, agent_request_timeout=12.0)
        router = Router(settings, caps_cache=False)
        router.measure_pace().result(timeout=30)
        caps = next(iter(router.status()["capabilities"].values()))
        assert caps["prompt_tokens_per_s"] is not None
        assert 0 < caps["prompt_tokens_per_s"] <= 600  # ~500: a loaded CPU only slows it
        long = dataclasses.replace(request("long/0"), user="word " * 1600)  # ~2,000 tokens
        result = router.call(long, lambda: SIMULATED)
        assert result.served_by == "local", result.fallback_reason
        assert cloud.hits == []


def test_expected_first_token_is_the_longer_of_shown_and_reading():
    assert pace.expected(None, None, 3000) is None
    assert pace.expected(2.0, None, 3000) == 2.0
    assert pace.expected(2.0, 150.0, 3000) == 20.0  # a 3,000-token brief at 150 tokens a second
    assert pace.expected(25.0, 150.0, 3000) == 25.0  # what it has shown, when longer
    assert pace.expected(None, 1000.0, 500) == 0.5
