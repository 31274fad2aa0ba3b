"""Enforcement known per schema shape: a local request carries only what a grammar can, and a
server that answers without required fields under a schema it was to hold is marked advisory
for that shape, which is then sent as the contract's plain schema."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from engine.routing import Router
from engine.routing.grammar import carried, shape
from tests.routing.artifacts import GOOD, Pitch, simulate
from tests.routing.helpers import local_settings, req

BOUND: dict[str, Any] = {
    **Pitch.model_json_schema(),
    "$defs": {"Excluded": {"type": "string", "pattern": "chains"}},
}
BOUND["properties"] = {
    **BOUND["properties"],
    "title": {
        "type": "string",
        "minLength": 3,
        "pattern": "^.{0,40}[Dd]ock.{0,40}$",
        "not": {"$ref": "#/$defs/Excluded"},
        "allOf": [{"pattern": "^.*pilot.*$"}],
    },
    "steps": {
        "type": "array",
        "items": {"type": "string"},
        "minItems": 1,
        "maxItems": 3,
        "contains": {"type": "string", "pattern": "^.*shops.*$"},
    },
}


def _keys(node: Any) -> set[str]:
    if isinstance(node, list):
        return set().union(*(_keys(x) for x in node)) if node else set()
    if isinstance(node, dict):
        return set(node) | (set().union(*(_keys(v) for v in node.values())) if node else set())
    return set()


def _sent_schema(body: dict[str, Any]) -> dict[str, Any]:
    fmt = body.get("response_format") or {}
    return fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema") or {}


def _bound_req(key: str):
    return dataclasses.replace(req(key=key), bound_schema=lambda: BOUND)


def test_carried_drops_what_a_grammar_passes_over_and_keeps_what_it_holds():
    out = carried(BOUND)
    keys = _keys(out)
    assert not keys & {"not", "contains", "allOf", "$defs"}, keys
    assert out["properties"]["title"]["pattern"] == BOUND["properties"]["title"]["pattern"]
    assert out["properties"]["steps"]["maxItems"] == 3 and out["required"] == BOUND["required"]
    assert "not" in BOUND["properties"]["title"]  # the original is untouched
    # objects composed with allOf (llama.cpp's one reading of it) and refs still used stay
    composed = {
        "allOf": [{"$ref": "#/$defs/A"}],
        "$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}},
    }
    assert carried(composed) == composed


def test_a_shape_is_the_keywords_where_not_their_values():
    other = json.loads(json.dumps(BOUND).replace("[Dd]ock", "[Bb]ike"))
    assert shape("Pitch", BOUND) == shape("Pitch", other)
    assert shape("Pitch", BOUND) != shape("Pitch", Pitch.model_json_schema())
    assert shape("Pitch", BOUND) != shape("Plan", BOUND)


def test_a_local_request_carries_no_form_its_grammar_cannot(fake_openai):
    """A server whose converter falls back to plain JSON on `not` / `contains` (as
    llama-cpp-python does) would answer without required fields; the router never sends them."""

    def answer(body: dict[str, Any]) -> Any:
        return {"title": "x"} if _keys(_sent_schema(body)) & {"not", "contains"} else GOOD

    fake_openai.set_payload(answer)
    router = Router(local_settings(fake_openai.url), caps_cache=False)
    result = router.call(_bound_req("carried"), simulate)
    assert result.served_by == "local" and result.fallback_reason is None
    assert len(fake_openai.chat_requests) == 1
    sent = _sent_schema(fake_openai.chat_requests[0].body)
    assert sent and not _keys(sent) & {"not", "contains"}
    # the model still reads the whole schema in the system prompt
    system = fake_openai.chat_requests[0].body["messages"][0]["content"]
    assert '"not":{"$ref":"#/$defs/Excluded"}' in system


def test_missing_fields_under_an_enforced_schema_mark_that_shape_advisory(fake_openai, tmp_path):
    """The server ignores any schema with a pattern (answers without required fields): the re-ask
    sends the contract's plain schema and is served; the next call of that shape goes plain at
    once; `routing status` lists the shape."""

    def answer(body: dict[str, Any]) -> Any:
        return {"title": "Dockside"} if "pattern" in json.dumps(_sent_schema(body)) else GOOD

    fake_openai.set_payload(answer)
    router = Router(local_settings(fake_openai.url), caps_cache=tmp_path / "caps.json")
    first = router.call(_bound_req("shape-1"), simulate)
    assert first.served_by == "local", first.fallback_reason
    assert [a.outcome for a in first.attempts] == ["invalid", "ok"]
    assert any(a.startswith("schema_advisory:Pitch:") for a in first.adaptations)
    second = router.call(_bound_req("shape-2"), simulate)
    assert second.served_by == "local" and [a.outcome for a in second.attempts] == ["ok"]
    assert "pattern" not in json.dumps(_sent_schema(fake_openai.chat_requests[-1].body))
    caps = next(iter(router.status()["capabilities"].values()))
    assert caps["advisory_shapes"] == [shape("Pitch", carried(BOUND))]
    # kept for the next process
    again = Router(local_settings(fake_openai.url), caps_cache=tmp_path / "caps.json")
    assert next(iter(again.status()["capabilities"].values()))["advisory_shapes"]
    # a plain request (another shape) still carries its schema
    router.call(req(key="plain"), simulate)
    assert _sent_schema(fake_openai.chat_requests[-1].body)["required"]
