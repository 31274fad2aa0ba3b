"""Small builders shared by the routing tests."""

from __future__ import annotations

from typing import Any

import pytest

from engine.config import Settings
from engine.routing import Router, RouteRequest
from tests.routing.artifacts import GOOD, Pitch
from tests.servers.openai_server import FakeOpenAI


def req(role: str = "strategist", key: str = "stage_1_you/attempt-1") -> RouteRequest:
    return RouteRequest(
        role=role,
        system="You are the strategist.",
        user="Plan the pilot.",
        contract=lambda: Pitch,
        call_key=key,
        max_output_tokens=400,
    )


def local_settings(url: str, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "demo_mode": "local",
        "local_agent_base_url": url,
        "local_agent_model": "qwen2.5",
        "agent_request_timeout": 2.0,
        "agent_max_retries": 1,
    }
    values.update(extra)
    return Settings(**values)


def local_env(monkeypatch: pytest.MonkeyPatch, url: str, model: str = "qwen2.5") -> None:
    """The environment of a player on the local tier at `url` (what the CLI's settings read)."""
    monkeypatch.setenv("DEMO_MODE", "local")
    monkeypatch.setenv("LOCAL_AGENT_BASE_URL", url)
    monkeypatch.setenv("LOCAL_AGENT_MODEL", model)


def local_router(
    server: FakeOpenAI, *faults: str, rejects: tuple[str, ...] = (), **extra: Any
) -> Router:
    """A local-tier router on the loopback server, which answers GOOD after its scripted `faults`
    (refusing any request that sends a parameter in `rejects`)."""
    server.set_payload(GOOD)
    server.script(*faults)
    server.set_rejects(*rejects)
    return Router(local_settings(server.url, **extra))


def live_settings(cloud_url: str | None, local_url: str | None = None, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "demo_mode": "live",
        "foundry_base_url": cloud_url,
        "strategist_model": "gpt-5-mini",
        "foundry_api_key": "test-key",
        "agent_request_timeout": 2.0,
        "agent_max_retries": 1,
    }
    if local_url:
        values.update(local_agent_base_url=local_url, local_agent_model="qwen2.5")
    values.update(extra)
    return Settings(**values)


def outcomes(result: Any) -> list[tuple[str, str]]:
    """(tier, outcome) pairs, the shape most assertions compare."""
    return [(a.tier, a.outcome) for a in result.attempts]
