"""Headless output says who served and why anything fell back: `simulate` prints the served-by
split and every fallback reason, warns when a model tier was asked for and none answered, and
`--strict-tier` turns that warning into exit 1; a simulation run asked for no model."""

from __future__ import annotations

import json

import pytest

from engine.views.served import served_lines, served_summary, tier_warning
from tests.servers.fixtures import fake_openai_factory  # noqa: F401  (fixture)
from worldforge_tui.cli import main

PITCH = "Meal kits for night-shift nurses"


def test_summary_groups_reasons_and_names_the_cause():
    fallbacks = [
        {"from_tier": "local", "to_tier": "simulation", "reason": "cooldown(http_500)"}
    ] * 3
    fallbacks += [{"from_tier": "local", "to_tier": "simulation", "reason": "http_500 (boom)"}]
    s = served_summary("local", {"simulation": 4}, fallbacks)
    assert s["model_answered"] is False and s["calls"] == 4
    assert served_lines(s) == [
        "calls: 4 served by simulation 4 (asked for: local)",
        "  fallback 3× local → simulation: cooldown(http_500)",
        "  fallback 1× local → simulation: http_500 (boom)",
    ]
    assert tier_warning(s) == (
        "a model tier was asked for (local) and none answered: all 4 calls fell back to the "
        "simulation (http_500 (boom))"
    )
    assert tier_warning(served_summary("local", {"local": 1, "simulation": 3}, fallbacks)) is None
    assert tier_warning(served_summary("simulation", {"simulation": 9}, [])) is None
    assert tier_warning(served_summary("local", {}, [])) is None  # no call made yet


@pytest.fixture
def failing(fake_openai_factory, monkeypatch):  # noqa: F811
    server = fake_openai_factory("ollama")
    server.set_default("server_error")  # every call answered with a 5xx
    monkeypatch.setenv("WORLDFORGE_DEMO_MODE", "local")
    monkeypatch.setenv("WORLDFORGE_LOCAL_AGENT_BASE_URL", server.url)
    monkeypatch.setenv("WORLDFORGE_LOCAL_AGENT_MODEL", "qwen2.5")
    monkeypatch.setenv("WORLDFORGE_AGENT_MAX_RETRIES", "0")
    return server


def test_simulate_against_a_failing_server_says_so(failing, tmp_path, capsys):
    assert main(["simulate", "--pitch", PITCH, "--save-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert failing.chat_requests
    split = next(line for line in out.splitlines() if line.startswith("calls: "))
    calls = int(split.split()[1])
    assert split == f"calls: {calls} served by simulation {calls} (asked for: local)"
    reasons = [line for line in out.splitlines() if line.startswith("  fallback ")]
    assert reasons and sum(int(r.split()[1].rstrip("×")) for r in reasons) == calls
    (warning,) = err.splitlines()
    assert warning.startswith("worldforge: warning: a model tier was asked for (local) and none")
    assert f"all {calls} calls fell back to the simulation" in warning


def test_strict_tier_exits_1_and_json_carries_the_split(failing, tmp_path, capsys):
    args = ["simulate", "--pitch", PITCH, "--save-dir", str(tmp_path), "--json", "--strict-tier"]
    assert main(args) == 1
    out, err = capsys.readouterr()
    routing = json.loads(out)["routing"]
    assert routing["asked"] == "local" and routing["model_answered"] is False
    assert routing["served_by"] == {"simulation": routing["calls"]}
    assert sum(f["count"] for f in routing["fallbacks"]) == routing["calls"]
    assert "none answered" in err


def test_a_simulation_run_asks_for_no_model(tmp_path, capsys):
    assert main(["simulate", "--pitch", PITCH, "--save-dir", str(tmp_path), "--strict-tier"]) == 0
    out, err = capsys.readouterr()
    assert "(asked for: simulation)" in out and "fallback" not in out and err == ""
