"""The crash harness: start `crash_child` on a save dir, SIGKILL it, then prove the save kept its word.

After every kill the save must open, pass `PRAGMA integrity_check`, hold every acknowledged event
(with no gaps and nothing but the one in-flight step beyond them), replay-verify each touched run
through the `worldforge replay --verify` command, and resume: `GameSession.load` then
`engine.play.headless.play` to the end, after which the run verifies again and its acknowledged prefix is
unchanged.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import subprocess
import sys
import threading
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from engine.play.headless import Plan, play
from engine.session.api import GameSession
from engine.session.events import list_events
from engine.session.replay import verify
from engine.session.savefile import integrity, open_save
from engine.session.saves import list_runs
from worldforge_savedb.db import db_path
from worldforge_tui.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
_STDIO = threading.Lock()  # redirect_stdout is process-wide: one CLI call at a time


@dataclass
class Outcome:
    """One kill: whether the child was still running when it died, and what it had acknowledged."""

    killed: bool
    acks: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    started: list[str] = field(default_factory=list)


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _parse(log: Path) -> Outcome:
    acks: dict[str, list[tuple[int, str]]] = defaultdict(list)
    started: list[str] = []
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    assert "Traceback" not in text, f"the game process failed before its kill:\n{text[-2000:]}"
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "ACK":
            acks[parts[1]].append((int(parts[2]), parts[3]))
        elif len(parts) == 2 and parts[0] == "RUN":
            started.append(parts[1])
    return Outcome(killed=False, acks=dict(acks), started=started)


class Zygote:
    """A `crash_child` process that has imported the game once and forks a game per request."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.crash_child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=_child_env(),
            text=True,
            bufsize=1,
        )
        first = self._line()
        assert first == "ZYGOTE", f"crash zygote did not start: {first!r}"

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"crash zygote died (exit {self.proc.wait()})")
        return line.strip()

    def run(
        self,
        save_dir: Path,
        generation: int,
        log: Path,
        *,
        delay: float | None = None,
        kill_at: str | None = None,
        ventures: int | None = None,
    ) -> Outcome:
        """Fork a game on `save_dir` that plays `ventures` ventures (default: until killed);
        SIGKILL it after `delay` s, or let the `kill_at` hook fire."""
        assert self.proc.stdin is not None
        request = {
            "save_dir": str(save_dir),
            "generation": generation,
            "log": str(log),
            "delay": delay,
            "kill_at": kill_at,
            "ventures": ventures,
        }
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self._line())
        outcome = _parse(log)
        outcome.killed = bool(answer["killed"])
        return outcome

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def on_zygote(pool: queue.Queue[Zygote], task: Callable[[Zygote], T]) -> T:
    """Run `task` on a free zygote of `pool` (the `zygotes` fixture), handing it back after."""
    zygote = pool.get()
    try:
        return task(zygote)
    finally:
        pool.put(zygote)


def _cli_verify(save_dir: Path, run_id: str) -> tuple[int, str]:
    """`worldforge replay RUN --verify --save-dir D`, in process (the same code the CLI runs)."""
    out, err = io.StringIO(), io.StringIO()
    with _STDIO, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(["replay", run_id, "--verify", "--save-dir", str(save_dir)])
    return code, out.getvalue() + err.getvalue()


def check_after_kill(save_dir: Path, outcome: Outcome, *, in_transaction: bool) -> list[str]:
    """Every promise kept after a kill; returns the run ids it checked (raises AssertionError)."""
    path = db_path(save_dir)
    if not path.exists():
        assert not outcome.acks, "events were acknowledged but there is no save file"
        return []
    conn = open_save(path, create=False)
    try:
        assert integrity(conn) == "ok"
        runs = {r.run_id: r for r in list_runs(conn)}
        touched = sorted(
            set(outcome.acks)
            | set(outcome.started) & set(runs)
            | {r for r, s in runs.items() if s.phase != "ended"}
        )
        for run_id in touched:
            acked = outcome.acks.get(run_id, [])
            assert run_id in runs or not acked, f"{run_id}: acknowledged but missing from the save"
            if run_id not in runs:
                continue
            saved = [(e.id, e.type) for e in list_events(conn, run_id)]
            assert [i for i, _ in saved] == list(range(1, len(saved) + 1)), f"{run_id}: event gaps"
            assert saved[: len(acked)] == acked, f"{run_id}: an acknowledged event was lost"
            if in_transaction:  # the step in flight never committed: nothing beyond the acks
                assert len(saved) == len(acked), f"{run_id}: a half-written step survived"
    finally:
        conn.close()
    for run_id in touched:
        if run_id not in runs:
            continue
        # the command a player runs (it calls engine.session.replay.verify on the save opened
        # read-only, and prints the first difference): one replay per kill, not the same one twice
        code, text = _cli_verify(save_dir, run_id)
        assert code == 0 and "OK" in text, f"{run_id}: worldforge replay --verify failed: {text}"
        _resume(save_dir, run_id, outcome.acks.get(run_id, []))
    return [r for r in touched if r in runs]


def _resume(save_dir: Path, run_id: str, acked: list[tuple[int, str]]) -> None:
    """Continue the run from its last committed step to the end; it must verify afterwards."""
    session = GameSession.load(run_id, save_dir=save_dir)
    try:
        if session.state.phase != "ended":
            play(session, Plan())
        assert session.state.phase == "ended"
        events = [(e.id, e.type) for e in session.events()]
        assert events[: len(acked)] == acked, f"{run_id}: resuming rewrote acknowledged events"
        report = verify(session.conn, run_id)
        assert report.ok, f"{run_id}: replay mismatch after resume: {report.first_difference}"
    finally:
        session.close()
