"""The whole game with MEMORY_BACKEND=cosmos against the real server, and Cosmos failing mid-game:
the game goes on with the local store, says so, and syncs when Cosmos is back."""

from __future__ import annotations

import pytest

from engine.config import Settings
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from tests.cosmos.conftest import cosmos_settings, failover

pytestmark = pytest.mark.slow
PITCH = "A solar microgrid cooperative for rural farmers"


def _docs(store):
    return list(
        store.partition.memories.query_items(
            "SELECT * FROM c WHERE c.runId = @run",
            parameters=[{"name": "@run", "value": store.run_id}],
            partition_key=store.run_id,
        )
    )


def test_whole_game_on_cosmos_matches_the_local_game(config, tmp_path):
    local = GameSession.start_venture(
        pitch=PITCH,
        seed=11,
        save_dir=tmp_path / "local",
        router=Router(Settings(demo_mode="simulation")),
    )
    play(local, Plan(path="ABABABAB"))
    game = GameSession.start_venture(
        pitch=PITCH, seed=11, save_dir=tmp_path / "cosmos", router=Router(cosmos_settings(config))
    )
    play(game, Plan(path="ABABABAB"))
    assert game.memory_store_label() == "azure-cosmos"
    assert game.state.outcome == local.state.outcome
    assert game.memory.counts() == local.memory.counts()
    assert [(r.id, r.kind, r.status, r.text) for r in game.memory.records()] == [
        (r.id, r.kind, r.status, r.text) for r in local.memory.records()
    ]
    written = [e for e in game.events() if e.type == "MEMORY_WRITTEN"]
    assert written and {e.payload["store"] for e in written} == {"azure-cosmos"}
    assert not [e for e in game.events() if e.type == "MEMORY_BACKEND"]
    store = failover(game).cosmos
    assert len(_docs(store)) == len(local.memory.records())
    # the save file mirrors what Cosmos holds (for an outage's briefs), and queued nothing
    assert [(r.id, r.kind, r.status, r.text) for r in failover(game).local.records()] == [
        (r.id, r.kind, r.status, r.text) for r in game.memory.records()
    ]
    assert failover(game).pending() == 0
    audit = game.memory.audit()
    assert {"remember", "worker_write", "harden_promote"} <= {a.operation for a in audit}
    game.memory.forget_run()
    assert _docs(store) == []  # forget leaves no document
    game.close()
    local.close()


def test_cosmos_down_mid_game_falls_back_and_syncs(shim, shim_config, tmp_path):
    game = GameSession.start_venture(
        pitch=PITCH,
        seed=5,
        save_dir=tmp_path / "saves",
        router=Router(cosmos_settings(shim_config, shim.endpoint)),
    )
    failover(game).retry_seconds = 0.0
    game.give(RunStage)
    game.give(Approve)
    game.give(Decide, "A")  # stage 1's binding decision lives in Cosmos (and the save's mirror)
    assert [r.id for r in failover(game).local.records()] == [r.id for r in game.memory.records()]
    assert failover(game).pending() == 0  # a mirror is never queued for Cosmos
    binding = game.state.directive
    assert binding is not None
    before = len(_docs(failover(game).cosmos))
    shim.down = True
    game.give(RunStage)  # Cosmos does not answer: the local store serves this step
    assert game.memory_store_label().startswith("local-sqlite (azure-cosmos down")
    notices = [e for e in game.events() if e.type == "MEMORY_BACKEND"]
    assert notices and notices[-1].payload["state"] == "fallback"
    assert notices[-1].payload["seeded"] == 0  # the profile and decision were mirrored already
    brief = [e for e in game.events() if e.type == "STAGE_EXECUTED"][-1]
    kinds = {m["kind"] for m in brief.payload["memory_injected"]}
    assert "procedural" in kinds  # the brief kept its binding direction during the outage
    game.give(Approve)
    written = [e for e in game.events() if e.type == "MEMORY_WRITTEN"][-1]
    assert written.payload["store"].startswith("local-sqlite")
    assert failover(game).pending() >= 1
    shim.down = False
    game.give(Decide, "B")  # after this step the parked tier is probed and the outbox sent
    assert game.memory_store_label() == "azure-cosmos"
    assert failover(game).pending() == 0
    docs = _docs(failover(game).cosmos)
    texts = [d["text"] for d in docs]
    assert written.payload["text"] in texts
    decision = next(d for d in docs if d["id"] == binding.memory_id)
    assert texts.count(decision["text"]) == 1  # seeded copies are not sent back
    assert len(texts) > before
    game.give(RunStage)
    restored = [e for e in game.events() if e.type == "MEMORY_BACKEND"]
    assert restored[-1].payload["state"] == "restored" and restored[-1].payload["synced"] >= 1
    game.close()


def test_memory_cli_reads_the_cosmos_backend(config, tmp_path, capsys, monkeypatch):
    import json

    from worldforge_tui.cli import main

    game = GameSession.start_venture(
        pitch=PITCH, seed=2, save_dir=tmp_path, router=Router(cosmos_settings(config))
    )
    game.give(RunStage)
    game.give(Approve)
    run_id = game.state.run_id
    ids = [r.id for r in game.memory.records()]
    game.close()
    monkeypatch.setenv("MEMORY_BACKEND", "cosmos")
    monkeypatch.setenv("AZURE_COSMOS_ENDPOINT", config.endpoint)
    monkeypatch.setenv("AZURE_COSMOS_KEY", config.key)
    monkeypatch.setenv("AZURE_COSMOS_DATABASE", config.database)
    assert main(["memory", "show", "--run", run_id, "--save-dir", str(tmp_path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["store"] == "azure-cosmos" and [r["id"] for r in shown["records"]] == ids
    assert main(["memory", "audit", "--run", run_id, "--save-dir", str(tmp_path), "--json"]) == 0
    assert {"remember", "worker_write"} <= {
        a["operation"] for a in json.loads(capsys.readouterr().out)
    }
