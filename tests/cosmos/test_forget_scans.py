"""Issue 26's forget byte scans, on the real Cosmos server: a Cosmos-backed run, its report
exported and some of it written during an outage, is forgotten with `memory forget` while Cosmos
does not answer, then Cosmos comes back and a later session of the save runs.

Scanned for the run's canary words (in the pitch and in the CEO's own reason): every byte of the
home folder (the save file with its WAL and shared memory, the logs, the reports folder) and every
document in the Cosmos database (memories and audit, all partitions).
- During the outage: 0 hits on disk; the Cosmos copy is still there (the forget says "Cosmos copy
  pending"; nothing could delete it).
- After the outage ends: 0 hits on disk and 0 in Cosmos.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, Reject, RunStage
from tests.cosmos.conftest import KEY, cosmos_settings

pytestmark = pytest.mark.slow
CANARY = b"zqvortlebloom"  # in the pitch (the offering) ...
REASON_CANARY = b"plimbrusk"  # ... and in the reason typed at a rejection
PITCH = "Zqvortlebloom seed swaps for balcony gardeners in tower blocks"
REASON = "Speak to balcony gardeners who keep plimbrusk herbs, not allotment holders"


def _disk_hits(home: Path) -> list[str]:
    hits = []
    for path in sorted(home.rglob("*")):
        if path.is_file():
            data = path.read_bytes().lower()
            hits += [
                f"{path.relative_to(home)}: {c.decode()}"
                for c in (CANARY, REASON_CANARY)
                if c in data
            ]
    return hits


def _cosmos_hits(store_factory, database: str) -> list[str]:
    """Every document of every container in the test's database, as the service holds it."""
    client = store_factory("scan-probe").partition.client
    db = client.get_database_client(database)
    hits = []
    for container in db.list_containers():
        coll = db.get_container_client(container["id"])
        for doc in coll.query_items("SELECT * FROM c", enable_cross_partition_query=True):
            text = repr(doc).lower().encode()
            hits += [
                f"{container['id']}/{doc.get('id')}" for c in (CANARY, REASON_CANARY) if c in text
            ]
    return hits


def test_forget_during_an_outage_leaves_no_byte_on_disk_then_none_in_cosmos(
    shim, shim_config, store_factory, tmp_path, capsys, monkeypatch
):
    from worldforge_tui.cli import main

    home = tmp_path / "home"
    monkeypatch.setenv("WORLDFORGE_HOME", str(home))
    router = Router(cosmos_settings(shim_config, shim.endpoint))
    game = GameSession.start_venture(pitch=PITCH, seed=4, save_dir=home, router=router)
    game.give(RunStage)
    game.give(Reject, REASON)
    game.give(Approve)
    game.give(Decide, "A")
    shim.down = True  # the next stage is written locally and queued for Cosmos
    game.give(RunStage)
    game.give(Approve)
    run_id = game.state.run_id
    report = game.export_report()
    game.close()
    shim.down = False
    assert report.exists() and _disk_hits(home), "the canaries were on disk before the forget"
    assert _cosmos_hits(store_factory, shim_config.database), "... and in Cosmos"

    monkeypatch.setenv("MEMORY_BACKEND", "cosmos")
    monkeypatch.setenv("AZURE_COSMOS_ENDPOINT", shim.endpoint)
    monkeypatch.setenv("AZURE_COSMOS_KEY", KEY)
    monkeypatch.setenv("AZURE_COSMOS_DATABASE", shim_config.database)
    shim.down = True
    argv = ["memory", "forget", "--run", run_id, "--yes", "--save-dir", str(home)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Cosmos copy pending" in out
    assert (home / "logs" / "worldforge.log").exists()  # the outage was logged: scanned too
    assert _disk_hits(home) == []  # save, WAL, logs, reports: gone at once
    assert not report.exists()
    assert _cosmos_hits(store_factory, shim_config.database), "Cosmos did not answer: it waits"

    shim.down = False
    later = GameSession.start_venture(  # any later session of the save sends the tombstone
        pitch="Tool libraries for new homeowners", seed=2, save_dir=home, router=router
    )
    later.give(RunStage)
    later.close()
    assert _disk_hits(home) == []
    assert _cosmos_hits(store_factory, shim_config.database) == []
