"""Typed shapes the knowledge package hands to callers: one retrieved hit and the tier status."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

HIT_TEXT_LIMIT = 600

Origin = Literal["local-knowledge", "foundry-iq"]


class KnowledgeHit(BaseModel):
    """One retrieved passage: where it came from, a short text and how well it matched."""

    model_config = ConfigDict(frozen=True)

    source: str = Field(
        description='relative path with section anchor, e.g. "playbooks/finance.md#burn-and-runway"'
    )
    title: str
    text: str = Field(max_length=HIT_TEXT_LIMIT)
    score: float
    origin: Origin


class KnowledgeStatus(BaseModel):
    """Which tier answers searches now, and why the cloud tier is parked if it is."""

    tier: Origin
    iq_configured: bool
    iq_parked: bool
    parked_reason: str | None = None
    last_origin: Origin | None = None
    local_sections: int
