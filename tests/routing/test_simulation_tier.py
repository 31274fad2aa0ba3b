"""The simulation floor: default settings never open a socket and label the result honestly."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from engine.config import Settings
from engine.routing import Router, RouteRequest
from tests.routing.artifacts import SIMULATED, Pitch, simulate


def _req(key: str = "stage_1_you/attempt-1") -> RouteRequest:
    return RouteRequest(
        role="strategist", system="sys", user="go", contract=lambda: Pitch, call_key=key
    )


def test_default_mode_serves_simulation_without_sockets(monkeypatch):
    def _no_socket(*args, **kwargs):
        raise AssertionError("simulation mode opened a socket")

    monkeypatch.setattr(socket.socket, "connect", _no_socket)
    router = Router(Settings())
    result = router.call(_req(), simulate)
    assert result.served_by == "simulation"
    assert result.model == "simulation"
    assert result.output == SIMULATED
    assert result.raw_text is None
    assert result.fallback_reason is None
    assert result.fallbacks == []
    assert result.attempts == []
    assert router.runtime_label() == "simulation"
    assert router.pill() == "simulation"


def test_simulate_called_only_when_floor_serves():
    calls = []

    def counting() -> dict[str, Any]:
        calls.append(1)
        return SIMULATED

    router = Router(Settings(), replay={"k": '{"title":"Replayed","steps":["a"],"confidence":1}'})
    result = router.call(_req("k"), counting)
    assert result.served_by == "replay"
    assert calls == []
    assert result.output["title"] == "Replayed"


def test_wrong_simulate_type_is_a_programming_error():
    router = Router(Settings())
    with pytest.raises(TypeError):
        router.call(_req(), Settings)


def test_local_mode_without_base_url_is_simulation():
    router = Router(Settings(demo_mode="local", local_agent_model="qwen2.5"))
    assert router.runtime_label() == "simulation"
    assert router.call(_req(), simulate).served_by == "simulation"
