"""Error taxonomy: type/status/code/param decide the label, never message text alone."""

from __future__ import annotations

import httpx2
import openai
import pytest

from azurehttp import AuthUnavailable, token_provider
from engine.routing.errors import classify, retry_after_seconds


def _status_error(cls, status: int, body: dict, headers: dict | None = None):
    request = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx2.Response(status, headers=headers or {}, request=request, json=body)
    return cls(
        message=body.get("error", {}).get("message", "x"), response=response, body=body.get("error")
    )


@pytest.mark.parametrize(
    ("param", "code", "adapt"),
    [
        ("temperature", "unsupported_value", "temperature"),
        ("max_tokens", "unsupported_parameter", "token_param"),
        ("max_completion_tokens", "unsupported_parameter", "token_param"),
        ("response_format.type", "unsupported_value", "response_format"),
    ],
)
def test_bad_request_adaptations(param, code, adapt):
    exc = _status_error(
        openai.BadRequestError, 400, {"error": {"message": "m", "param": param, "code": code}}
    )
    failure = classify(exc)
    assert failure.adapt == adapt and not failure.retryable


def test_message_text_alone_does_not_adapt_temperature():
    exc = _status_error(
        openai.BadRequestError,
        400,
        {"error": {"message": "temperature is weird", "param": None, "code": None}},
    )
    assert classify(exc).adapt is None


def test_retry_after_forms():
    ms = _status_error(
        openai.RateLimitError, 429, {"error": {"message": "slow"}}, {"retry-after-ms": "1500"}
    )
    secs = _status_error(
        openai.RateLimitError, 429, {"error": {"message": "slow"}}, {"retry-after": "7"}
    )
    junk = _status_error(
        openai.RateLimitError, 429, {"error": {"message": "slow"}}, {"retry-after": "soon-ish"}
    )
    assert retry_after_seconds(ms) == 1.5
    assert retry_after_seconds(secs) == 7.0
    assert retry_after_seconds(junk) is None
    assert classify(secs).label == "rate_limited" and classify(secs).retry_after == 7.0


def test_timeout_checked_before_connection_error():
    request = httpx2.Request("POST", "http://127.0.0.1/v1")
    assert classify(openai.APITimeoutError(request)).label == "timeout"
    assert classify(openai.APIConnectionError(request=request)).label == "unreachable"
    assert classify(TimeoutError()).label == "timeout"


def test_auth_shapes():
    assert classify(AuthUnavailable("no azure-identity")).label == "auth"
    assert (
        classify(
            _status_error(openai.PermissionDeniedError, 403, {"error": {"message": "no"}})
        ).label
        == "auth"
    )
    assert (
        classify(_status_error(openai.NotFoundError, 404, {"error": {"message": "gone"}})).label
        == "model_missing"
    )
    assert classify(KeyError("bug")).label == "internal_error"


def test_azure_provider_is_lazy():
    provider = token_provider("https://ai.azure.com/.default")
    assert callable(provider)  # building it touched no credential and no network
