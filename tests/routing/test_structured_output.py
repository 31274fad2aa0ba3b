"""Model text shapes through the router: think blocks, fences, truncation, schema violations, re-ask."""

from __future__ import annotations

import json

import pytest

from engine.routing import Router
from tests.routing.artifacts import GOOD, simulate
from tests.routing.helpers import local_router, local_settings, outcomes, req


@pytest.mark.parametrize("flavour", ["ollama", "llamacpp"])
@pytest.mark.parametrize("fault", ["think", "fenced"])
def test_wrapped_answers_are_extracted(fake_openai_factory, flavour, fault):
    server = fake_openai_factory(flavour, payload=GOOD)
    server.script(fault)
    result = Router(local_settings(server.url)).call(req(), simulate)
    assert result.served_by == "local"
    assert result.output == GOOD
    assert outcomes(result) == [("local", "ok")]


def test_unclosed_think_is_truncated_then_reask_serves(fake_openai):
    result = local_router(fake_openai, "think_unclosed").call(req(), simulate)
    assert result.served_by == "local"
    assert outcomes(result) == [("local", "invalid"), ("local", "ok")]
    assert result.attempts[0].error.startswith("truncated_reasoning")
    reask = fake_openai.chat_requests[1].body["messages"]
    assert reask[-2]["role"] == "assistant"
    assert "truncated_reasoning" in reask[-1]["content"]


def test_schema_violation_reask_quotes_the_validation_error(fake_openai):
    result = local_router(fake_openai, "invalid_schema").call(req(), simulate)
    assert result.served_by == "local"
    last_user = fake_openai.chat_requests[1].body["messages"][-1]["content"]
    assert "title: Field required" in last_user
    assert "confidence" in last_user


def test_two_bad_answers_fall_to_simulation_labelled(fake_openai):
    result = local_router(fake_openai, "truncated", "truncated").call(req(), simulate)
    assert result.served_by == "simulation"
    assert outcomes(result) == [("local", "invalid"), ("local", "invalid")]
    assert result.fallback_reason.startswith("local: answer not valid")
    assert len(fake_openai.chat_requests) == 2


def test_junk_payload_never_crashes(fake_openai):
    fake_openai.set_payload("[/] {{{{ not json <think> ``` \x00")
    result = Router(local_settings(fake_openai.url)).call(req(), simulate)
    assert result.served_by == "simulation"


def test_payload_can_depend_on_the_request(fake_openai):
    fake_openai.set_payload(lambda body: {**GOOD, "title": body["model"] + " plan"})
    result = Router(local_settings(fake_openai.url)).call(req(), simulate)
    assert result.output["title"] == "qwen2.5 plan"
    assert json.loads(result.raw_text)["title"] == "qwen2.5 plan"
