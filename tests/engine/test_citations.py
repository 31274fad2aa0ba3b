"""Artifacts cite what bound them: each field a direction shaped names the note it came from, and
the gate checks the citation (a shaped field with none, a field citing a note that binds nothing,
that did not shape it or whose direction it breaks). Customer copy never carries the rival's name
or an internal phrase. The same for the simulated worker and a model's answer (the schema fixes
the citations)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.game import artifacts
from engine.game.adherence import (
    citation_misses,
    citations,
    copy_misses,
    gate,
    shaped_fields,
)
from engine.game.economy import founding_org, initial_economics
from engine.game.models import Founder
from engine.game.rubric import evaluate
from engine.game.world import build_stages
from engine.language.directions import Binding, Direction
from engine.workers.schema import compiled_schema, judge_for
from engine.writing.simulate import simulate_artifact

FOUNDER = Founder(
    name="You",
    company="Groom Co",
    archetype="builder",
    pitch="Scheduling for solo mobile dog groomers",
    customer="solo mobile dog groomers",
    keywords=["scheduling", "groomers"],
)
ROLE_STAGE = {"strategist": 2, "designer": 3, "marketer": 4, "ops": 5}
AUDIENCE = Direction(
    axis="audience", value="solo groomers", source="standup", memory_id="mem-00007"
)
PRICE = Direction(axis="price", value="", amount=29.0, source="rejection", memory_id="mem-00009")
SALONS = Direction(axis="exclusion", value="salons", do=False, memory_id="mem-00007")
BINDING = Binding(directions=[AUDIENCE, PRICE, SALONS])


def _work(role: str, binding: Binding = BINDING) -> dict[str, Any]:
    return simulate_artifact(
        role,
        founder=FOUNDER,
        stage=build_stages(founding_org())[ROLE_STAGE[role]],
        binding=binding,
        economics=initial_economics(founding_org()),
        seed=31,
        attempt=1,
    )


def _cites(art: dict[str, Any]) -> dict[str, list[str]]:
    return {c["field"]: c["notes"] for c in art["cites"]}


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
def test_each_shaped_field_cites_its_note_and_the_gate_passes_it(role):
    art = _work(role)
    cites = _cites(art)
    for d in (AUDIENCE, PRICE):
        for f in shaped_fields(role, d):
            assert d.memory_id in cites[f], (f, cites)
    assert shaped_fields(role, SALONS) == ()  # an exclusion is checked everywhere, cited nowhere
    assert gate(role, art, BINDING.directions, rivals=("Furbnb",)) == []
    assert artifacts.contract_errors(role, art) == 0


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
def test_a_shaped_field_with_no_citation_is_flagged(role):
    art = _work(role)
    for i, c in enumerate(art["cites"]):
        bent = copy.deepcopy(art)
        del bent["cites"][i]
        found = citation_misses(role, bent, BINDING.directions)
        assert found and all("does not cite" in v.did for v in found), c
        r = evaluate(role, bent, goal="", founder_keywords=[], binding=BINDING)
        assert r.drift


def test_a_citation_of_a_note_that_binds_nothing_or_did_not_shape_the_field_is_flagged():
    art = _work("designer")
    bent = copy.deepcopy(art)
    bent["cites"].append({"field": "cta_text", "notes": ["mem-00042"]})
    assert [v.did for v in citation_misses("designer", bent, BINDING.directions)] == [
        "its cta text cites mem-00042, which binds nothing here"
    ]
    bent = copy.deepcopy(art)
    bent["cites"].append({"field": "cta_text", "notes": ["mem-00009"]})  # the price note
    assert [v.did for v in citation_misses("designer", bent, BINDING.directions)] == [
        "its cta text cites mem-00009, which did not shape it"
    ]


def test_a_field_citing_a_note_whose_direction_it_breaks_is_flagged():
    art = _work("designer")
    bent = copy.deepcopy(art)
    bent["hero_headline"] = "Bookings for busy salons, sorted"  # cites the audience note
    dids = [v.did for v in citation_misses("designer", bent, BINDING.directions)]
    assert "its hero headline cites it but does not honour it" in dids
    assert "its hero headline cites it yet says “salons”" in dids  # the note's exclusion too


def test_work_without_citations_in_its_contract_form_is_flagged_but_a_bare_dict_is_not_read():
    art = _work("strategist")
    art["cites"] = []
    assert citation_misses("strategist", art, BINDING.directions)
    bare = {k: v for k, v in art.items() if k != "cites"}
    assert citation_misses("strategist", bare, BINDING.directions) == []


@pytest.mark.parametrize(
    ("role", "field", "said", "did"),
    [
        ("designer", "hero_headline", "Better than Furbnb, for solo groomers", "names Furbnb"),
        ("marketer", "body", "Unlike Furbnb, we answer.", "names Furbnb"),
        ("marketer", "subject", "Built around half the backlog, cut", "says “half the backlog"),
        ("designer", "features", ["Weekly summary (see mem-00012)"], "says “mem-00012”"),
        ("marketer", "body", "We follow the binding direction here.", "says “binding direction”"),
    ],
)
def test_customer_copy_never_carries_a_rival_or_an_internal_phrase(role, field, said, did):
    art = _work(role)
    assert copy_misses(role, art, ("Furbnb",)) == []
    art[field] = said
    found = copy_misses(role, art, ("Furbnb",))
    assert len(found) == 1 and found[0].did.startswith(did), found
    r = evaluate(role, art, goal="", founder_keywords=[], binding=BINDING, rivals=("Furbnb",))
    assert r.drift and any(v["axis"] == "copy" for v in r.violations)


def test_the_strategists_notes_may_name_the_rival():
    art = _work("strategist")
    art["value_proposition"] += " Furbnb cannot follow."
    assert copy_misses("strategist", art, ("Furbnb",)) == []


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
def test_a_models_schema_fixes_the_citations_and_its_judge_checks_them(role):
    schema = compiled_schema(role, artifacts.model(role), BINDING.directions)
    assert schema is not None
    want = citations(role, BINDING.directions)
    assert schema["properties"]["cites"] == {"const": want} and "cites" in schema["required"]
    judge = judge_for(role, BINDING.directions, ("Furbnb",))
    assert judge is not None
    answer = artifacts.model(role).model_validate(_work(role)).model_dump(mode="json")
    assert answer["cites"] == want and judge(answer) is None
    answer["cites"] = []
    assert "does not cite the note it follows" in (judge(answer) or "")
