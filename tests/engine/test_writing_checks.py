"""The writing bench's grammar checks (bench/writing.py) catch what they name and pass clean prose.

They run in a child process: importing `bench` gives the process a temporary home of its own
(bench/__init__.py), which must not leak into the tests that share this worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench_child import bench_child

ROOT = Path(__file__).resolve().parents[2]

DEFECTS = [
    ("Offices who want a fresh cup every morning.", "'who' after a place of business"),
    ("Clinics who never heard back about their appointments.", "'who' after a place of business"),
    ("We talk with a the busiest nurse every day.", "article before a determiner"),
    ("Pilot live with three café by week 8.", "count with a singular"),
    (
        "Ask the cafés and others like them Pipeline Partners ignores monthly.",
        "breadth before the corner",
    ),
]
CLEAN = [
    "Offices that want a fresh cup every morning.",
    "Nurses who want calm shifts get them.",
    "Pilot live with three cafés by week 8.",
    "Ask the cafés Pipeline Partners ignores and others like them monthly.",
]


@pytest.fixture(scope="module")
def checked() -> dict[str, list[str]]:
    sentences = [s for s, _ in DEFECTS] + CLEAN
    code = (
        "import json, sys\n"
        "from bench.writing import grammar_defects\n"
        "said = json.load(sys.stdin)\n"
        "print(json.dumps({s: grammar_defects(s) for s in said}))\n"
    )
    return bench_child(code, sentences)


@pytest.mark.parametrize(("sentence", "defect"), DEFECTS)
def test_a_known_defect_is_named(checked, sentence, defect):
    assert defect in checked[sentence]


@pytest.mark.parametrize("sentence", CLEAN)
def test_clean_prose_passes(checked, sentence):
    assert checked[sentence] == []
