"""The runtimes the README names, each through a loopback fake of its documented dialect
(tests/servers/runtimes.py): served locally, its context window read where it says it, a request
sized to fit (or not sent, with the line that names the setting), and its errors labelled."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator

import pytest

from engine.routing import Router
from tests.routing.artifacts import GOOD, simulate
from tests.routing.helpers import local_settings, req
from tests.servers.runtimes import DIALECTS, RuntimeFake

MODEL = "qwen2.5:7b"


@pytest.fixture
def runtime(request) -> Iterator[RuntimeFake]:
    dialect, kw = request.param if isinstance(request.param, tuple) else (request.param, {})
    with RuntimeFake(dialect, model=MODEL, answer=json.dumps(GOOD), **kw) as server:
        yield server


def _router(server: RuntimeFake, **extra) -> Router:
    settings = local_settings(
        server.url, local_agent_model=MODEL, agent_request_timeout=10.0, **extra
    )
    return Router(settings, caps_cache=False)


def _big(tokens: int, max_tokens: int = 1500):
    """A stage request whose brief is about `tokens` tokens (at the fakes' four characters each)."""
    return dataclasses.replace(
        req(), user="word " * (tokens * 4 // 5), max_output_tokens=max_tokens
    )


def _window(router: Router) -> dict | None:
    return next(iter(router.status()["context_windows"].values()), None)


@pytest.mark.parametrize("runtime", list(DIALECTS), indirect=True)
def test_each_runtime_serves_a_stage_locally(runtime):
    result = _router(runtime).call(req(), simulate)
    assert result.served_by == "local" and result.fallback_reason is None
    assert result.output == GOOD


@pytest.mark.parametrize(
    ("runtime", "window"),
    [
        (("ollama", {"loaded": False}), {"tokens": 4096, "source": "ollama_default"}),
        (("ollama", {"window": 8192}), {"tokens": 8192, "source": "ollama"}),
        (
            ("ollama", {"window": 16384, "loaded": False, "num_ctx_in_modelfile": True}),
            {"tokens": 16384, "source": "ollama"},
        ),
        (("llamacpp", {"window": 8192}), {"tokens": 8192, "source": "llama.cpp"}),
        (("vllm", {"window": 32768}), {"tokens": 32768, "source": "vllm"}),
        (("lmstudio", {"window": 8192}), {"tokens": 8192, "source": "lmstudio"}),
        ("foundry_local", None),
    ],
    indirect=["runtime"],
)
def test_the_context_window_is_read_where_the_runtime_says_it(runtime, window):
    router = _router(runtime)
    assert router.call(_big(1000), simulate).served_by == "local"
    assert _window(router) == window


@pytest.mark.parametrize("runtime", [("ollama", {"loaded": False})], indirect=True)
def test_ollama_default_window_caps_the_answer_to_fit(runtime):
    """A 3,500-token brief with a 1,500-token cap in Ollama's 4,096 default: Ollama would cut the
    prompt's head (its system part) without a word; the router lowers the cap to fit instead."""
    result = _router(runtime).call(_big(3000), simulate)
    assert result.served_by == "local", result.fallback_reason
    sent = runtime.chats[-1]["max_tokens"]
    assert sent < 1500 and any(a == f"max_tokens_fit:{sent}" for a in result.adaptations)


@pytest.mark.parametrize("runtime", [("ollama", {"loaded": False})], indirect=True)
def test_a_window_too_small_gets_a_clear_line_before_the_call(runtime):
    result = _router(runtime).call(_big(3900), simulate)
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: context too long (this stage needs about ")
    assert "context window is 4,096 (Ollama's default; set OLLAMA_CONTEXT_LENGTH" in (
        result.fallback_reason
    )
    assert runtime.chats == []  # nothing was sent
    assert result.attempts[0].outcome == "skipped"


@pytest.mark.parametrize("runtime", [("ollama", {"loaded": False})], indirect=True)
def test_the_setting_names_the_window_where_the_server_cannot(runtime):
    router = _router(runtime, local_context_window=32768)
    assert router.call(_big(3900), simulate).served_by == "local"
    assert _window(router) == {"tokens": 32768, "source": "settings"}
    assert not [r for r in runtime.requests if r[1].startswith("/api/")]  # no look-up needed


@pytest.mark.parametrize(
    "runtime", [(d, {"window": 4096}) for d in DIALECTS if d != "ollama"], indirect=True
)
def test_each_runtimes_own_overflow_error_is_labelled(runtime):
    """Sent anyway (the setting claims a larger window): each runtime's refusal reads as
    'context too long', never as a retryable fault."""
    result = _router(runtime, local_context_window=65536).call(_big(5000), simulate)
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: context too long"), result.fallback_reason
    assert len(runtime.chats) == 1


@pytest.mark.parametrize("runtime", list(DIALECTS), indirect=True)
def test_each_runtimes_missing_model_error_is_labelled(runtime):
    router = Router(
        local_settings(runtime.url, local_agent_model="not-pulled", agent_request_timeout=10.0),
        caps_cache=False,
    )
    result = router.call(req(), simulate)
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("local: model not found"), result.fallback_reason


@pytest.mark.parametrize("runtime", ["lmstudio"], indirect=True)
def test_lm_studio_refuses_json_object_and_the_router_steps_past_it(runtime, tmp_path):
    """LM Studio takes only json_schema or text: a deployment learned on json_object (another
    server at this address before, say) is refused with its string error and steps down."""
    from engine.routing.health import Capabilities, DeploymentCaps

    caps = Capabilities(tmp_path / "caps.json")
    caps.learn(runtime.url, MODEL, DeploymentCaps(json_mode="json_object"))
    router = Router(
        local_settings(runtime.url, local_agent_model=MODEL), caps_cache=tmp_path / "caps.json"
    )
    result = router.call(req(), simulate)
    assert result.served_by == "local" and "json_mode:none" in result.adaptations


def _recalling(notes: int, note_tokens: int, brief_tokens: int):
    """A stage request whose system part holds `notes` recalled lines of about `note_tokens`
    tokens each (the last the least important) beside a brief of about `brief_tokens` tokens."""
    lines = [f"- [n{i}] " + "memo " * (note_tokens * 4 // 5) for i in range(notes)]
    base = _big(brief_tokens)
    return dataclasses.replace(
        base,
        system="Binding: keep the price at 12.\n" + "\n".join(lines),
        recalled=tuple(reversed(lines)),
    )


@pytest.mark.parametrize("runtime", [("ollama", {"loaded": False})], indirect=True)
def test_the_brief_is_trimmed_to_a_small_window_least_important_first(runtime):
    """3,000 tokens of brief and 1,200 of recalled notes in Ollama's 4,096 default: notes are left
    out, the weakest first, until an answer fits, and the brief, the trace and the pill say so."""
    router = _router(runtime)
    result = router.call(_recalling(6, 200, 3000), simulate)
    assert result.served_by == "local", result.fallback_reason
    system = runtime.chats[-1]["messages"][0]["content"]
    trimmed = [a for a in result.adaptations if a.startswith("brief_trimmed:")]
    assert trimmed, result.adaptations
    dropped = int(trimmed[0].split(":")[1])
    assert 0 < dropped < 6
    assert "Binding: keep the price at 12." in system  # never trimmed
    assert "[n0]" in system and f"[n{5}]" not in system  # the least important went first
    assert f"Left out to fit the model's context window: {dropped} recalled lines" in system
    assert f"brief trimmed to fit: {dropped} recalled lines out" in router.pill()


@pytest.mark.parametrize("runtime", [("ollama", {"loaded": False})], indirect=True)
def test_a_brief_too_big_even_trimmed_is_refused_in_one_line_naming_the_setting(runtime):
    result = _router(runtime).call(_recalling(3, 100, 3900), simulate)
    assert result.served_by == "simulation"
    reason = result.fallback_reason
    assert reason.startswith("local: context too long (this stage needs about "), reason
    assert "set OLLAMA_CONTEXT_LENGTH" in reason and "even with 3 recalled lines left out" in reason
    assert runtime.chats == []  # nothing was sent


def test_a_call_made_while_the_start_up_probe_holds_a_one_slot_server_is_not_kept_waiting():
    """llama-server with one slot serves one request at a time: a stage call made while the
    start-up probe is being read (the server takes 30 s over it; the probe waits up to the 8 s
    budget) used to queue behind it and fall back silent at its first-token limit (3 s). The
    probe now gives way: it is cancelled, the server frees the slot, and the call is served."""
    with RuntimeFake(
        "llamacpp",
        model=MODEL,
        answer=json.dumps(GOOD),
        one_slot=True,
        slow_first=1,
        slow_first_s=30.0,
    ) as server:
        router = Router(
            local_settings(
                server.url,
                local_agent_model=MODEL,
                agent_request_timeout=8.0,
                agent_first_token_timeout=3.0,
            ),
            caps_cache=False,
        )
        pace = router.measure_pace()
        for _ in range(1000):  # the probe has reached the server and holds its slot
            if server.chats or pace.done():
                break
            time.sleep(0.01)
        assert server.chats and not pace.done()
        result = router.call(req(), simulate)
        assert result.served_by == "local", result.fallback_reason
        rows = pace.result(timeout=10)
        assert rows and rows[0]["error"] == "gave way to a model call"
        assert len(server.chats) == 2  # the probe, then the call: no probe after it
