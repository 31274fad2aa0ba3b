"""The router's boundary models: what the engine asks for and the one result shape every tier returns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.errors import GameError

Role = Literal[
    "narrator", "orgdesigner", "antagonist", "strategist", "designer", "marketer", "ops", "npc"
]
Tier = Literal["simulation", "local", "foundry", "replay"]
Outcome = Literal["ok", "error", "invalid", "skipped", "parked"]

ROLES: tuple[Role, ...] = (
    "narrator",
    "orgdesigner",
    "antagonist",
    "strategist",
    "designer",
    "marketer",
    "ops",
    "npc",
)


class RouteRequest(BaseModel):
    """One structured call from a worker: prompts, the artifact model to validate, a stable call key."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    role: Role
    system: str
    user: str
    schema_model: type[BaseModel]
    call_key: str
    max_output_tokens: int = Field(default=1500, ge=1, le=200_000)
    # Esc during this call: "raise" CallCancelled (the command is undone and can run again), or
    # "floor" (serve the simulation, labelled cancelled: for calls inside a step already begun).
    on_cancel: Literal["raise", "floor"] = "raise"
    # The artifact's JSON Schema with the CEO's binding directions compiled in (None: the model's
    # own schema), and the adherence check a model's valid answer must pass: it returns the broken
    # directions in words, and the answer is re-asked once naming them (engine.workers.schema).
    bound_schema: dict[str, Any] | None = None
    judge: Callable[[BaseModel], str | None] | None = Field(default=None, exclude=True)


class Attempt(BaseModel):
    """One try against one tier/endpoint/model, successful or not (ms is metadata)."""

    tier: Tier
    endpoint: str | None = None
    model: str | None = None
    outcome: Outcome
    error: str | None = None
    ms: float = 0.0


class Usage(BaseModel):
    """Token counts and wall latency of the serving call (latency is metadata)."""

    tokens_in: int = 0
    tokens_out: int = 0
    latency_ms: float = 0.0
    first_token_ms: float | None = None  # time to the first streamed token of the serving attempt
    http_ms: float = 0.0  # time inside HTTP exchanges, every attempt (latency_ms - this = ours)


class Fallback(BaseModel):
    """One step down the tier chain, with the reason; the engine logs each as ROUTE_FALLBACK."""

    from_tier: Tier
    to_tier: Tier
    reason: str


class RouteResult(BaseModel):
    """The same envelope from every tier: validated output plus the proof of who served it and why."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    output: BaseModel
    raw_text: str | None
    served_by: Tier
    model: str
    fallback_reason: str | None
    attempts: list[Attempt]
    usage: Usage
    fallbacks: list[Fallback]
    adaptations: list[str] = Field(default_factory=list)


class CallCancelled(GameError):
    """The player cancelled a model call (Esc): nothing was served and nothing is recorded."""


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """What a watcher sees of a call in flight: "start" (a target is asked), "delta" (text so far),
    "end" (the call is served, by whom). Times are seconds/ms since the attempt began."""

    kind: Literal["start", "delta", "end"]
    call_key: str
    role: str
    tier: Tier
    model: str
    text: str = ""
    tokens: int = 0
    elapsed_s: float = 0.0
    first_token_ms: float | None = None
    at: float = 0.0  # time.perf_counter() when the event was made (for display-latency figures)

    @property
    def tokens_per_s(self) -> float:
        """Tokens per second after the first token (0 until two have arrived)."""
        if self.first_token_ms is None or self.tokens < 2:
            return 0.0
        gen = self.elapsed_s - self.first_token_ms / 1000
        return (self.tokens - 1) / gen if gen > 0 else 0.0


def served_line(served: list[tuple[str, str]]) -> str:
    """What actually served a run's calls, from (tier, model) pairs: "local: tiny 25 of 25 calls",
    "local: qwen2.5 20, simulation 5 of 25 calls", or "simulation (no calls)"."""
    if not served:
        return "simulation (no calls)"
    counts: dict[str, int] = {}
    for tier, model in served:
        name = tier if tier in ("simulation", "replay") or not model else f"{tier}: {model}"
        counts[name] = counts.get(name, 0) + 1
    parts = [f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: -kv[1])]
    return ", ".join(parts) + f" of {len(served)} calls"
