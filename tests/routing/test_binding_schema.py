"""The model tiers get the same binding: recalled directions compiled into the artifact's JSON
Schema (const price, enum of audiences, anchored patterns), the same adherence check on the
model's answer, one re-ask naming the broken direction, then DRIFT at the gate."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest

from engine.config import Settings
from engine.game.artifacts import model
from engine.language.steering import read_directions
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Reject, RunStage
from engine.workers.schema import compiled_schema, contains_pattern, word_pattern
from tests.routing.helpers import local_settings
from tests.servers.fixtures import _real_llama

PITCH = "Mobile grooming for dogs, for solo groomers who work from a van"
REASON = (
    "Speak to solo groomers who work from a van, not dog owners. Price it at 25 dollars a month."
)
SAID = "Speak to solo groomers who work from a van. Price it at $25 a month. Call it Groomly"


def _directions(text: str = SAID):
    return read_directions(text, source="standup").directions


def test_directions_compile_into_the_schema_where_a_field_allows():
    plan = compiled_schema("marketer", model("marketer"), _directions())
    fp = plan["$defs"]["FinancialPlan"]
    assert fp["properties"]["price_usd_per_month"] == {"type": "number", "const": 25.0}
    assert "price_usd_per_month" in fp["required"]
    assert plan["properties"]["body"]["pattern"] == contains_pattern("$25 a month")
    assert plan["properties"]["subject"]["pattern"] == contains_pattern("Groomly")  # one a field
    strat = compiled_schema("strategist", model("strategist"), _directions())
    assert set(strat["properties"]["target_audience"]["enum"]) == {
        "solo groomers who work from a van",
        "Solo groomers who work from a van",
    }
    under = compiled_schema(
        "ops", model("ops"), _directions("Price it under $30 a month; churn under 4%")
    )
    props = under["$defs"]["FinancialPlan"]["properties"]
    assert props["price_usd_per_month"]["exclusiveMaximum"] == 30.0
    assert props["churn_target_pct"]["exclusiveMaximum"] == 4.0
    assert compiled_schema("ops", model("ops"), []) is None
    # a week bound from above compiles no pattern: only the field it shapes is cited (a const)
    by_week = compiled_schema("designer", model("designer"), _directions("launch by week 3"))
    assert by_week["properties"]["cites"] == {
        "const": [{"field": "wireframe_notes", "notes": ["launch by week 3"]}]
    }
    assert "pattern" not in json.dumps(by_week["properties"]["wireframe_notes"])
    # the model's own schema is untouched (the compiled one is a copy)
    assert "const" not in json.dumps(model("marketer").model_json_schema())


def test_every_pattern_is_anchored_and_matches_the_realised_work():
    from engine.game.economy import founding_org, initial_economics
    from engine.game.world import build_stages
    from engine.language.directions import Binding
    from engine.writing.simulate import simulate_artifact
    from tests.engine.test_directions import FOUNDER

    for role, number in (("strategist", 2), ("designer", 3), ("marketer", 4), ("ops", 5)):
        schema = compiled_schema(role, model(role), _directions())
        art = simulate_artifact(
            role,
            founder=FOUNDER,
            stage=build_stages(founding_org())[number],
            binding=Binding(directions=_directions()),
            economics=initial_economics(founding_org()),
            seed=31,
            attempt=1,
        )
        for name, prop in schema["properties"].items():
            if "pattern" in prop:
                assert prop["pattern"].startswith("^") and prop["pattern"].endswith("$")
                assert re.match(prop["pattern"], art[name]), (role, name, art[name])
    said = contains_pattern("$25 a month")
    assert said == (
        '^([^"\\\\]{0,600}[^"\\\\A-Za-z0-9_])?[$]25 a month([^"\\\\A-Za-z0-9_][^"\\\\]{0,600})?$'
    )
    assert not re.match(said, "at $25 a monthly rate")  # whole words, as the check reads them
    assert re.match(said, "The pilot costs $25 a month per groomer.")
    assert not re.match(said, "The pilot costs $250 a month") and not re.match(said, "$2 a month")
    assert not re.match(said, 'x" $25 a month') and not re.match(said, "x" * 601 + "$25 a month")


def _sim_artifacts(tmp_path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Stage 1's first attempt and its redo after REASON, from a simulation run."""
    s = GameSession.start_venture(
        pitch=PITCH, seed=31, save_dir=tmp_path / "sim", router=Router(Settings())
    )
    try:
        s.give(RunStage)
        first = s.state.current.artifact
        s.give(Reject, REASON)
        return first, s.state.current.artifact
    finally:
        s.close()


def _reasked(body: dict[str, Any]) -> bool:
    return any("broke the CEO's binding direction" in m["content"] for m in body["messages"])


def _play_redo(router: Router, tmp_path) -> GameSession:
    s = GameSession.start_venture(pitch=PITCH, seed=31, save_dir=tmp_path / "run", router=router)
    s.give(RunStage)
    s.give(Reject, REASON)
    return s


def _redo_requests(server) -> list[Any]:
    return [r for r in server.chat_requests if "Price it at 25" in r.body["messages"][0]["content"]]


def test_a_model_that_breaks_a_direction_is_reasked_once_naming_it(fake_openai, tmp_path):
    from engine.session.replay import verify

    first, fixed = _sim_artifacts(tmp_path)
    fake_openai.set_payload(lambda body: fixed if _reasked(body) else first)
    s = _play_redo(Router(local_settings(fake_openai.url, agent_request_timeout=10.0)), tmp_path)
    try:
        run = s.state.current
        assert run.attempt == 2 and run.served_by == "local" and run.fallback_reason is None
        asked = _redo_requests(fake_openai)
        assert len(asked) == 2  # the answer, and one re-ask
        schema = asked[0].body["response_format"]["json_schema"]["schema"]
        assert schema["properties"]["value_proposition"]["pattern"] == contains_pattern(
            "$25 a month"
        )
        assert (
            "Solo groomers who work from a van" in schema["properties"]["target_audience"]["enum"]
        )
        reask = asked[1].body["messages"][-1]["content"]
        assert "DRIFT: " in reask and "you said price $25 a month" in reask
        assert not run.rubric.drift and run.artifact == fixed
        report = verify(s.conn, s.state.run_id)  # the recorded final answer replays exactly
        assert report.ok, report.first_difference
        # what if they forgot the rejection? The model's stages replay from the record, the
        # redo itself is re-derived in the simulator both ways (no model is asked)
        from engine.session.without import without

        note = next(r.id for r in s.memory.records() if REASON in r.text)
        asked_before = len(fake_openai.chat_requests)
        what = without(s.conn, s.state.run_id, note)
        assert what.stage == 1 and what.attempt == 2
        assert what.mode == "simulation (earlier stages: recorded)"
        assert any("price $25 a month" in x for x in what.brief_gone)
        assert len(fake_openai.chat_requests) == asked_before
    finally:
        s.close()


def test_a_model_that_keeps_breaking_it_ships_with_drift_after_one_reask(fake_openai, tmp_path):
    first, _fixed = _sim_artifacts(tmp_path)
    fake_openai.set_payload(first)
    s = _play_redo(Router(local_settings(fake_openai.url, agent_request_timeout=10.0)), tmp_path)
    try:
        run = s.state.current
        assert run.served_by == "local" and len(_redo_requests(fake_openai)) == 2
        assert run.rubric.drift and run.rubric.final < 70
        lines = [v["line"] for v in run.rubric.violations]
        assert any("you said price $25 a month" in x for x in lines)
    finally:
        s.close()


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    """This module's own real server (not the session's): the tiny model samples from the
    server's generator, so what these tests ask must not change what tests/routing/
    test_real_llama.py's share of the session server writes, nor the other way round."""
    yield from _real_llama(tmp_path_factory)


def test_the_real_llama_server_holds_the_model_to_a_compiled_pattern_and_const(llama_server):
    """llama.cpp turns a compiled schema into a grammar the model cannot leave: the anchored
    pattern and the const come back in the answer (a tiny random-weight model, so only the grammar
    can have put them there), and the answer passes the judge with no re-ask."""
    from tests.routing.artifacts import Pitch, simulate
    from tests.routing.helpers import req

    schema = Pitch.model_json_schema()
    schema["properties"]["title"]["pattern"] = contains_pattern("$25 a month", fill=12)
    schema["properties"]["confidence"]["const"] = 42
    judged: list[str] = []

    def judge(out: Any) -> str | None:
        judged.append(out["title"])
        return (
            None if "$25 a month" in out["title"] else "DRIFT: no price, you said price $25 a month"
        )

    settings = local_settings(
        llama_server.url, local_agent_model=llama_server.model, agent_request_timeout=120.0
    )
    call = dataclasses.replace(req(), bound_schema=lambda: schema, judge=judge)
    result = Router(settings).call(call, simulate)
    assert result.served_by == "local", result.fallback_reason
    out = result.output
    Pitch.model_validate(out)
    assert "$25 a month" in out["title"] and out["confidence"] == 42
    assert judged == [out["title"]]  # judged once, kept: no re-ask


def test_on_the_real_llama_server_a_bound_redo_keeps_every_direction(llama_server, tmp_path):
    """The whole loop on llama.cpp: the redo's brief compiles the rejection's price and audience
    into the strategist's schema, the grammar holds the tiny model to them, and the gate's check
    finds nothing broken (no re-ask was needed)."""
    settings = local_settings(
        llama_server.url, local_agent_model=llama_server.model, agent_request_timeout=300.0
    )
    s = _play_redo(Router(settings), tmp_path)
    try:
        run = s.state.current
        assert run.attempt == 2 and run.served_by == "local", run.fallback_reason
        assert run.artifact["target_audience"].lower() == "solo groomers who work from a van"
        assert "$25 a month" in run.artifact["value_proposition"]
        assert run.rubric.violations == []
        executed = [e for e in s.events() if e.type == "STAGE_EXECUTED"][-1]
        assert not any("drift:" in (a.get("error") or "") for a in executed.payload["attempts"])
    finally:
        s.close()


# ------------------------------------------------------------------ every axis a field allows
EVERY_AXIS = (
    "Leave out salons and drop the 'guaranteed' line. Keep the tone plain. "
    "Sell through partner referrals and mention a weekly summary email"
)
ROLES = (("strategist", 2), ("designer", 3), ("marketer", 4), ("ops", 5))


def _realised(role: str, number: int, directions, drift=None) -> dict[str, Any]:
    from engine.game.economy import founding_org, initial_economics
    from engine.game.world import build_stages
    from engine.language.directions import Binding
    from engine.writing.simulate import simulate_artifact
    from tests.engine.test_directions import FOUNDER

    return simulate_artifact(
        role,
        founder=FOUNDER,
        stage=build_stages(founding_org())[number],
        binding=Binding(directions=directions),
        economics=initial_economics(founding_org()),
        seed=31,
        attempt=1,
        drift=drift,
    )


def _patterns(node: Any) -> list[str]:
    """Every pattern in a schema fragment, however deep (contains, items, properties)."""
    if isinstance(node, dict):
        own = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        return own + [p for v in node.values() for p in _patterns(v)]
    if isinstance(node, list):
        return [p for v in node for p in _patterns(v)]
    return []


def test_exclusions_claims_tone_channels_and_scope_compile_where_a_field_allows():
    from engine.workers.schema import word_pattern

    ds = _directions(EVERY_AXIS)
    assert {d.axis for d in ds} == {"exclusion", "claim", "tone", "channel", "scope"}
    for role, _ in ROLES:
        schema = compiled_schema(role, model(role), ds)
        barred = [x["pattern"] for x in schema["$defs"]["Excluded"]["anyOf"]]
        assert word_pattern("salons") in barred and "!" in barred
        assert any("[Gg][Uu][Aa][Rr][Aa][Nn][Tt][Ee][Ee][Dd]" in p for p in barred)
        assert word_pattern("revolutionary") in barred  # the plain tone's buzzwords
        props = schema["properties"]
        strings = [k for k, v in props.items() if v.get("type") == "string"]
        for k in strings:  # every prose string the gate reads, never the CEO-quoting summary
            assert ("not" in props[k]) == (k not in ("summary", "url")), (role, k)
        # an acquisition channel binds where customers are found, never the support steps
        found = contains_pattern("partner referrals") in _patterns(props)
        assert found == (role != "ops"), role
    krs = compiled_schema("strategist", model("strategist"), _directions("Too broad"))
    assert krs["$defs"]["OKR"]["properties"]["key_results"]["maxItems"] == 2
    feats = compiled_schema("designer", model("designer"), _directions("Too broad"))
    assert feats["properties"]["features"]["maxItems"] == 3
    warm = compiled_schema("ops", model("ops"), _directions("Warmer tone, please"))
    assert warm["properties"]["nps_plan"]["pattern"] == contains_pattern("you")


@pytest.mark.parametrize("said", [EVERY_AXIS, SAID, "Too broad. Price it at $12 a meal"])
@pytest.mark.parametrize(("role", "number"), ROLES)
def test_the_compiled_schema_and_the_gate_agree(role, number, said):
    """Work that honours every direction validates against the compiled schema (a schema-keeping
    server never refuses good work), and work that breaks one the schema can carry does not."""
    import jsonschema

    ds = _directions(said)
    schema = compiled_schema(role, model(role), ds)
    validator = jsonschema.Draft202012Validator(schema)
    good = _realised(role, number, ds)
    assert not list(validator.iter_errors(good)), [e.message for e in validator.iter_errors(good)]
    from engine.game.adherence import applies, check

    for d in ds:
        bent = _realised(role, number, ds, drift=d)
        if not applies(role, d, bent) or not check(role, bent, [d]):
            continue
        if d.axis == "scope" and role == "marketer" and said == SAID:
            continue
        assert list(validator.iter_errors(bent)), (role, d.line())


def test_a_model_that_names_an_excluded_segment_is_reasked_and_the_schema_bars_it(
    fake_openai, tmp_path
):
    """On the loopback server: the redo's schema bars the excluded segment from every prose
    field; an answer that still names it is re-asked once, naming the direction."""
    reason = "Leave out dog owners entirely."
    s = GameSession.start_venture(
        pitch=PITCH, seed=31, save_dir=tmp_path / "sim", router=Router(Settings())
    )
    try:
        s.give(RunStage)
        s.give(Reject, reason)
        fixed = s.state.current.artifact
    finally:
        s.close()
    broken = dict(fixed, core_problem=f"{fixed['core_problem']} Dog owners wait too long.")
    fake_openai.set_payload(
        lambda body: (
            fixed
            if any("broke the CEO's binding direction" in m["content"] for m in body["messages"])
            else broken
        )
    )
    router = Router(local_settings(fake_openai.url, agent_request_timeout=10.0))
    s = GameSession.start_venture(pitch=PITCH, seed=31, save_dir=tmp_path / "run", router=router)
    try:
        s.give(RunStage)
        s.give(Reject, reason)
        run = s.state.current
        asked = [r for r in fake_openai.chat_requests if reason in r.body["messages"][0]["content"]]
        assert len(asked) == 2 and run.served_by == "local"
        # the whole schema is stated to the model; the request's schema carries only what a
        # local grammar can (no `not`: the gate's check judges it, as this re-ask shows)
        sent = asked[0].body["response_format"]["json_schema"]["schema"]
        assert "not" not in sent["properties"]["core_problem"]
        schema = json.loads(asked[0].body["messages"][0]["content"].rsplit("\n", 1)[-1])
        assert schema["properties"]["core_problem"]["not"] == {"$ref": "#/$defs/Excluded"}
        assert {"type": "string", "pattern": word_pattern("dog owners")} in schema["$defs"][
            "Excluded"
        ]["anyOf"]
        assert "you said leave out dog owners" in asked[1].body["messages"][-1]["content"]
        assert not run.rubric.drift and run.artifact == fixed
    finally:
        s.close()


def test_the_real_llama_server_takes_every_compiled_keyword_and_keeps_max_items(
    llama_server, tmp_path
):
    """llama.cpp's grammar converter takes a schema with `not`, `contains` and `maxItems` (no
    500), and the grammar keeps the list caps: a "too broad" redo on the tiny model ships at
    most two key results per objective and breaks no direction."""
    settings = local_settings(
        llama_server.url, local_agent_model=llama_server.model, agent_request_timeout=300.0
    )
    s = GameSession.start_venture(
        pitch=PITCH, seed=31, save_dir=tmp_path / "run", router=Router(settings)
    )
    try:
        s.give(RunStage)
        s.give(
            Reject, "Too broad. Leave out dog owners. Speak to solo groomers who work from a van."
        )
        run = s.state.current
        assert run.attempt == 2 and run.served_by == "local", run.fallback_reason
        assert all(len(o["key_results"]) <= 2 for o in run.artifact["okrs_q1"])
        assert run.rubric.violations == [], run.rubric.violations
    finally:
        s.close()
