"""One way to score a labelled set of player inputs (tests/data/directions_*.jsonl) with the
reading bench's own rules (bench/reading.py: read_input, score_record), for the fresh and the
blind set alike. Scored in a child process: importing `bench` gives the process a temporary home
of its own (bench/__init__.py), which must not leak into the tests that share this worker. A row
reads right when every label is read, nothing spurious is produced and the reader asks exactly
when the label says to; a row listed as missed fails the day it reads right (strict xfail)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.bench_child import bench_child

ROOT = Path(__file__).resolve().parents[2]

_CODE = (
    "import json, sys\n"
    "from bench.reading import UNLABELLED, read_input, score_record\n"
    "out = []\n"
    "for row in json.load(sys.stdin):\n"
    "    res = read_input(row)\n"
    "    outcomes, spurious = score_record(row, res)\n"
    "    got = [(p.axis, p.do, p.value) for p in res.directions]\n"
    "    extra = [g for g, s in zip(got, spurious) if s and g[0] not in UNLABELLED]\n"
    "    out.append({'outcomes': outcomes, 'spurious': extra, 'asked': res.asked,\n"
    "        'produced': sum(g[0] not in UNLABELLED for g in got), 'got': got})\n"
    "print(json.dumps(out))\n"
)


def rows(name: str) -> list[dict[str, Any]]:
    """The labelled rows of tests/data/<name>.jsonl."""
    lines = (ROOT / f"tests/data/{name}.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines]


def judge(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row's outcomes, spurious directions, whether the reader asked, and what it read."""
    return list(bench_child(_CODE, rows, timeout=300))


def right(row: dict[str, Any], j: dict[str, Any]) -> bool:
    return (
        all(o == "read" for o in j["outcomes"])
        and not j["spurious"]
        and bool(j["asked"]) == row["ask"]
    )


def row_params(rows: list[dict[str, Any]], misses: dict[str, str]) -> list[Any]:
    """One test case a row, those listed as missed expected to fail (strictly)."""
    return [
        pytest.param(
            k,
            id=f"{row['id']} {row['text'][:50]}",
            marks=[pytest.mark.xfail(reason=misses[row["id"]], strict=True)]
            if row["id"] in misses
            else [],
        )
        for k, row in enumerate(rows)
    ]


def assert_floors(
    judged: list[dict[str, Any]], read: float, silent: float, spurious: float, inverted: int = 0
) -> None:
    """The set's aggregates: read at least, silent and spurious at most, inversions at most."""
    outcomes = [o for j in judged for o in j["outcomes"]]
    produced = sum(j["produced"] for j in judged)
    extra = sum(len(j["spurious"]) for j in judged)
    assert outcomes.count("inverted") <= inverted
    assert 100 * outcomes.count("read") / len(outcomes) >= read
    assert 100 * outcomes.count("silent") / len(outcomes) <= silent
    assert 100 * extra / produced <= spurious
