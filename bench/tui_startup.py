"""Bench: process start to the board's first frame (headless 120×40), and import cost alone.

Run: `.venv/bin/python -m bench.tui_startup [--runs N] [--before TREE] [--instructions]` (prints
one JSON object). Target: the first frame within 1.3x a bare Textual app's with the same widget
count (wall, and CPU seconds, which the load of other processes blurs less).
Each sample is a fresh interpreter, so imports are measured cold-ish (warm .pyc, as a player runs).
`--instructions` (needs valgrind) adds one run of each under callgrind: the instructions each
process executes from start to its exit right after the first frame, a count the machine's load
does not move (the ratio to the bare app's is `instructions_vs_bare`).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from bench import machine

RUNS = 5
CHILD = r"""
import time
t0 = time.perf_counter()
import sys
from worldforge_tui.app import WorldForgeApp
t_import = time.perf_counter()

class FirstFrame(WorldForgeApp):
    def _startup(self):
        self.first_frame = time.perf_counter()
        self.first_cpu = time.process_time()
        self.widgets = sum(1 for _ in self.screen.walk_children(with_self=False))
        self.exit()

app = FirstFrame()
app.run(headless=True, size=(120, 40))
print(f"{app.first_cpu:.4f} {app.widgets} {t_import - t0:.4f} {app.first_frame - t0:.4f}")
"""

# The reference: a bare Textual app (header, log, select, footer and STATICS static labels),
# measured the same way on the same (noisy) machine. `main` sets STATICS so that it draws as many
# widgets on its first frame as the board does (the 7-widget app of earlier turns drew far fewer).
BARE = r"""
import sys, time
t0 = time.perf_counter()
from textual.app import App
from textual.widgets import Footer, Header, Log, Select, Static
t_import = time.perf_counter()
STATICS = int(sys.argv[1])

class Bare(App):
    def compose(self):
        yield Header()
        for i in range(STATICS):
            yield Static(f"label {i}")
        yield Log(); yield Select([("a", "a")]); yield Footer()
    def on_mount(self):
        self.call_after_refresh(self.done)
    def done(self):
        self.first_frame = time.perf_counter()
        self.first_cpu = time.process_time()
        self.widgets = sum(1 for _ in self.screen.walk_children(with_self=False))
        self.exit()

app = Bare()
app.run(headless=True, size=(120, 40))
print(f"{app.first_cpu:.4f} {app.widgets} {t_import - t0:.4f} {app.first_frame - t0:.4f}")
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


def sample(
    home: str, child: str = CHILD, *args: str, tree: str | None = None
) -> tuple[float, float, float, int, float]:
    """One fresh process: (import s, in-process first frame s, wall incl. interpreter start s,
    widgets on the first frame, CPU s of the process up to its first frame)."""
    env = child_env(home, tree)
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", child, *args],
        cwd=home,  # not a source tree: the installed one, or `tree` first on PYTHONPATH
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=60,
    )
    wall = time.perf_counter() - started
    cpu, widgets, imported, first = out.stdout.split()[-4:]
    return float(imported), float(first), wall, int(widgets), float(cpu)


def _median(values: list[float], digits: int = 3) -> float:
    return round(statistics.median(values), digits)


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
    with tempfile.TemporaryDirectory() as home:
        board = sample(home)[3]  # also warms the .pyc cache
        probe = sample(home, BARE, "3")[3]  # the bare app's own widgets besides its labels
        statics = max(0, 3 + board - probe)
        rows, bare, old = [], [], []
        if args.before:
            sample(home, tree=args.before)
        for _ in range(args.runs):  # interleaved, so machine noise hits both alike
            rows.append(sample(home))
            bare.append(sample(home, BARE, str(statics)))
            if args.before:
                old.append(sample(home, tree=args.before))
        counted: dict[str, int] = {}
        if args.instructions:
            from bench.venture import instructions

            def count(child: str, *extra: str, tree: str | None = None) -> int:
                cmd = [sys.executable, "-c", child, *extra]
                return instructions(cmd, child_env(home, tree), cwd=home)

            counted["board"] = count(CHILD)
            counted["bare"] = count(BARE, str(statics))
            if args.before:
                counted["before_tree"] = count(CHILD, tree=args.before)

    def pairs(a: list[tuple[float, ...]], i: int) -> float:
        """The median of the per-round ratios against the bare app (column i)."""
        return _median([x[i] / b[i] for x, b in zip(a, bare, strict=True)], 2)

    print(
        json.dumps(
            {
                "bench": "tui_startup",
                "runs": args.runs,
                "size": "120x40",
                "import_s_median": _median([r[0] for r in rows]),
                "first_frame_s_median": _median([r[1] for r in rows]),
                "first_frame_s_min": round(min(r[1] for r in rows), 3),
                "first_frame_cpu_s_median": _median([r[4] for r in rows]),
                "process_wall_s_median": _median([r[2] for r in rows]),
                "board_widgets": rows[0][3],
                "bare_widgets": bare[0][3],
                "bare_first_frame_s_median": _median([b[1] for b in bare]),
                "bare_first_frame_cpu_s_median": _median([b[4] for b in bare]),
                "vs_bare_median_of_pairs": pairs(rows, 1),
                "cpu_vs_bare_median_of_pairs": pairs(rows, 4),
                "target_vs_bare": 1.3,
                "before_tree_first_frame_s_median": _median([o[1] for o in old]) if old else None,
                "before_tree_vs_bare_median_of_pairs": pairs(old, 1) if old else None,
                "before_tree_cpu_vs_bare_median_of_pairs": pairs(old, 4) if old else None,
                **(
                    {
                        "instructions": counted,
                        "instructions_vs_bare": round(counted["board"] / counted["bare"], 3),
                        "before_tree_instructions_vs_bare": round(
                            counted["before_tree"] / counted["bare"], 3
                        )
                        if "before_tree" in counted
                        else None,
                    }
                    if counted
                    else {}
                ),
                "machine": {"before": before, "after": machine()},
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
