"""The breaker per endpoint: open after a fault, rest, then one half-open probe call decides.

Time is an injected clock, never a sleep; the only real waits are the short call timeouts."""

from __future__ import annotations

from engine.routing import Router
from engine.routing.health import Cooldowns
from tests.routing.artifacts import GOOD, simulate
from tests.routing.helpers import local_settings, outcomes, req


def _router(server, now, **extra):
    values = {
        "agent_request_timeout": 0.4,
        "agent_max_retries": 0,
        "agent_cooldown_seconds": 30,
        "agent_breaker_skips": 0,
        **extra,
    }
    return Router(local_settings(server.url, **values), clock=lambda: now[0])


def _state(router, server) -> str:
    return router.status()["cooldowns"].get(server.url, {"state": "closed"})["state"]


def test_timeout_opens_then_one_probe_closes(fake_openai):
    now = [1000.0]
    fake_openai.set_payload(GOOD)
    fake_openai.script("hang")
    router = _router(fake_openai, now)
    first = router.call(req(), simulate)
    assert first.fallback_reason.startswith("local: silent")
    assert _state(router, fake_openai) == "open"
    assert outcomes(router.call(req(), simulate)) == [("local", "parked")]
    now[0] += 29
    assert outcomes(router.call(req(), simulate)) == [("local", "parked")]
    assert len(fake_openai.chat_requests) == 1  # resting: nothing was sent
    now[0] += 2
    assert _state(router, fake_openai) == "half_open"
    probe = router.call(req(), simulate)
    assert probe.served_by == "local"
    assert _state(router, fake_openai) == "closed"
    assert router.call(req(), simulate).served_by == "local"


def test_failed_probe_opens_the_breaker_again(fake_openai):
    now = [1000.0]
    fake_openai.set_payload(GOOD)
    fake_openai.script("hang", "hang")
    router = _router(fake_openai, now)
    router.call(req(), simulate)
    now[0] += 31
    probe = router.call(req(), simulate)
    assert probe.served_by == "simulation" and probe.fallback_reason.startswith("local: silent")
    assert _state(router, fake_openai) == "open"
    assert router.status()["cooldowns"][fake_openai.url]["reason"] == "silent"
    assert outcomes(router.call(req(), simulate)) == [("local", "parked")]
    assert len(fake_openai.chat_requests) == 2


def test_scripts_probe_after_a_few_skipped_calls(fake_openai):
    """Back-to-back calls (a headless run) do not all go to the floor for a fixed wall of time."""
    now = [1000.0]
    fake_openai.set_payload(GOOD)
    fake_openai.script("hang")
    router = _router(fake_openai, now, agent_breaker_skips=2)
    router.call(req(), simulate)
    assert [router.call(req(), simulate).served_by for _ in range(3)] == [
        "simulation",
        "simulation",
        "local",
    ]
    assert len(fake_openai.chat_requests) == 2


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


def test_status_shows_the_breaker(fake_openai):
    now = [1000.0]
    fake_openai.script("hang")
    router = _router(fake_openai, now)
    router.call(req(), simulate)
    info = router.status()["cooldowns"][fake_openai.url]
    assert info["state"] == "open" and info["reason"] == "silent"
    assert info["seconds_left"] == 30.0
