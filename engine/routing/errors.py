"""Error taxonomy: map an exception from one attempt to a label and the router's next action.

Classification reads the exception type, HTTP status, `code` and `param`, never message text alone.
"""

from __future__ import annotations

import email.utils
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # the SDK is heavy (~0.5 s): imported only once a model tier is used
    import openai

from azurehttp import AuthUnavailable

Action = Literal["retry", "adapt", "next", "wait_retry"]
Adapt = Literal["temperature", "token_param", "response_format", "stream_options"]
FORMAT_STATUSES = (400, 404, 422, 500)  # where servers say they cannot take the request's format
Scope = Literal["endpoint", "model"]


class BadResponse(ValueError):
    """A 200 whose body is not a chat completion (a proxy's HTML page, say)."""


@dataclass(frozen=True)
class Failure:
    """What went wrong in one attempt and what to do about it."""

    label: str
    detail: str
    retryable: bool = False
    adapt: Adapt | None = None
    cooldown: Scope | None = None
    retry_after: float | None = None


_PARAM_ADAPTS = ("temperature", "max_tokens", "max_completion_tokens")


def _short(text: object, limit: int = 160) -> str:
    """One line of an endpoint's error text, scrubbed of configured keys and credentials (the one
    boundary every model and Azure error detail passes on its way to events, logs and screens)."""
    from memory.scrub import scrub

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
        try:
            when = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - time.time())


def _bad_request(exc: openai.BadRequestError) -> Failure:
    param = (exc.param or "").lower()
    code = (exc.code or "").lower()
    message = _short(exc.message)
    if code == "content_filter" or "content_filter" in code:
        return Failure("content_filtered", message)
    if code == "context_length_exceeded":
        return Failure("context_window", message)
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
    if (exc.code or "") in ("context_length_exceeded", "content_filter"):
        return None
    text = _body_text(exc)
    if param.startswith("response_format") or "response_format" in text:
        return Failure(
            "bad_param", f"response_format: {_short(exc.message)}", adapt="response_format"
        )
    if param.startswith("stream_options") or "stream_options" in text:
        return Failure(
            "bad_param", f"stream_options: {_short(exc.message)}", adapt="stream_options"
        )
    return None


def classify(exc: BaseException) -> Failure:
    """Label an attempt's exception (timeout is checked before connection: it is a subclass)."""
    import openai

    if isinstance(exc, TimeoutError | openai.APITimeoutError):
        return Failure(
            "timeout", "no answer within the deadline", retryable=True, cooldown="endpoint"
        )
    if isinstance(exc, openai.APIConnectionError):
        return Failure("unreachable", _short(exc.__cause__ or exc.message), cooldown="endpoint")
    if isinstance(exc, openai.RateLimitError):
        return Failure(
            "rate_limited",
            _short(exc.message),
            retryable=True,
            cooldown="model",
            retry_after=retry_after_seconds(exc),
        )
    if isinstance(exc, openai.APIStatusError):
        fmt = format_failure(exc)
        if fmt is not None and not (
            isinstance(exc, openai.BadRequestError) and (exc.param or "").lower() in _PARAM_ADAPTS
        ):
            return fmt
    if isinstance(exc, openai.BadRequestError):
        return _bad_request(exc)
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return Failure("auth", f"{exc.status_code}: {_short(exc.message)}", cooldown="endpoint")
    if isinstance(exc, openai.NotFoundError):
        return Failure("model_missing", _short(exc.message), cooldown="model")
    if isinstance(exc, openai.APIStatusError):
        if exc.status_code >= 500 or exc.status_code in (408, 409):
            return Failure(
                "server_error", f"{exc.status_code}: {_short(exc.message)}", retryable=True
            )
        return Failure("bad_request", f"{exc.status_code}: {_short(exc.message)}")
    if isinstance(exc, openai.APIResponseValidationError):
        return Failure("bad_response", _short(exc.message))
    if isinstance(exc, BadResponse):
        return Failure("bad_response", _short(exc), retryable=True)
    if isinstance(exc, json.JSONDecodeError):  # a 200 whose body is not JSON (a proxy page, say)
        return Failure("bad_response", f"answer body is not JSON: {_short(exc)}", retryable=True)
    if _is_auth_provider_error(exc):
        return Failure("auth", f"credential unavailable: {_short(exc)}", cooldown="endpoint")
    return Failure("internal_error", f"{type(exc).__name__}: {_short(exc)}")


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
