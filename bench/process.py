"""One measured process: wall, CPU and peak memory of that process alone.

On Linux a child's peak-memory count (`ru_maxrss`) starts at its parent's resident size: `fork`
copies the parent's pages into the child's count and `exec` keeps the larger of the old and the new
peak. A bench that has imported the engine (tens of MiB) and starts the measured command itself
therefore reads its own size as every child's peak. So the command is started by a fresh, small
launcher (`python -S`, nothing imported), which forks it, waits for it with `wait4` and writes that
child's rusage to a file; the child inherits only the launcher's few MiB. `floor()` measures what
the method itself leaves in the figure: `/bin/true` through the same launcher.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

# The launcher: argv = [out_file, *command]. It runs the command as its child and writes the
# child's exit code, CPU seconds and peak RSS (KiB, as Linux counts ru_maxrss) as JSON.
LAUNCHER = r"""
import json, os, sys
out, cmd = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(out, "w") as fh:
    json.dump({"code": os.waitstatus_to_exitcode(status),
               "cpu_s": usage.ru_utime + usage.ru_stime,
               "peak_kib": usage.ru_maxrss}, fh)
"""


def measured(
    cmd: list[str],
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    *,
    stdout: int | None = subprocess.DEVNULL,
    timeout: float = 600,
) -> dict[str, Any]:
    """Run `cmd` through the launcher: wall s (launcher start to exit, a few ms more than the
    command's own), the command's CPU s and peak MiB, its exit code, and its stdout when
    `stdout=subprocess.PIPE`. Raises SystemExit with the command's stderr when it fails."""
    with tempfile.TemporaryDirectory(prefix="wf-measure-") as tmp:
        out = os.path.join(tmp, "rusage.json")
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-S", "-c", LAUNCHER, out, *cmd],
            env=env,
            cwd=cwd,
            stdout=stdout,
            stderr=subprocess.PIPE,
            timeout=timeout,
            check=False,
        )
        wall = time.perf_counter() - start
        try:
            with open(out, encoding="utf-8") as fh:
                usage = json.load(fh)
        except (OSError, ValueError):
            usage = {"code": done.returncode, "cpu_s": 0.0, "peak_kib": 0}
    if usage["code"] != 0:
        err = done.stderr.decode(errors="replace")[-400:]
        raise SystemExit(f"bench: {cmd[0]} exited {usage['code']}: {err}")
    return {
        "wall_s": wall,
        "cpu_s": float(usage["cpu_s"]),
        "peak_mib": usage["peak_kib"] / 1024,
        "stdout": done.stdout.decode(errors="replace") if done.stdout is not None else "",
    }


def floor() -> dict[str, float]:
    """What the launcher leaves in a figure: `true` measured the same way (its peak is the
    launcher's inherited size, the smallest peak any command can show here)."""
    got = measured(["true"])
    return {k: round(got[k], 4) for k in ("wall_s", "cpu_s", "peak_mib")}
