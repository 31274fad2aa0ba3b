"""Routing suite fixtures: the network guard, the loopback OpenAI-compatible servers, and the model
client loaded before the first test times a call."""

from __future__ import annotations

import pytest

from tests.netguard import netguard  # noqa: F401 - autouse fixture, active for this suite
from tests.servers.fixtures import (  # noqa: F401
    fake_openai,
    fake_openai_factory,
    first_artifact,
    fresh_llama_server,
    llama_server,
)


@pytest.fixture(scope="session", autouse=True)
def model_client_loaded() -> None:
    """The model tier's client code imported once per test process, before any test times a call
    (as in any process after its first call). These tests give calls budgets of 0.5-3 s against
    loopback servers; on a saturated machine the import alone (openai, httpx, the CA bundle) took
    over 2 s, so a test's first call ran out of time 'while the model client was still loading'
    and fell back. What a fresh process's first call does under its deadline is tested in a
    fresh process (test_deadline_and_limits.py, test_local_tier's background-load test)."""
    from engine.routing.router import model_tier_ready

    model_tier_ready().result(timeout=600)
