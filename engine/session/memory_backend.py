"""Which store holds a run's binding memory: MEMORY_BACKEND=local (the SQLite save, the default)
or cosmos (Azure Cosmos DB for NoSQL, falling back to the local store while it does not answer).

`memory.cosmos.store` (and with it the azure-cosmos SDK) is imported only when cosmos is chosen.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from engine.session.founding import cloud_memory_for
from memory.contract import MemoryBackend
from memory.local.store import MemoryStore

if TYPE_CHECKING:
    from engine.config import Settings
    from memory.cosmos.store import CosmosMemoryStore


def memory_for(settings: Settings, conn: sqlite3.Connection, run_id: str) -> MemoryBackend:
    """The run's memory store for these settings (same public contract either way)."""
    local = MemoryStore(conn, run_id, cloud=cloud_memory_for(settings))
    if settings.memory_backend != "cosmos":
        return local
    from memory.cosmos.failover import FailoverMemory

    def connect_for(run: str) -> CosmosMemoryStore:
        from engine.routing.embeddings import embedder_for
        from memory.cosmos.client import CosmosConfig
        from memory.cosmos.store import CosmosMemoryStore

        return CosmosMemoryStore(
            CosmosConfig.from_settings(settings), run, embedder=embedder_for(settings)
        )

    # connect_for: any session drains what the save holds for other runs too (issue 26)
    return FailoverMemory(local, lambda: connect_for(run_id), connect_for=connect_for)


def backend_status(settings: Settings, *, probe: bool = True) -> dict[str, str | bool | None]:
    """For `routing status`: the memory backend, where it points, and whether it answers
    (None when not probed)."""
    if settings.memory_backend != "cosmos":
        return {"backend": "local", "store": "local-sqlite", "answers": True, "detail": "save file"}
    out: dict[str, str | bool | None] = {
        "backend": "cosmos",
        "store": "azure-cosmos",
        "endpoint": settings.azure_cosmos_endpoint,
        "answers": False,
    }
    if not probe:
        out.update(answers=None, detail="not probed")
        return out
    try:
        from memory.cosmos.client import CosmosConfig
        from memory.cosmos.store import CosmosMemoryStore

        store = CosmosMemoryStore(CosmosConfig.from_settings(settings), "status-probe")
        out["answers"] = store.ping()
        out["detail"] = "vector ranking" if store.partition.vector_enabled else "keyword ranking"
    except ImportError:
        from engine.version import install_hint

        out["detail"] = f"azure-cosmos not installed: {install_hint('cosmos')}"
    except Exception as exc:  # noqa: BLE001  (the status line says why in one line)
        from memory.cosmos.failover import outage_reason

        out["detail"] = outage_reason(exc)
    return out
