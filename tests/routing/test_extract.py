"""The extractor on its own: reasoning stripped, fences, first balanced value, no silent repair."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.routing.extract import OutputError, json_candidates, parse_artifact, strip_reasoning
from tests.routing.artifacts import GOOD, Pitch

DOC = json.dumps(GOOD)


@pytest.mark.parametrize(
    "text",
    [
        DOC,
        f"Sure! {DOC} Hope that helps.",
        f'<think>maybe {{"x": 1}} first</think>\n{DOC}',
        f"<THINKING>hm</THINKING>{DOC}",
        f"<reasoning>a</reasoning>```json\n{DOC}\n```",
        f'```json\n{{"draft": true}}\n```\nfinal:\n```json\n{DOC}\n```',
        f"...thoughts</think>{DOC}",
        f'{{"note": "not it"}} then {DOC}',
        f'{{"a": "brace }} in string"}} {DOC}',
    ],
)
def test_shapes_that_parse(text):
    assert parse_artifact(text, Pitch).output == GOOD


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("", "empty"),
        ("I cannot help with that.", "no_json"),
        (f"<think>planning {DOC}", "truncated_reasoning"),
        (DOC[: len(DOC) // 2], "truncated"),
        ('{"title": "x"}', "invalid"),
    ],
)
def test_shapes_that_fail(text, label):
    with pytest.raises(OutputError) as info:
        parse_artifact(text, Pitch)
    assert info.value.label == label


def test_length_finish_is_truncated_even_if_it_parses():
    with pytest.raises(OutputError) as info:
        parse_artifact(DOC, Pitch, finish_reason="length")
    assert info.value.label == "truncated"


def test_strip_reasoning_drops_the_block():
    text, steps = strip_reasoning("<think>abc</think>{}")
    assert text == "{}" and steps == ["think_stripped"]
    assert strip_reasoning("plan</think>{}") == ("{}", ["think_stripped"])  # only the close came


def test_candidates_are_in_order():
    values, truncated = json_candidates('x {"a": 1} y [2] z {"b"')
    assert values == [{"a": 1}, [2]] and truncated is False


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_never_raises_anything_but_output_error(text):
    with contextlib.suppress(OutputError):
        parse_artifact(text, Pitch)
