"""Every routing mode × tier health: runtime label, who serves, what was tried, the fallback chain."""

from __future__ import annotations

import pytest

from engine.config import Settings
from engine.routing import Router
from tests.routing.artifacts import GOOD, SIMULATED, simulate
from tests.routing.helpers import outcomes, req
from tests.servers.openai_server import refused_url

L, F, S = "local", "foundry", "simulation"
OK, ERR, INV = "ok", "error", "invalid"

# (demo_mode, routing, local health, cloud health) → (runtime label, served_by, attempts)
TABLE = [
    ("simulation", "local_first", "up", "up", S, S, []),
    ("simulation", "cloud_only", "up", "up", S, S, []),
    ("local", "local_first", "up", "absent", L, L, [(L, OK)]),
    ("local", "local_first", "down", "absent", L, S, [(L, ERR)]),
    ("local", "local_first", "absent", "up", S, S, []),
    ("local", "local_only", "up", "up", L, L, [(L, OK)]),
    ("local", "cloud_first", "up", "up", L, L, [(L, OK)]),
    ("local", "cloud_only", "up", "up", S, S, []),
    ("live", "local_first", "up", "up", "hybrid", L, [(L, OK)]),
    ("live", "local_first", "down", "up", "hybrid", F, [(L, ERR), (F, OK)]),
    ("live", "local_first", "bad", "up", "hybrid", F, [(L, INV), (L, INV), (F, OK)]),
    ("live", "local_first", "down", "down", "hybrid", S, [(L, ERR), (F, ERR)]),
    ("live", "cloud_first", "up", "up", "hybrid", F, [(F, OK)]),
    ("live", "cloud_first", "up", "down", "hybrid", L, [(F, ERR), (L, OK)]),
    ("live", "cloud_first", "up", "hang", "hybrid", L, [(F, ERR), (L, OK)]),
    ("live", "local_first", "hang", "hang", "hybrid", S, [(L, ERR), (F, ERR)]),
    ("live", "local_only", "up", "up", L, L, [(L, OK)]),
    ("live", "local_only", "down", "up", L, S, [(L, ERR)]),
    ("live", "local_only", "absent", "up", S, S, []),
    ("live", "cloud_only", "up", "up", "live", F, [(F, OK)]),
    ("live", "cloud_only", "up", "down", "live", S, [(F, ERR)]),
    ("live", "local_first", "absent", "up", "live", F, [(F, OK)]),
    ("live", "local_first", "up", "absent", L, L, [(L, OK)]),
    ("live", "local_first", "absent", "absent", S, S, []),
]


def _endpoint(health: str, factory, flavour: str) -> str | None:
    if health == "absent":
        return None
    if health == "down":
        return refused_url()
    server = factory(flavour, payload=GOOD, rejects=(), models=("qwen2.5", "gpt-5-mini"))
    if health == "bad":
        server.set_default("invalid_schema")
    elif health == "hang":
        server.set_default("hang")
    return server.url


@pytest.mark.parametrize(("mode", "routing", "local", "cloud", "label", "served", "tried"), TABLE)
def test_mode_by_health(fake_openai_factory, mode, routing, local, cloud, label, served, tried):
    settings = Settings(
        demo_mode=mode,
        agent_routing=routing,
        local_agent_base_url=_endpoint(local, fake_openai_factory, "ollama"),
        local_agent_model="qwen2.5",
        foundry_base_url=_endpoint(cloud, fake_openai_factory, "azure"),
        foundry_api_key="test-key",
        strategist_model="gpt-5-mini",
        agent_request_timeout=2.0 if "hang" in (local, cloud) else 3.0,
    )
    router = Router(settings)
    assert router.runtime_label() == label
    result = router.call(req(), simulate)
    assert result.served_by == served
    assert outcomes(result) == tried
    failed = [t for t, o in tried if o != OK]
    chain = [t for i, t in enumerate(failed) if i == 0 or t != failed[i - 1]]
    expected_hops = list(zip(chain, [*chain[1:], served], strict=False))
    assert [(f.from_tier, f.to_tier) for f in result.fallbacks] == expected_hops
    if served == S:
        assert result.output == SIMULATED and result.model == S
    else:
        assert result.output == GOOD
    assert (result.fallback_reason is None) == (not chain)


def test_replay_serves_recorded_text_and_labels_missing_keys():
    recorded = {
        "stage_1_you/attempt-1": '<think>x</think>```json\n{"title": "Recorded", '
        '"steps": ["a"], "confidence": 9}\n```'
    }
    router = Router(
        Settings(demo_mode="live", foundry_base_url="http://127.0.0.1:9/v1"), replay=recorded
    )
    hit = router.call(req(key="stage_1_you/attempt-1"), simulate)
    assert hit.served_by == "replay" and hit.output["title"] == "Recorded"
    assert hit.raw_text == recorded["stage_1_you/attempt-1"]
    miss = router.call(req(key="stage_2_need/attempt-1"), simulate)
    assert miss.served_by == "simulation"
    assert miss.fallback_reason == "replay: replay_missing (stage_2_need/attempt-1)"
    assert [(f.from_tier, f.to_tier) for f in miss.fallbacks] == [("replay", "simulation")]
    assert router.runtime_label() == "replay"


def test_replay_with_invalid_text_falls_to_simulation():
    router = Router(Settings(), replay={"k": '{"title": "x"}'})
    result = router.call(req(key="k"), simulate)
    assert result.served_by == "simulation"
    assert result.fallback_reason.startswith("replay: replay_invalid")
