"""Error taxonomy: type/status/code/param decide the label, never message text alone."""

from __future__ import annotations

import httpx2
import openai
import pytest

from engine.routing.errors import classify, retry_after_seconds
from worldforge_azurehttp import AuthUnavailable, token_provider


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


@pytest.mark.parametrize(
    ("status", "error"),
    [
        # OpenAI / Azure / llama-cpp-python: the code says it
        (400, {"message": "too long", "code": "context_length_exceeded", "param": "messages"}),
        # llama.cpp's own server: a type, no code
        (
            400,
            {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
            },
        ),
        # vLLM: BadRequestError with the message only
        (
            400,
            {
                "message": "This model's maximum context length is 4096 tokens. However, you "
                "requested 5000 tokens (4800 in the messages, 200 in the completion).",
                "type": "BadRequestError",
                "code": 400,
            },
        ),
        # LM Studio
        (
            400,
            {
                "message": "Trying to keep the first 5210 tokens when context the overflows. "
                "However, the model is loaded with context length of only 4096 tokens"
            },
        ),
        # Ollama
        (400, {"message": "the input length exceeds the context length"}),
        # TGI (422)
        (
            422,
            {
                "message": "Input validation error: `inputs` tokens + `max_new_tokens` must be "
                "<= 4096. Given: 4000 `inputs` tokens and 200 `max_new_tokens`"
            },
        ),
    ],
)
def test_context_overflow_from_every_runtime_is_labelled(status, error):
    cls = openai.BadRequestError if status == 400 else openai.UnprocessableEntityError
    failure = classify(_status_error(cls, status, {"error": error}))
    assert failure.label == "context_window" and failure.words == "context too long"
    assert not failure.retryable and not failure.same_endpoint


@pytest.mark.parametrize(
    "error",
    [
        {"message": "filtered", "code": "content_filter", "param": "prompt"},
        {"message": "Your request was rejected", "code": "content_policy_violation"},
        {
            "message": "The response was filtered",
            "code": "invalid_prompt",
            "innererror": {"code": "ResponsibleAIPolicyViolation"},
        },
    ],
)
def test_content_filter_refusals_are_final_with_their_reason(error):
    failure = classify(_status_error(openai.BadRequestError, 400, {"error": error}))
    assert failure.label == "content_filtered" and failure.final
    assert failure.reason.startswith("refused by the content filter (")


def test_a_plain_bad_request_is_not_an_overflow():
    failure = classify(
        _status_error(openai.BadRequestError, 400, {"error": {"message": "bad role 'robot'"}})
    )
    assert failure.label == "bad_request"


def test_503_counts_toward_the_breaker_and_a_reset_is_retried_in_place():
    over = classify(_status_error(openai.InternalServerError, 503, {"error": {"message": "busy"}}))
    assert over.label == "overloaded" and over.breaker and over.retryable
    request = httpx2.Request("POST", "http://127.0.0.1/v1")
    reset = openai.APIConnectionError(request=request)
    reset.__cause__ = httpx2.RemoteProtocolError("Server disconnected without sending a response.")
    failure = classify(reset)
    assert failure.label == "reset" and failure.same_endpoint and failure.cooldown is None
    refused = openai.APIConnectionError(request=request)
    refused.__cause__ = httpx2.ConnectError("All connection attempts failed")
    assert classify(refused).label == "unreachable" and classify(refused).cooldown == "endpoint"
