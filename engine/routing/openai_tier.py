"""One chat-completion attempt against an OpenAI-compatible endpoint (local server or Foundry /openai/v1).

The SDK's own retries are off (max_retries=0) and the whole attempt runs under `asyncio.timeout`, so a
server that trickles bytes cannot stretch it past the deadline (the SDK timeout is per read).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ipaddress
import json
import re
import ssl
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import openai

try:  # openai 3.x speaks httpx2; older releases take an httpx client
    import httpx2 as _http
except ImportError:  # pragma: no cover - depends on the installed openai line
    import httpx as _http  # type: ignore[no-redef]

from engine.routing.errors import BadResponse
from engine.routing.extract import reasoning_from_message
from engine.routing.health import DeploymentCaps, JsonMode, TokenParam
from engine.routing.types import Tier

CONNECT_TIMEOUT = 3.0
DEFAULT_BOUND = 600.0  # a cached client's own bound; each request passes its budget
_ssl_lock = threading.Lock()
_ssl_ctx: ssl.SSLContext | None = None


@dataclass(frozen=True)
class Target:
    """One place a call can go: tier, endpoint, model and how to authenticate."""

    tier: Tier
    endpoint: str
    model: str
    api_key: str | None = None
    token_provider: Callable[[], str] | None = None
    default_token_param: TokenParam = "max_tokens"

    @property
    def model_key(self) -> str:
        return f"{self.endpoint}#{self.model}"


@dataclass
class Completion:
    """The parts of an answer the router needs."""

    text: str | None
    finish_reason: str | None
    tokens_in: int
    tokens_out: int  # from the usage chunk, else one per content chunk
    reasoning_chars: int
    first_token_ms: float | None = None
    total_ms: float = 0.0


async def _in_daemon_thread(fn: Callable[[], str]) -> str:
    """Run a blocking call (a token provider) where a hang cannot block loop shutdown."""
    fut: concurrent.futures.Future[str] = concurrent.futures.Future()

    def _run() -> None:
        try:
            fut.set_result(fn())
        except BaseException as exc:  # noqa: BLE001 - delivered to the awaiting side, classified there
            fut.set_exception(exc)

    threading.Thread(target=_run, name="wf-token", daemon=True).start()
    return await asyncio.wrap_future(fut)


def shared_ssl_context() -> ssl.SSLContext:
    """One shared TLS context: building one per client costs ~35 ms (the CA bundle load)."""
    global _ssl_ctx
    with _ssl_lock:
        if _ssl_ctx is None:
            _ssl_ctx = ssl.create_default_context()
        return _ssl_ctx


def _is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def make_client(target: Target, key: str, timeout: float) -> openai.AsyncOpenAI:
    """An SDK client with its retries off; loopback endpoints never go through an env proxy."""
    limit = bounds(timeout)
    host = urlsplit(target.endpoint).hostname
    http = _http.AsyncClient(
        verify=shared_ssl_context(), trust_env=not _is_loopback(host), timeout=limit
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


def response_format_for(mode: JsonMode, schema_name: str, schema: dict[str, Any]) -> dict | None:
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
        token = await _in_daemon_thread(target.token_provider)
        if not isinstance(token, str) or not token:
            raise TypeError("token provider returned no token")
        return token
    return target.api_key or "local"


def request_body(
    target: Target,
    messages: list[dict[str, str]],
    *,
    caps: DeploymentCaps,
    schema_name: str,
    schema: dict[str, Any],
    max_tokens: int,
    temperature: float,
) -> dict[str, Any]:
    """The chat-completion arguments for one attempt, shaped by what the deployment takes.
    The token cap is always sent: llama.cpp stops at 16 tokens without `max_tokens`."""
    kwargs: dict[str, Any] = {
        "model": target.model,
        "messages": messages,
        caps.token_param: max_tokens,
        "stream": True,
    }
    if caps.stream_usage:
        kwargs["stream_options"] = {"include_usage": True}
    if caps.send_temperature:
        kwargs["temperature"] = temperature
    fmt = response_format_for(caps.json_mode, schema_name, schema)
    if fmt is not None:
        kwargs["response_format"] = fmt
    return kwargs


async def chat(
    target: Target,
    messages: list[dict[str, str]],
    *,
    caps: DeploymentCaps,
    schema_name: str,
    schema: dict[str, Any],
    max_tokens: int,
    temperature: float,
    timeout: float,
    on_delta: Callable[[str], None] | None = None,
) -> Completion:
    """Stream one chat completion under a hard deadline and return its text; `on_delta` sees each
    piece of content as it arrives. Raises the SDK's errors or TimeoutError."""
    started = time.perf_counter()
    parts: list[str] = []
    finish: str | None = None
    usage: Any = None
    chunks = 0
    first_ms: float | None = None
    reasoning = 0
    async with asyncio.timeout(timeout):
        key = await resolve_key(target)
        client = client_for(target, key)
        kwargs = request_body(
            target,
            messages,
            caps=caps,
            schema_name=schema_name,
            schema=schema,
            max_tokens=max_tokens,
            temperature=temperature,
        )
        sent = time.perf_counter()  # HTTP time: from here to the stream's end
        stream = await client.chat.completions.create(**kwargs, timeout=bounds(timeout))
        try:
            kind = stream.response.headers.get("content-type", "")
            if "text/event-stream" not in kind:  # a server that ignored `stream`, or a proxy page
                return _whole_answer(await stream.response.aread(), kind, sent)
            async for chunk in stream:
                if getattr(chunk, "usage", None) is not None:
                    usage = chunk.usage
                for choice in chunk.choices or ():
                    delta = choice.delta
                    piece = getattr(delta, "content", None) if delta is not None else None
                    if delta is not None:
                        reasoning += reasoning_from_message(getattr(delta, "model_extra", None))
                    if piece:
                        if first_ms is None:
                            first_ms = (time.perf_counter() - started) * 1000
                        chunks += 1
                        parts.append(piece)
                        if on_delta is not None:
                            on_delta(piece)
                    if choice.finish_reason:
                        finish = choice.finish_reason
        finally:
            with contextlib.suppress(Exception):  # hand the connection back (or drop it)
                await stream.close()
        if not parts and finish is None and usage is None:
            # The stream closed with nothing in it: llama.cpp reports a prompt beyond its context
            # that way. Ask once without streaming, on a fresh connection, to read its answer.
            kwargs.pop("stream_options", None)
            once = make_client(target, key, timeout)
            try:
                plain = await once.chat.completions.with_raw_response.create(
                    **{**kwargs, "stream": False}
                )
            finally:
                await once.close()
            return _whole_answer(plain.content, plain.headers.get("content-type", ""), sent)
    text = "".join(parts) if parts else None
    return Completion(
        text=text,
        finish_reason=finish,
        tokens_in=int(getattr(usage, "prompt_tokens", 0) or 0),
        tokens_out=int(getattr(usage, "completion_tokens", 0) or 0) or chunks,
        reasoning_chars=reasoning,
        first_token_ms=first_ms,
        total_ms=(time.perf_counter() - sent) * 1000,
    )


def _whole_answer(raw: bytes, kind: str, started: float) -> Completion:
    """A non-streamed answer to a streamed request: a chat completion in JSON, else bad_response."""
    try:
        data = json.loads(raw)
        choice = data["choices"][0] if data.get("choices") else None
        message = choice.get("message") or {} if choice else {}
        usage = data.get("usage") or {}
    except (ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:
        raise BadResponse(f"a {kind or 'typeless'} answer that is not a chat completion") from exc
    return Completion(
        text=message.get("content"),
        finish_reason=choice.get("finish_reason") if choice else None,
        tokens_in=int(usage.get("prompt_tokens") or 0),
        tokens_out=int(usage.get("completion_tokens") or 0),
        reasoning_chars=reasoning_from_message(message),
        total_ms=(time.perf_counter() - started) * 1000,
    )


async def list_models(target: Target, timeout: float) -> list[str]:
    """GET /models under a hard deadline: the cheap probe for `routing test` and cooldown reset."""
    async with asyncio.timeout(timeout):
        key = await resolve_key(target)
        page = await client_for(target, key).models.list(timeout=bounds(timeout))
        return [m.id for m in page.data]
