"""The Foundry IQ tier: Azure AI Search knowledge-base retrieval over httpx, parked after a failure.

One call posts the query to `{endpoint}/knowledgebases/{kb}/retrieve`, with a bearer token from an
injectable provider, under a total deadline (also against a server that trickles bytes). Any
failure (auth, HTTP status, timeout, unreadable body) parks the tier for the session with a reason.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from knowledge.models import KnowledgeHit
from knowledge.text import clean, clip

DEFAULT_API_VERSION = "2025-11-01-preview"
DEFAULT_SCOPE = "https://search.azure.com/.default"
DEFAULT_TIMEOUT_S = 8.0
MAX_QUERY_CHARS = 1000
MAX_RESPONSE_BYTES = 2_000_000
MAX_REASON_CHARS = 200

TokenProvider = Callable[[], str]


class IQError(Exception):
    """A retrieval failure whose message is safe to show and log (never carries a token)."""


TOKEN_REFRESH_MARGIN_S = 300


def default_token_provider(scope: str = DEFAULT_SCOPE, credential: Any = None) -> TokenProvider:
    """A DefaultAzureCredential provider that reuses its token until five minutes before expiry.

    Some credentials in the chain (the Azure CLI one) start a subprocess per call, so caching here
    keeps every search after the first one cheap. The token lives in memory only. `credential` is
    any object with azure-identity's `get_token(scope)`; DefaultAzureCredential when omitted.
    """
    state: dict[str, Any] = {} if credential is None else {"credential": credential}
    lock = threading.Lock()

    def provide() -> str:
        with lock:
            cached = state.get("token")
            if cached is not None and cached.expires_on - TOKEN_REFRESH_MARGIN_S > time.time():
                return cached.token
            if "credential" not in state:
                from azure.identity import DefaultAzureCredential

                state["credential"] = DefaultAzureCredential(exclude_interactive_browser_credential=True)
            state["token"] = state["credential"].get_token(scope)
            return state["token"].token

    return provide


def _call_with_deadline(provider: TokenProvider, deadline: float) -> str:
    """Run the token provider in a helper thread so a slow credential chain cannot outlast the deadline."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["token"] = provider()
        except Exception as exc:  # noqa: BLE001 - handed to the caller, not raised in the thread
            outcome["error"] = exc

    worker = threading.Thread(target=run, name="foundry-iq-token", daemon=True)
    worker.start()
    worker.join(max(0.0, deadline - time.monotonic()))
    if worker.is_alive():
        raise IQError("auth: token provider timed out")
    if "error" in outcome:
        raise IQError(f"auth: {type(outcome['error']).__name__}") from outcome["error"]
    token = outcome.get("token")
    if not isinstance(token, str) or not token:
        raise IQError("auth: empty token")
    return token


def _is_loopback(url: str) -> bool:
    import httpx  # lazy: keeps `import knowledge` (and headless start-up) light

    host = httpx.URL(url).host
    return host in ("127.0.0.1", "localhost", "::1")


def _first_str(item: dict[str, Any], *keys: str) -> str:
    for key in keys:
        value = item.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return ""


def _first_num(item: dict[str, Any], *keys: str) -> float:
    for key in keys:
        value = item.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
    return 0.0


def _hit(item: dict[str, Any], fallback_rank: int) -> KnowledgeHit | None:
    """Map one result/reference/chunk dict (flat or with `sourceData`) to a hit, or None if empty."""
    data = item.get("sourceData") if isinstance(item.get("sourceData"), dict) else {}
    merged = {**data, **{k: v for k, v in item.items() if k != "sourceData"}}
    text = _first_str(merged, "content", "text", "chunk", "snippet", "page_chunk", "summary")
    if not text:
        return None
    source = _first_str(merged, "source", "url", "docKey", "doc_key", "uri", "id", "ref_id")
    if not source and isinstance(merged.get("ref_id"), int):
        source = f"ref-{merged['ref_id']}"
    title = _first_str(merged, "title", "name", "docKey") or source or "Foundry IQ result"
    score = _first_num(merged, "score", "@search.score", "rerankerScore", "@search.rerankerScore")
    return KnowledgeHit(
        source=clip(source or f"foundry-iq#{fallback_rank}", 300),
        title=clip(title, 200),
        text=clip(text),
        score=round(score, 6),
        origin="foundry-iq",
    )


def _chunks_from_response(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Chunks embedded as a JSON array string in `response[].content[].text`, joined to references."""
    refs = {
        str(ref.get("id")): ref
        for ref in body.get("references") or []
        if isinstance(ref, dict) and ref.get("id") is not None
    }
    chunks: list[dict[str, Any]] = []
    for message in body.get("response") or []:
        if not isinstance(message, dict):
            continue
        for part in message.get("content") or []:
            if not isinstance(part, dict) or not isinstance(part.get("text"), str):
                continue
            try:
                decoded = json.loads(part["text"])
            except ValueError:
                decoded = [{"content": part["text"]}]
            for chunk in decoded if isinstance(decoded, list) else [decoded]:
                if not isinstance(chunk, dict):
                    continue
                ref = refs.get(str(chunk.get("ref_id")), {})
                chunks.append({**ref, **chunk, "sourceData": ref.get("sourceData")})
    return chunks


def parse_retrieve(body: Any) -> list[KnowledgeHit]:
    """Hits from a retrieve response in the `results` shape or the `response`+`references` shape.

    Raises IQError when the body is not a JSON object or holds none of the known shapes.
    """
    if not isinstance(body, dict):
        raise IQError("bad response: not a JSON object")
    if isinstance(body.get("results"), list):
        items = body["results"]
    elif isinstance(body.get("response"), list) or isinstance(body.get("references"), list):
        items = _chunks_from_response(body) or body.get("references") or []
    else:
        raise IQError("bad response: no results, response or references")
    hits = [hit for n, item in enumerate(items) if isinstance(item, dict) and (hit := _hit(item, n))]
    return sorted(hits, key=lambda h: (-h.score, h.source))


class FoundryIQ:
    """Client for one knowledge base; after one failure it stays parked for the session."""

    def __init__(
        self,
        endpoint: str,
        kb: str,
        token_provider: TokenProvider | None = None,
        *,
        api_version: str = DEFAULT_API_VERSION,
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self.endpoint = endpoint.rstrip("/")
        self.kb = kb
        self.api_version = api_version
        self.timeout_s = timeout_s
        self._token_provider = token_provider or default_token_provider()
        self._lock = threading.Lock()
        self.parked_reason: str | None = None

    @property
    def parked(self) -> bool:
        return self.parked_reason is not None

    @property
    def url(self) -> str:
        return f"{self.endpoint}/knowledgebases/{quote(self.kb, safe='')}/retrieve"

    def _body(self, query: str) -> dict[str, Any]:
        body: dict[str, Any] = {
            "intents": [{"type": "semantic", "search": query}],
            "includeActivity": False,
            "maxRuntimeInSeconds": max(1, int(self.timeout_s)),
        }
        if "preview" in self.api_version:
            body["retrievalReasoningEffort"] = {"kind": "minimal"}
            body["outputMode"] = "extractiveData"
        return body

    def _post(self, query: str) -> Any:
        """POST the query and read the body under one total deadline; raise IQError on any failure."""
        import httpx

        deadline = time.monotonic() + self.timeout_s
        token = _call_with_deadline(self._token_provider, deadline)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise IQError(f"timeout after {self.timeout_s:g}s")
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        trust_env = not _is_loopback(self.url)  # proxies from the environment, never for loopback
        try:
            with httpx.Client(timeout=httpx.Timeout(remaining), trust_env=trust_env) as client, client.stream(
                "POST", self.url, params={"api-version": self.api_version},
                headers=headers, json=self._body(query),
            ) as response:
                if response.status_code not in (200, 206):
                    raise IQError(f"HTTP {response.status_code} {response.reason_phrase}".strip())
                data = bytearray()
                for chunk in response.iter_bytes():
                    data.extend(chunk)
                    if len(data) > MAX_RESPONSE_BYTES:
                        raise IQError("bad response: body too large")
                    if time.monotonic() > deadline:
                        raise IQError(f"timeout after {self.timeout_s:g}s")
        except httpx.TimeoutException as exc:
            raise IQError(f"timeout after {self.timeout_s:g}s") from exc
        except httpx.HTTPError as exc:
            raise IQError(f"transport: {type(exc).__name__}") from exc
        if time.monotonic() > deadline:
            raise IQError(f"timeout after {self.timeout_s:g}s")
        try:
            return json.loads(bytes(data))
        except ValueError as exc:
            raise IQError("bad response: not JSON") from exc

    def retrieve(self, query: str, top_k: int = 2) -> list[KnowledgeHit]:
        """Hits from the knowledge base; raises IQError (and parks) on failure or when parked."""
        if self.parked:
            raise IQError(f"parked: {self.parked_reason}")
        text = clean(query)[:MAX_QUERY_CHARS]
        if not text or top_k <= 0:
            return []
        try:
            hits = parse_retrieve(self._post(text))
        except IQError as exc:
            self.park(str(exc))
            raise
        except Exception as exc:  # a bad endpoint or odd body must not crash the game
            self.park(f"error: {type(exc).__name__}")
            raise IQError(self.parked_reason or "error") from exc
        return hits[:top_k]

    def park(self, reason: str) -> None:
        """Stop using this tier for the rest of the session, remembering the first reason."""
        with self._lock:
            if self.parked_reason is None:
                self.parked_reason = clean(reason)[:MAX_REASON_CHARS] or "unknown failure"
