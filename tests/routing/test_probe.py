"""`routing test`: a one-token completion per tier, and enforcement (not acceptance) of a schema."""

from __future__ import annotations

import json

import pytest

from engine.routing import Router
from engine.routing.faults.server import FaultServer
from tests.routing.helpers import live_settings, local_env, local_settings
from worldforge_tui.cli import main


@pytest.fixture
def server():
    with FaultServer() as s:
        s.use("ok")
        yield s


def test_one_token_completion_per_tier(server):
    with FaultServer() as cloud:
        cloud.use("ok")
        router = Router(live_settings(cloud.url, local_url=server.url), caps_cache=False)
        rows = router.test_completions()
        assert [(r["tier"], r["ok"]) for r in rows] == [("local", True), ("foundry", True)]
        (local_hit,) = [h for h in server.hits if not h.stream or h.prompt_chars < 20]
        assert local_hit.model == "qwen2.5"  # the completion really went to the tier's model
        first = cloud.hits[0]
        assert first.prompt_chars == len("Say OK.")


def test_schema_accepted_but_ignored_is_advisory(server):
    router = Router(local_settings(server.url), caps_cache=False)
    (row,) = router.test_completions()
    schema = row["schema"]
    assert schema["ok"] and schema["mode"] == "json_schema" and schema["enforced"] is False
    caps = router.status()["capabilities"][f"{server.url}#qwen2.5"]
    assert caps["schema_enforced"] is False


def test_schema_enforced_is_recorded():
    with FaultServer(enforce_schema=True) as server:
        server.use("ok")
        router = Router(local_settings(server.url), caps_cache=False)
        (row,) = router.test_completions()
        assert row["schema"]["enforced"] is True
        assert router.status()["capabilities"][f"{server.url}#qwen2.5"]["schema_enforced"] is True


def test_routing_test_prints_completion_and_advisory(server, monkeypatch, capsys):
    local_env(monkeypatch, server.url)
    assert main(["routing", "test"]) == 0
    out = capsys.readouterr().out
    assert "one-token completion" in out and "schema    advisory (json_schema" in out
    assert main(["routing", "status", "--no-probe"]) == 0
    assert "schema advisory" in capsys.readouterr().out  # remembered in the capability cache


def test_a_failing_completion_fails_routing_test(monkeypatch, capsys):
    with FaultServer() as s:
        s.use("S04")  # lists its models, but every completion is a 503
        local_env(monkeypatch, s.url)
        assert main(["routing", "test", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["tiers"][1]["ok"] is True  # /models answered…
    assert data["completions"][0]["ok"] is False  # …the completion did not
    assert data["completions"][0]["error"].startswith("overloaded (503")


def test_routing_test_faults_prints_the_scorecard(capsys):
    assert main(["routing", "test", "--faults", "--only", "S05,S13", "--scale", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "S05" in out and "S13" in out
    assert "local: 2 pass" in out and "hybrid: 2 pass" in out


def test_routing_test_faults_refuses_an_unknown_scenario(capsys):
    assert main(["routing", "test", "--faults", "--only", "S99"]) == 2
    assert capsys.readouterr().err.startswith("worldforge: error: unknown scenario S99")
