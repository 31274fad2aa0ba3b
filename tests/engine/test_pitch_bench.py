"""The pitch bench's scoring (bench/reading_pitch.py): lenient on form, strict on meaning.

Run in a child process: importing `bench` gives the process a temporary home of its own
(bench/__init__.py), which must not leak into the tests that share this worker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bench_child import bench_child

ROOT = Path(__file__).resolve().parents[2]

PAYERS = [  # (read, label, same payer?)
    ("the Busy Parents", "busy parents", True),
    ("students in halls", "students", True),  # a setting kept: the same payer
    ("new mum", "new mums", True),
    ("parents", "teens", False),
    ("dog", "dog owners", False),  # the thing, not its owner
    (None, None, True),  # a null label reads as no customer
    ("early customers", None, False),
    (None, "landlords", False),
]
PLACES = [
    ("the Cotswolds", "Cotswolds", True),
    ("Leeds", "London", False),
    ("beaches", None, False),
]
BAD = [  # (customer, pitch, kind)
    ("you", "An AI that writes your CV", "pronoun"),
    ("nurses pass the NCLEX exam wants", "x", "verb"),
    ("Uber", "Uber for lawnmowers", "rival"),
    ("a simpler week", "x", "benefit"),
    ("adults who gave up as kids", "x", ""),  # a verb inside the relative clause
    ("landlords", "x", ""),
]


@pytest.fixture(scope="module")
def judged() -> dict[str, Any]:
    code = (
        "import json, sys\n"
        "from bench.reading_pitch import bad_kind, same_payer, same_place\n"
        "c = json.load(sys.stdin)\n"
        "print(json.dumps({'payer': [same_payer(a, b) for a, b, _ in c['payer']],\n"
        "  'place': [same_place(a, b) for a, b, _ in c['place']],\n"
        "  'bad': [bad_kind(a, b) for a, b, _ in c['bad']]}))\n"
    )
    return dict(bench_child(code, {"payer": PAYERS, "place": PLACES, "bad": BAD}))


def test_who_pays_is_matched_on_form_leniently_and_on_meaning_strictly(judged) -> None:
    assert judged["payer"] == [ok for _, _, ok in PAYERS]


def test_a_place_is_matched_as_written_apart_from_case(judged) -> None:
    assert judged["place"] == [ok for _, _, ok in PLACES]


def test_a_pronoun_a_verb_a_rival_or_a_benefit_is_flagged_as_a_customer(judged) -> None:
    assert judged["bad"] == [kind for _, _, kind in BAD]


def test_the_bench_scores_the_build_part_unless_the_held_out_part_is_named_and_halves_split_it() -> (
    None
):
    """The default and `--half` never score the held-out part; the halves split the build part."""
    code = (
        "import json\n"
        "import bench.reading_pitch as rp\n"
        "from bench.reading import half_of\n"
        "row = lambda i, p: {'id': i, 'pitch': p, 'customer': 'dog owners', 'offering': 'walks',\n"
        "  'place': None}\n"
        "build = [row(str(i), f'Dog walks for dog owners in town {i}') for i in range(12)]\n"
        "held = [row('h', 'Dog walks for dog owners, held out')]\n"
        "rp.pitches = lambda part: build if part == 'build' else held\n"
        "halves = [rp.figures(half=h) for h in 'ab']\n"
        "print(json.dumps({'default': sorted(rp.figures()), 'halves': [sorted(h) for h in halves],\n"
        "  'rows': [h['build']['rows'] for h in halves],\n"
        "  'expected': [sum(half_of(r['pitch']) == h for r in build) for h in 'ab'],\n"
        "  'named': sorted(rp.figures(('build', 'heldout')))}))\n"
    )
    got = _child(code, timeout=120)
    assert got["default"] == ["build"]
    assert got["halves"] == [["build"], ["build"]]
    assert got["rows"] == got["expected"] and sum(got["rows"]) == 12 and 0 not in got["rows"]
    assert got["named"] == ["build", "heldout"]


def test_the_row_bench_finds_a_row_only_one_pitch_uses_and_restores_the_vocabulary() -> None:
    """bench/pitch_rows.py takes each row out in turn: the wedding row changes one of two pitches'
    readings (a single-pitch row), a row no pitch uses is unused, and the file's vocabulary is the
    one read afterwards. Build pitches only, given here."""
    code = (
        "import json\n"
        "import bench.pitch_rows as pr\n"
        "from engine.language.pitch import read_pitch\n"
        "row = lambda p, c: {'id': p, 'pitch': p, 'customer': c, 'offering': 'x', 'place': None}\n"
        "build = [row('cakes for weddings', 'engaged couples'), row('Tea for nurses', 'nurses')]\n"
        "pr.pitches = lambda part: build if part == 'build' else []\n"
        "out = pr.measure()\n"
        "print(json.dumps({'single': out['single'], 'unused': out['unused'],\n"
        "  'after': read_pitch('cakes for weddings').customer,\n"
        "  'lines': pr.branches()['build_pitches']}))\n"
    )
    got = _child(code, timeout=300)
    assert got["single"]["payers:wedding"] == {"pitch": "cakes for weddings", "lost_right": 1}
    assert "payers:funeral" in got["unused"] and "payers:wedding" not in got["unused"]
    assert got["after"] == "engaged couples" and got["lines"] == 2


def _child(code: str, timeout: int) -> dict[str, Any]:
    """What a child Python running `code` in the project prints as JSON."""
    return dict(bench_child(code, None, timeout))
