"""The writing bench's grammar checks (bench/writing.py) catch what they name and pass clean prose."""

from __future__ import annotations

import pytest

from bench.writing import grammar_defects


@pytest.mark.parametrize(
    ("sentence", "defect"),
    [
        ("Offices who want a fresh cup every morning.", "'who' after a place of business"),
        (
            "Clinics who never heard back about their appointments.",
            "'who' after a place of business",
        ),
        ("We talk with a the busiest nurse every day.", "article before a determiner"),
        ("Pilot live with three café by week 8.", "count with a singular"),
        (
            "Ask the cafés and others like them Pipeline Partners ignores monthly.",
            "breadth before the corner",
        ),
    ],
)
def test_a_known_defect_is_named(sentence, defect):
    assert defect in grammar_defects(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Offices that want a fresh cup every morning.",
        "Nurses who want calm shifts get them.",
        "Pilot live with three cafés by week 8.",
        "Ask the cafés Pipeline Partners ignores and others like them monthly.",
    ],
)
def test_clean_prose_passes(sentence):
    assert grammar_defects(sentence) == []
