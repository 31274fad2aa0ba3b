"""The Foundry IQ tier against a loopback server: success, failures, parking, labels and fallback."""

from __future__ import annotations

import socket
import threading
import time
from types import SimpleNamespace

import pytest

from knowledge import FoundryIQ, IQError, Knowledge
from knowledge.iq import DEFAULT_SCOPE, MAX_QUERY_CHARS, default_token_provider, parse_retrieve
from knowledge.models import HIT_TEXT_LIMIT

TOKEN = "tok-SECRET-123"


def _token() -> str:
    return TOKEN


def _knowledge(server, *, timeout_s: float = 2.0, provider=_token) -> Knowledge:
    return Knowledge(server.url, "wf-playbooks", provider, timeout_s=timeout_s)


def test_success_serves_labelled_iq_hits_and_sends_the_documented_request(iq_server):
    knowledge = _knowledge(iq_server)
    hits = knowledge.search("how do we price seats", top_k=2)
    assert [h.origin for h in hits] == ["foundry-iq", "foundry-iq"]
    assert [h.source for h in hits] == ["kb/churn.md", "kb/pricing.md"]
    assert hits[0].score == pytest.approx(3.1)
    request = iq_server.requests[0]
    assert request["path"] == "/knowledgebases/wf-playbooks/retrieve"
    assert request["query"]["api-version"] == ["2025-11-01-preview"]
    assert request["auth"] == f"Bearer {TOKEN}"
    assert request["body"]["intents"] == [{"type": "semantic", "search": "how do we price seats"}]
    status = knowledge.status()
    assert status["tier"] == "foundry-iq" and status["iq_configured"] and not status["iq_parked"]
    assert status["last_origin"] == "foundry-iq"


def test_response_and_references_shape_joins_chunks_to_references(iq_server):
    iq_server.mode = "response"
    hits = _knowledge(iq_server).search("runway", top_k=5)
    assert [(h.source, h.title, h.origin) for h in hits] == [
        ("doc-runway", "Runway memo", "foundry-iq"),
        ("doc-mrr", "MRR memo", "foundry-iq"),
    ]
    assert hits[0].text == "Runway is cash divided by net burn."


def test_top_k_limits_iq_hits(iq_server):
    assert len(_knowledge(iq_server).search("pricing", top_k=1)) == 1


@pytest.mark.parametrize(
    ("mode", "reason_prefix"),
    [
        ("401", "HTTP 401"),
        ("500", "HTTP 500"),
        ("garbage", "bad response: not JSON"),
        ("wrong-shape", "bad response: no results"),
        ("hang", "timeout after"),
        ("trickle", "timeout after"),
    ],
)
def test_failure_falls_back_to_local_and_parks_for_the_session(iq_server, mode, reason_prefix):
    iq_server.mode = mode
    # a short budget only where the server is meant to outlast it; an answer that comes at once
    # must be read as that answer, however loaded the machine is
    knowledge = _knowledge(iq_server, timeout_s=0.4 if mode in ("hang", "trickle") else 30.0)
    hits = knowledge.search("burn runway breakeven", top_k=2)
    assert hits and all(h.origin == "local-knowledge" for h in hits)
    assert hits[0].source.startswith("playbooks/finance.md")
    status = knowledge.status()
    assert status["tier"] == "local-knowledge"
    assert status["iq_parked"] is True
    assert status["parked_reason"].startswith(reason_prefix)
    assert TOKEN not in str(status)
    iq_server.mode = "results"
    again = knowledge.search("churn", top_k=2)
    assert all(h.origin == "local-knowledge" for h in again)
    assert len(iq_server.requests) == 1, "a parked tier must not be called again"


def test_refused_connection_parks_with_a_transport_reason():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    knowledge = Knowledge(f"http://127.0.0.1:{port}", "kb", _token, timeout_s=1.0)
    hits = knowledge.search("churn retention")
    assert hits and hits[0].origin == "local-knowledge"
    assert knowledge.status()["parked_reason"].startswith("transport:")


def test_failing_token_provider_parks_without_leaking_its_message(iq_server):
    def broken() -> str:
        raise RuntimeError(f"cannot mint {TOKEN}")

    knowledge = _knowledge(iq_server, provider=broken)
    hits = knowledge.search("pods spans")
    assert hits and hits[0].origin == "local-knowledge"
    status = knowledge.status()
    assert status["parked_reason"] == "auth: RuntimeError"
    assert TOKEN not in str(status)
    assert iq_server.requests == []


def test_empty_iq_answer_is_served_locally_without_parking(iq_server):
    iq_server.mode = "empty"
    knowledge = _knowledge(iq_server)
    hits = knowledge.search("launch sequence channels")
    assert hits and hits[0].origin == "local-knowledge"
    assert knowledge.status()["iq_parked"] is False
    iq_server.mode = "results"
    assert knowledge.search("pricing")[0].origin == "foundry-iq"


def test_long_hostile_query_is_cleaned_and_capped_before_it_leaves(iq_server):
    knowledge = _knowledge(iq_server)
    hits = knowledge.search("[b]burn[/]\x00 " + "runway " * 200_000)
    assert hits and hits[0].origin == "foundry-iq"
    sent = iq_server.requests[0]["body"]["intents"][0]["search"]
    assert len(sent) <= MAX_QUERY_CHARS
    assert "\x00" not in sent


def test_unconfigured_or_half_configured_knowledge_is_local_only(iq_server):
    for knowledge in (
        Knowledge(),
        Knowledge(iq_server.url, None, _token),
        Knowledge(None, "kb"),
        Knowledge("  ", "kb", _token),
    ):
        hits = knowledge.search("net promoter score")
        assert hits and hits[0].origin == "local-knowledge"
        assert knowledge.status()["iq_configured"] is False
        assert knowledge.status()["tier"] == "local-knowledge"
    assert iq_server.requests == []


def test_invalid_endpoint_parks_instead_of_crashing():
    knowledge = Knowledge("not a url at all", "kb", _token, timeout_s=0.5)
    assert knowledge.search("burn runway")[0].origin == "local-knowledge"
    assert knowledge.status()["iq_parked"] is True


def test_parked_client_raises_iq_error_directly(iq_server):
    iq_server.mode = "500"
    client = FoundryIQ(iq_server.url, "kb", _token, timeout_s=1.0)
    with pytest.raises(IQError, match="HTTP 500"):
        client.retrieve("x y z")
    with pytest.raises(IQError, match="parked: HTTP 500"):
        client.retrieve("x y z")
    assert len(iq_server.requests) == 1


def test_ga_api_version_omits_preview_only_fields(iq_server):
    client = FoundryIQ(iq_server.url, "kb/with space", _token, api_version="2026-04-01")
    client.retrieve("burn")
    request = iq_server.requests[0]
    assert request["path"] == "/knowledgebases/kb%2Fwith%20space/retrieve"
    assert "retrievalReasoningEffort" not in request["body"]
    assert "outputMode" not in request["body"]


def test_parse_tolerates_odd_items_and_clips_text():
    body = {
        "results": [
            "not a dict",
            None,
            {"title": "no text"},
            {"content": "y" * 5000, "score": float("nan"), "id": "a"},
            {
                "sourceData": {"content": "from source data", "title": "SD"},
                "docKey": "d1",
                "rerankerScore": 1,
            },
        ]
    }
    hits = parse_retrieve(body)
    assert [h.source for h in hits] == ["d1", "a"]
    assert hits[0].title == "SD" and hits[0].score == 1.0
    assert len(hits[1].text) <= HIT_TEXT_LIMIT and hits[1].score == 0.0


def test_parse_rejects_non_objects_and_unknown_shapes():
    bodies: tuple[object, ...] = ([1, 2], "text", None, {"value": []})
    for body in bodies:
        with pytest.raises(IQError):
            parse_retrieve(body)


def test_parse_response_text_that_is_not_json_becomes_one_passage():
    body = {"response": [{"content": [{"type": "text", "text": "Plain synthesized answer."}]}]}
    hits = parse_retrieve(body)
    assert len(hits) == 1 and hits[0].text == "Plain synthesized answer."
    assert hits[0].origin == "foundry-iq"


def test_slow_token_provider_is_bounded_by_the_deadline(iq_server):
    gate = threading.Event()

    def stuck() -> str:
        gate.wait(10)
        return TOKEN

    knowledge = _knowledge(iq_server, timeout_s=0.3, provider=stuck)
    try:
        hits = knowledge.search("burn runway")
        assert hits and hits[0].origin == "local-knowledge"
        assert knowledge.status()["parked_reason"] == "auth: token provider timed out"
        assert iq_server.requests == []
    finally:
        gate.set()


class _CountingCredential:
    """A stand-in credential with azure-identity's get_token shape that counts how often it mints."""

    def __init__(self, lifetime_s: float) -> None:
        self.lifetime_s = lifetime_s
        self.calls: list[str] = []

    def get_token(self, scope: str) -> SimpleNamespace:
        self.calls.append(scope)
        return SimpleNamespace(
            token=f"t{len(self.calls)}", expires_on=int(time.time() + self.lifetime_s)
        )


def test_default_provider_reuses_a_fresh_token_and_renews_a_stale_one():
    fresh = _CountingCredential(lifetime_s=3600)
    provide = default_token_provider(credential=fresh)
    assert [provide(), provide(), provide()] == ["t1", "t1", "t1"]
    assert fresh.calls == [DEFAULT_SCOPE]
    stale = _CountingCredential(lifetime_s=60)
    provide = default_token_provider("https://example.invalid/.default", credential=stale)
    assert [provide(), provide()] == ["t1", "t2"]
    assert stale.calls == ["https://example.invalid/.default"] * 2


def test_default_provider_token_reaches_the_server_as_a_bearer(iq_server):
    provide = default_token_provider(credential=_CountingCredential(lifetime_s=3600))
    hits = Knowledge(iq_server.url, "kb", provide).search("pricing")
    assert hits[0].origin == "foundry-iq"
    assert iq_server.requests[0]["auth"] == "Bearer t1"


def test_iq_tier_uses_the_search_endpoint_not_the_foundry_project(monkeypatch):
    from engine.config import load_settings
    from engine.session.founding import knowledge_for

    monkeypatch.setenv("DEMO_MODE", "live")
    monkeypatch.setenv(
        "FOUNDRY_PROJECT_ENDPOINT", "https://acct.services.ai.azure.com/api/projects/p"
    )
    monkeypatch.setenv("FOUNDRY_IQ_KNOWLEDGE_BASE", "wf-playbooks")
    assert knowledge_for(load_settings()).iq is None  # a project endpoint holds no knowledge bases
    monkeypatch.setenv("AZURE_SEARCH_ENDPOINT", "https://search1.search.windows.net/")
    iq = knowledge_for(load_settings()).iq
    assert iq is not None
    assert iq.url.startswith("https://search1.search.windows.net/knowledgebases/wf-playbooks/")
    monkeypatch.setenv("DEMO_MODE", "simulation")
    assert knowledge_for(load_settings()).iq is None  # simulation never leaves the machine
