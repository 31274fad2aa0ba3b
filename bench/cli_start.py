"""Bench: how long `worldforge --version`, `--help` and `simulate --help` take, process start to
exit, beside `python -c pass` (the interpreter's own floor), interleaved, medians.

    python -m bench.cli_start --json [--runs 9] [--before SRC_DIR]

`--before` puts another source tree (e.g. `git archive <commit> | tar -x -C DIR`) first on
PYTHONPATH and times it in the same rounds, so a before/after pair sees the same machine load.
Targets (issue 25): `--version` <= 0.15 s, `--help` <= 0.3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench import machine
from bench.venture import measured

COMMANDS = {"version": ["--version"], "help": ["--help"], "simulate_help": ["simulate", "--help"]}


def _env(tree: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cli_start")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--before", type=Path, help="a source tree to time beside this one")
    parser.add_argument("--json", action="store_true", help="print JSON (the default output)")
    args = parser.parse_args(argv)
    trees: dict[str, Path | None] = {"now": None}
    if args.before:
        trees["before"] = args.before.resolve()
    cli = [sys.executable, "-m", "worldforge_tui.cli"]
    neutral = tempfile.mkdtemp(prefix="wf-cli-start-")  # cwd: not a source tree on sys.path
    start = machine()
    rows: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}  # CPU seconds: less blurred than wall by a loaded machine
    for rnd in range(args.runs + 1):  # the first round warms the bytecode caches
        sample = {"python_pass": measured([sys.executable, "-c", "pass"], _env(None))}
        for label, tree in trees.items():
            for name, flags in COMMANDS.items():
                sample[f"{label}.{name}"] = measured([*cli, *flags], _env(tree), cwd=neutral)
        if rnd:
            for key, value in sample.items():
                rows.setdefault(key, []).append(value["wall_s"])
                cpu.setdefault(key, []).append(value["cpu_s"])
    out = {
        "runs": args.runs,
        "median_s": {k: round(statistics.median(v), 3) for k, v in rows.items()},
        "median_cpu_s": {k: round(statistics.median(v), 3) for k, v in cpu.items()},
        "targets_s": {"version": 0.15, "help": 0.3},
        "machine": {"before": start, "after": machine()},
    }
    print(json.dumps(out, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
