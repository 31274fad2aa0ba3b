"""One bounded HTTP call to an Azure service, and one bearer-token provider, shared by the Foundry
memory tier (`memory.foundry.cloud`) and Foundry IQ (`knowledge.iq`); the model router and the embedder use
the token provider too.

`request_json` makes one JSON call under a total deadline that covers the token, the connection,
a server that trickles bytes and the body read, with a response-size cap, no redirects, and
environment proxies ignored for loopback hosts. Every failure raises `AzureError` with a short
reason that is safe to show and log (never a token or a server's text): "HTTP 503 Service
Unavailable", "timeout after 8s", "transport: ConnectError", "bad response: not JSON",
"bad response: body too large", "auth: RuntimeError", "auth: token provider timed out".

`token_provider` builds DefaultAzureCredential lazily (so `azure.identity` is imported only when a
cloud tier is really used) and reuses a token until five minutes before it expires.

`is_loopback` (a URL) and `is_loopback_host` say whether a call stays on this machine (no proxy;
`serve` warns otherwise); `remote_deadline` is the one cap on a remote knowledge or memory call;
`in_daemon_thread` runs a blocking call (a token provider, an SDK request, an import) where a hang
cannot hold its caller past a deadline or the process at exit.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from urllib.parse import urlsplit

if TYPE_CHECKING:  # imported where a thread's future is made: a simulated venture makes none
    import concurrent.futures

T = TypeVar("T")
TokenProvider = Callable[[], str]
TOKEN_REFRESH_MARGIN_S = 300
MAX_RESPONSE_BYTES = 2_000_000
REMOTE_DEADLINE_CAP = 30.0  # seconds: the longest one remote knowledge or memory call may take


def remote_deadline(timeout: float | None) -> float:
    """The deadline of one remote knowledge or memory call (Foundry IQ, Cosmos): the player's
    AGENT_REQUEST_TIMEOUT (8 s when unset), from half a second to REMOTE_DEADLINE_CAP (issue 26)."""
    return max(0.5, min(float(timeout or 8.0), REMOTE_DEADLINE_CAP))


class AzureError(Exception):
    """A failed call; the message is a short reason safe to show (no token, no response text)."""


class AuthUnavailable(RuntimeError):
    """No way to get a token at all: azure-identity is not installed."""


class AccessToken(Protocol):
    """A token as azure-identity's `get_token` returns it."""

    @property
    def token(self) -> str: ...

    @property
    def expires_on(self) -> float: ...  # seconds since the epoch


class Credential(Protocol):
    """Anything with azure-identity's `get_token(scope)` (DefaultAzureCredential is one)."""

    def get_token(self, scope: str, /) -> AccessToken: ...


def token_provider(scope: str, credential: Credential | None = None) -> TokenProvider:
    """Bearer tokens for `scope` from `credential` (anything with azure-identity's
    `get_token(scope)`; DefaultAzureCredential when omitted), each reused until five minutes
    before it expires. Some credentials in the chain start a subprocess per call, so after the
    first call this costs nothing. The token lives in memory only."""
    held = credential
    cached: AccessToken | None = None
    lock = threading.Lock()

    def provide() -> str:
        nonlocal held, cached
        with lock:
            if cached is not None and cached.expires_on - TOKEN_REFRESH_MARGIN_S > time.time():
                return str(cached.token)
            if held is None:
                try:
                    from azure.identity import DefaultAzureCredential
                except ImportError as exc:
                    raise AuthUnavailable(
                        "azure-identity is not installed: pip install 'worldforge-tui[azure]'"
                    ) from exc

                held = DefaultAzureCredential(exclude_interactive_browser_credential=True)
            cached = held.get_token(scope)
            return str(cached.token)

    return provide


def in_daemon_thread(fn: Callable[[], T], name: str) -> concurrent.futures.Future[T]:
    """Start `fn()` on a daemon thread and return its future (already running: it cannot be
    cancelled). A caller that stops waiting drops the result; the thread ends on its own."""
    import concurrent.futures

    fut: concurrent.futures.Future[T] = concurrent.futures.Future()
    fut.set_running_or_notify_cancel()

    def run() -> None:
        try:
            fut.set_result(fn())
        except BaseException as exc:  # noqa: BLE001 - delivered to whoever waits on the future
            fut.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return fut


def token_before(provider: TokenProvider, deadline: float) -> str:
    """Run `provider` in a helper thread so a slow credential chain cannot outlast `deadline`
    (a `time.monotonic()` value)."""
    import concurrent.futures

    fut = in_daemon_thread(provider, "azure-token")
    if concurrent.futures.wait([fut], max(0.0, deadline - time.monotonic())).not_done:
        raise AzureError("auth: token provider timed out")
    error = fut.exception()
    if error is not None:
        raise AzureError(f"auth: {type(error).__name__}") from error
    token = fut.result()
    if not isinstance(token, str) or not token:
        raise AzureError("auth: empty token")
    return token


def is_loopback_host(host: str | None) -> bool:
    """Whether `host` only reaches this machine (localhost, 127.x, ::1, bracketed or not): a
    loopback endpoint never goes through an environment proxy, and `serve` warns off any other."""
    if not host:
        return False
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    import ipaddress  # lazy: only a call that connects somewhere asks

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_loopback(url: str) -> bool:
    """Whether `url`'s host is a loopback one (`is_loopback_host`)."""
    return is_loopback_host(urlsplit(url).hostname)


def request_json(
    method: str,
    url: str,
    *,
    provider: TokenProvider,
    timeout_s: float,
    body: Mapping[str, Any] | None = None,
    params: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    max_bytes: int = MAX_RESPONSE_BYTES,
) -> Any:
    """One call under one total deadline; the parsed JSON body ({} for an empty one)."""
    import httpx2 as httpx  # lazy: keeps importing the core light when no cloud tier is configured

    deadline = time.monotonic() + timeout_s
    timed_out = AzureError(f"timeout after {timeout_s:g}s")
    token = token_before(provider, deadline)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise timed_out
    sent = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        **(headers or {}),
    }
    data = bytearray()
    try:
        with (
            httpx.Client(
                timeout=httpx.Timeout(remaining),
                follow_redirects=False,
                trust_env=not is_loopback(url),
            ) as client,
            client.stream(
                method,
                url,
                params=dict(params or {}),
                headers=sent,
                json=dict(body) if body is not None else None,
            ) as response,
        ):
            if response.status_code >= 300:
                raise AzureError(f"HTTP {response.status_code} {response.reason_phrase}".strip())
            for chunk in response.iter_bytes():
                data.extend(chunk)
                if len(data) > max_bytes:
                    raise AzureError("bad response: body too large")
                if time.monotonic() > deadline:
                    raise timed_out
    except httpx.TimeoutException as exc:
        raise timed_out from exc
    except httpx.HTTPError as exc:
        raise AzureError(f"transport: {type(exc).__name__}") from exc
    if time.monotonic() > deadline:
        raise timed_out
    if not data.strip():
        return {}
    try:
        return json.loads(bytes(data))
    except ValueError as exc:
        raise AzureError("bad response: not JSON") from exc
