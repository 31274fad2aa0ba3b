"""Cosmos never silently forgets: a Cosmos server that comes back empty mid-venture gets the run's
notes again from the save before it serves, every brief recalls what the local game's brief
recalls, and the run verifies."""

from __future__ import annotations

import pytest

from engine.config import Settings
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from engine.session.replay import verify
from tests.cosmos.conftest import cosmos_settings, failover
from tests.servers import cosmos_server

pytestmark = pytest.mark.slow
PITCH = "A solar microgrid cooperative for rural farmers"
PATH = "ABBABAAB"


@pytest.fixture
def own_server(tmp_path, monkeypatch):
    """A Cosmos server of this test's own, which it may restart (the shared one it may not)."""
    pytest.importorskip("azure.cosmos", reason="azure-cosmos not installed (the cosmos extra)")
    try:
        server = cosmos_server.start(tmp_path / "ca")
    except cosmos_server.ServerUnavailable as exc:
        pytest.skip(f"no Cosmos DB server here: {exc}")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(server.ca_file))
    monkeypatch.setenv("SSL_CERT_FILE", str(server.ca_file))
    yield server
    server.stop()


def _briefs(game: GameSession) -> list[list[str]]:
    """Each brief's recalled notes (ids and texts), in stage order."""
    return [
        [f"{m['id']} {m.get('text', '')}" for m in e.payload["memory_injected"]]
        for e in game.events()
        if e.type == "STAGE_BRIEFED"
    ]


def _stage(game: GameSession, choice: str) -> None:
    game.give(RunStage)
    if game.state.phase == "gate":
        game.give(Approve)
    if game.state.phase == "fork":
        game.give(Decide, choice)


def test_a_cosmos_restarted_empty_gets_the_run_back(own_server, tmp_path):
    from memory.cosmos.client import CosmosConfig

    config = CosmosConfig(
        endpoint=own_server.endpoint, key="dGVzdC1rZXktbm90LWEtc2VjcmV0", database="restart"
    )
    local = GameSession.start_venture(
        pitch=PITCH, seed=7, save_dir=tmp_path / "local", router=Router(Settings())
    )
    game = GameSession.start_venture(
        pitch=PITCH, seed=7, save_dir=tmp_path / "cosmos", router=Router(cosmos_settings(config))
    )
    try:
        failover(game).retry_seconds = 0.0
        restarts = 0
        for i, choice in enumerate(PATH):
            if game.state.phase == "ended":
                break
            _stage(local, choice)
            if i in (2, 4):  # between stages: the container is gone, then recreated empty
                own_server.restart()
                restarts += 1
            _stage(game, choice)
            if i == 5:  # and once between a stage's work and its gate
                own_server.restart()
                restarts += 1
        assert restarts == 3
        assert _briefs(game) == _briefs(local)  # every brief recalled what the local one did
        notices = [e.payload for e in game.events() if e.type == "MEMORY_BACKEND"]
        resent = [n for n in notices if n.get("resent")]
        assert resent, notices  # the player was told, in one line each time
        assert all(n["held"] < n["resent"] for n in resent)
        assert game.memory_store_label() == "azure-cosmos"
        mine = [(r.id, r.status, r.text) for r in failover(game).local.records()]
        assert [(r.id, r.status, r.text) for r in game.memory.records()] == mine
        report = verify(game.conn, game.state.run_id)
        assert report.ok, report.first_difference
    finally:
        game.close()
        local.close()


def test_a_cosmos_holding_the_run_is_not_rewritten(config, tmp_path):
    """A container that holds what the run wrote is left as it is (nothing re-sent)."""
    game = GameSession.start_venture(
        pitch=PITCH, seed=7, save_dir=tmp_path, router=Router(cosmos_settings(config))
    )
    try:
        _stage(game, "A")
        run_id = game.state.run_id
    finally:
        game.close()
    again = GameSession.load(run_id, save_dir=tmp_path, router=Router(cosmos_settings(config)))
    try:
        _stage(again, "B")
        assert not [e for e in again.events() if e.type == "MEMORY_BACKEND"]
    finally:
        again.close()
