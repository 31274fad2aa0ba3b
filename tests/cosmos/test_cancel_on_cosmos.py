"""Esc on a Cosmos-backed run: the cancelled action is undone in the save and in Cosmos, which
served its writes (memory.contract: rewound)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.routing import Router
from engine.routing.types import CallCancelled, StreamEvent
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from tests.cosmos.conftest import cosmos_settings, failover
from tests.servers import fixtures

fake_openai_factory = fixtures.fake_openai_factory  # the loopback model server's fixtures
fake_openai = fixtures.fake_openai

pytestmark = pytest.mark.slow
PITCH = "A solar microgrid cooperative for rural farmers"
LINE = {"line": "Heard the call; I will fold it into this week's work."}


def _notes(game: GameSession) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """The run's notes in Cosmos and in the save's mirror: (id, status, text)."""
    mine = failover(game)
    cosmos = mine.cosmos
    assert cosmos is not None
    return (
        [(r.id, r.status, r.text) for r in cosmos.records()],
        [(r.id, r.status, r.text) for r in mine.local.records()],
    )


def test_esc_at_the_standup_is_undone_in_cosmos_too(config, fake_openai, tmp_path):
    sim = GameSession.start_venture(pitch=PITCH, seed=5, save_dir=tmp_path / "sim")
    artifact = sim.give(RunStage)
    sim.close()
    assert artifact is not None

    def payload(body):
        if "speaking at a standup" in body["messages"][0]["content"]:
            return LINE
        return artifact.artifact

    fake_openai.set_payload(payload)
    settings = dataclasses.replace(
        cosmos_settings(config),
        demo_mode="local",
        local_agent_base_url=fake_openai.url,
        local_agent_model="qwen2.5",
        agent_request_timeout=20.0,
    )
    game = GameSession.start_venture(
        pitch=PITCH, seed=5, save_dir=tmp_path / "game", router=Router(settings, caps_cache=False)
    )
    try:
        game.give(RunStage)
        game.give(Approve)
        assert game.memory_store_label() == "azure-cosmos", failover(game).parked_reason
        before = _notes(game)
        assert before[0] == before[1]

        def cancel(event: StreamEvent) -> None:
            if event.kind == "start":
                game.router.cancel()

        game.router.watch(cancel)
        with pytest.raises(CallCancelled):
            game.give(Decide, "A")  # its binding note reached Cosmos before the standup began
        assert game.state.phase == "fork"
        assert _notes(game) == before  # gone from the save and from Cosmos
    finally:
        game.close()
