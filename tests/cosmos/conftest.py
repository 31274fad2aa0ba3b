"""Fixtures: a real Cosmos DB server (`@vercel/cosmosdb-server`) on 127.0.0.2 behind a throw-away
CA, one per test session; each test gets its own database, so tests never see each other's data."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

import pytest

from tests.servers import cosmos_server

if TYPE_CHECKING:
    from engine.config import Settings
    from engine.session.api import GameSession
    from memory.cosmos.failover import FailoverMemory

KEY = "dGVzdC1rZXktbm90LWEtc2VjcmV0"  # the server accepts any key; the SDK wants base64


@pytest.fixture(scope="session")
def cosmos_server_running(tmp_path_factory):
    pytest.importorskip("azure.cosmos", reason="azure-cosmos not installed (the cosmos extra)")
    try:
        server = cosmos_server.start(tmp_path_factory.mktemp("cosmos-ca"))
    except cosmos_server.ServerUnavailable as exc:
        pytest.skip(f"no Cosmos DB server here: {exc}")
    yield server
    server.stop()


@pytest.fixture
def cosmos(cosmos_server_running, monkeypatch):
    """The server, trusted through REQUESTS_CA_BUNDLE / SSL_CERT_FILE for this test."""
    ca = str(cosmos_server_running.ca_file)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", ca)
    monkeypatch.setenv("SSL_CERT_FILE", ca)
    return cosmos_server_running


@pytest.fixture
def config(cosmos):
    from memory.cosmos.client import CosmosConfig

    return CosmosConfig(endpoint=cosmos.endpoint, key=KEY, database=f"db-{uuid.uuid4().hex[:8]}")


@pytest.fixture
def store_factory(config):
    from memory.cosmos.store import CosmosMemoryStore

    def make(run_id: str = "run-a", **kw):
        return CosmosMemoryStore(kw.pop("config", config), run_id, **kw)

    return make


@pytest.fixture
def shim(cosmos):
    """The shim in front of the server (every behaviour off until a test turns it on)."""
    from tests.servers.cosmos_shim import CosmosShim

    proxy = CosmosShim(cosmos.endpoint, cosmos.cert_file, cosmos.key_file, cosmos.ca_file)
    yield proxy
    proxy.close()


@pytest.fixture
def shim_config(shim, config):
    from dataclasses import replace

    return replace(config, endpoint=shim.endpoint)


def failover(game: GameSession) -> FailoverMemory:
    """A session's memory as the failover store (MEMORY_BACKEND=cosmos): its outbox, parked
    state and two tiers are not part of the memory contract, so tests reach them through here."""
    from memory.cosmos.failover import FailoverMemory

    assert isinstance(game.memory, FailoverMemory), type(game.memory)
    return game.memory


def cosmos_settings(config, endpoint: str | None = None) -> Settings:
    """Settings for a simulated game whose memory lives in the test Cosmos server (or the shim
    in front of it, at `endpoint`)."""
    from engine.config import Settings

    return Settings(
        demo_mode="simulation",
        memory_backend="cosmos",
        azure_cosmos_endpoint=endpoint or config.endpoint,
        azure_cosmos_key=KEY,
        azure_cosmos_database=config.database,
    )
