"""Issue 26 on the real Cosmos server: forget finishes everywhere, the outbox always drains, a 404 is
an outage, and a step that committed is never reported as not done.

- `memory forget` during an outage deletes the local copy at once, says "Cosmos copy pending", and
  the first later command that reaches Cosmos (another run's session) deletes every document.
- Writes made during an outage by a session that ends inside the retry window are sent by the next
  session before it serves anything, under their own ids (never given to another text).
- A deleted database answers 404: the game plays on locally and recreates it (key auth) on retry.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from tests.cosmos.conftest import KEY, cosmos_settings, failover
from tests.reliability.conftest import replayed
from worldforge_savedb.db import db_path

pytestmark = pytest.mark.slow
PITCH = "Seed swaps for balcony gardeners in tower blocks"


def _docs(store_factory, run_id: str) -> list[dict]:
    store = store_factory(run_id)
    return list(
        store.partition.memories.query_items(
            "SELECT * FROM c WHERE c.runId = @run",
            parameters=[{"name": "@run", "value": run_id}],
            partition_key=run_id,
        )
    )


def _save_bytes(folder) -> bytes:
    db = db_path(folder)
    return b"".join(p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name))


def _cli_env(monkeypatch, config, endpoint: str) -> None:
    monkeypatch.setenv("MEMORY_BACKEND", "cosmos")
    monkeypatch.setenv("AZURE_COSMOS_ENDPOINT", endpoint)
    monkeypatch.setenv("AZURE_COSMOS_KEY", KEY)
    monkeypatch.setenv("AZURE_COSMOS_DATABASE", config.database)


def test_forget_during_an_outage_finishes_when_cosmos_answers(
    shim, shim_config, store_factory, tmp_path, capsys, monkeypatch
):
    from worldforge_tui.cli import main

    game = GameSession.start_venture(
        pitch=PITCH,
        seed=4,
        save_dir=tmp_path,
        router=Router(cosmos_settings(shim_config, shim.endpoint)),
    )
    game.give(RunStage)
    game.give(Approve)
    game.give(Decide, "A")
    run_id = game.state.run_id
    game.close()
    assert _docs(store_factory, run_id)  # the pitch and the decision live in Cosmos
    _cli_env(monkeypatch, shim_config, shim.endpoint)
    shim.down = True
    argv = ["memory", "forget", "--run", run_id, "--yes", "--save-dir", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"forgot run {run_id}" in out and "Cosmos copy pending" in out
    assert PITCH.encode() not in _save_bytes(tmp_path)  # the local copy is gone at once
    assert _docs(store_factory, run_id)  # Cosmos did not answer: its copy waits
    conn = sqlite3.connect(db_path(tmp_path))
    assert conn.execute("SELECT run_id FROM memory_cosmos_tombstones").fetchall() == [(run_id,)]
    conn.close()
    shim.down = False
    other = GameSession.start_venture(  # any later session of the save sends the tombstone
        pitch="Tool libraries for new homeowners",
        seed=2,
        save_dir=tmp_path,
        router=Router(cosmos_settings(shim_config, shim.endpoint)),
    )
    other.give(RunStage)
    other.close()
    assert _docs(store_factory, run_id) == []
    conn = sqlite3.connect(db_path(tmp_path))
    assert conn.execute("SELECT count(*) FROM memory_cosmos_tombstones").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM memory_cosmos_outbox").fetchone()[0] == 0
    conn.close()
    assert PITCH.encode() not in _save_bytes(tmp_path)


def test_a_session_that_ends_during_an_outage_is_drained_by_the_next(
    shim, shim_config, store_factory, tmp_path
):
    router = Router(cosmos_settings(shim_config, shim.endpoint))
    game = GameSession.start_venture(pitch=PITCH, seed=5, save_dir=tmp_path, router=router)
    game.give(RunStage)
    game.give(Approve)
    game.give(Decide, "A")
    run_id = game.state.run_id
    shim.down = True
    game.give(RunStage)  # the local store serves; its writes are queued
    game.give(Approve)
    game.give(Decide, "B")  # a binding decision written during the outage
    local = {r.id: r.text for r in failover(game).local.records()}
    queued_ids = {
        r[0]
        for r in game.conn.execute(
            "SELECT memory_id FROM memory_cosmos_outbox WHERE run_id = ?", (run_id,)
        )
    }
    assert len(queued_ids) >= 1
    game.close()  # ends inside the 15 s retry window: nothing was sent
    shim.down = False
    again = GameSession.load(run_id, save_dir=tmp_path, router=router)
    again.give(RunStage)  # the first contact with Cosmos sends the outbox before serving
    assert again.memory_store_label() == "azure-cosmos"
    assert failover(again).pending() == 0
    docs = {d["id"]: d["text"] for d in _docs(store_factory, run_id)}
    assert all(docs.get(mid, text) == text for mid, text in local.items())  # one id, one text
    assert queued_ids and queued_ids <= set(docs)  # the outage's notes, under their own ids
    directive = again.state.directive
    assert directive is not None and directive.memory_id in docs  # the binding decision is there
    ids = [d["id"] for d in _docs(store_factory, run_id)]
    assert len(ids) == len(set(ids))
    again.close()


def test_a_404_is_an_outage_and_a_deleted_database_comes_back(
    shim, shim_config, store_factory, tmp_path
):
    router = Router(cosmos_settings(shim_config, shim.endpoint))
    game = GameSession.start_venture(pitch=PITCH, seed=6, save_dir=tmp_path, router=router)
    failover(game).retry_seconds = 0.0
    game.give(RunStage)
    game.give(Approve)
    shim.gone = True  # every request answers 404, as for a deleted database
    game.give(Decide, "A")  # committed on the local store and reported done
    assert game.memory_store_label().startswith("local-sqlite (azure-cosmos down: http-404")
    assert game.state.phase == "brief" and game.state.standup  # the standup ran after it
    shim.gone = False
    store_factory(game.state.run_id).partition.client.delete_database(
        shim_config.database
    )  # really gone
    game.give(RunStage)  # the retry reconnects, recreates the database and sends the outbox
    assert game.memory_store_label() == "azure-cosmos"
    assert failover(game).pending() == 0
    assert _docs(store_factory, game.state.run_id)
    game.close()


def test_a_cosmos_run_replays_like_a_local_one(shim, shim_config, tmp_path):
    """`replay --verify` re-derives a Cosmos-backed run exactly: where a memory was stored is not
    part of what verify compares (a run through an outage: the test after this one)."""
    from engine.play.headless import Plan, play

    router = Router(cosmos_settings(shim_config, shim.endpoint))
    game = GameSession.start_venture(pitch=PITCH, seed=8, save_dir=tmp_path, router=router)
    failover(game).retry_seconds = 0.0
    game.give(RunStage)
    game.give(Approve)
    game.give(Decide, "A")
    play(game, Plan(path="ABABABAB"))
    assert game.memory_store_label() == "azure-cosmos"
    run_id = game.state.run_id
    game.close()
    report = replayed(tmp_path, run_id)
    # Where memories were stored (payload store / origin, MEMORY_BACKEND notices) does not count,
    # and both stores rank recall alike (memory.recall): the run re-derives exactly.
    assert report.ok, report.first_difference


def test_a_cosmos_run_through_an_outage_replays_exactly(shim, shim_config, tmp_path):
    """Issue 26: a run whose middle stages were briefed while Cosmos did not answer passes
    `replay --verify`. The local store mirrors what Cosmos served, so the outage's briefs recall
    the same notes Cosmos would have (with only the seeded binding notes, verify failed at the
    first brief written during the outage)."""
    from engine.play.headless import Plan, play

    router = Router(cosmos_settings(shim_config, shim.endpoint))
    game = GameSession.start_venture(pitch=PITCH, seed=8, save_dir=tmp_path, router=router)
    memory = failover(game)
    memory.retry_seconds = 0.0
    game.give(RunStage)
    game.give(Approve)
    game.give(Decide, "A")
    game.give(RunStage)
    game.give(Approve)
    game.give(Decide, "B")
    shim.down = True
    game.give(RunStage)  # briefed from the local store
    assert game.memory_store_label().startswith("local-sqlite (azure-cosmos down")
    game.give(Approve)
    shim.down = False
    game.give(Decide, "A")  # after the step the outbox drains and Cosmos serves again
    play(game, Plan(path="ABABABAB"))
    assert game.memory_store_label() == "azure-cosmos" and memory.pending() == 0
    run_id = game.state.run_id
    briefed = [e for e in game.events() if e.type == "MEMORY_BACKEND"]
    game.close()
    assert any(e.payload.get("state") == "fallback" for e in briefed)  # there was an outage
    report = replayed(tmp_path, run_id)
    assert report.ok, report.first_difference


def test_a_hanging_cosmos_is_given_up_at_its_deadline(shim, shim_config):
    """A server that accepts and never answers: the caller is answered at the store's deadline
    while the request is still held unanswered, so neither the server nor the SDK's own read
    timeout (30 s here, x 4 attempts) ended the wait: the deadline did. No wall-clock bound is
    asserted: the store is opened while the server answers (at any speed), and only the call
    under test meets the hang."""
    import time
    from dataclasses import replace

    from memory.cosmos.client import CosmosUnavailable
    from memory.cosmos.store import CosmosMemoryStore

    store = CosmosMemoryStore(replace(shim_config, read_timeout=30.0), "run-hang")
    store.partition.config = replace(store.partition.config, deadline=1.0)
    shim.hang = True
    try:
        with pytest.raises(CosmosUnavailable, match="deadline"):
            store.records()  # only `within`'s own wait running out says "deadline"
        # ...and the request it gave up on is held by the server, unanswered (on a saturated
        # machine it may reach the server only after the deadline: waited for, not timed)
        for _ in range(1200):
            if shim.held:
                break
            time.sleep(0.05)
        assert shim.held >= 1
    finally:
        shim.hang = False


def test_a_step_with_a_hanging_cosmos_plays_on_locally(shim, shim_config, tmp_path):
    router = Router(replace(cosmos_settings(shim_config, shim.endpoint), agent_request_timeout=2.0))
    game = GameSession.start_venture(pitch=PITCH, seed=7, save_dir=tmp_path, router=router)
    game.give(RunStage)
    shim.hang = True
    try:
        game.give(Approve)  # the first call waits out the deadline, the rest of the step is local
        assert game.memory_store_label() == "local-sqlite (azure-cosmos down: deadline)"
        game.give(Decide, "A")
        assert game.state.phase == "brief"
    finally:
        shim.hang = False
    game.close()


def test_a_forget_cosmos_stops_answering_for_leaves_a_tombstone(
    shim, shim_config, store_factory, tmp_path
):
    """Cosmos answered when the run connected and goes down before the forget reaches it: the
    local copy goes at once, a tombstone waits, and the first retry that reaches Cosmos deletes
    its copy."""
    from memory.cosmos.failover import FailoverMemory
    from memory.local.store import MemoryStore
    from memory.models import NewNote
    from worldforge_savedb.db import connect

    conn = connect(db_path(tmp_path))
    store = FailoverMemory(
        MemoryStore(conn, "run-forget"),
        lambda: store_factory("run-forget", config=shim_config),
        retry_seconds=0,
    )
    try:
        store.remember(NewNote("procedural", PITCH, author="ceo", game_day=1, axis="market"))
        assert store.store_label() == "azure-cosmos" and _docs(store_factory, "run-forget")
        shim.down = True
        report = store.forget_run()
        assert report.deleted == 1 and store.forget_pending()
        assert store.store_label().startswith("local-sqlite (azure-cosmos down")
        assert store.local.records() == [] and _docs(store_factory, "run-forget")
        shim.down = False
        assert store.retry() and not store.forget_pending()
        assert _docs(store_factory, "run-forget") == []
    finally:
        conn.close()
