"""Our own pause is not the server's silence: when the router's thread is held (a busy CPU, a long
parse holding the GIL, a blocked callback), a healthy local server is neither called silent nor
stalled, and the pause is not learned as the model's slowness.

The pause is real: the router's loop sleeps (`time.sleep` in a callback on it) while a real
loopback server answers. Every verdict has a wide margin: the loop is held 2 s, the limit it
outlasts is 0.5-1 s, and the server answers within a tenth of a second; nothing asserts wall time.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import engine.routing.openai_tier as openai_tier
from engine.routing import Router
from engine.routing.router import model_tier_ready
from tests.routing.artifacts import GOOD, simulate
from tests.routing.helpers import live_settings, local_settings, outcomes, req

HOLD_S = 2.0


def _hold_the_loop() -> None:
    """From a callback on the router's loop: hold its thread HOLD_S, once the callback returns."""
    asyncio.get_running_loop().call_soon(time.sleep, HOLD_S)


def test_a_stream_our_thread_held_past_its_idle_limit_is_not_stalled(fake_openai_factory):
    """The server streams a piece every 0.1 s; after the first one our thread is held 2 s, past
    the 1 s idle limit. The pieces it sent meanwhile are read before any verdict: served, no
    strike toward the breaker. (The idle clock used to end the read in the turn the loop woke,
    before the task could take what was in the socket: "stalled", and three such calls opened a
    healthy server's breaker.)"""
    model_tier_ready().result()
    local = fake_openai_factory("ollama", payload=GOOD, stream_delay=0.1)
    settings = local_settings(
        local.url,
        agent_request_timeout=60.0,
        agent_stream_idle_timeout=1.0,
        agent_max_retries=0,
    )
    router = Router(settings, caps_cache=False)
    held: list[bool] = []

    def watcher(event: Any) -> None:
        if event.kind == "delta" and not held:
            held.append(True)
            _hold_the_loop()

    router.watch(watcher)
    result = router.call(req(), simulate)
    assert held == [True]
    assert result.served_by == "local", result.fallback_reason
    assert outcomes(result) == [("local", "ok")]
    assert router.status()["cooldowns"] == {}


def test_a_first_token_our_thread_held_up_is_not_silent_nor_learned(
    fake_openai_factory, monkeypatch
):
    """The request is on its way when our thread is held 2 s, past the 0.5 s first-token limit
    (Foundry behind the local model, so the limit is in force); the server answers at once. The
    local model serves, and what is learned of its first token leaves our pause out. (The watch
    counted our pause as the server's: "silent", the call went to the next tier, and the model
    was learned as 2 s slow.)"""
    model_tier_ready().result()
    local = fake_openai_factory("ollama", payload=GOOD)
    cloud = fake_openai_factory("azure", payload=GOOD, models=("gpt-5-mini",))
    settings = live_settings(
        cloud.url,
        local_url=local.url,
        agent_request_timeout=60.0,
        agent_first_token_timeout=0.5,
        agent_max_retries=0,
    )
    router = Router(settings, caps_cache=False)
    real_body = openai_tier.request_body
    holds: list[bool] = []

    def body_then_hold(*args: Any, **kwargs: Any) -> Any:
        """The real request body; our thread is held right after, as the request goes out."""
        holds.append(True)
        _hold_the_loop()
        return real_body(*args, **kwargs)

    monkeypatch.setattr(openai_tier, "request_body", body_then_hold)
    result = router.call(req(), simulate)
    assert result.served_by == "local", result.fallback_reason
    assert outcomes(result) == [("local", "ok")]
    assert holds == [True]
    learned = [
        caps["first_token_s"]
        for key, caps in router.status()["capabilities"].items()
        if key.startswith(local.url)
    ]
    assert learned and learned[0] is not None and learned[0] < HOLD_S / 2
