"""Ventures per second in-process on the simulation tier with SQLite on disk, plus the whole-process
`worldforge simulate --json` time and the balance time (4 archetypes x every fork path, 512, on one seed). Prints JSON; quotes medians.

    python -m bench.venture --json [--ventures 40] [--runs 5] [--process-only | --balance-only]
        [--original SUBMISSION_DIR --original-python PYTHON]

The anchor: with `--original`, each round also runs the original game's own headless venture
(`tools/run_campaign_simulation.py` of princepspolycap/agentsleague-afterbuild, `DEMO_MODE=simulation`,
in the `submission/` directory of a checkout, under an interpreter with its requirements), so
`simulate` and the original are timed interleaved on the same load: wall, CPU and peak RSS of each
process alone (bench.process: a fresh launcher, so no child inherits the bench's peak memory),
medians, the ratios the issue asks for, and the interpreter's own start-up beside them as the floor
(`interpreter_floor`: `python -c pass` in the same rounds; `launcher_floor`: the smallest peak the
method can show).

`--instructions` (needs valgrind) adds one run of each under callgrind: instructions executed, which
the load of other processes does not change (a venture is deterministic; the hash seed is fixed so
a set's order does not move the count by a few million), for a machine too busy for wall or CPU
time to mean much. Beside them, floors counted the same way: `interpreter` (`python -c pass`),
`imports` (loading what `simulate` loads before its venture starts, and nothing else),
`first_use` (what the first venture of a process loads and compiles on first use) and
`venture_work` (a second venture in the same process: the venture's own work), so the share of a
venture that is start-up is in the same JSON (`interpreter` is inside `imports`; `imports`,
`first_use` and `venture_work` add up to `simulate`). `exec_compiled` is the part of `simulate`
spent inside exec() of source text: the methods `@dataclass` compiles for each record class.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import machine, process

PITCH = "A solar microgrid cooperative for rural farmers"
# What `worldforge simulate` imports before its venture's first command (the `imports` floor).
IMPORTS = "import worldforge_tui.cli, engine.play.headless, engine.session.api"
# `worldforge simulate` played N times in one process, each into a save dir of its own (argv[1:]):
# one venture against two splits a venture into what its first run loads or compiles on first use
# (modules imported inside functions, regexes, vocabularies, caches) and the venture's own work.
VENTURES_IN_ONE_PROCESS = f"""
import contextlib, os, sys
from worldforge_tui.cli import main
with open(os.devnull, "w") as out, contextlib.redirect_stdout(out):
    for save in sys.argv[1:]:
        main(["simulate", "--pitch", {PITCH!r}, "--json", "--save-dir", save])
"""


def ventures_per_second(n: int) -> float:
    from engine.config import Settings
    from engine.play.headless import Plan, play
    from engine.routing import Router
    from engine.session.api import GameSession

    router = Router(Settings(demo_mode="simulation"))
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        for i in range(n):
            s = GameSession.start_venture(pitch=PITCH, seed=i, save_dir=Path(tmp), router=router)
            play(s, Plan(path="AB"[i % 2] * 8))
            s.close()
        return n / (time.perf_counter() - start)


def measured(cmd: list[str], env: dict[str, str], cwd: str | None = None) -> dict[str, float]:
    """One process, start to exit: wall s, CPU s (user + system) and peak RSS MiB of that process
    alone (bench.process: started by a fresh small launcher, so the bench's own size is not
    inherited into the child's peak)."""
    got = process.measured(cmd, env, cwd)
    return {k: got[k] for k in ("wall_s", "cpu_s", "peak_mib")}


def instructions(
    cmd: list[str], env: dict[str, str], cwd: str | None = None, only: str | None = None
) -> int:
    """Instructions one process executes (valgrind's callgrind, `Collected`), children not traced,
    under a fixed hash seed; `only`: just those inside that C function (callgrind's
    --toggle-collect; a `python -c` command runs inside PyRun_StringFlags itself)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("bench.venture: --instructions needs valgrind on PATH")
    env = {**env, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            [
                valgrind,
                "--tool=callgrind",
                "--cache-sim=no",
                *([f"--toggle-collect={only}"] if only else []),
                f"--callgrind-out-file={out}/cg",
                *cmd,
            ],
            check=False,
            env=env,
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"bench.venture: valgrind run failed: {done.stderr[-400:]}")
    return int(found.group(1))


def simulate_instructions(tree: Path | None = None, only: str | None = None) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(sys.executable).with_name("worldforge")
        env = _env()
        if tree is not None:
            env["PYTHONPATH"] = str(tree.resolve())
        cmd = [str(exe), "simulate", "--pitch", PITCH, "--json", "--save-dir", tmp]
        return instructions(cmd, env, cwd=tmp, only=only)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["DEMO_MODE"] = "simulation"
    return env


def simulate_process(tree: Path | None = None) -> dict[str, float]:
    """One `worldforge simulate --json` process, start to exit. Bytecode caching on, as on a
    player's machine (this sandbox sets PYTHONDONTWRITEBYTECODE); main() runs one warm-up first.
    `tree`: another source tree first on PYTHONPATH (a before/after pair in the same rounds)."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(sys.executable).with_name("worldforge")
        cmd = [str(exe), "simulate", "--pitch", PITCH, "--json", "--save-dir", tmp]
        env = _env()
        if tree is not None:
            env["PYTHONPATH"] = str(tree.resolve())
        return measured(cmd, env, cwd=tmp)


def original_process(submission: Path, python: str) -> dict[str, float]:
    """One headless venture of the original game (its campaign simulator, simulation mode)."""
    cmd = [python, "tools/run_campaign_simulation.py", "--pitch", PITCH]
    return measured(cmd, _env(), cwd=str(submission))


def simulate_process_s() -> float:
    return simulate_process()["wall_s"]


def interpreter_floor() -> dict[str, float]:
    """The floor no engine change can go below: the same interpreter starting and exiting
    (`python -c pass`, site imports included as the game's entry point has them), measured the
    same way in the same rounds."""
    return measured([sys.executable, "-c", "pass"], _env())


def balance_process(tree: Path | None = None) -> dict[str, float]:
    """One `worldforge balance --seed 7` process (4 archetypes x 512 fork paths, its worker processes'
    CPU included, as wait4 counts reaped descendants); `tree` as in `simulate_process`."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(sys.executable).with_name("worldforge")
        env = _env()
        if tree is not None:
            env["PYTHONPATH"] = str(tree.resolve())
        return measured([str(exe), "balance", "--seed", "7", "--json"], env, cwd=tmp)


def venture_split(tmp: str) -> dict[str, int]:
    """Simulate's venture split in two (instructions): `first_use`, what only a process's first
    venture spends (loading and compiling on first use), and `venture_work`, what a venture spends
    when nothing is left to load (a second venture in the same process); with `imports` and
    `interpreter` they add up to `simulate`, to within the entry script's few instructions."""
    ventures = [sys.executable, "-c", VENTURES_IN_ONE_PROCESS]
    one = instructions([*ventures, f"{tmp}/one"], _env(), cwd=tmp)
    two = instructions([*ventures, f"{tmp}/two-a", f"{tmp}/two-b"], _env(), cwd=tmp)
    return {"one_venture": one, "venture_work": two - one}


def count_instructions(a: argparse.Namespace) -> dict[str, int]:
    """One callgrind run each of simulate, the --before tree's and the original's venture, and of
    this tree's floors (the interpreter alone; simulate's imports alone; what the first venture
    loads on first use; the venture's own work, see venture_split)."""
    counted = {"simulate": simulate_instructions()}
    with tempfile.TemporaryDirectory() as tmp:
        counted["imports"] = instructions([sys.executable, "-c", IMPORTS], _env(), cwd=tmp)
        counted["interpreter"] = instructions([sys.executable, "-c", "pass"], _env(), cwd=tmp)
        split = venture_split(tmp)
        counted["venture_work"] = split["venture_work"]
        counted["first_use"] = split["one_venture"] - split["venture_work"] - counted["imports"]
    # source text compiled by exec() while simulate runs: on this path, only the methods
    # @dataclass writes and compiles for each record class (its __init__, a frozen record's
    # __setattr__ and __delattr__, ...), a cost of every class defined, used or not
    counted["exec_compiled"] = simulate_instructions(only="PyRun_StringFlags")
    if a.before:
        counted["before_tree"] = simulate_instructions(a.before)
    if a.original:
        cmd = [a.original_python, "tools/run_campaign_simulation.py", "--pitch", PITCH]
        counted["original"] = instructions(cmd, _env(), cwd=str(a.original))
    return counted


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--ventures", type=int, default=40)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--balance-runs", type=int, default=3)
    p.add_argument(
        "--process-only",
        action="store_true",
        help="only the whole-process simulate figure (and its interpreter floor)",
    )
    p.add_argument(
        "--balance-only",
        action="store_true",
        help="only the balance figure (4 archetypes x 512 fork paths on one seed)",
    )
    p.add_argument(
        "--original",
        type=Path,
        metavar="SUBMISSION_DIR",
        help="the original game's submission/ directory: time its headless venture interleaved",
    )
    p.add_argument(
        "--original-python",
        default=sys.executable,
        help="interpreter with the original's requirements (default: this one)",
    )
    p.add_argument(
        "--before",
        type=Path,
        metavar="SRC_DIR",
        help="another source tree (git archive of a commit) timed in the same rounds",
    )
    p.add_argument(
        "--instructions",
        action="store_true",
        help="also count instructions (valgrind callgrind) of one simulate, --before and --original",
    )
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    before = machine()
    vps = (
        []
        if a.process_only or a.balance_only
        else [ventures_per_second(a.ventures) for _ in range(a.runs)]
    )
    proc: list[dict[str, float]] = []
    earlier: list[dict[str, float]] = []
    orig: list[dict[str, float]] = []
    floor: list[dict[str, float]] = []
    if not a.balance_only:
        simulate_process()  # warm-up: writes the bytecode cache, as a first launch would
        if a.original:
            original_process(a.original, a.original_python)
        if a.before:
            simulate_process(a.before)
        for _ in range(a.runs):  # interleaved, so all see the same machine load
            proc.append(simulate_process())
            if a.before:
                earlier.append(simulate_process(a.before))
            if a.original:
                orig.append(original_process(a.original, a.original_python))
            floor.append(interpreter_floor())
    # after the timed rounds, so the bytecode is cached
    counted = count_instructions(a) if a.instructions and not a.balance_only else {}
    bal: list[float] = []
    bal_proc: list[dict[str, float]] = []
    bal_before: list[dict[str, float]] = []
    if not a.process_only:
        for _ in range(a.balance_runs):  # interleaved with the --before tree's, when given
            bal_proc.append(balance_process())
            bal.append(bal_proc[-1]["wall_s"])
            if a.before:
                bal_before.append(balance_process(a.before))

    def median(values: list[float], digits: int) -> float | None:
        return round(statistics.median(values), digits) if values else None

    def medians(rows: list[dict[str, float]]) -> dict[str, float] | None:
        if not rows:
            return None
        return {k: round(statistics.median(r[k] for r in rows), 3) for k in rows[0]}

    ours, anchor, before_tree = medians(proc), medians(orig), medians(earlier)
    out = {
        "ventures_per_s_median": median(vps, 1),
        "ventures_per_s_runs": [round(v, 1) for v in vps],
        "simulate_process_s_median": ours and ours["wall_s"],
        "simulate_process_s_runs": [round(r["wall_s"], 3) for r in proc],
        "simulate_process": ours,
        "original_process": anchor,
        "before_tree_process": before_tree,
        "before_tree_vs_original": before_tree
        and anchor
        and {k: round(before_tree[k] / anchor[k], 2) for k in ("wall_s", "cpu_s", "peak_mib")},
        "vs_original": ours
        and anchor
        and {k: round(ours[k] / anchor[k], 2) for k in ("wall_s", "cpu_s", "peak_mib")},
        "instructions": counted or None,
        "instructions_vs_original": (
            {k: round(v / counted["original"], 2) for k, v in counted.items() if k != "original"}
            if "original" in counted
            else None
        ),
        "interpreter_floor": medians(floor),
        "launcher_floor": process.floor(),
        "balance_4x256_s_median": median(bal, 2),
        "balance_4x256_s_runs": [round(v, 2) for v in bal],
        "balance_process": medians(bal_proc),
        "before_tree_balance_process": medians(bal_before),
        "targets": {
            "balance_4x256_s": 5.0,
            "vs_original_wall_s": 0.5,
            "vs_original_cpu_s": 0.35,
            "vs_original_peak_mib": 0.8,
        },
        "machine": {"before": before, "after": machine()},
    }
    print(json.dumps(out, indent=None if a.json else 2))


if __name__ == "__main__":
    main()
