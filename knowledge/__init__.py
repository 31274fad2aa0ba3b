"""Knowledge for worker briefs: our playbooks ranked locally, or Foundry IQ when configured and healthy.

Never imports textual. Callers read FOUNDRY_PROJECT_ENDPOINT and FOUNDRY_IQ_KNOWLEDGE_BASE themselves
and pass plain values to `Knowledge`.
"""

from __future__ import annotations

from typing import Any

from knowledge.iq import DEFAULT_API_VERSION, DEFAULT_TIMEOUT_S, FoundryIQ, IQError, TokenProvider
from knowledge.models import KnowledgeHit, KnowledgeStatus, Origin
from knowledge.retrieval import KnowledgeIndex, default_index, search

__all__ = [
    "FoundryIQ",
    "IQError",
    "Knowledge",
    "KnowledgeHit",
    "KnowledgeIndex",
    "KnowledgeStatus",
    "search",
]


class Knowledge:
    """The two-tier searcher workers use: Foundry IQ first when configured and not parked, else local.

    An IQ failure parks that tier for this object's life and the same call is answered locally, so a
    search never raises; every hit says which tier served it through `origin`.
    """

    def __init__(
        self,
        endpoint: str | None = None,
        kb: str | None = None,
        token_provider: TokenProvider | None = None,
        *,
        api_version: str = DEFAULT_API_VERSION,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        index: KnowledgeIndex | None = None,
    ) -> None:
        self._index = index
        self.iq: FoundryIQ | None = None
        if endpoint and endpoint.strip() and kb and kb.strip():
            self.iq = FoundryIQ(
                endpoint.strip(),
                kb.strip(),
                token_provider,
                api_version=api_version,
                timeout_s=timeout_s,
            )
        self.last_origin: Origin | None = None

    @property
    def index(self) -> KnowledgeIndex:
        return self._index or default_index()

    def search(self, query: str, top_k: int = 2) -> list[KnowledgeHit]:
        """Up to `top_k` hits for the query; IQ when healthy, local playbooks otherwise (or if IQ has none)."""
        if not isinstance(query, str) or not isinstance(top_k, int) or top_k <= 0:
            return []
        if self.iq is not None and not self.iq.parked:
            try:
                hits = self.iq.retrieve(query, top_k)
            except IQError:
                hits = []
            if hits:
                self.last_origin = "foundry-iq"
                return hits
        hits = self.index.search(query, top_k)
        if hits:
            self.last_origin = "local-knowledge"
        return hits

    def status(self) -> dict[str, Any]:
        """Which tier is active, whether IQ is configured and parked, and why."""
        iq = self.iq
        return KnowledgeStatus(
            tier="foundry-iq" if iq is not None and not iq.parked else "local-knowledge",
            iq_configured=iq is not None,
            iq_parked=bool(iq and iq.parked),
            parked_reason=iq.parked_reason if iq else None,
            last_origin=self.last_origin,
            local_sections=len(self.index),
        ).to_dict()
