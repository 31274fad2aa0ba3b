"""What the test server cannot do, checked through the shim that answers as the service does:
transactional batch atomicity, session tokens, 429 retry-after, TTL expiry, VectorDistance.
A real account is still the only proof of the service itself (see README)."""

from __future__ import annotations

import time

import pytest

from memory.models import NewNote

pytestmark = pytest.mark.slow


def _notes(store, n=3):
    ids = []
    for i, text in enumerate(
        ["Farmers lease batteries", "Clinics lease batteries too", "Schools ask about leasing"][:n]
    ):
        d = store.worker_write(
            {"kind": "context", "text": text}, worker="w", stage_id=f"s{i}", game_day=1
        )
        ids.append(d.memory_id)
    return ids


def test_consolidation_is_one_atomic_batch_and_idempotent(shim, shim_config, store_factory):
    from memory.cosmos.client import StaleWrite

    shim.atomic_batch = True
    store = store_factory(config=shim_config)
    ids = _notes(store)
    shim.fail_batch_at = 2  # the service refuses the whole batch at one operation
    with pytest.raises(StaleWrite):
        store.consolidate(ids, summary="Leasing wins", reviewer="ceo", game_day=2)
    assert [r.kind for r in store.records()] == ["context"] * 3  # nothing was written
    assert all(r.status == "provisional" for r in store.records())
    shim.fail_batch_at = None
    done = store.consolidate(ids, summary="Leasing wins", reviewer="ceo", game_day=2)
    assert done.status == "consolidated"
    sem = store.get(done.semantic_memory_id)
    assert sem.kind == "semantic" and sem.source_ids == sorted(ids)
    assert {store.get(i).status for i in ids} == {"archived"}
    batches = [
        r
        for r in shim.requests
        if r[2].get("x-ms-cosmos-is-batch-request") == "True" and "/colls/memories/" in r[1]
    ]
    assert len(batches) == 2  # one batch per attempt, not one request per document
    again = store.consolidate(ids, summary="Leasing wins", reviewer="ceo", game_day=2)
    assert again.status == "already_consolidated"
    assert again.semantic_memory_id == done.semantic_memory_id
    assert len([r for r in store.records() if r.kind == "semantic"]) == 1
    store.flush_cloud()
    assert [a.operation for a in store.audit()].count("consolidate") == 1  # deterministic id


def test_session_token_of_a_write_rides_on_the_next_read(shim, shim_config, store_factory):
    shim.session_tokens = True
    store = store_factory(config=shim_config)
    store.remember(NewNote("context", "First note", author="system", game_day=1))
    shim.read_tokens.clear()
    store.records()
    assert shim.read_tokens and shim.read_tokens[-1] == f"0:-1#{shim._token}"
    store.remember(NewNote("context", "Second note", author="system", game_day=1))
    store.recall("note", game_day=2)
    assert shim.read_tokens[-1] == f"0:-1#{shim._token}"


def test_throttling_waits_for_retry_after(shim, shim_config, store_factory):
    store = store_factory(config=shim_config)
    shim.throttle(2, 120)
    started = time.monotonic()
    rec = store.remember(NewNote("context", "Throttled note", author="system", game_day=1))
    assert time.monotonic() - started >= 0.24  # two waits of 120 ms, as the service asked
    assert store.get(rec.id).text == "Throttled note"
    assert sum(1 for r in shim.requests if "/docs" in r[1]) >= 3


def test_outage_is_an_unavailable_error(shim, shim_config, store_factory):
    from memory.cosmos.client import CosmosUnavailable

    store = store_factory(config=shim_config)
    shim.down = True
    with pytest.raises(CosmosUnavailable):
        store.remember(NewNote("context", "Lost?", author="system", game_day=1))


def test_ttl_expiry_removes_only_what_prune_would(shim, shim_config, store_factory):
    store = store_factory(config=shim_config)
    low = store.worker_write(
        {"kind": "context", "text": "Low value weather note", "importance": 2, "ttl_days": 3},
        worker="w",
        stage_id="s1",
        game_day=1,
    )
    high = store.worker_write(
        {"kind": "context", "text": "High value pricing note", "importance": 7, "ttl_days": 3},
        worker="w",
        stage_id="s2",
        game_day=1,
    )
    assert shim.expire(shim_config.database, shim_config.memories, "run-a", 2 * 86_400) == []
    gone = shim.expire(shim_config.database, shim_config.memories, "run-a", 4 * 86_400)
    assert gone == [low.memory_id]
    assert [r.id for r in store.records()] == [high.memory_id]
    report = store.harden(game_day=2)  # a note the service expired does not break hardening
    assert report.promoted == [high.memory_id]


def test_vector_distance_ranks_when_the_container_has_a_policy(shim, shim_config, store_factory):
    shim.vector_policy = True

    def embed(text: str) -> list[float]:
        axes = ["leas", "price", "grid", "farm", "school", "solar", "batter", "clinic"]
        low = text.lower()
        return [1.0 if a in low else 0.01 for a in axes]

    store = store_factory(config=shim_config, embedder=embed)
    assert store.partition.vector_enabled
    store.remember(
        NewNote("context", "Leasing batteries to farms", author="system", game_day=1, importance=1)
    )
    store.remember(
        NewNote("context", "Grid fees went up", author="system", game_day=1, importance=9)
    )
    store.remember(
        NewNote("context", "Solar panel prices", author="system", game_day=1, importance=5)
    )
    res = store.recall("farm lease battery", game_day=1, budget_tokens=160, limit=2)
    # the newest note fills the recent share; the vector match beats the important grid note
    assert sorted(r.text for r in res.items) == ["Leasing batteries to farms", "Solar panel prices"]


def test_entra_id_token_when_no_key_is_set(shim, shim_config, store_factory):
    """Without AZURE_COSMOS_KEY the client signs with a token from the credential it is given
    (DefaultAzureCredential in the game); the server accepts any signature, so the shim checks
    what was sent. The containers must already exist: the data plane cannot create them."""
    from dataclasses import replace

    from azure.core.credentials import AccessToken

    store_factory(config=shim_config)  # with the key: database and containers are created

    class Credential:
        def __init__(self) -> None:
            self.scopes: list[str] = []

        def get_token(self, *scopes, **kwargs):
            self.scopes.extend(scopes)
            return AccessToken("entra-token-123", int(time.time()) + 3600)

    cred = Credential()
    store = store_factory(config=replace(shim_config, key=None), credential=cred)
    shim.requests.clear()
    store.remember(NewNote("context", "Signed with a token", author="system", game_day=1))
    auth = [r[2].get("authorization", "") for r in shim.requests if "/docs" in r[1]]
    assert auth and all(a == "type=aad&ver=1.0&sig=entra-token-123" for a in auth)
    assert cred.scopes and all(s.endswith("/.default") for s in cred.scopes)
