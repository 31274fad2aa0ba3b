"""Where a call can go: tier, endpoint, model and how to authenticate (no SDK import, so planning a
call costs nothing and the model tier's imports can run inside the call's deadline, off this thread)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.routing.health import TokenParam
from engine.routing.types import Tier
from worldforge_savedb.records import FrozenRecord


@dataclass(frozen=True, eq=False, repr=False)
class Target(FrozenRecord):
    """One place a call can go: tier, endpoint, model and how to authenticate."""

    tier: Tier
    endpoint: str
    model: str
    api_key: str | None = None
    token_provider: Callable[[], str] | None = None
    default_token_param: TokenParam = "max_tokens"
    overflow: bool = False  # the larger-context model, asked only after a context overflow

    @property
    def model_key(self) -> str:
        return f"{self.endpoint}#{self.model}"
