"""The router's boundary records: what the engine asks for and the one result shape every tier
returns. Plain dataclasses, so the simulation path never imports pydantic."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, get_args

from engine.errors import GameError
from worldforge_savedb.records import Record

if TYPE_CHECKING:
    from pydantic import BaseModel

Role = Literal[
    "narrator", "orgdesigner", "antagonist", "strategist", "designer", "marketer", "ops", "npc"
]
Tier = Literal["simulation", "local", "foundry", "replay"]
Outcome = Literal["ok", "error", "invalid", "skipped", "parked"]

ROLES: tuple[Role, ...] = get_args(Role)


@dataclass(eq=False, repr=False)
class RouteRequest(Record):
    """One structured call from a worker: prompts, the contract a model's answer must validate
    against, a stable call key.

    `contract` returns the pydantic class (called only when a model or a recording answers: the
    simulation tier's output is the engine's own and never needs it, nor pydantic)."""

    role: Role
    system: str
    user: str
    contract: Callable[[], type[BaseModel]]
    call_key: str
    max_output_tokens: int = 1500
    # Esc during this call: "raise" CallCancelled (the command is undone and can run again), or
    # "floor" (serve the simulation, labelled cancelled: for calls inside a step already begun).
    on_cancel: Literal["raise", "floor"] = "raise"
    # The artifact's JSON Schema with the CEO's binding directions compiled in (None: the model's
    # own schema), and the adherence check a model's valid answer (as JSON) must pass: it returns
    # the broken directions in words, and the answer is re-asked once naming them
    # (engine.workers.schema). The schema is a function, built only when a model is asked.
    bound_schema: Callable[[], dict[str, Any] | None] | None = None
    judge: Callable[[dict[str, Any]], str | None] | None = None
    # Lines of `system` the brief can do without (recalled notes, playbook hits), least important
    # first: left out one by one, and said so, when the brief would not fit a model's context window.
    recalled: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}")
        if not 1 <= self.max_output_tokens <= 200_000:
            raise ValueError(f"max_output_tokens {self.max_output_tokens} is not in 1..200000")
        if self.on_cancel not in ("raise", "floor"):
            raise ValueError(f"on_cancel must be raise or floor, not {self.on_cancel!r}")


@dataclass(kw_only=True, eq=False, repr=False)
class Attempt(Record):
    """One try against one tier/endpoint/model, successful or not (ms is metadata)."""

    tier: Tier
    endpoint: str | None = None
    model: str | None = None
    outcome: Outcome
    error: str | None = None
    ms: float = 0.0


@dataclass(eq=False, repr=False)
class Usage(Record):
    """Token counts and wall latency of the serving call (latency is metadata)."""

    tokens_in: int = 0
    tokens_out: int = 0
    latency_ms: float = 0.0
    first_token_ms: float | None = None  # time to the first streamed token of the serving attempt
    http_ms: float = 0.0  # time inside HTTP exchanges, every attempt (latency_ms - this = ours)


@dataclass(eq=False, repr=False)
class Fallback(Record):
    """One step down the tier chain, with the reason; the engine logs each as ROUTE_FALLBACK."""

    from_tier: Tier
    to_tier: Tier
    reason: str


@dataclass(eq=False, repr=False)
class RouteResult(Record):
    """The same envelope from every tier: the answer as JSON (a model's validated against the
    contract, the simulation's the engine's own) plus the proof of who served it and why."""

    output: dict[str, Any]
    raw_text: str | None
    served_by: Tier
    model: str
    fallback_reason: str | None
    attempts: list[Attempt]
    usage: Usage
    fallbacks: list[Fallback]
    adaptations: list[str] = field(default_factory=list)


def brief_trims(adaptations: list[str]) -> list[tuple[int, int]]:
    """Each time a call's brief was cut to fit a local model's window: (recalled lines left out,
    the window in tokens), from its adaptations ("brief_trimmed:3:4096"; 0 where an older trace
    did not keep the window)."""
    out: list[tuple[int, int]] = []
    for adaptation in adaptations:
        kind, _, rest = adaptation.partition(":")
        if kind == "brief_trimmed":
            left_out, _, window = rest.partition(":")
            out.append((int(left_out or 0), int(window or 0)))
    return out


class ProbeRow(TypedDict):
    """One endpoint's answer to `Router.probe` (GET /models, or the simulation's own row): the
    error in words when it failed, and for a local endpoint the models the roles need that it lacks."""

    tier: Tier
    endpoint: str | None
    ok: bool
    ms: float
    error: str | None
    models: list[str]
    missing_models: NotRequired[list[str]]


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
