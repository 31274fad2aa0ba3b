"""One way to score a labelled set of pitches (tests/data/pitches_*.jsonl, loaded by direction_sets.rows) with the pitch bench's
own rules (bench/reading_pitch.py: same_payer, the offering's head, same_place, bad_kind), for
the fresh and the blind set alike, in a child process: importing `bench` gives the process a
temporary home of its own (bench/__init__.py), which must not leak into the tests that share this
worker. A pitch listed as missed on an aspect fails the day it reads right (strict xfail)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bench_child import bench_child

_CODE = (
    "import json, sys\n"
    "from bench.reading_pitch import _read, bad_kind, head, same_payer, same_place\n"
    "out = []\n"
    "for row in json.load(sys.stdin):\n"
    "    got = _read(row['pitch'])\n"
    "    bad = bad_kind(got['customer'], row['pitch'])\n"
    "    out.append({'payer': same_payer(got['customer'], row['customer']),\n"
    "        'offering': head(got['offering']) == head(row['offering']),\n"
    "        'place': same_place(got['place'], row['place']), 'bad': bad, 'read': got,\n"
    "        'label_bad': bad_kind(row['customer'], row['pitch'])})\n"
    "print(json.dumps(out))\n"
)


def judge(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each pitch: who pays, the offering and the place read right, the customer read that no
    one could be (`bad`), and that of the label itself (`label_bad`)."""
    return list(bench_child(_CODE, rows, timeout=300))


def cases(rows: list[dict[str, Any]], misses: dict[str, dict[str, str]], aspect: str) -> list[Any]:
    """One test case a pitch for an aspect (payer, offering, place), its misses expected to fail."""
    missed = misses.get(aspect, {})
    return [
        pytest.param(
            k,
            id=row["pitch"][:60],
            marks=[pytest.mark.xfail(reason=missed[row["pitch"]], strict=True)]
            if row["pitch"] in missed
            else [],
        )
        for k, row in enumerate(rows)
    ]
