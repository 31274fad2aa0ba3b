"""Run a bench's code in a child Python and read its JSON answer.

No test imports `bench` in the test process: importing it moves HOME and the XDG directories to a
temporary home (bench/__init__.py), which would leak into every later test on that worker
(tests/conftest.py checks it). A test hands its code and its input here instead."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def bench_child(code: str, given: object, timeout: float = 120) -> Any:
    """`code` run by this interpreter in the checkout, `given` as JSON on its stdin; what it
    printed, read as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(given),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=timeout,
    )
    return json.loads(done.stdout)
