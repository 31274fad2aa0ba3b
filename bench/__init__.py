"""Benchmarks that print JSON (run with `python -m bench.<name>`).

Importing this package gives the process a home of its own, so no bench reads or writes the
runner's settings, saves, logs or caches: WORLDFORGE_HOME, HOME and the XDG directories point at
one temporary directory, removed at exit, and child processes inherit it. (A bench that once
wrote `settings.json` left `DEMO_MODE: local` behind, and every later `simulate` was slower.)
Each bench's JSON carries `machine()`: the load it ran under, since the machine is shared.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

_HOME = tempfile.mkdtemp(prefix="wf-bench-home-")
atexit.register(shutil.rmtree, _HOME, True)
for _name, _sub in (
    ("WORLDFORGE_HOME", "worldforge"),
    ("HOME", ""),
    ("XDG_CONFIG_HOME", ".config"),
    ("XDG_DATA_HOME", ".local/share"),
    ("XDG_CACHE_HOME", ".cache"),
    ("XDG_STATE_HOME", ".local/state"),
):
    os.environ[_name] = os.path.join(_HOME, _sub) if _sub else _HOME
for _var in ("DEMO_MODE",):  # the runner's routing choice must not leak into a bench
    os.environ.pop(_var, None)


def machine() -> dict[str, object]:
    """The load this figure ran under (1-minute load average over the CPU count) and the home."""
    one, five, _ = os.getloadavg()
    return {
        "cpus": os.cpu_count(),
        "load_average_1m": round(one, 2),
        "load_average_5m": round(five, 2),
        "home": "temporary (bench/__init__.py)",
    }
