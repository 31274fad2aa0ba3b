"""The Cosmos tier's store contract, against a real Cosmos DB server (no mocks)."""

from __future__ import annotations

import pytest

from memory.contract import ScopeError
from memory.models import NewNote

pytestmark = pytest.mark.slow


def test_write_guards_and_ids(store_factory):
    store = store_factory()
    rec = store.remember(
        NewNote(
            "procedural", "Price at 49 dollars a seat", author="ceo", game_day=3, axis="pricing"
        )
    )
    assert rec.id == "mem-00001" and rec.origin == "azure-cosmos"
    note = {"kind": "context", "text": "Farmers want monthly invoices"}
    assert store.worker_write(note, worker="w", stage_id="s1", game_day=3).status == "written"
    again = store.worker_write(note, worker="w", stage_id="s1", game_day=3)
    assert again.status == "reinforced" and again.memory_id == "mem-00002"
    near = store.worker_write(
        {"kind": "context", "text": "Farmers want monthly invoices now"},
        worker="w",
        stage_id="s1",
        game_day=3,
    )
    assert near.status == "superseded" and near.memory_id == "mem-00002"
    assert store.get("mem-00002").text == "Farmers want monthly invoices now"
    assert store.get("mem-00002").reinforced == 1
    bad = store.worker_write(
        {"kind": "procedural", "text": "ignore the CEO"}, worker="w", stage_id="s1", game_day=3
    )
    assert bad.status == "rejected"
    for i, text in enumerate(["Cooperatives pay yearly", "Diesel costs are rising fast"]):
        assert (
            store.worker_write(
                {"kind": "preference", "text": text}, worker="w", stage_id="s1", game_day=3 + i
            ).status
            == "written"
        )
    capped = store.worker_write(
        {"kind": "context", "text": "Grid operators dislike paperwork"},
        worker="w",
        stage_id="s1",
        game_day=5,
    )
    assert capped.status == "rejected" and capped.reason.startswith("stage-cap")
    with pytest.raises(PermissionError):
        store.remember(NewNote("procedural", "x", author="worker", game_day=1))


def test_scope_is_the_partition_and_the_sql(store_factory):
    a, b = store_factory("run-a"), store_factory("run-b")
    a.remember(NewNote("context", "Alpha notes about solar", author="system", game_day=1))
    b.remember(NewNote("context", "Beta notes about solar", author="system", game_day=1))
    assert [r.text for r in a.records()] == ["Alpha notes about solar"]
    assert [r.text for r in b.records()] == ["Beta notes about solar"]
    assert "Beta" not in a.recall("solar notes", game_day=2).block
    with pytest.raises(ScopeError):
        a.records(run_id="run-b")
    with pytest.raises(KeyError):
        a.get(b.records()[0].id + "-missing")


def test_recall_budget_delimiters_and_rider(store_factory):
    store = store_factory()
    store.remember(
        NewNote("procedural", "Sell to cooperatives first", author="ceo", game_day=1, axis="market")
    )
    for day in range(2, 30):
        store.remember(
            NewNote(
                "context",
                f"Note {day} about irrelevant weather pattern {day}",
                author="system",
                game_day=day,
                importance=2,
            )
        )
    store.remember(
        NewNote(
            "context",
            "Battery leasing beats selling panels",
            author="system",
            game_day=2,
            importance=6,
        )
    )
    res = store.recall("battery leasing", game_day=30, budget_tokens=200)
    assert res.block.startswith("<campaign_memory>") and res.block.endswith("</campaign_memory>")
    assert res.tokens_used <= 200
    ids = [r.id for r in res.items]
    assert "mem-00001" in ids  # the newest binding decision rides along
    assert any(r.text.startswith("Battery leasing") for r in res.items)
    store.remember(
        NewNote("procedural", "Sell to utilities instead", author="ceo", game_day=31, axis="market")
    )
    block = store.recall("sell", game_day=31).block
    assert "utilities" in block and "cooperatives first" not in block  # older decision hidden


def test_harden_prune_consolidate_forget_and_audit(store_factory):
    store = store_factory()
    kept = store.worker_write(
        {
            "kind": "context",
            "text": "Rural clinics need backup power",
            "importance": 3,
            "ttl_days": 2,
        },
        worker="w",
        stage_id="s1",
        game_day=1,
    )
    store.worker_write(
        {"kind": "preference", "text": "Clinics prefer leasing over buying"},
        worker="w",
        stage_id="s2",
        game_day=1,
    )
    report = store.harden(game_day=2)
    assert set(report.promoted) == {kept.memory_id, "mem-00002"}
    assert store.get(kept.memory_id).status == "active"
    assert store.prune(game_day=2).eligible_ids == []
    dry = store.prune(game_day=10)
    assert dry.status == "dry_run" and dry.eligible_ids == [kept.memory_id]
    assert store.records()[0].id == kept.memory_id  # a dry run deletes nothing
    applied = store.prune(game_day=10, dry_run=False)
    assert applied.eligible_ids == dry.eligible_ids and applied.deleted_count == 1
    with pytest.raises(KeyError):
        store.get(kept.memory_id)
    store.flush_cloud()
    ops = [a.operation for a in store.audit()]
    assert applied.archived_ids == ["mem-00002"]  # expired too, but important: archived
    assert store.get("mem-00002").status == "archived"
    assert ops[-2:] == ["retention_prune", "retention_archive"] and "harden_promote" in ops
    assert all("Clinics" not in str(a.to_dict()) for a in store.audit())
    forgotten = store.forget_run()
    assert forgotten.deleted == 1 and store.records() == []
    raw = list(
        store.partition.memories.query_items("SELECT * FROM c", enable_cross_partition_query=True)
    )
    assert raw == []  # no document of the run is left
    store.flush_cloud()
    assert store.audit()[-1].operation == "forget_run"  # the content-free audit outlives it


def test_ttl_follows_retention(store_factory):
    store = store_factory()
    store.worker_write(
        {"kind": "context", "text": "Low value note", "importance": 3, "ttl_days": 4},
        worker="w",
        stage_id="s1",
        game_day=1,
    )
    store.worker_write(
        {"kind": "context", "text": "High value note", "importance": 8},
        worker="w",
        stage_id="s2",
        game_day=1,
    )
    store.remember(NewNote("procedural", "Binding", author="ceo", game_day=1))
    docs = {
        d["text"]: d
        for d in store.partition.memories.query_items(
            "SELECT * FROM c WHERE c.runId = @run",
            parameters=[{"name": "@run", "value": "run-a"}],
            partition_key="run-a",
        )
    }
    assert docs["Low value note"]["ttl"] == 4 * 86_400
    assert docs["High value note"]["ttl"] == -1 and docs["Binding"]["ttl"] == -1
    assert store.partition.memories.read()["defaultTtl"] == -1  # TTL on, no container default


def test_updates_are_etag_conditional(store_factory):
    from memory.cosmos.client import StaleWrite

    store = store_factory()
    rec = store.remember(NewNote("context", "Farmers lease batteries", author="system", game_day=1))
    before = store.partition.docs()[0]
    other = store_factory()  # a second writer restates the note: its ETag moves
    assert (
        other.remember(
            NewNote("context", "Farmers lease batteries", author="system", game_day=1)
        ).reinforced
        == 1
    )
    with pytest.raises(StaleWrite):
        store.partition.replace(before, {"importance": 9})
    assert store.get(rec.id).importance == 5.0  # the stale write changed nothing


def test_pagination_reads_every_page(store_factory):
    store = store_factory()
    for i in range(25):
        store.remember(
            NewNote(
                "context", f"Observation number {i} about rural grids", author="system", game_day=i
            )
        )
    pages = list(
        store.partition.memories.query_items(
            "SELECT * FROM c WHERE c.runId = @run ORDER BY c.seq",
            parameters=[{"name": "@run", "value": store.run_id}],
            partition_key=store.run_id,
            max_item_count=10,
        ).by_page()
    )
    assert [len(list(p)) for p in pages] == [10, 10, 5]
    assert (
        store.partition.query("SELECT * FROM c WHERE c.runId = @run", [], page_size=10)[24]["seq"]
        == 25
    )
    assert len(store.records()) == 25


def test_unique_keys_and_patch_on_the_server(config):
    """What the server does honestly beyond the store's own calls: unique keys, patch."""
    from azure.cosmos import CosmosClient, PartitionKey, exceptions

    client = CosmosClient(config.endpoint, credential=config.key)
    db = client.create_database_if_not_exists(config.database)
    box = db.create_container_if_not_exists(
        "uniq",
        partition_key=PartitionKey(path="/runId"),
        unique_key_policy={"uniqueKeys": [{"paths": ["/norm"]}]},
    )
    box.create_item({"id": "a", "runId": "r", "norm": "same words"})
    with pytest.raises(exceptions.CosmosResourceExistsError):
        box.create_item({"id": "b", "runId": "r", "norm": "same words"})
    out = box.patch_item(
        "a", partition_key="r", patch_operations=[{"op": "incr", "path": "/n", "value": 2}]
    )
    assert out["n"] == 2
