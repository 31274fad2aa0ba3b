"""The rival, a competitor the CEO names and the venture's own place or audience are different
slots (engine/language/composition.json): a competitor's name never lands in the audience or the
place, never replaces what the CEO named there, and never reaches customer copy."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.game.adherence import gate
from engine.game.economy import founding_org, initial_economics
from engine.game.models import Founder
from engine.game.world import build_stages
from engine.language.artifact_text import prose
from engine.language.composition import split_competitor
from engine.language.directions import Binding, Direction, fold, payload
from engine.language.steering import read_directions
from engine.writing.simulate import simulate_artifact


@pytest.mark.parametrize(
    ("axis", "value", "split"),
    [
        ("audience", "flower sellers Petal Express ignores", ("flower sellers", "Petal Express")),
        (
            "audience",
            "the busiest farmers-market vendors The Pixel Guild ignores",
            ("the busiest farmers-market vendors", "The Pixel Guild"),
        ),
        ("audience", "groomers who left Rover", ("groomers", "Rover")),
        ("place", "the towns Bloomly left behind", ("the towns", "Bloomly")),
        (
            "audience",
            "solo groomers who work from a van",
            ("solo groomers who work from a van", None),
        ),
        ("audience", "salons in North London", ("salons in North London", None)),
        ("place", "Leeds", ("Leeds", None)),
        ("channel", "partners Rover ignores", ("partners Rover ignores", None)),
    ],
)
def test_a_competitors_name_is_split_out_of_an_audience_or_a_place(axis, value, split):
    assert split_competitor(axis, value) == split


def test_the_reading_binds_the_audience_and_the_competitor_apart():
    r = read_directions("Focus on the flower sellers Petal Express ignores", source="standup")
    assert [(d.axis, d.value) for d in r.directions] == [
        ("audience", "flower sellers"),
        ("competitor", "Petal Express"),
    ]
    given = read_directions(
        '{"axis": "place", "value": "the towns Bloomly left behind"}', source="standup"
    )
    assert [(d.axis, d.value) for d in given.directions] == [
        ("place", "the towns"),
        ("competitor", "Bloomly"),
    ]


def _note(i: int, text: str) -> SimpleNamespace:
    read = read_directions(text, source="standup", stage=f"stage_{i}_x")
    return SimpleNamespace(
        id=f"mem-{i:05d}",
        kind="procedural",
        game_day=i,
        stage_id=f"stage_{i}_x",
        payload=payload(read.directions, source="standup"),
    )


def test_a_competitor_never_replaces_the_ceos_audience_and_holds_its_own_slot():
    b = fold(
        [
            _note(1, "Focus on the flower sellers"),
            _note(2, "Speak to market stalls The Pixel Guild ignores"),
        ]
    )
    got = {(d.axis, d.value) for d in b.directions}
    assert got == {
        ("audience", "flower sellers"),
        ("audience", "market stalls"),
        ("competitor", "The Pixel Guild"),
    }


def test_the_competitor_stays_out_of_the_work_and_the_gate_flags_it_in_customer_copy():
    founder = Founder(
        name="You",
        company="Bloom Co",
        archetype="builder",
        pitch="Stock alerts for flower sellers",
        customer="flower sellers",
        keywords=["flowers"],
    )
    b = fold([_note(1, "Focus on the flower sellers Petal Express ignores")])
    binding = Binding(directions=b.directions)
    art = simulate_artifact(
        "designer",
        founder=founder,
        stage=build_stages(founding_org())[3],
        binding=binding,
        economics=initial_economics(founding_org()),
        seed=5,
        attempt=1,
    )
    assert "Petal Express" not in prose(art)  # the work's words; its note to the team says it
    assert "flower sellers" in art["hero_headline"]
    assert gate("designer", art, binding.directions) == []
    art["hero_headline"] += " Petal Express never calls back."
    found = gate("designer", art, binding.directions)
    assert [v.did for v in found] == ["names Petal Express in its hero headline"]


def test_a_competitor_direction_is_in_the_brief_in_words():
    d = Direction(axis="competitor", value="Rover")
    assert d.line() == "stand apart from Rover, never naming it to customers"
