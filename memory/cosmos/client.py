"""The Cosmos DB tier's connection: settings, the one long-lived client per endpoint and credential,
the errors the store raises, the document TTL from retention, and document <-> record mapping.

DefaultAzureCredential unless the user set AZURE_COSMOS_KEY (held in memory only, never written).
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict, TypeVar

from azure.core.credentials import TokenCredential
from azure.core.exceptions import AzureError, ServiceRequestError, ServiceResponseError
from azure.cosmos import CosmosClient, exceptions

from memory import lifecycle
from memory.models import CRITICAL_KINDS, MemoryRecord
from worldforge_azurehttp import in_daemon_thread, remote_deadline

ORIGIN = "azure-cosmos"
DEFAULT_DATABASE, DEFAULT_MEMORIES, DEFAULT_AUDIT = "worldforge", "memories", "memory-audit"
SECONDS_PER_GAME_DAY = 86_400  # one game day of retention keeps a document one calendar day
LIVE = "c.status IN ('provisional', 'active')"
NOT_EXPIRED = "(IS_NULL(c.expiresDay) OR c.expiresDay > @day)"


class CosmosUnavailable(RuntimeError):
    """Cosmos DB did not answer (connection, timeout, throttled past retries, 5xx, auth): the
    caller may fall back to the local store. The message is a short code, never a secret."""


class StaleWrite(RuntimeError):
    """An ETag-conditional update found the document changed by someone else (HTTP 412)."""


def unavailable(exc: BaseException) -> CosmosUnavailable:
    if isinstance(exc, exceptions.CosmosHttpResponseError):
        return CosmosUnavailable(f"http-{exc.status_code}")
    return CosmosUnavailable(type(exc).__name__)


def is_outage(exc: BaseException) -> bool:
    if isinstance(exc, exceptions.CosmosHttpResponseError):
        code = exc.status_code or 0
        # 404 here means the database or container is gone (a missing document is caught where
        # it is expected): play on locally and queue, like any outage (issue 26)
        return code >= 500 or code in (401, 403, 404, 408, 429) or code == 0
    return isinstance(exc, (ServiceRequestError, ServiceResponseError, AzureError, OSError))


@dataclass(frozen=True)
class CosmosConfig:
    """Where the tier lives; `key` only when the user set one (kept in memory only)."""

    endpoint: str
    database: str = DEFAULT_DATABASE
    memories: str = DEFAULT_MEMORIES
    audit: str = DEFAULT_AUDIT
    key: str | None = field(default=None, repr=False)
    connection_timeout: float = 3.0
    read_timeout: float = 8.0
    deadline: float = 8.0  # seconds any one call may take, retries included (`within`)

    @classmethod
    def from_settings(cls, settings: Any) -> CosmosConfig:
        """From `engine.config.Settings` (AZURE_COSMOS_*); raises ValueError without an endpoint."""
        endpoint = getattr(settings, "azure_cosmos_endpoint", None)
        if not endpoint:
            raise ValueError("MEMORY_BACKEND=cosmos needs AZURE_COSMOS_ENDPOINT")
        secret = getattr(settings, "azure_cosmos_key", None)
        timeout = float(getattr(settings, "agent_request_timeout", 8.0) or 8.0)
        return cls(
            endpoint=endpoint,
            database=settings.azure_cosmos_database or DEFAULT_DATABASE,
            memories=settings.azure_cosmos_memory_container or DEFAULT_MEMORIES,
            audit=settings.azure_cosmos_audit_container or DEFAULT_AUDIT,
            key=secret.get_secret_value() if secret is not None else None,
            read_timeout=min(timeout, 30.0),
            deadline=remote_deadline(timeout),
        )


T = TypeVar("T")


def within(deadline: float, fn: Callable[[], T]) -> T:
    """`fn()` or CosmosUnavailable("deadline") once `deadline` seconds pass (issue 26).

    The SDK's own timeouts apply per attempt (a server that accepts and never answers held a step
    41 s: 8 s read timeout x 3 retries plus backoff), so the call runs on a daemon thread and the
    caller stops waiting at the deadline; the thread ends on the SDK's timeouts and its result is
    dropped (the failover has already served the call from the local store)."""
    fut = in_daemon_thread(fn, "cosmos-call")
    if concurrent.futures.wait([fut], deadline).not_done:
        raise CosmosUnavailable("deadline")
    return fut.result()


class RequestCounter:
    """Counts HTTP requests the client sends (the bench's round trips per operation)."""

    def __init__(self) -> None:
        self.count = 0

    def on_request(self, request: object) -> None:
        self.count += 1


_clients: dict[tuple[str, str], tuple[CosmosClient, RequestCounter]] = {}
_clients_lock = threading.Lock()


def client_for(
    config: CosmosConfig, *, credential: TokenCredential | None = None
) -> tuple[CosmosClient, RequestCounter]:
    """The one long-lived client for this endpoint and credential (built on first use)."""
    cache_key = (config.endpoint, "key" if config.key else f"aad:{id(credential)}")
    with _clients_lock:
        found = _clients.get(cache_key)
        if found is not None:
            return found
        counter = RequestCounter()
        if config.key:
            cred: str | TokenCredential = config.key
        elif credential is not None:
            cred = credential
        else:
            from azure.identity import DefaultAzureCredential

            cred = DefaultAzureCredential()
        client = CosmosClient(
            config.endpoint,
            credential=cred,
            consistency_level="Session",
            connection_timeout=config.connection_timeout,
            read_timeout=config.read_timeout,
            retry_total=3,
            retry_backoff_max=10,
            enable_endpoint_discovery=False,
            raw_request_hook=counter.on_request,
            user_agent_suffix="worldforge",
        )
        _clients[cache_key] = (client, counter)
        return client, counter


def ttl_seconds(kind: str, importance: float, game_day: int, expires_day: int | None) -> int:
    """The document TTL from the memory's retention: -1 (never) for binding/profile memories, notes
    without an expiry and notes important enough that prune keeps them; else the retention in
    game days as calendar days, so the service deletes only what prune would delete too."""
    if kind in CRITICAL_KINDS or expires_day is None or importance > lifecycle.PRUNE_MAX_IMPORTANCE:
        return -1
    return max(1, expires_day - game_day) * SECONDS_PER_GAME_DAY


class Param(TypedDict):
    """One parameter of a parameterised query (`@name`)."""

    name: str
    value: object


class AuditDoc(TypedDict):
    """One content-free audit row of a run, as a document of the audit container."""

    id: str
    runId: str
    seq: int
    operation: str
    memoryIds: list[str]
    reason: str
    ts: str
    gameDay: int | None


class MemoryDoc(TypedDict, total=False):
    """One note of a run as a document of the memories container (a projection holds some keys)."""

    id: str
    runId: str
    seq: int
    kind: str
    status: str
    author: str
    importance: float
    gameDay: int
    ts: str
    expiresDay: int | None
    sourceIds: list[str]
    stageId: str | None
    axis: str | None
    worker: str | None
    reviewer: str | None
    reinforced: int
    supersededBy: str | None
    consolidatedInto: str | None
    payload: dict[str, Any] | None
    ttl: int
    text: str
    norm: str
    terms: list[str]
    nTerms: int
    embedding: list[float]
    _etag: str  # the service's version of the document, for ETag-conditional writes


def doc_to_record(doc: MemoryDoc) -> MemoryRecord:
    return MemoryRecord.from_dict(
        dict(
            id=doc["id"],
            run_id=doc["runId"],
            kind=doc["kind"],
            text=doc["text"],
            status=doc["status"],
            author=doc["author"],
            importance=float(doc["importance"]),
            game_day=int(doc["gameDay"]),
            ts=doc.get("ts") or "",
            expires_day=doc.get("expiresDay"),
            source_ids=list(doc.get("sourceIds") or []),
            origin=ORIGIN,
            stage_id=doc.get("stageId"),
            axis=doc.get("axis"),
            reinforced=int(doc.get("reinforced") or 0),
            superseded_by=doc.get("supersededBy"),
            payload=doc.get("payload") or None,
        )
    )


def param(name: str, value: object) -> Param:
    return {"name": name, "value": value}
