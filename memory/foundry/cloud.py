"""The Foundry Agent Service memory-store tier (preview REST API over httpx, bearer token).

Optional and best-effort: the local SQLite store is always written first. Every call goes through
the shared bounded Azure call (`worldforge_azurehttp.request_json`: one total deadline, a response-size cap);
the first failure of any kind (auth, throttling, server error, timeout, garbage) parks the tier
for the rest of the session.
Network I/O happens only outside transactions (`MemoryStore.flush_cloud`, recall outside a step).
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from memory.guards import clean
from memory.models import Kind, MemoryRecord
from worldforge_azurehttp import AzureError, TokenProvider, request_json, token_provider
from worldforge_savedb.db import transaction

log = logging.getLogger(f"worldforge.{__name__}")  # the one log file (engine.logs)

SCOPE = "https://ai.azure.com/.default"
API_VERSION = "2025-11-15-preview"
MAX_RESPONSE_BYTES = 1_000_000
_SAFE_ID = re.compile(r"[^A-Za-z0-9_\-.]")
# The kinds a search hit may keep (any other reads as context: never binding).
_KINDS: dict[str, Kind] = {"user_profile": "user_profile", "chat_summary": "chat_summary"}


class CloudError(Exception):
    """Any failure talking to the cloud tier (the caller parks the tier)."""


class _Item(BaseModel):
    model_config = ConfigDict(extra="ignore")
    memory_id: str
    content: str
    scope: str | None = None
    kind: str | None = None


class _Hit(BaseModel):
    model_config = ConfigDict(extra="ignore")
    memory_item: _Item


class _SearchResult(BaseModel):
    model_config = ConfigDict(extra="ignore")
    memories: list[_Hit] = []


class CloudMemory:
    """Client for one Foundry memory store; `available` turns False for good after one failure."""

    def __init__(
        self,
        endpoint: str,
        store: str,
        *,
        token_provider: TokenProvider | None = None,
        api_version: str = API_VERSION,
        features_header: str | None = None,
        timeout: float = 8.0,
        max_memories: int = 6,
    ) -> None:
        self.base = endpoint.rstrip("/")
        self.store = store
        self.api_version = api_version
        self.features_header = features_header
        self.deadline_s = timeout
        self.max_memories = max_memories
        self._token_provider = token_provider
        self._probed = False
        self.parked_reason: str | None = None

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, token_provider: TokenProvider | None = None
    ) -> CloudMemory | None:
        """Build the tier when FOUNDRY_PROJECT_ENDPOINT and FOUNDRY_MEMORY_STORE are both set."""
        env = os.environ if env is None else env
        endpoint = env.get("FOUNDRY_PROJECT_ENDPOINT", "").strip()
        store = env.get("FOUNDRY_MEMORY_STORE", "").strip()
        if not endpoint or not store:
            return None
        timeout = env.get("AGENT_REQUEST_TIMEOUT", "").strip()
        return cls(
            endpoint,
            store,
            token_provider=token_provider,
            api_version=env.get("FOUNDRY_MEMORY_API_VERSION", "").strip() or API_VERSION,
            features_header=env.get("FOUNDRY_MEMORY_FEATURES", "").strip() or None,
            timeout=min(float(timeout), 30.0) if _is_number(timeout) else 8.0,
        )

    @property
    def available(self) -> bool:
        """False once parked."""
        return self.parked_reason is None

    def park(self, reason: str) -> None:
        """Stop using the tier for this session (the reason is a short code, never a secret)."""
        if self.parked_reason is None:
            self.parked_reason = reason
            log.warning("foundry memory tier parked: %s", reason)

    # -- HTTP ----------------------------------------------------------------------------------
    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One bounded call; any failure parks the tier and raises CloudError."""
        if not self.available:
            raise CloudError(self.parked_reason or "parked")
        if self._token_provider is None:
            self._token_provider = token_provider(SCOPE)
        try:
            return request_json(
                method,
                f"{self.base}{path}",
                provider=self._token_provider,
                timeout_s=self.deadline_s,
                body=body,
                params={"api-version": self.api_version},
                headers={"Foundry-Features": self.features_header}
                if self.features_header
                else None,
                max_bytes=MAX_RESPONSE_BYTES,
            )
        except AzureError as exc:
            self.park(str(exc))
            raise CloudError(str(exc)) from exc

    def probe(self) -> bool:
        """Read the store once per session; a failure parks the tier."""
        if self._probed:
            return self.available
        self._probed = True
        try:
            self._call("GET", f"/memory_stores/{self.store}")
        except CloudError:
            return False
        return True

    def update(self, scope: str, notes: list[tuple[str, str]]) -> bool:
        """Send (kind, text) notes to `scope` in one update_memories call."""
        items = [_message(f"[{kind}] {text}") for kind, text in notes]
        try:
            out = self._call(
                "POST",
                f"/memory_stores/{self.store}:update_memories",
                {"scope": scope, "items": items, "update_delay": 0},
            )
        except CloudError:
            return False
        if not isinstance(out, dict):
            self.park("bad response: unexpected shape")
            return False
        return True

    def delete_scope(self, scope: str) -> bool:
        """Delete everything the store holds for `scope` (forgetting a run)."""
        try:
            self._call("POST", f"/memory_stores/{self.store}:delete_scope", {"scope": scope})
        except CloudError:
            return False
        return True

    def search(self, scope: str, query: str, *, game_day: int) -> list[MemoryRecord]:
        """Semantic search in `scope`; results are untrusted: scrubbed, clamped, never binding."""
        if not self.probe():  # parked, or the store did not answer
            return []
        body = {
            "scope": scope,
            "options": {"max_memories": self.max_memories},
            "items": [_message(clean(query))],
        }
        try:
            raw = self._call("POST", f"/memory_stores/{self.store}:search_memories", body)
            result = _SearchResult.model_validate(raw)
        except CloudError:
            return []
        except ValidationError:
            self.park("bad response: unexpected shape")
            return []
        out: list[MemoryRecord] = []
        for hit in result.memories[: self.max_memories]:
            item = hit.memory_item
            text = clean(item.content)
            if not text or (item.scope is not None and item.scope != scope):
                continue
            out.append(
                MemoryRecord(
                    id="cloud-" + _SAFE_ID.sub("", item.memory_id)[:40],
                    run_id=scope,
                    kind=_KINDS.get(item.kind or "", "context"),
                    text=text,
                    status="active",
                    author="system",
                    importance=5.0,
                    game_day=game_day,
                    ts="",
                    origin="foundry-memory",
                )
            )
        return out

    # -- outbox ----------------------------------------------------------------------------------
    def flush(self, conn: sqlite3.Connection, run_id: str) -> None:
        """Send the run's queued operations; sent (or, once parked, dropped) rows are deleted."""
        rows = conn.execute(
            "SELECT pk, op, memory_id, kind, text FROM memory_cloud_outbox"
            " WHERE run_id = ? ORDER BY pk",
            (run_id,),
        ).fetchall()
        if not rows:
            return
        sent_ids: list[str] = []
        if self.probe():
            writes = [(r[2], r[3], r[4]) for r in rows if r[1] == "write"]
            if writes and self.update(run_id, [(kind, text) for _, kind, text in writes]):
                sent_ids = [mid for mid, _, _ in writes]
            if any(r[1] == "delete_scope" for r in rows):
                self.delete_scope(run_id)
        last_pk = rows[-1][0]
        with transaction(conn):
            conn.execute(
                "DELETE FROM memory_cloud_outbox WHERE run_id = ? AND pk <= ?", (run_id, last_pk)
            )
            for mid in sent_ids:
                conn.execute(
                    "UPDATE memories SET origin = 'foundry-memory' WHERE run_id = ? AND id = ?",
                    (run_id, mid),
                )


def _message(text: str) -> dict[str, object]:
    """One user message item, as update_memories and search_memories take them."""
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _is_number(text: str) -> bool:
    try:
        return float(text) > 0
    except ValueError:
        return False
