"""Bench: process start to the board's first frame, and to the New venture form a player types into.

Run: `.venv/bin/python -m bench.tui_startup [--runs N] [--before TREE] [--instructions]` (one JSON
object; headless 120×40). Two moments are timed in fresh processes, each beside its own anchor:

- `board`: the first frame of the board, as `worldforge play --pitch …` starts (a venture named on
  the command line shows the board first and opens once the engine has loaded).
- `form`: the New venture form on screen with its pitch field focused and a frame drawn, the first
  moment a key typed lands where the screen says: the first screen of `worldforge play` (since
  form-first start-up, drawn before the engine loads; before that, once it had).

The anchor of each is a bare Textual app (bench/bare_app.py) with the same kinds and count of
widgets as the measured screens, taken from the live app in the warm-up run: each widget is
counted as its nearest Textual class (a BoundedInput as an Input, a pane as its container), a
widget a Textual widget builds for itself (a Select's overlay) is not. Targets: ≤ 1.3× the anchor's
time (wall, and CPU, which other processes' load blurs less) and ≤ 1.3× its peak memory at the
form. Peak memory is each process's own (bench.process: a fresh launcher, nothing inherited).
Each sample is a fresh interpreter with warm .pyc, as a player runs it, and ends at its moment
(`os._exit`, the game and the anchor alike): CPU, peak memory and instructions are those spent to
the moment, not what loads after it (the engine behind the form) or the app's teardown.
`--instructions` (needs valgrind) adds one callgrind run of each (and of `--before`'s tree):
instructions to the moment, which load does not move.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import machine, process

RUNS = 5
BARE_APP = str(Path(__file__).with_name("bare_app.py"))

# The measured child: the real app, stopped at the moment named by argv[1] ("board" or "form");
# `--spec` also prints the screens' widget kinds for the anchor.
CHILD = r"""
import time
t0 = time.perf_counter()
import json, os, sys
from worldforge_tui.app import WorldForgeApp
t_import = time.perf_counter()
from textual.widgets import Input
MOMENT = sys.argv[1]

class Measured(WorldForgeApp):
    def on_mount(self):  # Textual runs WorldForgeApp.on_mount too (handlers run down the MRO)
        if MOMENT == "board":
            self.call_after_refresh(self._done)
        else:
            self._poll = self.set_interval(0.002, self._check)
    def _check(self):
        if type(self.screen).__name__ == "NewVentureScreen" and isinstance(self.focused, Input):
            self._poll.stop()
            self.call_after_refresh(self._done)
    def _done(self):
        ready = time.perf_counter()
        cpu = time.process_time()
        stack = self.screen_stack[-1:] if MOMENT == "board" else self.screen_stack
        widgets = sum(1 for s in stack for _ in s.walk_children(with_self=False))
        lines = []
        if "--spec" in sys.argv:  # the anchor's kinds (bench/bare_app.py, loaded after the moment)
            import importlib.util
            found = importlib.util.spec_from_file_location("bare_app", sys.argv[-1])
            bare_app = importlib.util.module_from_spec(found)
            found.loader.exec_module(bare_app)
            lines.append(json.dumps([bare_app.spec_of(s) for s in stack]))
        lines.append(f"{cpu:.4f} {widgets} {t_import - t0:.4f} {ready - t0:.4f}")
        # The process ends at the moment (fd 1: Textual holds sys.stdout while it runs): what
        # loads after it (the engine, behind the form) and the app's teardown are not counted.
        os.write(1, ("\n".join(lines) + "\n").encode())
        os._exit(0)

app = Measured(pitch="Meal kits for night-shift nurses") if MOMENT == "board" else Measured()
app.run(headless=True, size=(120, 40))
sys.exit(1)  # never reached the moment
"""


def child_env(home: str, tree: str | None = None) -> dict[str, str]:
    # Bytecode caching on, as on a player's machine (a sandbox may set PYTHONDONTWRITEBYTECODE,
    # which would recompile every changed module on every sample).
    return {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "WORLDFORGE_HOME": home,
        "TEXTUAL_ANIMATIONS": "none",
        **({"PYTHONPATH": tree} if tree else {}),
    }


def sample(cmd: list[str], home: str, tree: str | None = None) -> dict[str, Any]:
    """One fresh process: import s, moment s (from interpreter start, in-process), widgets, CPU s
    to the moment, and the process's own peak MiB and wall s (start to exit)."""
    got = process.measured(
        cmd, child_env(home, tree), cwd=home, stdout=subprocess.PIPE, timeout=120
    )
    lines = got["stdout"].strip().splitlines()
    cpu, widgets, imported, ready = lines[-1].split()
    return {
        "import_s": float(imported),
        "ready_s": float(ready),
        "cpu_s": float(cpu),
        "widgets": int(widgets),
        "peak_mib": got["peak_mib"],
        "process_wall_s": got["wall_s"],
        "spec": json.loads(lines[-2]) if len(lines) > 1 else None,
    }


def game(moment: str, *extra: str) -> list[str]:
    return [sys.executable, "-c", CHILD, moment, *extra]


def bare(spec: list[Any]) -> list[str]:
    return [sys.executable, BARE_APP, json.dumps(spec)]


def _median(values: list[float], digits: int = 3) -> float:
    return round(statistics.median(values), digits)


def _ratio(rows: list[dict[str, Any]], anchor: list[dict[str, Any]], key: str) -> float:
    """The median of the per-round ratios against the anchor (interleaved pairs)."""
    return _median([r[key] / a[key] for r, a in zip(rows, anchor, strict=True)], 2)


def summary(rows: list[dict[str, Any]], anchor: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "ready_s_median": _median([r["ready_s"] for r in rows]),
        "cpu_s_median": _median([r["cpu_s"] for r in rows]),
        "import_s_median": _median([r["import_s"] for r in rows]),
        "peak_mib_median": _median([r["peak_mib"] for r in rows], 1),
        "widgets": rows[0]["widgets"],
        "anchor_ready_s_median": _median([a["ready_s"] for a in anchor]),
        "anchor_cpu_s_median": _median([a["cpu_s"] for a in anchor]),
        "anchor_peak_mib_median": _median([a["peak_mib"] for a in anchor], 1),
        "anchor_widgets": anchor[0]["widgets"],
        "vs_anchor": _ratio(rows, anchor, "ready_s"),
        "cpu_vs_anchor": _ratio(rows, anchor, "cpu_s"),
        "peak_vs_anchor": _ratio(rows, anchor, "peak_mib"),
    }


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.tui_startup")
    parser.add_argument("--before", help="another source tree, timed in the same rounds")
    parser.add_argument("--runs", type=int, default=RUNS, help=f"rounds (default {RUNS})")
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions (valgrind callgrind)"
    )
    args = parser.parse_args(argv)
    before = machine()
    out: dict[str, Any] = {"bench": "tui_startup", "runs": args.runs, "size": "120x40"}
    with tempfile.TemporaryDirectory() as home:
        for moment in ("board", "form"):
            warm = sample(game(moment, "--spec", BARE_APP), home)  # also warms the .pyc cache
            spec = warm["spec"]
            sample(bare(spec), home)
            rows, anchor, old = [], [], []
            if args.before:
                sample(game(moment), home, tree=args.before)
            for _ in range(args.runs):  # interleaved, so machine noise hits both alike
                rows.append(sample(game(moment), home))
                anchor.append(sample(bare(spec), home))
                if args.before:
                    old.append(sample(game(moment), home, tree=args.before))
            figures = summary(rows, anchor)
            figures["anchor_kinds"] = spec
            if old:
                figures["before_tree"] = summary(old, anchor)
            if args.instructions:
                from bench.venture import instructions

                env = child_env(home)
                counted = {
                    "game": instructions(game(moment), env, cwd=home),
                    "anchor": instructions(bare(spec), env, cwd=home),
                }
                if args.before:
                    counted["before_tree"] = instructions(
                        game(moment), child_env(home, args.before), cwd=home
                    )
                    figures["before_tree_instructions_vs_anchor"] = round(
                        counted["before_tree"] / counted["anchor"], 3
                    )
                figures["instructions"] = counted
                figures["instructions_vs_anchor"] = round(counted["game"] / counted["anchor"], 3)
            out[moment] = figures
    out["targets"] = {"vs_anchor": 1.3, "cpu_vs_anchor": 1.3, "form_peak_vs_anchor": 1.3}
    out["machine"] = {"before": before, "after": machine()}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
