"""Typed shapes the knowledge package hands to callers: one retrieved hit and the tier status.
Plain dataclasses (every producer clips its text to HIT_TEXT_LIMIT): no pydantic on the headless path."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from worldforge_savedb.records import FrozenRecord

HIT_TEXT_LIMIT = 600

Origin = Literal["local-knowledge", "foundry-iq"]


@dataclass(frozen=True, eq=False, repr=False)
class KnowledgeHit(FrozenRecord):
    """One retrieved passage: where it came from (a relative path with a section anchor, e.g.
    "playbooks/finance.md#burn-and-runway"), a short text and how well it matched."""

    source: str
    title: str
    text: str
    score: float
    origin: Origin

    def __post_init__(self) -> None:
        if len(self.text) > HIT_TEXT_LIMIT:
            raise ValueError(f"a knowledge hit's text is over {HIT_TEXT_LIMIT} characters")


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class KnowledgeStatus(FrozenRecord):
    """Which tier answers searches now, and why the cloud tier is parked if it is."""

    tier: Origin
    iq_configured: bool
    iq_parked: bool
    parked_reason: str | None = None
    last_origin: Origin | None = None
    local_sections: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
