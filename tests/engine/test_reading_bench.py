"""The reading bench's scoring (bench/reading.py): a produced direction is counted once, for the
label it reads, before any label may call it an inversion.

Run in a child process: importing `bench` gives the process a temporary home of its own
(bench/__init__.py), which must not leak into the tests that share this worker."""

from __future__ import annotations

from pathlib import Path

from tests.bench_child import bench_child

ROOT = Path(__file__).resolve().parents[2]

_CODE = """
import json, sys
from bench.reading import Produced, Result, score_record
c = json.load(sys.stdin)
res = Result(directions=[Produced(**p) for p in c['got']], asked=c['asked'])
print(json.dumps(score_record(c['record'], res)))
"""


def _score(record: dict[str, object], got: list[dict[str, object]], asked: bool = False):
    return bench_child(_CODE, {"record": record, "got": got, "asked": asked})


MONTH = {"axis": "price", "do": True, "value": "$199 a month", "amount": 199, "period": "month"}
YEAR = {"axis": "price", "do": True, "value": "$1,990 a year", "amount": 1990, "period": "year"}
READ_YEAR = {
    "axis": "price",
    "do": True,
    "value": "$1,990 a year",
    "amount": 1990.0,
    "period": "year",
    "currency": "$",
}


def test_a_direction_that_reads_a_later_label_is_not_an_earlier_labels_inversion() -> None:
    outcomes, spurious = _score({"expect": [MONTH, YEAR]}, [READ_YEAR])
    assert outcomes == ["silent", "read"]
    assert spurious == [False]


def test_another_figure_on_the_same_slot_is_still_an_inversion() -> None:
    outcomes, spurious = _score({"expect": [MONTH]}, [READ_YEAR], asked=True)
    assert outcomes == ["inverted"]
    assert spurious == [False]


def test_a_relative_week_with_no_direction_matches_on_its_words() -> None:
    label = {"axis": "timeline", "do": True, "value": "one week from now"}
    said = {"axis": "timeline", "do": True, "value": "one week from now"}
    assert _score({"expect": [label]}, [said]) == [["read"], [False]]
    later = {"axis": "timeline", "do": True, "value": "two weeks from now"}
    assert _score({"expect": [label]}, [later]) == [["silent"], [True]]


def _one(axis: str, label: str, read: str) -> str:
    do = axis not in ("exclusion", "claim")
    outcomes, _ = _score(
        {"expect": [{"axis": axis, "do": do, "value": label}]},
        [{"axis": axis, "do": do, "value": read}],
    )
    return str(outcomes[0])


def test_values_match_on_form_across_hyphens_and_word_order() -> None:
    assert _one("exclusion", "under-12s", "under 12s") == "read"
    assert _one("exclusion", "donor CRM", "CRM for donors") == "read"
    assert (
        _one("channel", "community Telegram groups", "Telegram groups of the community") == "read"
    )
    assert _one("exclusion", "donor CRM", "CRM for volunteers") == "silent"


def test_a_shorter_reading_keeps_the_head_and_names_more_only_where_that_is_safe() -> None:
    # What to name may be read without its post-modifier (the head stays)...
    assert _one("audience", "small builders with under 10 staff", "small builders") == "read"
    assert _one("audience", "small builders with under 10 staff", "10 staff") == "silent"
    assert _one("audience", "parents of Year 11 pupils", "Year 11 pupils") == "silent"
    # ...but what to leave out may not: that would leave out more than the player said.
    assert _one("exclusion", "cyclists who fix their own bikes", "cyclists") == "silent"
    assert _one("claim", "guaranteed first in line", "first in line") == "read"
    assert _one("scope", "seating plans", "seating") == "silent"
    assert _one("audience", "renters in flats without a garden", "renters in flats") == "read"
