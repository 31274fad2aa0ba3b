"""MEMORY_BACKEND selection: local stays the default and loads no Azure SDK; cosmos without the SDK
or without an answer plays on locally and says so; the key never reaches the settings file."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.config import Settings, load_settings, save_choices, settings_path
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession
from tests.cosmos.conftest import failover
from worldforge_tui.cli import main

PITCH = "A solar microgrid cooperative for rural farmers"

_PLAY = """
import sys
{block}
from engine.config import load_settings
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession
s = GameSession.start_venture(pitch="A solar microgrid cooperative for rural farmers", seed=3,
                              router=Router(load_settings()))
play(s, Plan(path="AAAAAAAA"))
print(s.memory_store_label())
print("azure.cosmos" in sys.modules, "textual" in sys.modules)
print(sorted({e.type for e in s.events()}))
"""


def _play(env_extra: dict[str, str], home, block: str = "") -> list[str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "MEMORY_"))}
    env.update(WORLDFORGE_HOME=str(home), DEMO_MODE="simulation", **env_extra)
    out = subprocess.run(
        [sys.executable, "-c", _PLAY.replace("{block}", block)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return out.stdout.strip().splitlines()


def test_local_is_the_default_and_loads_no_azure_sdk(isolated_home):
    label, modules, types = _play({}, isolated_home)
    assert label == "local-sqlite"
    assert modules == "False False"  # no azure.cosmos, no textual on the headless path
    assert "MEMORY_BACKEND" not in types


def test_cosmos_without_the_sdk_plays_on_locally_and_says_so(isolated_home):
    block = "sys.modules['azure.cosmos'] = None  # as if the cosmos extra were not installed"
    label, _, types = _play(
        {"MEMORY_BACKEND": "cosmos", "AZURE_COSMOS_ENDPOINT": "https://127.0.0.2:9"},
        isolated_home,
        block,
    )
    assert label.startswith("local-sqlite (azure-cosmos down: azure-cosmos not installed")
    assert "MEMORY_BACKEND" in types


def test_cosmos_unreachable_plays_on_locally(tmp_path, monkeypatch):
    settings = Settings(
        demo_mode="simulation",
        memory_backend="cosmos",
        azure_cosmos_endpoint="https://127.0.0.2:9",
        azure_cosmos_key="dGVzdA==",
    )
    game = GameSession.start_venture(
        pitch=PITCH, seed=3, save_dir=tmp_path, router=Router(settings)
    )
    play(game, Plan(path="ABABABAB"))
    assert game.state.phase == "ended"
    assert game.memory_store_label().startswith("local-sqlite (azure-cosmos down")
    events = [e for e in game.events() if e.type == "MEMORY_BACKEND"]
    assert len(events) == 1 and events[0].payload["state"] == "fallback"
    assert failover(game).pending() == len(failover(game).local.records()) > 0  # waiting to sync
    game.close()


def test_the_cosmos_key_never_reaches_the_settings_file(isolated_home, monkeypatch):
    monkeypatch.setenv("MEMORY_BACKEND", "COSMOS")
    monkeypatch.setenv("AZURE_COSMOS_ENDPOINT", "https://acct.documents.azure.com:443/")
    monkeypatch.setenv("AZURE_COSMOS_KEY", "c2VjcmV0LWtleQ==")
    settings = load_settings()
    assert settings.memory_backend == "cosmos"
    save_choices({"memory_backend": "cosmos", "azure_cosmos_key": settings.azure_cosmos_key})
    text = settings_path().read_text()
    assert "c2VjcmV0LWtleQ" not in text and "AZURE_COSMOS_KEY" not in text
    assert json.loads(text)["MEMORY_BACKEND"] == "cosmos"


def test_routing_status_names_the_memory_backend(capsys, monkeypatch):
    assert main(["routing", "status", "--no-probe"]) == 0
    assert "memory: local (local-sqlite) answers" in capsys.readouterr().out
    monkeypatch.setenv("MEMORY_BACKEND", "cosmos")
    monkeypatch.setenv("AZURE_COSMOS_ENDPOINT", "https://127.0.0.2:9")
    monkeypatch.setenv("AZURE_COSMOS_KEY", "dGVzdA==")
    assert main(["routing", "status", "--json"]) == 0
    mem = json.loads(capsys.readouterr().out)["memory"]
    assert mem["backend"] == "cosmos" and mem["answers"] is False and mem["detail"]


@pytest.mark.slow
def test_routing_status_says_the_server_answers(cosmos, config, capsys, monkeypatch):
    monkeypatch.setenv("MEMORY_BACKEND", "cosmos")
    monkeypatch.setenv("AZURE_COSMOS_ENDPOINT", cosmos.endpoint)
    monkeypatch.setenv("AZURE_COSMOS_KEY", config.key)
    monkeypatch.setenv("AZURE_COSMOS_DATABASE", config.database)
    assert main(["routing", "status"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("memory:"))
    assert line.startswith(f"memory: cosmos (azure-cosmos) answers {cosmos.endpoint}")


def test_settings_form_chooses_the_memory_backend():
    from worldforge_tui.screens.settings import SELECTS
    from worldforge_tui.screens.settings_form import SECRET_FIELDS, build_settings, pills

    assert "memory_backend" in SELECTS and "azure_cosmos_key" in SECRET_FIELDS
    base = Settings(azure_cosmos_key="a2V5")
    chosen = build_settings(
        base,
        {
            "memory_backend": "cosmos",
            "azure_cosmos_key": "",
            "azure_cosmos_endpoint": "https://a.documents.azure.com",
        },
    )
    assert chosen.memory_backend == "cosmos"
    assert chosen.azure_cosmos_key is not None  # a blank masked input keeps the key in memory
    assert ("memory: cosmos", "accent") in pills(chosen)
    with pytest.raises(ValueError, match="AZURE_COSMOS_ENDPOINT"):
        build_settings(base, {"azure_cosmos_endpoint": "not a url"})
