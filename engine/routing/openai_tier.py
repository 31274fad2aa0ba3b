"""One chat-completion attempt against an OpenAI-compatible endpoint (local server or Foundry /openai/v1).

The SDK's own retries are off (max_retries=0) and the whole attempt runs under `asyncio.timeout`, so a
server that trickles bytes cannot stretch it past the deadline (the SDK timeout is per read).
"""

from __future__ import annotations

import asyncio
import json
import re
import ssl
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import openai

try:  # openai 3.x speaks httpx2; older releases take an httpx client
    import httpx2 as _http
except ImportError:  # pragma: no cover - depends on the installed openai line
    import httpx as _http  # type: ignore[no-redef]

from engine.routing.errors import AnswerTooLong, BadResponse, Refused, StreamCut, StreamTimeout
from engine.routing.extract import has_reasoning
from engine.routing.health import DeploymentCaps, JsonMode
from engine.routing.phase import Phase
from engine.routing.target import Target
from engine.routing.window import Window, read_loading, read_window
from worldforge_azurehttp import in_daemon_thread, is_loopback
from worldforge_textkit.json_types import JsonObject

CONNECT_TIMEOUT = 3.0
DEFAULT_BOUND = 600.0
_ssl_lock = threading.Lock()
_ssl_ctx: ssl.SSLContext | None = None


@dataclass
class Completion:
    """The parts of an answer the router needs."""

    text: str | None
    finish_reason: str | None
    tokens_in: int
    tokens_out: int  # from the usage chunk, else one per content chunk
    first_token_ms: float | None = None
    total_ms: float = 0.0
    skipped_events: int = 0  # garbled stream events skipped


def shared_ssl_context() -> ssl.SSLContext:
    """One shared TLS context: building one per client costs ~35 ms (the CA bundle load)."""
    global _ssl_ctx
    with _ssl_lock:
        if _ssl_ctx is None:
            _ssl_ctx = ssl.create_default_context()
        return _ssl_ctx


# What the first request would import on its own (~0.6 s under load): the async transport, the
# HTTP/1.1 parser, the chat and models resources, the streaming helpers and the JSON parser.
_LAZY_MODULES = (
    "anyio._backends._asyncio",
    "anyio.streams.tls",
    "httpcore2",
    "httpcore2._backends.anyio",
    "httpcore2._async.connection_pool",
    "h11",
    "jiter",
    "openai.pagination",
    "openai.resources.chat.completions.completions",
    "openai.resources.models",
    "openai.lib.streaming.chat",
)


def preload() -> None:
    """Import everything a first request would (and build the shared TLS context), so the first
    model call of a process pays none of it inside its deadline. Run on the warm-up thread."""
    import importlib

    shared_ssl_context()
    for name in _LAZY_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:  # another SDK / transport release: it loads on first use instead
            continue


def make_client(target: Target, key: str, timeout: float) -> openai.AsyncOpenAI:
    """An SDK client with its retries off; loopback endpoints never go through an env proxy."""
    limit = bounds(timeout)
    http = _http.AsyncClient(
        verify=shared_ssl_context(), trust_env=not is_loopback(target.endpoint), timeout=limit
    )
    return openai.AsyncOpenAI(
        base_url=target.endpoint, api_key=key, max_retries=0, timeout=limit, http_client=http
    )


MAX_CLIENTS = 8
_clients: OrderedDict[tuple[str, str], openai.AsyncOpenAI] = OrderedDict()
_clients_loop: asyncio.AbstractEventLoop | None = None


def client_for(target: Target, key: str) -> openai.AsyncOpenAI:
    """The loop's client for (endpoint, key), kept between calls so connections are reused (the
    least recently used beyond MAX_CLIENTS is closed). Only ever called on the router loop."""
    global _clients_loop
    loop = asyncio.get_running_loop()
    if _clients_loop is not loop:
        _clients.clear()
        _clients_loop = loop
    ident = (target.endpoint, key)
    client = _clients.get(ident)
    if client is not None:
        _clients.move_to_end(ident)
        return client
    client = make_client(target, key, DEFAULT_BOUND)
    _clients[ident] = client
    while len(_clients) > MAX_CLIENTS:
        _, old = _clients.popitem(last=False)
        _closing.add(loop.create_task(old.close()))
    return client


_closing: set[asyncio.Task[None]] = set()


def bounds(timeout: float) -> openai.Timeout:
    """Per-request timeouts: the attempt's budget, with a short connect."""
    return openai.Timeout(timeout, connect=min(CONNECT_TIMEOUT, timeout))


def response_format_for(mode: JsonMode, schema_name: str, schema: JsonObject) -> JsonObject | None:
    """The `response_format` body for a structured-output rung (None: JSON by prompt only)."""
    if mode == "json_schema":
        name = re.sub(r"[^A-Za-z0-9_-]", "_", schema_name)[:64] or "artifact"
        return {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": schema, "strict": False},
        }
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


async def resolve_key(target: Target) -> str:
    """The bearer to send: a fixed key, or a fresh token from the provider (never cached here)."""
    if target.token_provider is not None:
        # in a daemon thread: a hung provider cannot block the loop or its shutdown
        token = await asyncio.wrap_future(in_daemon_thread(target.token_provider, "wf-token"))
        if not isinstance(token, str) or not token:
            raise TypeError("token provider returned no token")
        return token
    return target.api_key or "local"


@dataclass(frozen=True)
class Ask:
    """What one attempt asks for: the conversation, the answer's JSON Schema and its name, the
    token cap and the temperature (each sent as far as the deployment takes it)."""

    messages: list[dict[str, str]]
    schema_name: str
    schema: JsonObject
    max_tokens: int
    temperature: float


def request_body(target: Target, ask: Ask, caps: DeploymentCaps) -> JsonObject:
    """The chat-completion arguments for one attempt, shaped by what the deployment takes.
    The token cap is always sent: llama.cpp stops at 16 tokens without `max_tokens`."""
    kwargs: JsonObject = {
        "model": target.model,
        "messages": ask.messages,
        caps.token_param: ask.max_tokens,
        "stream": True,
    }
    if caps.stream_usage:
        kwargs["stream_options"] = {"include_usage": True}
    if caps.send_temperature:
        kwargs["temperature"] = ask.temperature
    fmt = response_format_for(caps.json_mode, ask.schema_name, ask.schema)
    if fmt is not None:
        kwargs["response_format"] = fmt
    return kwargs


@dataclass
class Limits:
    """One attempt's clocks inside the call's deadline: the whole attempt, the wait for the first
    token (headers included), the longest gap between events after it, and the answer's size."""

    total: float
    first_token: float
    idle: float
    max_bytes: int
    ends_at: float | None = (
        None  # the deadline on the loop's clock (time.monotonic); else now+total
    )


class _Stream:
    """What one streamed answer has said so far (events parsed here, so a garbled one is skipped)."""

    def __init__(
        self,
        limits: Limits,
        on_delta: Callable[[str], None] | None,
        on_first: Callable[[], None] = lambda: None,
    ) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.finish: str | None = None
        self.usage: JsonObject | None = None
        self.chunks = 0
        self.skipped = 0
        self.thoughts = 0  # reasoning pieces (they count as tokens for the first-token clock)
        self.done = False
        self.first_at: float | None = None
        self.last_at: float | None = None
        self._limits = limits
        self._on_delta = on_delta
        self._on_first = on_first

    @property
    def tokens(self) -> int:
        return self.chunks + self.thoughts

    def feed(self, line: str) -> bool:
        """Take one SSE line; True when it carried a token (content or reasoning)."""
        event = self._event(line)
        if event is None:
            return False
        if isinstance(event.get("usage"), dict):
            self.usage = event["usage"]
        token = False
        for choice in event.get("choices") or ():
            if not isinstance(choice, dict):
                continue
            delta = choice.get("delta") or {}
            if isinstance(delta, dict) and self._take(delta):
                token = True
            if choice.get("finish_reason"):
                self.finish = str(choice["finish_reason"])
        if token:
            self.last_at = time.perf_counter()
            if self.first_at is None:
                self.first_at = self.last_at
                self._on_first()
        return token

    def _event(self, line: str) -> JsonObject | None:
        """The line's JSON event, or None for a separator, `[DONE]` or a garbled event (counted);
        an error sent inside a 200 stream is raised."""
        if not line.startswith("data:"):
            return None  # blank separators, comments (": ping"), event names
        data = line[5:].strip()
        if data == "[DONE]":
            self.done = True
            return None
        try:
            event = json.loads(data)
        except ValueError:
            event = None  # a proxy's garbled event: skipped, counted, never parsed as text
        if not isinstance(event, dict):
            self.skipped += 1
            return None
        if isinstance(event.get("error"), dict):
            err = event["error"]
            raise BadResponse(f"error inside the stream: {str(err.get('message', err))[:200]}")
        return event

    def _take(self, delta: JsonObject) -> bool:
        """Count one delta's reasoning and keep its content (under the byte cap); True if a token."""
        token = False
        if has_reasoning(delta):
            self.thoughts += 1
            token = True
        piece = delta.get("content")
        if isinstance(piece, str) and piece:
            self.size += len(piece.encode("utf-8"))
            if self.size > self._limits.max_bytes:
                raise AnswerTooLong(self._limits.max_bytes)
            self.chunks += 1
            self.parts.append(piece)
            token = True
            if self._on_delta is not None:
                self._on_delta(piece)
        return token


async def chat(
    target: Target,
    ask: Ask,
    *,
    caps: DeploymentCaps,
    limits: Limits,
    on_delta: Callable[[str], None] | None = None,
    on_sent: Callable[[], None] | None = None,
    on_first: Callable[[], None] = lambda: None,
    on_headers: Callable[[], None] = lambda: None,
) -> Completion:
    """Stream one chat completion under hard clocks and return its text; `on_sent` hears when the
    request goes out (its key in hand), `on_headers` when the response starts, `on_first` when the
    first token (content or reasoning) arrives, `on_delta` sees each piece of content. Raises the SDK's errors, StreamTimeout (silent / stalled),
    StreamCut (ended without a finish), AnswerTooLong, Refused or TimeoutError (the deadline)."""
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    got = _Stream(limits, on_delta, on_first)
    ends_at = limits.ends_at if limits.ends_at is not None else loop.time() + limits.total

    capped = [False]

    def _phase_end(seconds: float) -> float:  # a phase limit never outlasts the deadline
        want = loop.time() + seconds
        capped[0] = want >= ends_at
        return min(want, ends_at)

    # The phase clocks below end the attempt with its cause; this outer one is only the backstop
    # for work outside them (the key, the client), a little later so the two never race.
    async with asyncio.timeout_at(ends_at + BACKSTOP):
        key = await resolve_key(target)
        client = client_for(target, key)
        kwargs = request_body(target, ask, caps)
        sent = time.perf_counter()  # HTTP time: from here to the stream's end
        if on_sent is not None:
            on_sent()
        phase = Phase(_phase_end(limits.first_token))  # its verdict reads what came first
        try:
            async with (
                phase,
                client.chat.completions.with_streaming_response.create(
                    **kwargs, timeout=bounds(limits.total)
                ) as resp,
            ):
                kind = resp.headers.get("content-type", "")
                on_headers()
                if "text/event-stream" not in kind:  # ignored `stream`, or a proxy's page
                    phase.reschedule(None)  # a whole body: the deadline alone bounds it
                    raw = await _read_capped(resp, limits.max_bytes)
                    return _whole_answer(raw, kind, sent, limits.max_bytes)
                try:
                    async for line in resp.iter_lines():
                        if got.feed(line) or (got.first_at is not None and line):
                            phase.reschedule(_phase_end(limits.idle))
                        if got.done:
                            break
                except _http.TransportError as exc:  # the connection died mid-stream
                    raise StreamCut(
                        got.tokens,
                        f"connection lost after {got.tokens} tokens ({type(exc).__name__})",
                    ) from exc
        except TimeoutError as exc:
            if not phase.expired():
                raise
            waited = time.perf_counter() - (got.last_at or started)
            if got.first_at is None:
                raise StreamTimeout("silent", 0, waited) from exc
            if capped[0]:  # it was still streaming when the call's deadline came
                raise TimeoutError("the call's deadline ran out mid-stream") from exc
            raise StreamTimeout("stalled", got.tokens, waited) from exc
        if got.finish == "content_filter":
            raise Refused("the model's answer was stopped by its content filter")
        if got.finish is None and not got.done and (got.parts or got.usage is not None):
            raise StreamCut(got.tokens)
        if not got.parts and got.finish is None and got.usage is None:
            # The stream closed with nothing in it: llama.cpp reports a prompt beyond its context
            # that way. Ask once without streaming, on a fresh connection, to read its answer.
            kwargs.pop("stream_options", None)
            once = make_client(target, key, max(0.05, ends_at - loop.time()))
            try:
                plain = await once.chat.completions.with_raw_response.create(
                    **{**kwargs, "stream": False}
                )
            finally:
                await once.close()
            return _whole_answer(
                plain.content, plain.headers.get("content-type", ""), sent, limits.max_bytes
            )
    usage = got.usage or {}
    return Completion(
        text="".join(got.parts) if got.parts else None,
        finish_reason=got.finish,
        tokens_in=int(usage.get("prompt_tokens") or 0),
        tokens_out=int(usage.get("completion_tokens") or 0) or got.chunks,
        first_token_ms=(got.first_at - started) * 1000 if got.first_at is not None else None,
        total_ms=(time.perf_counter() - sent) * 1000,
        skipped_events=got.skipped,
    )


BACKSTOP = 0.03
ENVELOPE_BYTES = 64 * 1024  # room for a non-streamed answer's JSON around its text


async def _read_capped(resp: Any, max_bytes: int) -> bytes:
    """A whole body, refused once it passes the answer cap (plus the envelope) unread."""
    buf = bytearray()
    async for piece in resp.iter_bytes():
        buf += piece
        if len(buf) > max_bytes + ENVELOPE_BYTES:
            raise AnswerTooLong(max_bytes)
    return bytes(buf)


def _whole_answer(raw: bytes, kind: str, started: float, max_bytes: int = 0) -> Completion:
    """A non-streamed answer to a streamed request: a chat completion in JSON, else bad_response."""
    if max_bytes and len(raw) > max_bytes + ENVELOPE_BYTES:
        raise AnswerTooLong(max_bytes)
    try:
        data = json.loads(raw)
        choice = data["choices"][0] if data.get("choices") else None
        message = choice.get("message") or {} if choice else {}
        usage = data.get("usage") or {}
    except (ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:
        raise BadResponse(f"a {kind or 'typeless'} answer that is not a chat completion") from exc
    text = message.get("content")
    if max_bytes and isinstance(text, str) and len(text.encode("utf-8")) > max_bytes:
        raise AnswerTooLong(max_bytes)
    if choice and choice.get("finish_reason") == "content_filter":
        raise Refused("the model's answer was stopped by its content filter")
    return Completion(
        text=message.get("content"),
        finish_reason=choice.get("finish_reason") if choice else None,
        tokens_in=int(usage.get("prompt_tokens") or 0),
        tokens_out=int(usage.get("completion_tokens") or 0),
        total_ms=(time.perf_counter() - started) * 1000,
    )


async def window_of(target: Target, configured: int, within: float) -> Window | None:
    """The model's context window from its server (or the setting), on a short-lived client,
    all look-ups within `within` seconds."""
    if configured > 0:
        return await read_window(target, None, configured, within)
    async with await _short_client(target, within) as client:
        return await read_window(target, client, configured, within)


async def model_loading(target: Target, within: float) -> bool:
    """Whether the local server says the model is still loading (or not loaded yet, so this
    request loads it), on a short-lived client; False when it does not say."""
    async with await _short_client(target, within) as client:
        return await read_loading(target, client, within)


async def _short_client(target: Target, within: float) -> _http.AsyncClient:
    """A short-lived client for a server's own look-ups (its window, whether the model loads),
    every request bounded by `within` seconds."""
    key = await resolve_key(target)
    bound = max(0.05, within)
    return _http.AsyncClient(
        verify=shared_ssl_context(),
        trust_env=not is_loopback(target.endpoint),
        timeout=_http.Timeout(bound, connect=min(CONNECT_TIMEOUT, bound)),
        headers={"Authorization": f"Bearer {key}"},
    )


async def list_models(target: Target, timeout: float) -> list[str]:
    """GET /models under a hard deadline: the cheap probe for `routing test` and cooldown reset."""
    async with asyncio.timeout(timeout):
        key = await resolve_key(target)
        page = await client_for(target, key).models.list(timeout=bounds(timeout))
        return [m.id for m in page.data]
