"""Error taxonomy: map an exception from one attempt to a label and the router's next action.

Classification reads the exception type, HTTP status, `code` and `param`, never message text alone.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # the SDK is heavy (~0.5 s): imported only once a model tier is used
    import openai

from worldforge_azurehttp import AuthUnavailable
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit.patterns import Pattern

Adapt = Literal["temperature", "token_param", "response_format", "stream_options"]
FORMAT_STATUSES = (400, 404, 422, 500)  # where servers say they cannot take the request's format
Scope = Literal["endpoint", "model"]


class BadResponse(ValueError):
    """A 200 whose body is not a chat completion (a proxy's HTML page, say)."""


class StreamCut(ConnectionError):
    """The stream ended (or its connection died) after a 200 without a finish reason."""

    def __init__(self, tokens: int, detail: str = "") -> None:
        super().__init__(detail or f"the stream ended after {tokens} tokens without a finish")
        self.tokens = tokens


class StreamTimeout(TimeoutError):
    """A per-attempt limit fired: no first token in time ("silent") or a gap mid-stream ("stalled")."""

    def __init__(self, kind: Literal["silent", "stalled"], tokens: int, seconds: float) -> None:
        what = (
            f"no first token in {seconds:.1f} s"
            if kind == "silent"
            else f"silent for {seconds:.1f} s after {tokens} tokens"
        )
        super().__init__(what)
        self.kind = kind
        self.tokens = tokens
        self.seconds = seconds


class AnswerTooLong(ValueError):
    """An answer beyond AGENT_MAX_ANSWER_BYTES: cut off and refused before any parsing."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(f"answer over {max_bytes:,} bytes, cut off unread")


class Refused(ValueError):
    """The model's own stream ended with finish_reason "content_filter"."""


# The cause of each failure in the player's words: one table, so the story pill, the receipt,
# `--json` and the log all say the same thing (Failure.reason builds the one string they show).
WORDS: dict[str, str] = {
    "cut": "cut mid-answer",
    "stalled": "stalled mid-answer",
    "silent": "silent",
    "reset": "connection reset",
    "malformed": "garbled stream",
    "unreachable": "unreachable",
    "timeout": "out of time",
    "rate_limited": "rate-limited",
    "overloaded": "overloaded",
    "server_error": "server error",
    "content_filtered": "refused by the content filter",
    "context_window": "context too long",
    "bad_request": "request refused",
    "bad_param": "request shape refused",
    "auth": "not signed in",
    "model_missing": "model not found",
    "bad_response": "not a model answer",
    "invalid_output": "answer not valid",
    "internal_error": "router fault",
}


@dataclass(frozen=True, eq=False, repr=False)
class Failure(FrozenRecord):
    """What went wrong in one attempt and what to do about it.

    `same_endpoint`: retried once on the same endpoint, which stays open (a reset, a cut or garbled
    stream: the server is up). `breaker`: counts toward the endpoint's breaker (5xx, a stream that
    stalls mid-answer). `final`: no
    other model is asked (a content-filter refusal: another model would only route around it).
    """

    label: str
    detail: str
    retryable: bool = False
    adapt: Adapt | None = None
    cooldown: Scope | None = None
    retry_after: float | None = None
    same_endpoint: bool = False
    breaker: bool = False
    final: bool = False

    @property
    def words(self) -> str:
        return WORDS.get(self.label, self.label.replace("_", " "))

    @property
    def reason(self) -> str:
        """What the player reads: the cause in words, then the endpoint's own detail."""
        return f"{self.words} ({self.detail})" if self.detail else self.words


_PARAM_ADAPTS = ("temperature", "max_tokens", "max_completion_tokens")


def _short(text: object, limit: int = 160) -> str:
    """One line of an endpoint's error text, scrubbed of configured keys and credentials (the one
    boundary every model and Azure error detail passes on its way to events, logs and screens)."""
    from worldforge_textkit.scrub import scrub

    return scrub(" ".join(str(text).split()))[:limit]


def retry_after_seconds(exc: openai.APIStatusError) -> float | None:
    """Seconds from `retry-after-ms` or `retry-after` (seconds or HTTP date), as the SDK reads them."""
    headers = exc.response.headers if exc.response is not None else {}
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        import email.utils  # an HTTP date: rare, and the email package costs ~5 ms to import

        try:
            when = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - time.time())


CONTENT_FILTER_CODES = frozenset(
    {"content_filter", "content_policy_violation", "responsibleaipolicyviolation", "safety"}
)
CONTEXT_CODES = frozenset(
    {"context_length_exceeded", "exceed_context_size_error", "context_window_exceeded"}
)
# How runtimes that send no such code say a prompt does not fit (read only on a 400/413/422):
# vLLM and OpenAI "maximum context length is …", llama.cpp's server "exceeds the available context
# size", LM Studio "context length of only …", Ollama "input length exceeds the context length",
# TGI "`inputs` tokens + `max_new_tokens` must be <= …", Mistral "too large for model with …".
_CONTEXT_TEXT = Pattern(
    r"maximum context length|exceeds? the (available )?context|context (length|size|window) "
    r"(of only|exceeded|is too small)|exceeds the context length|too large for model with"
    r"|`inputs` tokens \+ `max_new_tokens`|prompt is too long|context_length_exceeded",
    re.IGNORECASE,
)


def status_message(exc: openai.APIStatusError) -> str:
    """ "Error code: N - <the body's message>", as the player reads it, whatever the SDK version put
    in `exc.message` (openai 3.0 writes the whole JSON body there, later 3.x only its message)."""
    body = exc.body
    words = body.get("message") if isinstance(body, dict) else None
    if isinstance(words, str) and words.strip():
        return f"Error code: {exc.status_code} - {words}"
    return f"Error code: {exc.status_code}"


def _codes(exc: openai.APIStatusError) -> set[str]:
    """Every code / type the error body carries, lower case (Azure nests one in innererror)."""
    found = {str(exc.code or "").lower(), str(getattr(exc, "type", "") or "").lower()}
    body = exc.body if isinstance(exc.body, dict) else {}
    for key in ("code", "type"):
        found.add(str(body.get(key) or "").lower())
    inner = body.get("innererror")
    if isinstance(inner, dict):
        found.add(str(inner.get("code") or "").lower())
    return found - {""}


def refusal_or_overflow(exc: openai.APIStatusError) -> Failure | None:
    """A content-filter refusal (final, its reason shown) or a context overflow, from any runtime."""
    if exc.status_code not in (400, 403, 413, 422):
        return None
    codes = _codes(exc)
    message = _short(status_message(exc), 200)
    if codes & CONTENT_FILTER_CODES:
        return Failure("content_filtered", message, final=True)
    if codes & CONTEXT_CODES or (
        exc.status_code != 403 and _CONTEXT_TEXT.search(f"{exc.message} {exc.body}")
    ):
        return Failure("context_window", message)
    return None


def _bad_request(exc: openai.BadRequestError) -> Failure:
    param = (exc.param or "").lower()
    message = _short(status_message(exc))
    if param == "temperature":
        return Failure("bad_param", f"temperature: {message}", adapt="temperature")
    if param in ("max_tokens", "max_completion_tokens"):
        return Failure("bad_param", f"{param}: {message}", adapt="token_param")
    return Failure("bad_request", message)


def _body_text(exc: openai.APIStatusError) -> str:
    """The error's param, message and body as one lower-case string (for format detection)."""
    return " ".join(str(x) for x in (exc.param or "", exc.message, exc.body or "")).lower()


def format_failure(exc: openai.APIStatusError) -> Failure | None:
    """A 400/404/422/500 whose body points at the request's format: the structured-output mode
    (llama-cpp-python answers `json_schema` with a 500 validation error) or stream_options."""
    if exc.status_code not in FORMAT_STATUSES:
        return None
    param = (exc.param or "").lower()
    if refusal_or_overflow(exc) is not None:
        return None
    text = _body_text(exc)
    if param.startswith("response_format") or "response_format" in text:
        return Failure(
            "bad_param", f"response_format: {_short(status_message(exc))}", adapt="response_format"
        )
    if param.startswith("stream_options") or "stream_options" in text:
        return Failure(
            "bad_param", f"stream_options: {_short(status_message(exc))}", adapt="stream_options"
        )
    return None


def _transport_name(exc: BaseException) -> str:
    cause = exc.__cause__ or exc.__context__
    return type(cause).__name__ if cause is not None else ""


def classify(exc: BaseException) -> Failure:
    """Label an attempt's exception: the first of the named steps that knows it (our own stream
    errors, then the transport, then an HTTP status, then the answer's body or a credential)."""
    for step in (_stream_failure, _transport_failure, _status_failure, _body_failure):
        found = step(exc)
        if found is not None:
            return found
    return Failure("internal_error", f"{type(exc).__name__}: {_short(exc)}")


def _stream_failure(exc: BaseException) -> Failure | None:
    """What our own stream reader raised: silent, stalled, cut, too long, refused."""
    if isinstance(exc, StreamTimeout):
        if exc.kind == "silent":  # a silent route is not retried: it only multiplies the wait
            return Failure("silent", str(exc), cooldown="endpoint")
        return Failure("stalled", str(exc), breaker=True)  # repeated stalls open the breaker
    if isinstance(exc, StreamCut):
        return Failure("cut", str(exc), same_endpoint=True)
    if isinstance(exc, AnswerTooLong):
        return Failure("invalid_output", str(exc))
    if isinstance(exc, Refused):
        return Failure("content_filtered", str(exc) or "finish_reason content_filter", final=True)
    return None


def _transport_failure(exc: BaseException) -> Failure | None:
    """A deadline or a connection that failed (timeout first: it is a connection error too)."""
    import openai

    if isinstance(exc, TimeoutError | openai.APITimeoutError):
        return Failure("timeout", "the call's deadline ran out", cooldown="endpoint")
    if isinstance(exc, openai.APIConnectionError):
        cause = _transport_name(exc)
        if cause in ("ConnectError", "ConnectTimeout", "UnsupportedProtocol", "gaierror", ""):
            detail = _short(exc.__cause__ or exc.message) or "connection refused"
            return Failure("unreachable", detail, cooldown="endpoint")
        detail = _short(exc.__cause__ or "") or "closed before any answer"
        return Failure("reset", f"{detail} ({cause})", same_endpoint=True)
    return None


def _status_failure(exc: BaseException) -> Failure | None:
    """An HTTP error status: rate limits, refusals and overflows, format and parameter
    rejections, credentials, a missing model, then the status itself."""
    import openai

    if isinstance(exc, openai.RateLimitError):
        ra = retry_after_seconds(exc)
        return Failure(
            "rate_limited",
            _short(status_message(exc)) + (f"; retry after {ra:.1f} s" if ra is not None else ""),
            retryable=True,
            cooldown="model",
            retry_after=ra,
        )
    if not isinstance(exc, openai.APIStatusError):
        return None
    special = refusal_or_overflow(exc)
    if special is not None:
        return special
    fmt = format_failure(exc)
    if fmt is not None and not (
        isinstance(exc, openai.BadRequestError) and (exc.param or "").lower() in _PARAM_ADAPTS
    ):
        return fmt
    if isinstance(exc, openai.BadRequestError):
        return _bad_request(exc)
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return Failure(
            "auth", f"{exc.status_code}: {_short(status_message(exc))}", cooldown="endpoint"
        )
    if isinstance(exc, openai.NotFoundError):
        return Failure("model_missing", _short(status_message(exc)), cooldown="model")
    status = exc.status_code
    if status >= 500 or status in (408, 409):
        label = "overloaded" if status in (502, 503, 504, 529) else "server_error"
        return Failure(
            label,
            f"{status}: {_short(status_message(exc))}",
            retryable=True,
            breaker=status >= 500,
            retry_after=retry_after_seconds(exc),
        )
    return Failure("bad_request", f"{status}: {_short(status_message(exc))}")


def _body_failure(exc: BaseException) -> Failure | None:
    """A 200 whose body is not the answer, or a credential the provider could not get."""
    import openai

    if isinstance(exc, openai.APIResponseValidationError):
        return Failure("bad_response", _short(exc.message))
    if isinstance(exc, BadResponse):
        return Failure("bad_response", _short(exc), retryable=True)
    if isinstance(exc, json.JSONDecodeError):  # a 200 whose body is not JSON (a proxy page, say)
        return Failure("bad_response", f"answer body is not JSON: {_short(exc)}", retryable=True)
    if _is_auth_provider_error(exc):
        return Failure("auth", f"credential unavailable: {_short(exc)}", cooldown="endpoint")
    return None


def _is_auth_provider_error(exc: BaseException) -> bool:
    """azure-identity errors reach us unwrapped (not openai errors); match by class name and module."""
    if isinstance(exc, AuthUnavailable):
        return True
    for cls in type(exc).__mro__:
        if cls.__module__.startswith("azure.") and "Authentication" in cls.__name__:
            return True
        if cls.__name__ in ("CredentialUnavailableError", "ClientAuthenticationError"):
            return True
    return False
