"""The foundry tier against an Azure-like loopback deployment: auth, adaptation, 429 fallback model."""

from __future__ import annotations

from engine.routing import Router
from tests.routing.artifacts import GOOD, simulate
from tests.routing.helpers import live_settings, outcomes, req


class CredentialUnavailableError(Exception):
    """Stands in for azure.identity's class of the same name (matched by name, as it arrives)."""


def test_foundry_serves_with_token_provider_called_per_request(fake_openai_factory):
    server = fake_openai_factory(
        "azure", payload=GOOD, models=("gpt-5-mini",), api_key="test-token"
    )
    tokens = []

    def provider() -> str:
        tokens.append(1)
        return "test-token"

    settings = live_settings(server.url, foundry_api_key=None)
    router = Router(settings, token_provider=provider)
    result = router.call(req(), simulate)
    assert result.served_by == "foundry" and result.model == "gpt-5-mini"
    # the azure deployment rejects temperature; max_completion_tokens is its default token field
    assert result.adaptations == ["temperature_dropped"]
    body = server.chat_requests[-1].body
    assert body["max_completion_tokens"] == 400 and "max_tokens" not in body
    assert len(tokens) == len(server.chat_requests) == 2
    assert router.runtime_label() == "live"
    assert router.pill() == "foundry: gpt-5-mini"


def test_api_key_is_sent_as_bearer(fake_openai_factory):
    server = fake_openai_factory("azure", payload=GOOD, api_key="test-key", rejects=())
    result = Router(live_settings(server.url)).call(req(), simulate)
    assert result.served_by == "foundry"
    assert server.chat_requests[0].headers["authorization"] == "Bearer test-key"


def test_credential_error_is_auth_and_parks_the_tier(fake_openai_factory):
    server = fake_openai_factory("azure", payload=GOOD)

    def provider() -> str:
        raise CredentialUnavailableError("no az login")

    router = Router(live_settings(server.url, foundry_api_key=None), token_provider=provider)
    result = router.call(req(), simulate)
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("foundry: not signed in")
    assert server.chat_requests == []
    assert router.call(req(), simulate).attempts[0].outcome == "parked"


def test_401_is_auth_not_retried(fake_openai_factory):
    server = fake_openai_factory("azure", payload=GOOD, api_key="right")
    result = Router(live_settings(server.url, foundry_api_key="wrong")).call(req(), simulate)
    assert result.fallback_reason.startswith("foundry: not signed in (401")
    assert len(server.chat_requests) == 1


def test_long_429_goes_to_the_fallback_model(fake_openai_factory):
    server = fake_openai_factory("azure", payload=GOOD, retry_after=20, rejects=())
    server.script("rate_limit")
    settings = live_settings(server.url, foundry_fallback_model="gpt-4.1-mini")
    result = Router(settings).call(req(), simulate)
    assert result.served_by == "foundry" and result.model == "gpt-4.1-mini"
    assert outcomes(result) == [("foundry", "error"), ("foundry", "ok")]
    assert [(f.from_tier, f.to_tier) for f in result.fallbacks] == [("foundry", "foundry")]
    assert result.fallback_reason.startswith("foundry: rate-limited")
    assert [r.body["model"] for r in server.chat_requests] == ["gpt-5-mini", "gpt-4.1-mini"]


def test_content_filter_is_not_retried(fake_openai_factory):
    server = fake_openai_factory("azure", payload=GOOD, rejects=())
    server.script("content_filter")
    result = Router(live_settings(server.url)).call(req(), simulate)
    assert result.fallback_reason.startswith("foundry: refused by the content filter")
    assert len(server.chat_requests) == 1


def test_project_endpoint_builds_openai_v1_url_and_scope(fake_openai_factory):
    server = fake_openai_factory("azure", payload=GOOD, rejects=())
    project = server.url.removesuffix("/v1") + "/api/projects/demo"
    settings = live_settings(None, foundry_project_endpoint=project)
    assert settings.foundry_openai_url() == project + "/openai/v1"
    assert settings.token_scope() == "https://ai.azure.com/.default"
    assert live_settings("https://x.openai.azure.com/openai/v1").token_scope() == (
        "https://cognitiveservices.azure.com/.default"
    )
