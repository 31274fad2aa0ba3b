"""Parameter adaptation and the JSON-mode ladder: learned from the 400's param/code, remembered."""

from __future__ import annotations

from engine.routing import Router
from tests.routing.artifacts import GOOD, Pitch, simulate
from tests.routing.helpers import local_router, local_settings, req


def test_temperature_dropped_and_remembered_per_deployment(fake_openai):
    router = local_router(fake_openai, rejects=("temperature",))
    first = router.call(req(), simulate)
    assert first.served_by == "local"
    assert first.adaptations == ["temperature_dropped"]
    assert [a.outcome for a in first.attempts] == ["error", "ok"]
    assert first.attempts[0].error.startswith("bad_param: temperature")
    second = router.call(req(), simulate)
    assert second.adaptations == [] and len(second.attempts) == 1
    assert "temperature" not in fake_openai.chat_requests[-1].body


def test_max_tokens_switches_to_max_completion_tokens(fake_openai):
    router = local_router(fake_openai, rejects=("max_tokens",))
    result = router.call(req(), simulate)
    assert result.served_by == "local"
    assert result.adaptations == ["token_param:max_completion_tokens"]
    assert fake_openai.chat_requests[-1].body["max_completion_tokens"] == 400
    router.call(req(), simulate)
    assert "max_tokens" not in fake_openai.chat_requests[-1].body


def test_json_ladder_steps_to_json_object_and_remembers(fake_openai):
    router = local_router(fake_openai, rejects=("json_schema",))
    result = router.call(req(), simulate)
    assert result.served_by == "local"
    assert result.adaptations == ["json_mode:json_object_schema"]
    sent = fake_openai.chat_requests[-1].body["response_format"]
    assert sent["type"] == "json_object" and sent["schema"] == Pitch.model_json_schema()
    again = router.call(req("designer"), simulate)
    assert again.adaptations == []  # remembered per (endpoint, model), for every role on it
    assert fake_openai.chat_requests[-1].body["response_format"]["type"] == "json_object"


def test_json_ladder_reaches_prompt_only(fake_openai_factory):
    server = fake_openai_factory("llamacpp", payload=GOOD, rejects=("response_format",))
    router = Router(local_settings(server.url))
    result = router.call(req(), simulate)
    assert result.served_by == "local"
    assert result.adaptations == [
        "json_mode:json_object_schema",
        "json_mode:json_object",
        "json_mode:none",
    ]
    assert "response_format" not in server.chat_requests[-1].body
    assert '"title"' in server.chat_requests[-1].body["messages"][0]["content"]


def test_scripted_bad_temperature_adapts_once(fake_openai):
    result = local_router(fake_openai, "bad_temperature").call(req(), simulate)
    assert result.served_by == "local"
    assert result.adaptations == ["temperature_dropped"]
