"""The breaker per endpoint: open after a fault, rest, then one half-open probe call decides.

Time is an injected clock, never a sleep; the only real waits are 0.3 s first-token limits, each
decided far inside its 60 s deadline (so a saturated CPU cannot change a verdict)."""

from __future__ import annotations

import pytest

from engine.routing import Router
from engine.routing.health import Cooldowns
from tests.routing.artifacts import GOOD, simulate
from tests.routing.helpers import live_settings, local_settings, outcomes, req


def _silent_local(factory, now, **extra):
    """A local model that can go silent, with a cloud model behind it.

    Timing-free: a silence is decided by the first-token limit (0.3 s) while the call's deadline
    is 60 s, so the attempt's own verdict always comes first. (With the deadline as the only
    limit, the attempt's verdict and the caller's hard wait 20 ms later raced on a saturated CPU,
    and the first call of a process could spend the whole budget importing the client.)"""
    from engine.routing.router import model_tier_ready

    model_tier_ready().result()  # the client's first import is not the fault under test
    local = factory("ollama", payload=GOOD)
    cloud = factory("azure", payload=GOOD, models=("gpt-5-mini",))
    values = {
        "agent_request_timeout": 60.0,
        "agent_first_token_timeout": 0.3,
        "agent_max_retries": 0,
        "agent_cooldown_seconds": 30,
        "agent_breaker_skips": 0,
        **extra,
    }
    settings = live_settings(cloud.url, local_url=local.url, **values)
    return Router(settings, clock=lambda: now[0]), local


def _state(router, server) -> str:
    return router.status()["cooldowns"].get(server.url, {"state": "closed"})["state"]


def test_timeout_opens_then_one_probe_closes(fake_openai_factory):
    now = [1000.0]
    router, local = _silent_local(fake_openai_factory, now)
    local.script("hang")
    first = router.call(req(), simulate)
    assert first.served_by == "foundry" and first.fallback_reason.startswith("local: silent")
    assert _state(router, local) == "open"
    assert outcomes(router.call(req(), simulate))[0] == ("local", "parked")
    now[0] += 29
    assert outcomes(router.call(req(), simulate))[0] == ("local", "parked")
    assert len(local.chat_requests) == 1  # resting: nothing was sent
    now[0] += 2
    assert _state(router, local) == "half_open"
    probe = router.call(req(), simulate)
    assert probe.served_by == "local"
    assert _state(router, local) == "closed"
    assert router.call(req(), simulate).served_by == "local"


def test_failed_probe_opens_the_breaker_again(fake_openai_factory):
    """A silent local model, its breaker's probe silent too: open again, with the probe's reason."""
    now = [1000.0]
    router, local = _silent_local(fake_openai_factory, now)
    local.script("hang", "hang")
    first = router.call(req(), simulate)
    assert first.served_by == "foundry" and first.fallback_reason.startswith("local: silent")
    assert _state(router, local) == "open"
    now[0] += 31
    assert _state(router, local) == "half_open"
    probe = router.call(req(), simulate)
    assert probe.served_by == "foundry" and probe.fallback_reason.startswith("local: silent")
    assert _state(router, local) == "open"
    assert router.status()["cooldowns"][local.url]["reason"] == "silent"
    assert outcomes(router.call(req(), simulate))[0] == ("local", "parked")
    assert len(local.chat_requests) == 2


def test_scripts_probe_after_a_few_skipped_calls(fake_openai_factory):
    """Back-to-back calls (a headless run) do not all go to the floor for a fixed wall of time."""
    now = [1000.0]
    router, local = _silent_local(fake_openai_factory, now, agent_breaker_skips=2)
    local.script("hang")
    router.call(req(), simulate)
    assert [router.call(req(), simulate).served_by for _ in range(3)] == [
        "foundry",
        "foundry",
        "local",
    ]
    assert len(local.chat_requests) == 2


def test_a_probe_the_caller_gave_up_on_opens_the_breaker_again(fake_openai_factory):
    """A half-open probe held past the deadline outside any attempt clock (a token provider that
    never returns): the caller's hard wait ends the call, and the endpoint's breaker opens again
    instead of staying "probe in flight" for good (no later call would ever have tried it)."""
    import threading

    from engine.routing.router import model_tier_ready

    class CredentialUnavailableError(Exception):
        """As azure.identity names it (matched by name)."""

    model_tier_ready().result()
    server = fake_openai_factory("azure", payload=GOOD, models=("gpt-5-mini",), api_key="t")
    now, mode, held = [1000.0], ["refuse"], threading.Event()

    def provider() -> str:
        if mode[0] == "refuse":
            raise CredentialUnavailableError("no az login")
        if mode[0] == "hold":
            held.wait(60)
        return "t"

    settings = live_settings(
        server.url, foundry_api_key=None, agent_request_timeout=0.5, agent_max_retries=0
    )
    router = Router(settings, token_provider=provider, clock=lambda: now[0])
    try:
        assert router.call(req(), simulate).served_by == "simulation"
        assert _state(router, server) == "open"  # not signed in: parked
        now[0] += 10_000
        mode[0] = "hold"
        given_up = router.call(req(), simulate)  # the probe: its token never comes
        assert given_up.served_by == "simulation"
        assert given_up.fallback_reason.startswith("foundry: out of time")
        assert _state(router, server) == "open"
        assert router.status()["cooldowns"][server.url]["reason"] == "timeout"
    finally:
        held.set()
    mode[0] = "ok"
    now[0] += 10_000
    assert router.call(req(), simulate).served_by == "foundry"  # the next probe went through
    assert _state(router, server) == "closed"


def test_probe_in_flight_keeps_other_calls_away():
    now = [0.0]
    breaker = Cooldowns(lambda: now[0])
    breaker.park("k", 10, "timeout")
    assert breaker.active("k") == ("timeout", 10)
    now[0] = 11
    assert breaker.active("k") is None  # this caller is the probe
    assert breaker.state("k") == "half_open"
    assert breaker.active("k") == ("timeout, probe in flight", 0.0)
    breaker.release("k")  # the probe was cancelled: no verdict
    assert breaker.active("k") is None
    breaker.success("k")
    assert breaker.state("k") == "closed" and breaker.active("k") is None


def test_status_shows_the_breaker(fake_openai_factory):
    now = [1000.0]
    router, local = _silent_local(fake_openai_factory, now)
    local.script("hang")
    router.call(req(), simulate)
    info = router.status()["cooldowns"][local.url]
    assert info["state"] == "open" and info["reason"] == "silent"
    assert info["seconds_left"] == 30.0


@pytest.mark.parametrize("cooldown", [0, 30])
def test_a_probe_that_ends_without_a_verdict_is_taken_again(fake_openai, cooldown):
    """The model rests after two 429s; its half-open probe is answered, but not validly (neither
    a success that closes the breaker nor a fault that parks it again). The next call probes
    again and is served: the key stayed "probe in flight" for good, so every later stage of a
    busy soak went to the floor parked (1,273 of 1,409 in one run). No wall time: the rest is
    an injected clock; the only real wait is the 429's 0.05 s Retry-After, inside a 60 s budget."""
    from engine.routing.router import model_tier_ready

    model_tier_ready().result()
    now = [1000.0]
    fake_openai.set_payload(GOOD)
    fake_openai.script("rate_limit", "rate_limit", "invalid_schema", "invalid_schema")
    settings = local_settings(
        fake_openai.url,
        agent_request_timeout=60.0,
        agent_cooldown_seconds=cooldown,
        agent_breaker_skips=3,
    )
    router = Router(settings, clock=lambda: now[0])
    limited = router.call(req(), simulate)
    assert limited.fallback_reason.startswith("local: rate-limited")
    now[0] += 600  # the rest is over: the next call is the probe
    probe = router.call(req(), simulate)
    assert probe.fallback_reason.startswith("local: answer not valid")
    assert outcomes(probe) == [("local", "invalid"), ("local", "invalid")]
    served = router.call(req(), simulate)
    assert served.served_by == "local", served.fallback_reason
    assert len(fake_openai.chat_requests) == 5
    assert router.status()["cooldowns"] == {}


def test_settle_frees_only_the_callers_own_probe():
    """A call that took a key's probe and gave no verdict frees it for the next call; a call
    that never held the probe (parked, or after another call took it) leaves it in flight."""
    now = [0.0]
    breaker = Cooldowns(lambda: now[0])
    breaker.park("k", 10, "silent")
    now[0] = 11
    prober, other = object(), object()
    assert breaker.active("k", prober) is None  # prober holds the probe
    assert breaker.active("k", other) == ("silent, probe in flight", 0.0)
    breaker.settle("k", other)
    assert breaker.state("k") == "half_open"
    assert breaker.active("k", other) == ("silent, probe in flight", 0.0)
    breaker.settle("k", prober)  # done with no verdict: the next call probes
    assert breaker.active("k", other) is None
    breaker.park("k", 10, "silent")  # the new probe's verdict: open again
    breaker.settle("k", other)  # a new park is no one's probe: it rests its full time
    assert breaker.state("k") == "open"
