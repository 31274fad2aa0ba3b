"""One chat-completion attempt against an OpenAI-compatible endpoint (local server or Foundry /openai/v1).

The SDK's own retries are off (max_retries=0) and the whole attempt runs under `asyncio.timeout`, so a
server that trickles bytes cannot stretch it past the deadline (the SDK timeout is per read).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ipaddress
import re
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import openai

try:  # openai 3.x speaks httpx2; older releases take an httpx client
    import httpx2 as _http
except ImportError:  # pragma: no cover - depends on the installed openai line
    import httpx as _http  # type: ignore[no-redef]

from engine.routing.extract import reasoning_from_message
from engine.routing.health import DeploymentCaps, JsonMode, TokenParam
from engine.routing.types import Tier

CONNECT_TIMEOUT = 3.0
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
    tokens_out: int
    reasoning_chars: int


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
    bounds = openai.Timeout(timeout, connect=min(CONNECT_TIMEOUT, timeout))
    host = urlsplit(target.endpoint).hostname
    http = _http.AsyncClient(verify=shared_ssl_context(), trust_env=not _is_loopback(host),
                             timeout=bounds)
    return openai.AsyncOpenAI(base_url=target.endpoint, api_key=key, max_retries=0,
                              timeout=bounds, http_client=http)


def response_format_for(mode: JsonMode, schema_name: str, schema: dict[str, Any]) -> dict | None:
    """The `response_format` body for a JSON-mode rung (None means JSON by prompt only)."""
    if mode == "json_schema":
        name = re.sub(r"[^A-Za-z0-9_-]", "_", schema_name)[:64] or "artifact"
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema,
                                                        "strict": False}}
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


async def chat(target: Target, messages: list[dict[str, str]], *, caps: DeploymentCaps,
               json_mode: JsonMode, schema_name: str, schema: dict[str, Any], max_tokens: int,
               temperature: float, timeout: float) -> Completion:
    """Send one chat completion and return its text; raises the SDK's errors or TimeoutError."""
    async with asyncio.timeout(timeout):
        key = await resolve_key(target)
        client = make_client(target, key, timeout)
        try:
            kwargs: dict[str, Any] = {"model": target.model, "messages": messages,
                                      caps.token_param: max_tokens}
            if caps.send_temperature:
                kwargs["temperature"] = temperature
            fmt = response_format_for(json_mode, schema_name, schema)
            if fmt is not None:
                kwargs["response_format"] = fmt
            resp = await client.chat.completions.create(**kwargs)
        finally:
            await client.close()
    if not resp.choices:
        return Completion(None, None, 0, 0, 0)
    choice = resp.choices[0]
    message = choice.message
    usage = resp.usage
    return Completion(
        text=message.content if message is not None else None,
        finish_reason=choice.finish_reason,
        tokens_in=int(getattr(usage, "prompt_tokens", 0) or 0),
        tokens_out=int(getattr(usage, "completion_tokens", 0) or 0),
        reasoning_chars=reasoning_from_message(getattr(message, "model_extra", None)),
    )


async def list_models(target: Target, timeout: float) -> list[str]:
    """GET /models under a hard deadline: the cheap probe for `routing test` and cooldown reset."""
    async with asyncio.timeout(timeout):
        key = await resolve_key(target)
        client = make_client(target, key, timeout)
        try:
            page = await client.models.list()
            return [m.id for m in page.data]
        finally:
            await client.close()
