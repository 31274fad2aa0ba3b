"""The hybrid router: one `call` that tries the configured tiers in order and always answers.

Tiers: replay (recorded text), local and foundry (OpenAI-compatible), simulation (the engine's seeded
worker, the floor). One total deadline per call covers every model attempt, shared between the
endpoints still to try; each failure is labelled and every step down the chain is reported as a
Fallback, so nothing degrades silently.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import threading
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from engine.config import Settings, config_dir, load_settings
from engine.routing import grammar, pace
from engine.routing.deadline import ActionDeadline
from engine.routing.errors import WORDS, Failure, StreamTimeout, classify
from engine.routing.extract import OutputError, parse_artifact
from engine.routing.health import (
    ENFORCING,
    REPAIR_RUNGS,
    Capabilities,
    Cooldowns,
    DeploymentCaps,
    next_json_mode,
)
from engine.routing.prompts import reask_turns, system_prompt
from engine.routing.target import Target
from engine.routing.types import (
    ROLES,
    Attempt,
    CallCancelled,
    Fallback,
    ProbeRow,
    RouteRequest,
    RouteResult,
    StreamEvent,
    Tier,
    Usage,
    brief_trims,
)
from engine.routing.window import PROBE_S as WINDOW_PROBE_S
from engine.routing.window import SAFE_WINDOW, Window, budget, prompt_tokens
from worldforge_azurehttp import in_daemon_thread, token_provider
from worldforge_savedb.records import Record
from worldforge_textkit.json_types import JsonObject

if TYPE_CHECKING:  # the openai SDK loads only when a model tier is configured (start-up speed)
    import asyncio
    import concurrent.futures  # the futures come from asyncio and worldforge_azurehttp

    from engine.routing.openai_tier import Ask, Completion, Limits

log = logging.getLogger("worldforge.routing")

T = TypeVar("T")
MAX_RATE_LIMIT_WAIT = 5.0
LONG_PARK_FACTOR = 10.0  # auth failures and missing models stay parked longer than transient faults
PROBE_TIMEOUT = 5.0
MAX_ADAPTATIONS = 4
MIN_ATTEMPT_BUDGET = 0.05
# The first model tier keeps this share of what is left of the budget (the later tiers the rest),
# rather than an even split: a slow local model is not cut at half the deadline.
FIRST_TIER_FLOOR = 0.7
BREAKER_THRESHOLD = 3  # consecutive 5xx answers (or stalls) from one endpoint open its breaker
BACKOFF_BASE = 0.25  # 5xx / 429-without-Retry-After: base × 2^n seconds, jittered to 50–100 %
BACKOFF_CAP = 2.0
SAME_ENDPOINT_RETRIES = 1  # a reset, a cut or garbled stream: the server is up, ask it again once
DEADLINE_GRACE = 0.02  # the caller waits this past the deadline for the attempts' own labelled end
CANCEL_POLL = 0.02  # how often a call in flight looks at the cancel flag (seconds)
HELD_SLACK = 0.1  # a look this much later than CANCEL_POLL: our own thread was held (`_Watch`)
CAPS_CACHE = "capabilities.json"
# The start-up probe's long prompt (about 1,000 estimated tokens of plain words), whose first token
# against a one-line probe's says how fast the model reads a brief; under READING_MIN_S more, the
# model reads fast enough that a brief's length does not matter.
READING_PROBE = "Read these notes, then say OK.\n" + " ".join(
    f"note {i}: the pilot ward {i % 7} ordered {i % 5 + 1} meals." for i in range(110)
)
READING_MIN_S = 0.2

Watcher = Callable[[StreamEvent], None]


class _Learned(Exception):
    """Ends a watched request once its late first token is learned (`Router._attempt`)."""


@dataclass(eq=False, repr=False)
class _Served(Record):
    """What a tier served for one call: its output, raw text and token counts."""

    tier: Tier
    model: str
    output: JsonObject
    raw_text: str
    tokens_in: int = 0
    tokens_out: int = 0
    first_token_ms: float | None = None
    http_ms: float = 0.0


@dataclass(eq=False, repr=False)
class _Trace(Record):
    """What one call did, gathered as it goes."""

    attempts: list[Attempt] = field(default_factory=list)
    adaptations: list[str] = field(default_factory=list)
    http_ms: float = 0.0  # time spent inside HTTP exchanges (for the router-overhead figure)
    in_flight: Target | None = None  # the target whose attempts have not ended with a verdict
    asked_at: float | None = None  # when the attempt in flight sent its request (None: not yet)
    tokens: int = 0  # pieces the attempt in flight has streamed

    def cut(self) -> Failure:
        """The verdict on the attempt in flight when the caller's hard wait ends it at the deadline:
        what its own clock says there (silent before a first token, out of time once it streams or
        while its request waits on its key), so which of the two clocks a loaded machine runs first
        never changes the label. It parks the endpoint either way (`_bounded`)."""
        if self.in_flight is not None and self.asked_at is not None and not self.tokens:
            waited = time.perf_counter() - self.asked_at
            return Failure("silent", f"no first token in {waited:.1f} s", cooldown="endpoint")
        after = f" after {self.tokens} tokens" if self.tokens else ""
        return Failure("timeout", f"the call's deadline ran out{after}", cooldown="endpoint")

    def add(
        self, tier: Tier, target: Target | None, outcome: str, error: str | None, started: float
    ) -> None:
        self.attempts.append(
            Attempt(
                tier=tier,
                endpoint=target.endpoint if target else None,
                model=target.model if target else None,
                outcome=outcome,  # type: ignore[arg-type]
                error=error,
                ms=round((time.perf_counter() - started) * 1000, 2),
            )
        )


_loop_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None  # the router's event loop, started on first use
_loop_pid = 0


def _model_loop() -> asyncio.AbstractEventLoop:
    """The process's router loop, running in a daemon thread: model clients live on it and keep
    their connections between calls, and no loop is built and torn down per call. A forked child
    (balance workers) starts its own. asyncio loads here: the simulation tier never pays for it."""
    import asyncio
    import os

    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="wf-router-loop", daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop


def asyncio_submit(coro: Coroutine[object, object, T]) -> concurrent.futures.Future[T]:
    """Start a coroutine on the router loop; the caller waits on the future as long as it may."""
    import asyncio

    return asyncio.run_coroutine_threadsafe(coro, _model_loop())


def _run_sync(coro: Coroutine[object, object, T]) -> T:
    """Run a coroutine on the router loop and wait for it (from any thread, even one running a
    loop of its own)."""
    return asyncio_submit(coro).result()


_warming = threading.Event()  # set once a warm-up has started in this process
_warm_lock = threading.Lock()
_ready: concurrent.futures.Future[None] | None = None  # done once the model tier is imported


def _load_model_tier() -> None:
    """Import the OpenAI-compatible tier (openai, httpx: up to a second on a slow machine) and
    build its shared TLS context (the CA bundle load), so the first model call pays neither."""
    from engine.routing.openai_tier import preload

    preload()


def model_tier_ready() -> concurrent.futures.Future[None]:
    """The import of the model tier, started once per process on a daemon thread: a call awaits
    it inside its own deadline and never imports on its own (or the loop's) thread."""
    global _ready
    with _warm_lock:
        if _ready is None:
            _warming.set()  # a call that gives up waiting cannot cancel it (in_daemon_thread)
            _ready = in_daemon_thread(_load_model_tier, "wf-router-warm")
        return _ready


def _warm_model_tier(settings: Settings) -> None:
    """When the settings can reach a model, load its client code in the background meanwhile."""
    if settings.runtime_label() != "simulation" and not _warming.is_set():
        model_tier_ready()


def _jitter(base: float) -> float:
    return base * random.uniform(0.5, 1.0)


async def _sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


def _note_repairs(
    req: RouteRequest,
    target: Target,
    caps: DeploymentCaps,
    comp: Completion,
    steps: list[str],
    trace: _Trace,
) -> None:
    """A served answer's repairs, in the trace and the log: garbled events skipped, values
    clamped, JSON repaired."""
    if comp.skipped_events:
        trace.adaptations.append(f"skipped_events:{comp.skipped_events}")
        log.info(
            "%s %s: skipped %d garbled stream events, answer complete",
            target.tier,
            target.endpoint,
            comp.skipped_events,
        )
    trace.adaptations.extend(s for s in steps if s.startswith(("clamped:", "json_repaired")))
    for step in steps:
        if step.startswith("json_repaired"):
            log.info(
                "json repaired for %s on %s#%s (%s rung): %s",
                req.call_key,
                target.endpoint,
                target.model,
                caps.json_mode,
                step,
            )


@dataclass(eq=False, repr=False)
class _Watch(Record):
    """One attempt's first-token verdict (`Router._attempt`): its clocks, when the request went
    out, whether the response and a first token came, and whether the call moved on without it.

    The wait is the server's time, not ours: the watch looks every CANCEL_POLL, and a look that
    comes HELD_SLACK or more late means the router's own thread was held (a busy CPU, a long
    parse holding the GIL, a blocked callback; the request may not even have left). That pause
    is not counted as the server's silence, nor learned as its slowness."""

    clocks: pace.FirstToken | None
    asked_at: float | None = None
    answered: bool = False
    first: bool = False
    detached: bool = False
    looked_at: float | None = None  # the last look (perf_counter)
    held_s: float = 0.0  # our own thread's pauses since the request went out
    first_s: float | None = None  # the server's time to the first token (`waited` then)

    def waited(self) -> float | None:
        """Seconds of the server's time since the request went out (None: not sent yet)."""
        if self.asked_at is None:
            return None
        return max(0.0, time.perf_counter() - self.asked_at - self.held_s)

    def look(self) -> None:
        """One look at the clock: a late one adds our own pause to `held_s`."""
        now = time.perf_counter()
        if self.asked_at is not None:
            gap = now - max(self.looked_at or self.asked_at, self.asked_at)
            if gap >= CANCEL_POLL + HELD_SLACK:
                self.held_s += gap - CANCEL_POLL
        self.looked_at = now

    def timed(self, comp: Completion) -> Completion:
        """The answer with the server's time to its first token, our own pauses left out: what
        is learned and labelled (the client's clock also counts the key, the client, our stalls)."""
        if self.first_s is not None and comp.first_token_ms is not None:
            comp.first_token_ms = round(min(comp.first_token_ms, self.first_s * 1000), 2)
        return comp

    def silent_for(self) -> float | None:
        """Seconds waited, once the verdict is due and no token came (else None)."""
        self.look()
        waited = self.waited()
        if self.clocks is None or waited is None or self.first:
            return None
        due = self.clocks.token if self.answered else self.clocks.headers
        return waited if waited >= due else None


@dataclass(eq=False, repr=False)
class _Tries(Record):
    """What one call may still spend on one target: retries after a 5xx, same-endpoint retries,
    adaptations, backoffs so far, and whether a rate limit was already waited out."""

    retries_left: int
    same_left: int = SAME_ENDPOINT_RETRIES
    adaptations: int = 0
    backoffs: int = 0
    waited: bool = False


class Router:
    """Routes worker calls across replay, local, foundry and the simulation floor."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        replay: Mapping[str, str] | None = None,
        token_provider: Callable[[], str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        caps_cache: Path | bool | None = True,
    ) -> None:
        self._settings = settings if settings is not None else load_settings()
        self._replay = dict(replay) if replay is not None else None
        self._token_provider = token_provider
        self._azure_providers: dict[str, Callable[[], str]] = {}
        self._clock = clock
        self._cooldowns = Cooldowns(clock, max_skips=self._settings.agent_breaker_skips)
        cache = (config_dir() / CAPS_CACHE) if caps_cache is True else (caps_cache or None)
        self._caps = Capabilities(cache if isinstance(cache, Path) else None)
        self._watchers: list[Watcher] = []
        self._cancel = threading.Event()
        self._action: ActionDeadline | None = None  # the player's action in progress (acting)
        self._shadows: set[asyncio.Task[Completion]] = set()  # attempts watched past their verdict
        self._shadows_lock = threading.Lock()  # added on the loop, cancelled from any thread
        self._lock = threading.Lock()
        self._last: RouteResult | None = None
        self._served_counts: dict[str, int] = {}
        self._windows: dict[str, Window | None] = {}  # local model -> its context window
        # endpoint -> its start-up probe in flight (on the router loop): a call gives way to it
        self._probing: dict[str, asyncio.Task[list[JsonObject]]] = {}
        _warm_model_tier(self._settings)

    # ---- configuration ------------------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        return self._settings

    def update_settings(self, settings: Settings) -> None:
        """Swap settings for the next call; parks are forgotten, since they belonged to the old set."""
        with self._lock:
            self._settings = settings
            self._cooldowns.clear()
            self._cooldowns.max_skips = settings.agent_breaker_skips
            _warm_model_tier(settings)
            self._azure_providers.clear()
            self._windows.clear()
            self._last = None

    def watch(self, watcher: Watcher) -> Callable[[], None]:
        """Call `watcher` (on the calling thread) with each StreamEvent; returns an unwatch."""
        self._watchers.append(watcher)
        return lambda: self._watchers.remove(watcher) if watcher in self._watchers else None

    def cancel(self) -> None:
        """Cancel the call in flight (from any thread): it raises CallCancelled, or serves the
        floor labelled "cancelled" when its request says so. Inside an action (`acting`) the whole
        action is cancelled: its later calls are cancelled before they start. Requests still
        watched to learn a late first token end too."""
        action = self._action
        if action is not None:
            action.cancel()
        self._cancel.set()
        with self._shadows_lock:
            watched = list(self._shadows)
        for task in watched:
            task.get_loop().call_soon_threadsafe(task.cancel)

    @contextlib.contextmanager
    def acting(self, action: ActionDeadline) -> Iterator[ActionDeadline]:
        """Every call made inside this block shares `action`'s deadline and its cancel
        (engine.routing.deadline: one deadline per player action)."""
        self._action = action
        self._cancel.clear()
        try:
            yield action
        finally:
            self._action = None
            self._cancel.clear()

    def _emit(self, event: StreamEvent) -> None:
        for watcher in list(self._watchers):
            try:
                watcher(event)
            except Exception:  # a broken display never breaks a call
                log.exception("stream watcher failed")

    def runtime_label(self) -> str:
        """simulation | local | live | hybrid from the settings ("replay" when serving a recording)."""
        if self._replay is not None:
            return "replay"
        return self._settings.runtime_label()

    def _foundry_auth(self, settings: Settings) -> tuple[str | None, Callable[[], str] | None]:
        if settings.foundry_api_key is not None:
            return settings.foundry_api_key.get_secret_value(), None
        if self._token_provider is not None:
            return None, self._token_provider
        scope = settings.token_scope()
        provider = self._azure_providers.get(scope)
        if provider is None:
            provider = token_provider(scope)
            self._azure_providers[scope] = provider
        return None, provider

    def plan(self, role: str, settings: Settings | None = None) -> list[Target]:
        """Model targets for a role in the order the routing mode tries them (empty: simulation).
        Each tier names its models once (the role's, then the tier's general one as its fallback
        model: LOCAL_AGENT_MODEL, FOUNDRY_FALLBACK_MODEL), then its larger-context model (`_chain`)."""
        s = settings or self._settings
        local: list[Target] = []
        cloud: list[Target] = []
        model = s.local_model_for(role)
        if s.local_ready() and s.local_agent_base_url and model:
            key = s.local_agent_api_key.get_secret_value() if s.local_agent_api_key else None
            base = Target("local", s.local_agent_base_url, model, api_key=key)
            # the role's model, then the general local model as its fallback on the same server
            local = _chain(base, [model, s.local_agent_model], s.local_large_context_model)
        url = s.foundry_openai_url()
        if s.cloud_ready() and url:
            api_key, provider = self._foundry_auth(s)
            base = Target(
                "foundry",
                url,
                "",
                api_key=api_key,
                token_provider=provider,
                default_token_param="max_completion_tokens",
            )
            models = [s.cloud_model_for(role), s.foundry_fallback_model]
            cloud = _chain(base, models, s.foundry_large_context_model)
        return cloud + local if s.agent_routing == "cloud_first" else local + cloud

    # ---- the call -----------------------------------------------------------------------------

    def call(self, req: RouteRequest, simulate: Callable[[], JsonObject]) -> RouteResult:
        """Serve one structured call; model faults fall through to the simulation floor, labelled.
        `simulate` gives the floor's answer as JSON: the engine's own, so it is not validated."""
        with self._lock:
            settings = self._settings
        started = time.perf_counter()
        # The deadline starts here, before planning, the loop and the model tier's imports.
        deadline = time.monotonic() + settings.agent_request_timeout
        action = self._action
        if action is None:
            self._cancel.clear()
        else:  # the player's action: its deadline and its cancel hold for each of its calls
            deadline = action.cut(deadline)
        trace = _Trace()
        failures: list[tuple[Tier, str]] = []
        served: _Served | None = None
        if self._replay is not None:
            served = self._serve_replay(req, trace, failures)
        else:
            targets = self.plan(req.role, settings)
            if targets:
                try:
                    if action is not None and action.is_cancelled():  # before this call began
                        raise CallCancelled(
                            f"the {req.role} call was cancelled: nothing was recorded"
                        )
                    served = self._bounded(
                        self._serve_models(req, targets, settings, trace, failures, deadline),
                        deadline,
                        targets,
                        trace,
                        failures,
                        settings,
                    )
                except CallCancelled:
                    self._emit(
                        StreamEvent(
                            "end",
                            req.call_key,
                            req.role,
                            "simulation",
                            "cancelled",
                            at=time.perf_counter(),
                        )
                    )
                    if req.on_cancel == "raise":
                        raise
                    failures.append(
                        (
                            failures[-1][0] if failures else targets[0].tier,
                            "cancelled (by the player)",
                        )
                    )
        if served is None:
            output = simulate()
            if not isinstance(output, dict):
                raise TypeError(f"simulate() returned {type(output).__name__}, expected a dict")
            served = _Served("simulation", "simulation", output, "")
        result = RouteResult(
            output=served.output,
            raw_text=served.raw_text if served.tier != "simulation" else None,
            served_by=served.tier,
            model=served.model,
            fallback_reason=(f"{failures[0][0]}: {failures[0][1]}" if failures else None),
            attempts=trace.attempts,
            usage=Usage(
                tokens_in=served.tokens_in,
                tokens_out=served.tokens_out,
                latency_ms=round((time.perf_counter() - started) * 1000, 2),
                first_token_ms=(
                    round(served.first_token_ms, 2) if served.first_token_ms is not None else None
                ),
                http_ms=round(trace.http_ms, 3),
            ),
            fallbacks=_fallbacks(failures, served.tier),
            adaptations=trace.adaptations,
        )
        if self._watchers and result.attempts and served.tier != "replay":
            # a model was asked: watchers see who served in the end (the floor's text as JSON)
            text = (
                served.raw_text
                if served.tier != "simulation"
                else json.dumps(served.output, ensure_ascii=False, separators=(",", ":"))
            )
            self._emit(
                StreamEvent(
                    "end",
                    req.call_key,
                    req.role,
                    served.tier,
                    served.model,
                    text,
                    served.tokens_out,
                    (time.perf_counter() - started),
                    served.first_token_ms,
                    at=time.perf_counter(),
                )
            )
        with self._lock:
            self._last = result
            self._served_counts[served.tier] = self._served_counts.get(served.tier, 0) + 1
        return result

    def _serve_replay(
        self, req: RouteRequest, trace: _Trace, failures: list[tuple[Tier, str]]
    ) -> _Served | None:
        assert self._replay is not None
        started = time.perf_counter()
        text = self._replay.get(req.call_key)
        if text is None:
            trace.add("replay", None, "skipped", "replay_missing", started)
            failures.append(("replay", f"replay_missing ({req.call_key})"))
            return None
        try:
            ext = parse_artifact(text, req.contract())
        except OutputError as exc:
            trace.add("replay", None, "invalid", str(exc), started)
            failures.append(("replay", f"replay_invalid ({exc.label})"))
            return None
        trace.add("replay", None, "ok", None, started)
        return _Served("replay", "replay", ext.output, text)

    def _bounded(
        self,
        coro: Coroutine[object, object, _Served | None],
        deadline: float,
        targets: list[Target],
        trace: _Trace,
        failures: list[tuple[Tier, str]],
        settings: Settings,
    ) -> _Served | None:
        """Run the model attempts on the router loop, and wait for them no longer than the
        deadline: whatever holds them (an import, a blocked loop, a hung token provider), the
        caller gets the floor on time. What the attempts recorded so far is kept.

        The endpoint an attempt was still waiting on gets the verdict the attempt would have given
        it (`_Trace.cut`: silent, or out of time; its breaker opens), here, before the caller moves
        on: the cancelled attempt records nothing, so a half-open probe given up on this way stayed
        "probe in flight" for good (every later call skipped the endpoint), and a first call left
        it closed."""
        fut = asyncio_submit(coro)
        try:
            return fut.result(timeout=max(0.0, deadline - time.monotonic()) + DEADLINE_GRACE)
        except TimeoutError:  # concurrent.futures.TimeoutError is this builtin since 3.11
            fut.cancel()
            loading = _ready is not None and not _ready.done()  # the attempts never began
            cut = (
                Failure("timeout", "the model client was still loading") if loading else trace.cut()
            )
            if trace.in_flight is not None:
                self._park(trace.in_flight, cut, settings)
            tier = failures[-1][0] if failures else targets[0].tier
            if not failures or not failures[-1][1].startswith(("out of time", "silent")):
                failures.append((tier, cut.reason))
            trace.attempts.append(
                Attempt(tier=tier, outcome="error", error=f"{cut.words}: {cut.detail}")
            )
            return None

    async def _serve_models(
        self,
        req: RouteRequest,
        targets: list[Target],
        settings: Settings,
        trace: _Trace,
        failures: list[tuple[Tier, str]],
        deadline: float,
    ) -> _Served | None:
        import asyncio

        ready = model_tier_ready()
        if not ready.done():  # the first call of a process: the import counts against its deadline
            started = time.perf_counter()
            try:
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    await asyncio.shield(asyncio.wrap_future(ready))
            except TimeoutError:
                trace.add(targets[0].tier, targets[0], "error", "out of time", started)
                failures.append(
                    (targets[0].tier, "out of time (the model client was still loading)")
                )
                return None
        schema, system = system_prompt(req)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": req.user}]
        overflowed: set[str] = set()
        silenced: set[str] = set()  # endpoints that went silent in this call
        for index, target in enumerate(targets):
            if target.overflow and target.tier not in overflowed:
                continue  # the larger-context model is only for a prompt another one refused
            try:
                started = time.perf_counter()
                parked = self._cooldowns.active(target.endpoint, trace) or self._cooldowns.active(
                    target.model_key, trace
                )
                if parked and target.endpoint in silenced and parked[0] == "silent":
                    parked = self._cooldowns.active(target.model_key, trace)  # its own turn
                if parked:
                    reason, _left = parked
                    words = WORDS.get(reason, reason.replace("_", " "))
                    when = self._cooldowns.next_probe(
                        target.endpoint
                    ) or self._cooldowns.next_probe(target.model_key)
                    trace.add(
                        target.tier,
                        target,
                        "parked",
                        f"breaker open ({words}; next probe {when})",
                        started,
                    )
                    failures.append((target.tier, f"breaker open ({words})"))
                    continue
                if deadline - time.monotonic() <= MIN_ATTEMPT_BUDGET:
                    trace.add(target.tier, target, "skipped", "out of time", started)
                    failures.append((target.tier, "out of time (nothing left of the deadline)"))
                    continue
                share, has_next = self._share(targets, index, deadline, overflowed)
                # set until the attempts on this target end with a verdict: a cancelled attempt
                # (the caller's hard wait gave up on it) leaves it for `_bounded` to give one
                trace.in_flight = target
                sized = await self._sized(req, target, settings, messages, trace, deadline)
                outcome = (
                    sized
                    if isinstance(sized, Failure)
                    else await self._serve_target(
                        sized[0], target, settings, sized[1], schema, share, has_next, trace
                    )
                )
                trace.in_flight = None
                if isinstance(outcome, _Served):
                    return outcome
                failures.append((target.tier, outcome.reason))
                if outcome.label == "silent":
                    # silent in this call: the server rests, but another model on it (Ollama, LM
                    # Studio keep several) is still asked once now, as the next tier would be
                    silenced.add(target.endpoint)
                if outcome.label == "context_window":
                    overflowed.add(target.tier)
                if outcome.final:
                    break  # a content-filter refusal stands: no other model routes round it
            finally:  # a probe this call took ends with a verdict, or the next call takes it
                self._cooldowns.settle(target.endpoint, trace)
                self._cooldowns.settle(target.model_key, trace)
        return None

    def _share(
        self, targets: list[Target], index: int, deadline: float, overflowed: set[str]
    ) -> tuple[float, bool]:
        """This target's slice of the call budget and whether another model could answer after
        it. The first tier keeps FIRST_TIER_FLOOR of what is left; the last takes all of it."""
        target = targets[index]
        later = {
            t.model_key
            for t in targets[index + 1 :]
            if t.model_key != target.model_key  # another model, on this server or another
            and (not t.overflow or t.tier in overflowed)
            and self._cooldowns.state(t.endpoint) != "open"
            and self._cooldowns.state(t.model_key) != "open"
        }
        now = time.monotonic()
        if not later:
            return deadline, False
        return now + (deadline - now) * FIRST_TIER_FLOOR, True

    async def _attempt(
        self,
        req: RouteRequest,
        target: Target,
        ask: Ask,
        caps: DeploymentCaps,
        limits: Limits,
        trace: _Trace,
        clocks: pace.FirstToken | None = None,
    ) -> Completion:
        """One streamed attempt; watchers see the text grow; Esc (cancel) ends it at once.
        The trace notes when the request went out and how many pieces arrived (for an honest
        label if the attempt fails, or the caller's hard wait cuts it).

        `clocks` give the first-token verdict: no response by `headers`, or no token by `token`
        (from the send), is silent and the call moves on; the request itself is watched on, to
        its own deadline, and if a first token comes it is learned (the model is slow, not
        silent: its park is lifted and its next limit follows) and the request is closed."""
        import asyncio

        from engine.routing.openai_tier import chat

        t0 = time.perf_counter()
        watching = bool(self._watchers)
        text = ""
        pieces = 0
        first_ms: float | None = None
        watch = _Watch(clocks)

        def on_headers() -> None:
            watch.answered = True

        def on_first() -> None:
            watch.first = True
            if watch.detached:
                self._learn_late(target, watch.waited() or 0.0)
                raise _Learned  # closes the request: its answer goes to no one
            watch.look()  # the watch is polling: a late look is our own pause
            watch.first_s = watch.waited()

        def on_delta(piece: str) -> None:
            nonlocal text, pieces, first_ms
            if watch.detached:
                return
            pieces += 1
            trace.tokens = pieces
            now = time.perf_counter()
            if first_ms is None:
                first_ms = (now - t0) * 1000
            if watching:
                text += piece
                self._emit(
                    StreamEvent(
                        "delta",
                        req.call_key,
                        req.role,
                        target.tier,
                        target.model,
                        text,
                        pieces,
                        now - t0,
                        first_ms,
                        at=now,
                    )
                )

        if watching:
            self._emit(
                StreamEvent("start", req.call_key, req.role, target.tier, target.model, at=t0)
            )

        def on_sent() -> None:
            watch.asked_at = trace.asked_at = time.perf_counter()

        self._probe_gives_way(target)
        task = asyncio.ensure_future(
            chat(
                target,
                ask,
                caps=caps,
                limits=limits,
                on_delta=on_delta,
                on_sent=on_sent,
                on_first=on_first,
                on_headers=on_headers,
            )
        )
        try:
            while not task.done():
                if self._cancel.is_set():
                    task.cancel()
                    raise CallCancelled(f"the {req.role} call was cancelled: nothing was recorded")
                waited = watch.silent_for()
                if waited is not None:
                    if await self._loading(target, caps, limits):
                        watch.clocks = None  # the model's own loading time: the budget's limit
                        continue
                    watch.detached = True
                    self._watch_on(task)
                    raise StreamTimeout("silent", 0, waited)
                await asyncio.wait({task}, timeout=CANCEL_POLL)
            return watch.timed(task.result())
        finally:
            if not task.done() and not watch.detached:
                task.cancel()
                with contextlib.suppress(BaseException):  # the cancelled attempt's own end
                    await task

    async def _sized(
        self,
        req: RouteRequest,
        target: Target,
        settings: Settings,
        messages: list[dict[str, str]],
        trace: _Trace,
        deadline: float,
    ) -> tuple[RouteRequest, list[dict[str, str]]] | Failure:
        """The request and its messages as they fit a local model's context window (the brief's
        least important recalled lines left out where it must, then its answer cap lowered to
        fit), or, where even then the prompt leaves no room for an answer, the reason it is not
        sent. The window is looked up once per model (for a request that any window might not
        hold), in at most a tenth of what is left of the budget."""
        prompt = prompt_tokens(messages)
        if target.tier != "local" or prompt + req.max_output_tokens <= SAFE_WINDOW:
            return req, messages
        if target.model_key not in self._windows:
            from engine.routing.openai_tier import window_of

            self._windows[target.model_key] = await window_of(
                target,
                settings.local_context_window,
                min(WINDOW_PROBE_S, 0.1 * max(0.0, deadline - time.monotonic())),
            )
        window = self._windows[target.model_key]
        if window is None:
            return req, messages
        budgeted = budget(window, target.model, messages, req.recalled, req.max_output_tokens)
        got, messages = budgeted.fit, budgeted.messages
        if budgeted.dropped and got.refused is None:
            trace.adaptations.append(f"brief_trimmed:{budgeted.dropped}:{window.tokens}")
            log.info(
                "%s %s#%s: %d recalled lines of the brief left out to fit its %s-token window",
                target.tier,
                target.endpoint,
                target.model,
                budgeted.dropped,
                f"{window.tokens:,}",
            )
        if got.refused is not None:
            trace.add(
                target.tier,
                target,
                "skipped",
                f"context_window: {got.refused}",
                time.perf_counter(),
            )
            log.warning("%s %s: %s", target.tier, target.endpoint, got.refused)
            return Failure("context_window", got.refused)
        if got.capped:
            trace.adaptations.append(f"max_tokens_fit:{got.max_tokens}")
            return replace(req, max_output_tokens=got.max_tokens), messages
        return req, messages

    def _not_held(
        self, target: Target, caps: DeploymentCaps, shape: str, exc: OutputError, trace: _Trace
    ) -> bool:
        """An answer without required fields under a schema the server was to hold: that shape
        is advisory there (remembered), and sent as the contract's plain schema. True if so."""
        if not exc.missing or caps.json_mode not in ENFORCING:
            return False
        self._caps.mark_advisory(target.endpoint, target.model, shape)
        trace.adaptations.append(f"schema_advisory:{shape}")
        log.info(
            "%s %s#%s answered %s without required fields under %s: that shape is advisory "
            "there, sent as the contract's plain schema from now on",
            target.tier,
            target.endpoint,
            target.model,
            shape,
            caps.json_mode,
        )
        return True

    @staticmethod
    def _schema_for(
        req: RouteRequest, target: Target, schema: JsonObject, plain: bool
    ) -> JsonObject:
        """The schema a request carries: on a local server, without what its grammar cannot
        carry (`grammar.carried`); for a shape it did not hold, the contract's plain schema.
        The system prompt states the whole schema either way, and the gate judges it."""
        from engine.routing.prompts import schema_block

        if plain:
            schema = schema_block(req.contract())[0]
        return grammar.carried(schema) if target.tier == "local" else schema

    async def _loading(self, target: Target, caps: DeploymentCaps, limits: Limits) -> bool:
        """At a first call's silence (nothing learned of the model yet), whether its server says
        the model is still loading: then the call waits for it within its budget."""
        if target.tier != "local" or caps.first_token_s is not None:
            return False
        from engine.routing.openai_tier import model_loading

        left = (limits.ends_at or time.monotonic()) - time.monotonic()
        loading = await model_loading(target, min(WINDOW_PROBE_S, 0.1 * max(0.0, left)))
        if loading:
            log.info(
                "%s %s#%s is loading its model: the call waits for it within its budget",
                target.tier,
                target.endpoint,
                target.model,
            )
        return loading

    def _watch_on(self, task: asyncio.Task[Completion]) -> None:
        """Keep a request the call gave up on running to its own deadline, to learn whether the
        model was slow or silent; Esc (`cancel`) and its deadline end it."""
        with self._shadows_lock:
            self._shadows.add(task)

        def done(t: asyncio.Task[Completion]) -> None:
            with self._shadows_lock:
                self._shadows.discard(t)
            if not t.cancelled():
                t.exception()  # retrieved: a silent model's timeout is the expected end

        task.add_done_callback(done)

    def _learn_late(self, target: Target, seconds: float) -> None:
        """A first token came after the call moved on: the model is slow, not silent. Its time is
        kept with its capabilities (its next limit follows) and its rest is lifted."""
        figure = self._caps.note_first_token(target.endpoint, target.model, seconds)
        self._cooldowns.success(target.endpoint)
        log.info(
            "%s %s#%s is slow, not silent: first token in %.1f s (limit now %.1f s)",
            target.tier,
            target.endpoint,
            target.model,
            seconds,
            pace.SLOW_MARGIN * figure,
        )

    async def _serve_target(
        self,
        req: RouteRequest,
        target: Target,
        settings: Settings,
        messages: list[dict[str, str]],
        schema: JsonObject,
        deadline: float,
        has_next: bool,
        trace: _Trace,
    ) -> _Served | Failure:
        """Attempts on one target, by fault class: adaptations (the request shape changes); one
        retry on the same endpoint for a reset, a cut or garbled stream (it stays open); 429 waits
        out a short Retry-After or backs off once; 5xx backs off with jitter (≤ AGENT_MAX_RETRIES)
        and counts toward the breaker; a 400 is never resent unchanged; one re-ask for output
        that does not validate. Time to first token is limited when another model could answer."""
        from engine.routing.openai_tier import Ask, Limits

        caps = self._caps.for_deployment(target.endpoint, target.model, target.default_token_param)
        convo = list(messages)
        tries = _Tries(settings.agent_max_retries)
        reasked = False
        judged = False  # the adherence re-ask is spent (once per call, beside the schema's)
        shape = grammar.shape(req.contract().__name__, grammar.carried(schema))
        plain = shape in caps.advisory_shapes  # this shape was not held here: the plain schema
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= MIN_ATTEMPT_BUDGET:
                return Failure("timeout", "nothing left of the deadline")
            # the attempt's clocks run to the deadline; the router gives the first-token verdict
            # by what the deployment has shown (`pace`) and watches past it to learn (`_attempt`)
            known = pace.expected(
                caps.first_token_s, caps.prompt_tokens_per_s, prompt_tokens(convo)
            )
            clocks = pace.first_token(
                settings.agent_first_token_timeout, known, remaining, has_next
            )
            limits = Limits(
                total=remaining,
                first_token=remaining,
                idle=min(settings.agent_stream_idle_timeout, remaining),
                max_bytes=settings.agent_max_answer_bytes,
                ends_at=deadline,
            )
            started = time.perf_counter()
            trace.asked_at, trace.tokens = None, 0
            try:
                ask = Ask(
                    convo,
                    req.contract().__name__,
                    self._schema_for(req, target, schema, plain),
                    req.max_output_tokens,
                    settings.agent_temperature,
                )
                comp: Completion = await self._attempt(
                    req, target, ask, caps, limits, trace, clocks
                )
            except CallCancelled:
                self._cooldowns.release(target.endpoint)
                self._cooldowns.release(target.model_key)
                trace.add(target.tier, target, "error", "cancelled", started)
                raise
            except Exception as exc:  # every fault is classified; none escapes the floor
                trace.http_ms += (time.perf_counter() - started) * 1000
                failure = classify(exc)
                if failure.label == "timeout" and trace.tokens:
                    failure = Failure(
                        "timeout", f"the call's deadline ran out after {trace.tokens} tokens"
                    )
                if failure.label == "internal_error":
                    log.exception("router internal error on %s %s", target.tier, target.endpoint)
                trace.add(
                    target.tier, target, "error", f"{failure.label}: {failure.detail}", started
                )
                if failure.cooldown != "endpoint" and not failure.breaker:
                    self._cooldowns.success(target.endpoint)  # the endpoint answered
                if await self._again(failure, target, caps, settings, deadline, tries, trace):
                    continue
                return failure
            trace.http_ms += comp.total_ms
            self._cooldowns.success(target.endpoint)
            if comp.first_token_ms is not None:
                self._caps.note_first_token(
                    target.endpoint, target.model, comp.first_token_ms / 1000
                )
            try:
                extraction = parse_artifact(
                    comp.text,
                    req.contract(),
                    finish_reason=comp.finish_reason,
                    clamp=reasked,
                    repair=caps.json_mode in REPAIR_RUNGS,
                )
            except OutputError as exc:
                if comp.skipped_events and tries.same_left > 0:
                    # garbled events were skipped and what is left does not parse: ask again
                    tries.same_left -= 1
                    trace.add(
                        target.tier,
                        target,
                        "invalid",
                        f"garbled stream: {comp.skipped_events} events unreadable ({exc})",
                        started,
                    )
                    continue
                trace.add(target.tier, target, "invalid", str(exc), started)
                plain = plain or self._not_held(target, caps, shape, exc, trace)
                if not reasked:
                    reasked = True
                    convo = convo + reask_turns(comp.text, exc)
                    continue
                return Failure("invalid_output", str(exc))
            broken = req.judge(extraction.output) if req.judge is not None and not judged else None
            if broken:  # valid, but against a binding direction: one re-ask naming it
                judged = True
                trace.add(target.tier, target, "invalid", f"drift: {broken}", started)
                convo = convo + reask_turns(comp.text, broken)
                continue
            trace.add(target.tier, target, "ok", None, started)
            if pace.is_slow(comp.first_token_ms, settings.agent_first_token_timeout):
                assert comp.first_token_ms is not None
                trace.adaptations.append(f"slow:{comp.first_token_ms / 1000:.1f}s")
            _note_repairs(req, target, caps, comp, extraction.steps, trace)
            self._cooldowns.success(target.model_key)
            return _Served(
                target.tier,
                target.model,
                extraction.output,
                comp.text or "",
                comp.tokens_in,
                comp.tokens_out,
                comp.first_token_ms,
                comp.total_ms,
            )

    async def _again(
        self,
        failure: Failure,
        target: Target,
        caps: DeploymentCaps,
        settings: Settings,
        deadline: float,
        tries: _Tries,
        trace: _Trace,
    ) -> bool:
        """After a failed attempt, by fault class: True to try this target again (an adaptation,
        one same-endpoint retry, a rate limit waited out, a 5xx backed off), False to give up
        on it (parked, or its breaker just opened)."""
        if failure.adapt and tries.adaptations < MAX_ADAPTATIONS:
            label = self._adapt(target, caps, failure)
            if label is not None:
                tries.adaptations += 1
                trace.adaptations.append(label)
                return True
        if failure.same_endpoint and tries.same_left > 0:
            tries.same_left -= 1
            log.info("retrying %s %s once after %s", target.tier, target.endpoint, failure.label)
            return True
        if failure.label == "rate_limited":
            return await self._wait_out(failure, target, settings, deadline, tries)
        if failure.breaker:
            opened = self._cooldowns.strike(
                target.endpoint, settings.agent_cooldown_seconds, failure.label, BREAKER_THRESHOLD
            )
            if opened:
                log.warning("breaker open on %s after %s", target.endpoint, failure.label)
                return False
        if failure.retryable and tries.retries_left > 0:
            pause = (
                min(failure.retry_after, BACKOFF_CAP)
                if failure.retry_after is not None
                else _jitter(min(BACKOFF_CAP, BACKOFF_BASE * 2**tries.backoffs))
            )
            if pause <= deadline - time.monotonic() - MIN_ATTEMPT_BUDGET:
                tries.retries_left -= 1
                tries.backoffs += 1
                await _sleep(pause)
                return True
        self._park(target, failure, settings)
        return False

    async def _wait_out(
        self, failure: Failure, target: Target, settings: Settings, deadline: float, tries: _Tries
    ) -> bool:
        """A 429: wait out a short Retry-After (or back off) once, else park the model."""
        ra = failure.retry_after
        budget = deadline - time.monotonic() - MIN_ATTEMPT_BUDGET
        if ra is not None:
            if not tries.waited and ra <= min(MAX_RATE_LIMIT_WAIT, budget):
                tries.waited = True
                await _sleep(ra)  # the header says when: honour it, once
                return True
            self._park(target, failure, settings, seconds=ra)
            return False
        pause = _jitter(BACKOFF_BASE * 2)
        if not tries.waited and pause <= budget:
            tries.waited = True
            await _sleep(pause)
            return True
        self._park(target, failure, settings)
        return False

    def _adapt(self, target: Target, caps: DeploymentCaps, failure: Failure) -> str | None:
        """Apply and remember the fix an error answer asked for; None when nothing is left to change."""
        label: str | None = None
        if failure.adapt == "temperature" and caps.send_temperature:
            caps.send_temperature = False
            label = "temperature_dropped"
        elif failure.adapt == "token_param":
            caps.token_param = (
                "max_tokens"
                if caps.token_param == "max_completion_tokens"
                else "max_completion_tokens"
            )
            label = f"token_param:{caps.token_param}"
        elif failure.adapt == "response_format":
            nxt = next_json_mode(caps.json_mode)
            if nxt is not None:
                caps.json_mode = nxt
                label = f"json_mode:{nxt}"
        elif failure.adapt == "stream_options" and caps.stream_usage:
            caps.stream_usage = False
            label = "stream_usage_off"
        if label is not None:
            self._caps.learn(target.endpoint, target.model, caps)
        return label

    def _park(
        self, target: Target, failure: Failure, settings: Settings, seconds: float | None = None
    ) -> None:
        if failure.cooldown is None:
            return
        base = settings.agent_cooldown_seconds
        if failure.label in ("auth", "model_missing"):
            base *= LONG_PARK_FACTOR
        length = seconds if seconds is not None else base
        key = target.endpoint if failure.cooldown == "endpoint" else target.model_key
        self._cooldowns.park(key, length, failure.label)

    # ---- status for the front ends ------------------------------------------------------------

    def pill(self) -> str:
        """Short status for the TUI: "simulation", "local: qwen2.5", "fallback: …"."""
        last = self._last
        if last is not None:
            if last.fallback_reason:
                tier, _, why = last.fallback_reason.partition(": ")
                probe = self._next_probe(tier)
                when = f"; next probe {probe}" if probe else ""
                return f"fallback: {last.served_by} ({tier}: {why.split(' (')[0]}{when})"
            if last.served_by == "simulation":
                return "simulation"
            ft = last.usage.first_token_ms
            trims = brief_trims(last.adaptations)
            note = f" (brief trimmed to fit: {trims[0][0]} recalled lines out)" if trims else ""
            if ft is not None and pace.is_slow(ft, self._settings.agent_first_token_timeout):
                return f"{last.served_by}: {pace.slow_words(ft)}{note}"
            return f"{last.served_by}: {last.model}{note}"
        if self._replay is not None:
            return "replay"
        targets = self.plan("narrator")
        return f"{targets[0].tier}: {targets[0].model}" if targets else "simulation"

    def _next_probe(self, tier: str) -> str | None:
        """When a resting endpoint of `tier` is tried again (None: none of them rests)."""
        for target in self.plan("narrator"):
            if target.tier == tier:
                when = self._cooldowns.next_probe(target.endpoint) or self._cooldowns.next_probe(
                    target.model_key
                )
                if when:
                    return when
        return None

    def watched(self) -> int:
        """Requests given up on and still watched to learn a late first token."""
        with self._shadows_lock:
            return len(self._shadows)

    def status(self) -> JsonObject:
        """Runtime label, routing, effective model per role, tiers configured, parks and memos."""
        s = self._settings
        roles = {
            role: {
                "local": s.local_model_for(role),
                "cloud": s.cloud_model_for(role),
                "order": [f"{t.tier}:{t.model}" for t in self.plan(role)] + ["simulation"],
            }
            for role in ROLES
        }
        return {
            "runtime": self.runtime_label(),
            "demo_mode": s.demo_mode,
            "routing": s.agent_routing,
            "pill": self.pill(),
            "tiers": {
                "simulation": {"configured": True, "active": True},
                "local": {
                    "configured": bool(s.local_agent_base_url),
                    "active": s.local_ready(),
                    "endpoint": s.local_agent_base_url,
                    "model": s.local_agent_model,
                },
                "foundry": {
                    "configured": s.foundry_openai_url() is not None,
                    "active": s.cloud_ready(),
                    "endpoint": s.foundry_openai_url(),
                    "fallback_model": s.foundry_fallback_model,
                    "auth": "api_key" if s.foundry_api_key else "entra_id",
                    "token_scope": s.token_scope(),
                },
                "replay": {
                    "configured": self._replay is not None,
                    "active": self._replay is not None,
                },
            },
            "roles": roles,
            "timeout_s": s.agent_request_timeout,
            "max_retries": s.agent_max_retries,
            "cooldowns": self._cooldowns.snapshot(),
            "capabilities": self._caps.snapshot(),
            "context_windows": {
                key: {"tokens": w.tokens, "source": w.source} if w else None
                for key, w in self._windows.items()
            },
            "served": dict(self._served_counts),
        }

    def probe(self) -> list[ProbeRow]:
        """List models on each configured endpoint; a good answer lifts that endpoint's cooldown."""
        targets = self.model_targets()
        seen: dict[tuple[Tier, str], Target] = {}
        for t in targets:
            seen.setdefault((t.tier, t.endpoint), t)
        results: list[ProbeRow] = [
            {
                "tier": "simulation",
                "endpoint": None,
                "ok": True,
                "ms": 0.0,
                "error": None,
                "models": ["simulation"],
            }
        ]
        timeout = min(PROBE_TIMEOUT, self._settings.agent_request_timeout)
        for (tier, endpoint), target in seen.items():
            started = time.perf_counter()
            error: str | None = None
            try:
                from engine.routing.openai_tier import list_models

                models = _run_sync(list_models(target, timeout))
            except Exception as exc:  # noqa: BLE001 - probe faults are reported, never raised
                failure = classify(exc)
                error, models = f"{failure.label}: {failure.detail}", []
            row: ProbeRow = {
                "tier": tier,
                "endpoint": endpoint,
                "ok": error is None,
                "ms": round((time.perf_counter() - started) * 1000, 1),
                "error": error,
                "models": models,
            }
            if error is None:
                self._cooldowns.clear(endpoint)
                wanted = sorted({t.model for t in targets if t.endpoint == endpoint})
                row["missing_models"] = [
                    m for m in wanted if models and m not in models and tier == "local"
                ]
            results.append(row)
        return results

    def model_targets(self) -> list[Target]:
        """Each distinct (tier, endpoint, model) any role may call, in plan order."""
        seen: dict[tuple[str, str, str], Target] = {}
        for role in ROLES:
            for t in self.plan(role, self._settings):
                seen.setdefault((t.tier, t.endpoint, t.model), t)
        return list(seen.values())

    def measure_pace(self) -> concurrent.futures.Future[list[JsonObject]]:
        """The start-up probe, in the background: a one-token completion to each local model whose
        first-token time is not known yet, each within the call budget. Its first token is kept
        with the model's capabilities (`_note_probe`), so the first call on a new endpoint is given
        the model's own first-token time rather than the setting's; a model slower still (a long
        brief to read) is learned from the first call, watched on past its limit (`_learn_late`)."""
        import asyncio

        from engine.routing.probe import one_token

        timeout = self._settings.agent_request_timeout
        targets = [t for t in self.model_targets() if t.tier == "local"]

        async def probe(target: Target, caps: DeploymentCaps) -> list[JsonObject]:
            row = self._note_probe(target, await one_token(target, caps, timeout))
            if row["ok"] and row.get("first_token_ms"):  # then how fast it reads a brief
                long = await one_token(target, caps, timeout, READING_PROBE)
                self._note_reading(target, row, long)
            return [row]

        async def run() -> list[JsonObject]:
            await asyncio.wrap_future(model_tier_ready())  # the client's import, off this loop
            rows: list[JsonObject] = []
            for target in targets:
                caps = self._caps.for_deployment(
                    target.endpoint, target.model, target.default_token_param
                )
                if caps.first_token_s is not None or target.endpoint in self._probing:
                    continue
                task = asyncio.ensure_future(probe(target, caps))
                self._probing[target.endpoint] = task
                try:
                    await asyncio.wait({task})
                finally:
                    self._probing.pop(target.endpoint, None)
                if task.cancelled():  # a call needed the server: it learns the pace itself
                    rows.append({**_probe_row(target), "error": "gave way to a model call"})
                    break  # every later probe would hold a call up as well
                rows.extend(task.result())
            return rows

        return asyncio_submit(run())

    def _probe_gives_way(self, target: Target) -> None:
        """A model call on an endpoint whose start-up probe is in flight cancels it (on the router
        loop): on a one-slot server (llama-server --parallel 1) the call would otherwise queue
        behind a probe that may take the whole budget. The call's own clocks then bound it, and a
        first token it waits for is learned as the probe's would have been (`_learn_late`)."""
        task = self._probing.get(target.endpoint)
        if task is not None and not task.done():
            task.cancel()
            log.info("%s %s: the start-up probe gave way to a call", target.tier, target.endpoint)

    def _note_reading(self, target: Target, short: JsonObject, long: JsonObject) -> None:
        """How fast the model reads a prompt, from the first tokens of a short and a long probe
        (kept when the long one took measurably longer: a fast reader's briefs cost nothing)."""
        extra_s = (long.get("first_token_ms") or 0) / 1000 - short["first_token_ms"] / 1000
        if not long.get("ok") or extra_s < READING_MIN_S:
            return
        tokens = prompt_tokens([{"role": "user", "content": READING_PROBE}])
        rate = tokens / extra_s
        self._caps.note_prompt_rate(target.endpoint, target.model, rate)
        log.info(
            "%s %s#%s reads a prompt at about %.0f tokens a second: a long brief's first token "
            "is expected that much later",
            target.tier,
            target.endpoint,
            target.model,
            rate,
        )

    def _note_probe(self, target: Target, row: JsonObject) -> JsonObject:
        """A probe's first token, kept with the model's capabilities (its next limit follows)."""
        ms = row.get("first_token_ms")
        if row.get("ok") and isinstance(ms, int | float) and ms > 0:
            figure = self._caps.note_first_token(target.endpoint, target.model, ms / 1000)
            log.info(
                "%s %s#%s: first token in %.1f s on its probe (limit now %.1f s)",
                target.tier,
                target.endpoint,
                target.model,
                ms / 1000,
                max(self._settings.agent_first_token_timeout, pace.SLOW_MARGIN * figure),
            )
        return row

    def test_completions(self) -> list[JsonObject]:
        """`routing test`: a one-token completion per model target, then its schema probe (the
        result is remembered in the capability cache: `routing status` says "schema advisory")."""
        from engine.routing.probe import one_token, schema_enforcement

        timeout = min(PROBE_TIMEOUT * 4, self._settings.agent_request_timeout)
        rows: list[JsonObject] = []
        for target in self.model_targets():
            caps = self._caps.for_deployment(
                target.endpoint, target.model, target.default_token_param
            )
            row = self._note_probe(target, _run_sync(one_token(target, caps, timeout)))
            if row["ok"]:
                row["schema"] = _run_sync(schema_enforcement(target, self._caps, timeout))
            rows.append(row)
        return rows


def _probe_row(target: Target) -> JsonObject:
    return {"tier": target.tier, "endpoint": target.endpoint, "model": target.model, "ok": False}


def _chain(base: Target, models: list[str | None], big: str | None) -> list[Target]:
    """One tier's targets: each named model once, in order, then the larger-context model (asked
    only after one of them refused the prompt as too long) unless it is one of them."""
    named = list(dict.fromkeys(m for m in models if m))
    chain = [replace(base, model=m) for m in named]
    if big and big not in named:
        chain.append(replace(base, model=big, overflow=True))
    return chain


def _fallbacks(failures: list[tuple[Tier, str]], served: Tier) -> list[Fallback]:
    """One Fallback per step down: each failed target hands over to the next tier that was tried."""
    steps: list[Fallback] = []
    for i, (tier, reason) in enumerate(failures):
        to_tier = failures[i + 1][0] if i + 1 < len(failures) else served
        steps.append(Fallback(from_tier=tier, to_tier=to_tier, reason=reason))
    return steps
