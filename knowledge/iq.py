"""The Foundry IQ tier: Azure AI Search knowledge-base retrieval over httpx, parked after a failure.

One call posts the query to `{endpoint}/knowledgebases/{kb}/retrieve` through the shared bounded
Azure call (`worldforge_azurehttp.request_json`: bearer token from an injectable provider, one total deadline,
size cap). Any failure (auth, HTTP status, timeout, unreadable body) parks the tier for the session
with a short reason.
"""

from __future__ import annotations

import json
import math
import threading
from typing import Any
from urllib.parse import quote

from knowledge.models import HIT_TEXT_LIMIT, KnowledgeHit
from worldforge_azurehttp import AzureError, TokenProvider, request_json, token_provider
from worldforge_textkit import clean, clip

DEFAULT_API_VERSION = "2025-11-01-preview"
DEFAULT_SCOPE = "https://search.azure.com/.default"
DEFAULT_TIMEOUT_S = 8.0
MAX_QUERY_CHARS = 1000
MAX_RESPONSE_BYTES = 2_000_000
MAX_REASON_CHARS = 200

__all__ = [
    "DEFAULT_SCOPE",
    "FoundryIQ",
    "IQError",
    "TokenProvider",
    "default_token_provider",
    "parse_retrieve",
]


class IQError(Exception):
    """A retrieval failure whose message is safe to show and log (never carries a token)."""


def default_token_provider(scope: str = DEFAULT_SCOPE, credential: Any = None) -> TokenProvider:
    """The shared provider (`worldforge_azurehttp.token_provider`) for the Azure AI Search scope."""
    return token_provider(scope, credential)


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
    source_data = item.get("sourceData")
    data: dict[str, Any] = source_data if isinstance(source_data, dict) else {}
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
        text=clip(text, HIT_TEXT_LIMIT),
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


def parse_retrieve(body: object) -> list[KnowledgeHit]:
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
    hits = [
        hit for n, item in enumerate(items) if isinstance(item, dict) and (hit := _hit(item, n))
    ]
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

    def _post(self, query: str) -> object:
        """POST the query under one total deadline; raise IQError on any failure."""
        try:
            return request_json(
                "POST",
                self.url,
                provider=self._token_provider,
                timeout_s=self.timeout_s,
                body=self._body(query),
                params={"api-version": self.api_version},
                max_bytes=MAX_RESPONSE_BYTES,
            )
        except AzureError as exc:
            raise IQError(str(exc)) from exc

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
