"""What the router learns as it runs: expiring per-endpoint cooldowns and per-deployment capabilities."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Literal

JsonMode = Literal["json_schema", "json_object", "none"]
TokenParam = Literal["max_tokens", "max_completion_tokens"]
_LADDER: tuple[JsonMode, ...] = ("json_schema", "json_object", "none")


@dataclass
class _Park:
    until: float
    reason: str


class Cooldowns:
    """Endpoints (or endpoint#model keys) parked until a deadline; expiry or a good probe clears them."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._parks: dict[str, _Park] = {}
        self._lock = threading.Lock()

    def park(self, key: str, seconds: float, reason: str) -> None:
        """Park a key; re-parking keeps the later deadline (never shortens a running cooldown)."""
        if seconds <= 0:
            return
        until = self._clock() + seconds
        with self._lock:
            old = self._parks.get(key)
            if old is None or old.until < until:
                self._parks[key] = _Park(until, reason)

    def active(self, key: str) -> tuple[str, float] | None:
        """(reason, seconds left) while parked; None once expired."""
        now = self._clock()
        with self._lock:
            park = self._parks.get(key)
            if park is None:
                return None
            if park.until <= now:
                del self._parks[key]
                return None
            return park.reason, park.until - now

    def clear(self, prefix: str | None = None) -> None:
        """Forget every park (settings changed) or those for one endpoint (a probe answered)."""
        with self._lock:
            if prefix is None:
                self._parks.clear()
            else:
                for key in [k for k in self._parks if k == prefix or k.startswith(prefix + "#")]:
                    del self._parks[key]

    def snapshot(self) -> dict[str, dict[str, float | str]]:
        now = self._clock()
        with self._lock:
            return {k: {"reason": p.reason, "seconds_left": round(p.until - now, 1)}
                    for k, p in self._parks.items() if p.until > now}


@dataclass
class DeploymentCaps:
    """Request shape that works for one (endpoint, model), learned from its 400s."""

    send_temperature: bool = True
    token_param: TokenParam = "max_tokens"


class Capabilities:
    """Per-deployment parameter memo and per-endpoint JSON-mode ladder position."""

    def __init__(self) -> None:
        self._deployments: dict[tuple[str, str], DeploymentCaps] = {}
        self._json: dict[str, JsonMode] = {}
        self._lock = threading.Lock()

    def for_deployment(self, endpoint: str, model: str, default_token: TokenParam) -> DeploymentCaps:
        with self._lock:
            caps = self._deployments.get((endpoint, model))
            if caps is None:
                caps = DeploymentCaps(token_param=default_token)
                self._deployments[(endpoint, model)] = caps
            return DeploymentCaps(caps.send_temperature, caps.token_param)

    def learn(self, endpoint: str, model: str, caps: DeploymentCaps) -> None:
        with self._lock:
            self._deployments[(endpoint, model)] = DeploymentCaps(caps.send_temperature,
                                                                  caps.token_param)

    def json_mode(self, endpoint: str) -> JsonMode:
        with self._lock:
            return self._json.get(endpoint, "json_schema")

    def step_down_json(self, endpoint: str, current: JsonMode) -> JsonMode | None:
        """Move the endpoint one rung down json_schema → json_object → none; None at the bottom."""
        idx = _LADDER.index(current)
        if idx + 1 >= len(_LADDER):
            return None
        nxt = _LADDER[idx + 1]
        with self._lock:
            if _LADDER.index(self._json.get(endpoint, "json_schema")) < idx + 1:
                self._json[endpoint] = nxt
        return nxt

    def snapshot(self) -> dict[str, object]:
        with self._lock:
            return {
                "deployments": {f"{e}#{m}": asdict(c) for (e, m), c in self._deployments.items()},
                "json_mode": dict(self._json),
            }
