"""Embeddings for Cosmos DB vector recall: one call to the Foundry (Azure OpenAI) `/embeddings`
endpoint of the embedding deployment AZURE_COSMOS_EMBEDDING_DEPLOYMENT.

Built only when MEMORY_BACKEND=cosmos and that deployment is set; the key is FOUNDRY_API_KEY when
set, else an Entra ID token from DefaultAzureCredential. Bounded timeouts and a size cap; the
vector is validated (a list of finite numbers) before it reaches a query.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import httpx2 as httpx  # the one HTTP stack (openai 3.x uses httpx2 too)

from worldforge_azurehttp import token_provider

MAX_RESPONSE_BYTES = 2_000_000


class EmbeddingError(RuntimeError):
    """The embedding deployment did not give a usable vector (the caller ranks by keywords)."""


def embedder_for(settings: Any) -> Callable[[str], list[float]] | None:
    """An embedder for the settings' embedding deployment, or None when none is configured."""
    deployment = getattr(settings, "azure_cosmos_embedding_deployment", None)
    base = settings.foundry_openai_url() if deployment else None
    if not deployment or not base:
        return None
    key = settings.foundry_api_key.get_secret_value() if settings.foundry_api_key else None
    token = None if key else token_provider(settings.token_scope())
    return HttpEmbedder(
        base,
        deployment,
        api_key=key,
        token_provider=token,
        timeout=min(float(settings.agent_request_timeout), 30.0),
    )


class HttpEmbedder:
    """POST {base}/embeddings {"model": deployment, "input": text} -> data[0].embedding."""

    def __init__(
        self,
        base_url: str,
        deployment: str,
        *,
        api_key: str | None = None,
        token_provider: Callable[[], str] | None = None,
        timeout: float = 10.0,
    ) -> None:
        self.url = base_url.rstrip("/") + "/embeddings"
        self.deployment = deployment
        self._key = api_key
        self._token = token_provider
        self._client = httpx.Client(
            timeout=httpx.Timeout(timeout, connect=min(timeout, 3.0)),
            follow_redirects=False,
            trust_env=False,
        )

    def _headers(self) -> dict[str, str]:
        if self._key:
            return {"api-key": self._key, "Authorization": f"Bearer {self._key}"}
        if self._token is not None:
            return {"Authorization": f"Bearer {self._token()}"}
        return {}

    def __call__(self, text: str) -> list[float]:
        try:
            resp = self._client.post(
                self.url,
                headers=self._headers(),
                json={"model": self.deployment, "input": text[:8000]},
            )
        except httpx.HTTPError as exc:
            raise EmbeddingError(type(exc).__name__) from exc
        if resp.status_code >= 400:
            raise EmbeddingError(f"http-{resp.status_code}")
        if len(resp.content) > MAX_RESPONSE_BYTES:
            raise EmbeddingError("response-too-large")
        try:
            vector = resp.json()["data"][0]["embedding"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise EmbeddingError("garbage") from exc
        if (
            not isinstance(vector, list)
            or not vector
            or not all(isinstance(x, (int, float)) and math.isfinite(x) for x in vector)
        ):
            raise EmbeddingError("garbage")
        return [float(x) for x in vector]
