"""What the router learns as it runs: a breaker per endpoint (or endpoint#model) and the request shape
each deployment takes, remembered for the process and in a cache file beside the settings."""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Literal

from engine.config import url_without_userinfo
from worldforge_savedb.records import Record

log = logging.getLogger("worldforge.routing")

JsonMode = Literal["json_schema", "json_object_schema", "json_object", "none"]
TokenParam = Literal["max_tokens", "max_completion_tokens"]
# Structured output, strongest first: OpenAI's json_schema; llama.cpp's {"type": "json_object",
# "schema": …} (a grammar from the schema); plain JSON mode; and JSON asked for by the prompt only.
LADDER: tuple[JsonMode, ...] = ("json_schema", "json_object_schema", "json_object", "none")
# The rungs where nothing constrains the model's JSON, so small models' slips (trailing commas,
# single quotes, True/None, raw newlines) are repaired before validation, and the repair logged.
REPAIR_RUNGS: frozenset[JsonMode] = frozenset({"json_object", "none"})
# The rungs where the server is asked to hold the answer to the schema.
ENFORCING: frozenset[JsonMode] = frozenset({"json_schema", "json_object_schema"})
BreakerState = Literal["closed", "open", "half_open"]


@dataclass(eq=False, repr=False)
class _Park(Record):
    """A breaker's park: until when an endpoint is skipped, and why."""

    until: float
    reason: str
    skips: int = 0
    probing: bool = False
    prober: object = field(default=None, compare=False, repr=False)  # the call holding the probe


class Cooldowns:
    """A circuit breaker per key (an endpoint, or endpoint#model).

    open: after a fault the key rests until its cooldown ends, or until `max_skips` calls have
    been sent elsewhere (a script's calls come back to back; a fixed wall would hand every later
    call to the floor). half_open: then one call goes through as the probe; its success closes the
    breaker (`success`), its failure opens it again (`park`). Calls meanwhile still skip the key.
    A probe that ends with neither (`settle`) leaves the key half-open for the next call.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_skips: int = 0) -> None:
        self._clock = clock
        self._parks: dict[str, _Park] = {}
        self._strikes: dict[str, int] = {}
        self._lock = threading.Lock()
        self.max_skips = max_skips  # 0: time alone ends the rest

    def park(self, key: str, seconds: float, reason: str) -> None:
        """Open the breaker; re-parking a resting key keeps the later deadline (never shortens it)."""
        if seconds <= 0:
            return
        until = self._clock() + seconds
        with self._lock:
            old = self._parks.get(key)
            if old is None or old.probing or old.until < until:
                self._parks[key] = _Park(until, reason)

    def strike(self, key: str, seconds: float, reason: str, threshold: int) -> bool:
        """Count one more consecutive fault (a 5xx, a stall) against the key; the breaker opens at
        `threshold`, or at once when this call was the half-open probe. True when it opened."""
        with self._lock:
            count = self._strikes.get(key, 0) + 1
            self._strikes[key] = count
            park = self._parks.get(key)
            probing = park is not None and park.probing
        if count >= threshold or probing:
            self.park(key, seconds, reason)
            return True
        return False

    def _resting(self, park: _Park, now: float) -> bool:
        return park.until > now and not (self.max_skips and park.skips >= self.max_skips)

    def active(self, key: str, caller: object = None) -> tuple[str, float] | None:
        """(reason, seconds left) while the key must be skipped; None lets this call through
        (closed, or the one half-open probe, which this call, `caller`, then holds)."""
        now = self._clock()
        with self._lock:
            park = self._parks.get(key)
            if park is None:
                return None
            if park.probing:
                return f"{park.reason}, probe in flight", 0.0
            if self._resting(park, now):
                park.skips += 1
                return park.reason, max(0.0, park.until - now)
            park.probing = True
            park.prober = caller
            return None

    def next_probe(self, key: str) -> str | None:
        """When the resting key is tried again, in the player's words ("in 18 s or after 2 more
        calls", "on the next call"); None when its breaker is closed."""
        now = self._clock()
        with self._lock:
            park = self._parks.get(key)
            if park is None:
                return None
            if park.probing or not self._resting(park, now):
                return "on the next call"
            left = max(0.0, park.until - now)
            calls = self.max_skips - park.skips if self.max_skips else 0
        when = f"in {left:.0f} s"
        return f"{when} or after {calls} more call{'s' if calls > 1 else ''}" if calls else when

    def success(self, key: str) -> None:
        """A call through the key was answered: close its breaker."""
        with self._lock:
            self._parks.pop(key, None)
            self._strikes.pop(key, None)

    def settle(self, key: str, caller: object) -> None:
        """`caller` is done with the key: if it holds the half-open probe and gave it no verdict
        (it neither closed the breaker nor parked the key again: an answer that did not validate,
        a reset, a zero-second rest, a call out of time before it asked, a call parked on the
        model after it took the endpoint's probe), the next call probes again. Without this the
        key stayed "probe in flight" for good, and every later call skipped it."""
        with self._lock:
            park = self._parks.get(key)
            if park is not None and park.probing and park.prober is caller:
                park.probing = False
                park.prober = None

    def release(self, key: str) -> None:
        """The probe ended without a verdict (cancelled, say): the next call probes again."""
        with self._lock:
            park = self._parks.get(key)
            if park is not None:
                park.probing = False

    def clear(self, prefix: str | None = None) -> None:
        """Forget every park (settings changed) or those for one endpoint (a probe answered)."""
        with self._lock:
            if prefix is None:
                self._parks.clear()
                self._strikes.clear()
            else:
                for key in [k for k in self._parks if k == prefix or k.startswith(prefix + "#")]:
                    del self._parks[key]
                self._strikes.pop(prefix, None)

    def state(self, key: str) -> BreakerState:
        now = self._clock()
        with self._lock:
            park = self._parks.get(key)
            if park is None:
                return "closed"
            return "open" if self._resting(park, now) and not park.probing else "half_open"

    def snapshot(self) -> dict[str, dict[str, float | str | int]]:
        now = self._clock()
        with self._lock:
            items = list(self._parks.items())
        return {
            k: {
                "state": ("open" if self._resting(p, now) and not p.probing else "half_open"),
                "reason": p.reason,
                "seconds_left": round(max(0.0, p.until - now), 1),
                "skipped_calls": p.skips,
            }
            for k, p in items
        }


@dataclass(eq=False, repr=False)
class DeploymentCaps(Record):
    """Request shape that works for one (endpoint, model), learned from its error answers."""

    send_temperature: bool = True
    token_param: TokenParam = "max_tokens"
    json_mode: JsonMode = "json_schema"
    stream_usage: bool = True  # send stream_options.include_usage
    # Whether the endpoint holds its output to the schema on the rung in use (None: not probed).
    # An endpoint that accepts a schema and ignores it is "schema advisory": output is validated
    # here either way, with one re-ask.
    schema_enforced: bool | None = None
    # Seconds to the first token this deployment has shown (None: not measured yet), blended over
    # its answers: the first-token limit follows it, so a slow model is not taken for a silent one.
    first_token_s: float | None = None
    # How fast it reads a prompt (estimated tokens a second, `window.prompt_tokens`), from its
    # start-up probe (None: not measured, or too fast to matter): a long brief's first token is
    # expected that much later (`pace.expected`).
    prompt_tokens_per_s: float | None = None
    # Schema shapes (engine.routing.grammar.shape) this deployment was sent as enforced and
    # answered without required fields: sent as the contract's plain schema from then on.
    advisory_shapes: list[str] = field(default_factory=list)


_MEASURED = (
    "first_token_s",
    "prompt_tokens_per_s",
    "advisory_shapes",
)  # learned from answers, not from request shapes


def _caps_from(data: object) -> DeploymentCaps | None:
    if not isinstance(data, dict):
        return None
    caps = DeploymentCaps()
    names = {f.name for f in fields(DeploymentCaps)}
    for key, value in data.items():
        if key not in names:
            continue
        if key == "json_mode" and value not in LADDER:
            return None
        if key == "token_param" and value not in ("max_tokens", "max_completion_tokens"):
            return None
        if key in ("send_temperature", "stream_usage") and not isinstance(value, bool):
            return None
        if key == "schema_enforced" and value is not None and not isinstance(value, bool):
            return None
        if key == "advisory_shapes" and not (
            isinstance(value, list) and all(isinstance(v, str) and len(v) < 200 for v in value)
        ):
            return None
        if (
            key in ("first_token_s", "prompt_tokens_per_s")
            and value is not None
            and (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 0 <= value < 1e5
            )
        ):
            return None
        setattr(caps, key, value)
    return caps


def _key(endpoint: str, model: str) -> tuple[str, str]:
    """A deployment's cache key: the endpoint without user-info, so no password reaches disk."""
    return url_without_userinfo(endpoint), model


class Capabilities:
    """Per-deployment request shape, learned from answers; saved to `cache_path` when given, so the
    next process starts on the rung that worked (`source` says learned now or read from the cache)."""

    def __init__(self, cache_path: Path | None = None) -> None:
        self._deployments: dict[tuple[str, str], DeploymentCaps] = {}
        self._source: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()
        self._path = cache_path
        self._loaded = cache_path is None

    def _load(self) -> None:
        """Read the cache once (on first use); a damaged file is ignored, never fatal."""
        if self._loaded:
            return
        self._loaded = True
        assert self._path is not None
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("capability cache %s unreadable, ignored: %s", self._path, exc)
            return
        if not isinstance(data, dict):
            return
        rewrite = False
        for key, value in data.items():
            endpoint, sep, model = str(key).rpartition("#")
            caps = _caps_from(value)
            if sep and caps is not None:
                self._deployments[_key(endpoint, model)] = caps
                self._source[_key(endpoint, model)] = "cache"
                rewrite = rewrite or _key(endpoint, model)[0] != endpoint
        if rewrite:  # an older cache keyed by a URL with a password in it: rewrite it without
            self._save()

    def _save(self) -> None:
        if self._path is None:
            return
        data = {f"{e}#{m}": asdict(c) for (e, m), c in self._deployments.items()}
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".caps-", suffix=".json", dir=self._path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2, sort_keys=True)
            os.replace(tmp, self._path)
        except OSError as exc:  # a read-only config dir costs the memo, never the call
            log.warning("capability cache %s not written: %s", self._path, exc)

    def for_deployment(
        self, endpoint: str, model: str, default_token: TokenParam
    ) -> DeploymentCaps:
        """A copy of what is known for (endpoint, model); defaults on first sight."""
        with self._lock:
            self._load()
            key = _key(endpoint, model)
            caps = self._deployments.get(key)
            if caps is None:
                caps = DeploymentCaps(token_param=default_token)
                self._deployments[key] = caps
                self._source[key] = "default"
            return DeploymentCaps(**asdict(caps))

    def learn(self, endpoint: str, model: str, caps: DeploymentCaps) -> None:
        with self._lock:
            self._load()
            key = _key(endpoint, model)
            old = self._deployments.get(key)
            # what is measured from answers is not a request shape: keep the newest one
            new = asdict(caps)
            if old is not None:
                new.update({k: v for k, v in asdict(old).items() if k in _MEASURED})
                if asdict(old) == new:
                    return
            self._deployments[key] = DeploymentCaps(**new)
            self._source[key] = "learned"
            self._save()

    def note_first_token(self, endpoint: str, model: str, seconds: float) -> float:
        """Blend one measured time to first token into what (endpoint, model) has shown (kept
        with its request shape, in the cache); returns the new figure."""
        from engine.routing.pace import learned

        with self._lock:
            self._load()
            key = _key(endpoint, model)
            caps = self._deployments.setdefault(key, DeploymentCaps())
            self._source.setdefault(key, "default")
            was = caps.first_token_s
            caps.first_token_s = learned(was, seconds)
            # a cache write only when the figure moves by a tenth or more (not on every answer)
            if was is None or abs(caps.first_token_s - was) >= max(0.5, 0.1 * was):
                self._save()
            return caps.first_token_s

    def note_prompt_rate(self, endpoint: str, model: str, tokens_per_s: float) -> None:
        """Keep how fast (endpoint, model) reads a prompt, as its start-up probe measured it."""
        with self._lock:
            self._load()
            key = _key(endpoint, model)
            caps = self._deployments.setdefault(key, DeploymentCaps())
            self._source.setdefault(key, "default")
            caps.prompt_tokens_per_s = round(tokens_per_s, 1)
            self._save()

    def mark_advisory(self, endpoint: str, model: str, shape: str) -> bool:
        """Remember that (endpoint, model) did not hold a schema of this shape; True if new."""
        from engine.routing.grammar import MAX_ADVISORY_SHAPES

        with self._lock:
            self._load()
            key = _key(endpoint, model)
            caps = self._deployments.setdefault(key, DeploymentCaps())
            if shape in caps.advisory_shapes:
                return False
            caps.advisory_shapes = [*caps.advisory_shapes, shape][-MAX_ADVISORY_SHAPES:]
            self._save()
            return True

    def snapshot(self) -> dict[str, dict[str, object]]:
        with self._lock:
            self._load()
            return {
                f"{e}#{m}": {**asdict(c), "source": self._source.get((e, m), "default")}
                for (e, m), c in self._deployments.items()
            }


def next_json_mode(current: JsonMode) -> JsonMode | None:
    """One rung down the structured-output ladder; None at the bottom (prompt-only)."""
    idx = LADDER.index(current)
    return LADDER[idx + 1] if idx + 1 < len(LADDER) else None
