"""The save-folder stress test (issue 26): two to four processes at once on one save folder, opening,
watching, taking over and quitting runs, SIGKILLed and SIGSTOPped at random points, with `simulate`,
`memory consolidate|prune|forget` and `export` in between; then `integrity_check` and `replay
--verify` on every run. Seeded: the plan (what runs when, which signal, when) comes from the seed;
the OS decides the interleaving.

Counts: damaged (integrity not ok, or any "damaged" refusal), lost (an acknowledged step missing
from a run that was not forgotten), resurrected (a run back after its forget was acknowledged),
unclean (an exit other than 0 or 2 from a process that was not killed), replay failures.

`python -m tests.reliability.stress --iterations 500 --seed 1` prints one JSON line (the figure);
tests/reliability/test_stress.py runs a short one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Proc:
    what: str
    popen: subprocess.Popen[str]
    run: str | None
    lines: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)
    killed: bool = False

    def start_readers(self) -> None:
        for stream, sink in ((self.popen.stdout, self.lines), (self.popen.stderr, self.err)):
            threading.Thread(target=_drain, args=(stream, sink), daemon=True).start()


def _drain(stream: IO[str] | None, sink: list[str]) -> None:
    if stream is None:
        return
    for line in stream:
        sink.append(line.rstrip("\n"))


@dataclass
class Tally:
    iterations: int = 0
    kills: int = 0
    stops: int = 0
    forgets: int = 0
    commands: int = 0
    acks: int = 0
    unclean: list[str] = field(default_factory=list)
    damaged_lines: list[str] = field(default_factory=list)
    acked: dict[str, int] = field(default_factory=dict)  # run -> highest acknowledged input count
    forgotten: set[str] = field(default_factory=set)
    runs_seen: set[str] = field(default_factory=set)


def _env(save: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "WORLDFORGE_HOME": str(save)}


def _cli(save: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "worldforge_tui.cli", *args, "--save-dir", str(save)]


def _spawn(save: Path, what: str, argv: list[str], run: str | None) -> Proc:
    popen = subprocess.Popen(
        argv, cwd=ROOT, env=_env(save), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    proc = Proc(what, popen, run)
    proc.start_readers()
    return proc


def _runs(save: Path) -> list[str]:
    db = save / "worldforge.db"
    if not db.exists():
        return []
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
        try:
            return [r[0] for r in conn.execute("SELECT run_id FROM runs ORDER BY run_id")]
        finally:
            conn.close()
    except sqlite3.Error:
        return []


def _note_ids(save: Path, run: str) -> list[str]:
    try:
        conn = sqlite3.connect(f"file:{save / 'worldforge.db'}?mode=ro", uri=True, timeout=30)
        try:
            rows = conn.execute(
                "SELECT id FROM memories WHERE run_id = ? AND status = 'active'"
                " AND kind IN ('chat_summary', 'context', 'preference') ORDER BY seq LIMIT 2",
                (run,),
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return []
    return [r[0] for r in rows]


def _pick(rng: random.Random, save: Path, tally: Tally) -> tuple[str, list[str], str | None]:
    runs = [r for r in _runs(save) if r not in tally.forgotten]
    roll = rng.random()
    if not runs or roll < 0.12:
        seed = rng.randrange(10_000)
        if rng.random() < 0.5:
            return (
                "simulate",
                _cli(save, "simulate", "--pitch", "Bike repair bookings", "--seed", str(seed)),
                None,
            )
        window = [
            sys.executable,
            "-m",
            "tests.reliability.stress_window",
            str(save),
            "new",
            str(seed),
            str(rng.randint(2, 8)),
        ]
        return "window", window, None
    run = rng.choice(runs)
    if roll < 0.60:
        window = [
            sys.executable,
            "-m",
            "tests.reliability.stress_window",
            str(save),
            run,
            str(rng.randrange(10_000)),
            str(rng.randint(1, 6)),
        ]
        return "window", window, run
    if roll < 0.70:
        return "prune", _cli(save, "memory", "prune", "--run", run), run
    if roll < 0.80:
        ids = _note_ids(save, run)
        if len(ids) == 2:
            args = [
                "memory",
                "consolidate",
                "--run",
                run,
                "--source",
                ids[0],
                "--source",
                ids[1],
                "--summary",
                "The two notes agree: keep the price simple.",
                "--reviewer",
                "ceo",
            ]
            return "consolidate", _cli(save, *args), run
        return "prune", _cli(save, "memory", "prune", "--run", run), run
    if roll < 0.88:
        out = save / "exports" / f"{run}-{rng.randrange(10**6)}.md"
        return "export", _cli(save, "export", run, "--out", str(out)), run
    return "forget", _cli(save, "memory", "forget", "--run", run, "--yes"), run


def _finish(proc: Proc, tally: Tally) -> None:
    proc.popen.wait()
    time.sleep(0.02)  # let the readers take the last lines
    code = proc.popen.returncode
    text = "\n".join(proc.err)
    if "damaged" in text or "truncated" in text:
        tally.damaged_lines.append(f"{proc.what}: {text[-300:]}")
    if not proc.killed and code not in (0, 2):
        tally.unclean.append(f"{proc.what} exit {code}: {text[-300:]}")
    for line in proc.lines:
        parts = line.split()
        if parts[:1] == ["ack"] and len(parts) == 3:
            run, count = parts[1], int(parts[2])
            tally.acks += 1
            tally.runs_seen.add(run)
            tally.acked[run] = max(tally.acked.get(run, 0), count)
        elif parts[:1] == ["run"] and len(parts) >= 2:
            tally.runs_seen.add(parts[1])
    if proc.what == "forget" and code == 0 and any("forgot run" in ln for ln in proc.lines):
        assert proc.run is not None
        tally.forgotten.add(proc.run)
        tally.forgets += 1


def stress(
    save: Path, *, iterations: int, seed: int, width: int = 3, max_delay: float = 3.0
) -> dict[str, object]:
    """Run the stress plan on `save` and return its figures. A disrupted process is signalled
    0.3 s to `max_delay` after it starts; a short run keeps that under a venture's length, so its
    signals land even on a quiet machine where the processes finish quickly."""
    rng = random.Random(seed)
    tally = Tally()
    live: list[Proc] = []
    started = time.monotonic()
    while tally.iterations < iterations or live:
        for proc in [p for p in live if p.popen.poll() is not None]:
            live.remove(proc)
            _finish(proc, tally)
        if tally.iterations < iterations and len(live) < width:
            what, argv, run = _pick(rng, save, tally)
            proc = _spawn(save, what, argv, run)
            live.append(proc)
            tally.iterations += 1
            tally.commands += what != "window"
            fate = rng.random()
            if what in ("window", "simulate") and fate < 0.45:
                delay = rng.uniform(0.3, max_delay)
                stop_for = rng.uniform(0.1, 1.0) if fate < 0.2 else 0.0
                threading.Thread(
                    target=_signal_later,
                    args=(proc, delay, stop_for, fate < 0.1, tally),
                    daemon=True,
                ).start()
        time.sleep(0.02)
    return _check(save, tally, time.monotonic() - started, seed)


def _signal_later(
    proc: Proc, delay: float, stop_for: float, kill_stopped: bool, tally: Tally
) -> None:
    time.sleep(delay)
    if proc.popen.poll() is not None:
        return
    try:
        if stop_for:
            proc.popen.send_signal(signal.SIGSTOP)
            tally.stops += 1
            time.sleep(stop_for)
            if kill_stopped:
                proc.killed = True
                proc.popen.send_signal(signal.SIGKILL)
                tally.kills += 1
            proc.popen.send_signal(signal.SIGCONT)
        else:
            proc.killed = True
            proc.popen.send_signal(signal.SIGKILL)
            tally.kills += 1
    except ProcessLookupError:
        pass


def _check(save: Path, tally: Tally, seconds: float, seed: int) -> dict[str, object]:
    from engine.session.replay import verify
    from engine.session.saves import load_run
    from worldforge_savedb.db import connect

    conn = connect(save / "worldforge.db", create=False)
    try:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        present = {r[0] for r in conn.execute("SELECT run_id FROM runs")}
        lost = []
        for run, count in tally.acked.items():
            if run in tally.forgotten:
                continue
            if run not in present:
                lost.append(f"{run}: gone")
            elif len(load_run(conn, run)[1]) < count:
                lost.append(f"{run}: {len(load_run(conn, run)[1])} inputs < {count} acknowledged")
        resurrected = sorted(tally.forgotten & present)
        replay_failures = []
        for run in sorted(present):
            report = verify(conn, run)
            if not report.ok:
                replay_failures.append(f"{run}: {report.first_difference}")
    finally:
        conn.close()
    damaged = int(integrity != "ok") + len(tally.damaged_lines)
    return {
        "seed": seed,
        "iterations": tally.iterations,
        "seconds": round(seconds, 1),
        "kills": tally.kills,
        "stops": tally.stops,
        "commands": tally.commands,
        "forgets": tally.forgets,
        "acknowledged_steps": tally.acks,
        "runs_at_end": len(present),
        "damaged": damaged,
        "lost_acknowledged": len(lost),
        "resurrected": len(resurrected),
        "unclean_exits": len(tally.unclean),
        "replay_failures": len(replay_failures),
        "details": {
            "integrity": integrity,
            "damaged": tally.damaged_lines[:3],
            "lost": lost[:5],
            "resurrected": resurrected[:5],
            "unclean": tally.unclean[:5],
            "replay": replay_failures[:5],
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--width", type=int, default=3, help="processes at once (2-4)")
    parser.add_argument("--save-dir", help="default: a fresh temporary folder")
    args = parser.parse_args()
    save = Path(args.save_dir or tempfile.mkdtemp(prefix="worldforge-stress-"))
    save.mkdir(parents=True, exist_ok=True)
    out = stress(save, iterations=args.iterations, seed=args.seed, width=args.width)
    out["load"] = os.getloadavg()[0]
    print(json.dumps(out, sort_keys=True))
    bad = ("damaged", "lost_acknowledged", "resurrected", "unclean_exits", "replay_failures")
    return 1 if any(out[k] for k in bad) else 0


if __name__ == "__main__":
    raise SystemExit(main())
