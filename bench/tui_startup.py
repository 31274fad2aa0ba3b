"""Bench: process start to the board's first frame (headless 120×40), and import cost alone.

Run: `.venv/bin/python -m bench.tui_startup` (prints one JSON object). Target: under 0.6 s.
Each sample is a fresh interpreter, so imports are measured cold-ish (warm .pyc, as a player runs).
"""

from __future__ import annotations

import json
import os
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
        self.exit()

app = FirstFrame()
app.run(headless=True, size=(120, 40))
print(f"{t_import - t0:.4f} {app.first_frame - t0:.4f}")
"""

# The reference: a bare 7-widget Textual app, measured the same way on the same (noisy) machine.
BARE = r"""
import time
t0 = time.perf_counter()
from textual.app import App
from textual.widgets import Footer, Header, Log, Select, Static
t_import = time.perf_counter()

class Bare(App):
    def compose(self):
        yield Header(); yield Static("a"); yield Static("b"); yield Static("c")
        yield Log(); yield Select([("a", "a")]); yield Footer()
    def on_mount(self):
        self.call_after_refresh(self.done)
    def done(self):
        self.first_frame = time.perf_counter()
        self.exit()

app = Bare()
app.run(headless=True, size=(120, 40))
print(f"{t_import - t0:.4f} {app.first_frame - t0:.4f}")
"""


def sample(home: str, child: str = CHILD) -> tuple[float, float, float]:
    """One fresh process: (import s, in-process first frame s, wall incl. interpreter start s)."""
    # Bytecode caching on, as on a player's machine (a sandbox may set PYTHONDONTWRITEBYTECODE,
    # which would recompile every changed module on every sample).
    env = {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "WORLDFORGE_HOME": home,
        "TEXTUAL_ANIMATIONS": "none",
    }
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", child],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=60,
    )
    wall = time.perf_counter() - started
    imported, first = (float(x) for x in out.stdout.split()[-2:])
    return imported, first, wall


def main() -> int:
    with tempfile.TemporaryDirectory() as home:
        sample(home)  # warm the .pyc cache
        rows, bare = [], []
        for _ in range(RUNS):  # interleaved, so machine noise hits both alike
            rows.append(sample(home))
            bare.append(sample(home, BARE))
    imports = sorted(r[0] for r in rows)
    firsts = sorted(r[1] for r in rows)
    walls = sorted(r[2] for r in rows)
    print(
        json.dumps(
            {
                "bench": "tui_startup",
                "runs": RUNS,
                "size": "120x40",
                "import_s_median": round(imports[RUNS // 2], 3),
                "first_frame_s_median": round(firsts[RUNS // 2], 3),
                "first_frame_s_min": round(firsts[0], 3),
                "process_wall_s_median": round(walls[RUNS // 2], 3),
                "bare_7_widget_first_frame_s_median": round(
                    sorted(b[1] for b in bare)[RUNS // 2], 3
                ),
                "target_first_frame_s": 0.6,
                "machine": machine(),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
