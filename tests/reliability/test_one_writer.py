"""Issue 12 cases 1-3: one writer per run (a lease in the save file, a state version checked by
every write), memory commands as recorded run commands, and forget that leaves nothing behind.

The other window is a real process holding a real session on the same save file.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.config import Settings
from engine.errors import GameError
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from engine.session.lease import RunBusyError
from engine.session.savefile import open_save
from tests.reliability.conftest import cli, play_venture, replayed
from tests.reliability.sequences import run_sequence
from worldforge_savedb.db import db_path

ROOT = Path(__file__).resolve().parents[2]

HOLDER = textwrap.dedent("""
    import sys
    from engine.config import Settings
    from engine.routing import Router
    from engine.session.api import GameSession
    from engine.session.commands import named
    save_dir, run_id = sys.argv[1], sys.argv[2]
    s = GameSession.load(run_id, save_dir=save_dir, router=Router(Settings(demo_mode="simulation")))
    print("ready", s.read_only, flush=True)
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "close":
            break
        try:
            s.give(named(cmd), "A" if cmd == "decide" else "")
            print("ok", s.state.phase, flush=True)
        except Exception as err:
            print("refused", type(err).__name__, err, flush=True)
    s.close()
    print("closed", flush=True)
""")


def _router() -> Router:
    return Router(Settings(demo_mode="simulation"))


class Window:
    """Another process with the run open (a second `play` window, in effect)."""

    def __init__(self, save_dir: Path, run_id: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "WORLDFORGE_HOME": str(save_dir)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(save_dir), run_id],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        self.first = self.read()

    def read(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def send(self, cmd: str) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()
        return self.read()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.send("close")
        self.proc.wait(timeout=30)


def test_second_window_watches_read_only_and_no_decision_is_lost(tmp_path: Path) -> None:
    run_id = play_venture(tmp_path, stop_after=1)  # the worker has shipped: the gate is open
    other = Window(tmp_path, run_id)
    try:
        assert other.first == "ready False"  # the other window holds the run
        mine = GameSession.load(run_id, save_dir=tmp_path, router=_router())
        try:
            assert mine.read_only
            line = mine.read_only_line()
            assert f"pid {other.proc.pid}" in line and "another window" in line
            with pytest.raises(RunBusyError, match="another window"):
                mine.give(Approve)
            assert other.send("approve") == "ok fork"
            assert other.send("decide") == "ok brief"
            fresh = mine.refresh()  # the watching window sees the log scroll
            assert [e.type for e in fresh][:2] == ["ARTIFACT_APPROVED", "MEMORY_WRITTEN"]
            assert mine.state.phase == "brief" and mine.state.stage_index == 1
            with pytest.raises(RunBusyError):
                mine.give(Decide, "B")
        finally:
            mine.close()
    finally:
        other.close()
    report = replayed(tmp_path, run_id)
    assert report.ok, report.first_difference
    decisions = [
        e for e in GameSession.load(run_id, save_dir=tmp_path).events() if e.type == "CEO_DECISION"
    ]
    assert len(decisions) == 1


def test_a_stale_lease_of_a_killed_process_is_taken_over(tmp_path: Path) -> None:
    run_id = play_venture(tmp_path, stop_after=1)
    other = Window(tmp_path, run_id)
    assert other.first == "ready False"
    other.proc.send_signal(signal.SIGKILL)
    other.proc.wait(timeout=30)
    mine = GameSession.load(run_id, save_dir=tmp_path, router=_router())
    try:
        assert not mine.read_only
        mine.give(Approve)
    finally:
        mine.close()


def test_an_older_session_refuses_instead_of_overwriting_newer_state(tmp_path: Path) -> None:
    run_id = play_venture(tmp_path, stop_after=1)
    old = GameSession.load(run_id, save_dir=tmp_path, router=_router())
    new = GameSession.load(run_id, save_dir=tmp_path, router=_router())  # takes the run over
    try:
        new.give(Approve)
        new.close()  # lease released: the old session still must not write its older state
        with pytest.raises(GameError, match=r"no longer holds|changed elsewhere"):
            old.give(Approve)
        assert old.read_only is False  # it had the lease once; its write was refused in one line
    finally:
        old.close()
    assert replayed(tmp_path, run_id).ok


def _cli(save_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return cli(save_dir, *args, "--save-dir", str(save_dir))


def test_cli_forget_obeys_the_lease_then_removes_the_run_everywhere(tmp_path: Path) -> None:
    run_id = play_venture(tmp_path, stop_after=4)
    s = GameSession.load(run_id, save_dir=tmp_path, router=_router())
    report_path = s.export_report()
    s.close()
    other = Window(tmp_path, run_id)
    try:
        refused = _cli(tmp_path, "memory", "forget", "--run", run_id, "--yes")
        assert refused.returncode == 2
        assert refused.stderr.count("\n") == 1 and "another window" in refused.stderr
        assert "Traceback" not in refused.stderr
        assert other.send("approve").startswith("ok")  # the holder goes on, nothing was lost
    finally:
        other.close()
    done = _cli(tmp_path, "memory", "forget", "--run", run_id, "--json", "--yes")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["reports_deleted"] == [str(report_path)] and not report_path.exists()
    conn = open_save(db_path(tmp_path), create=False)
    try:
        for table in ("runs", "events", "memories", "run_leases"):
            n = conn.execute(f"SELECT count(*) FROM {table} WHERE run_id = ?", (run_id,))
            assert n.fetchone()[0] == 0, table
    finally:
        conn.close()
    with pytest.raises(GameError):
        GameSession.load(run_id, save_dir=tmp_path)


def test_cli_consolidate_and_prune_are_recorded_and_replay_holds(tmp_path: Path) -> None:
    run_id = play_venture(tmp_path, stop_after=7)
    s = GameSession.load(run_id, save_dir=tmp_path, router=_router())
    notes = [
        r.id
        for r in s.memory.records(statuses=["provisional", "active"])
        if r.kind in ("preference", "context", "chat_summary")
    ]
    s.close()
    assert len(notes) >= 2
    sources = [a for n in notes[:2] for a in ("--source", n)]
    res = _cli(
        tmp_path,
        "memory",
        "consolidate",
        "--run",
        run_id,
        *sources,
        "--summary",
        "Reviewed: ship to one city first",
        "--reviewer",
        "ceo",
    )
    assert res.returncode == 0, res.stderr
    assert _cli(tmp_path, "memory", "prune", "--run", run_id).returncode == 0
    s = GameSession.load(run_id, save_dir=tmp_path, router=_router())
    try:
        assert [i["cmd"] for i in s.inputs][-2:] == ["consolidate", "prune"]
        while s.state.phase != "ended" and s.state.stage_index < 4:  # play on past the change
            s.give(
                *{"brief": (RunStage,), "gate": (Approve,), "fork": (Decide, "B")}[s.state.phase]
            )
    finally:
        s.close()
    report = replayed(tmp_path, run_id)
    assert report.ok, report.first_difference


@pytest.mark.parametrize("seed", range(30))
def test_random_game_and_memory_sequences_replay(tmp_path: Path, seed: int) -> None:
    out = run_sequence(tmp_path, 10_000 + seed)
    assert out["ok"], (out["difference"], out["commands"])
    assert out["canary_hits"] == 0 and out["escapes_printed"] == 0


def test_a_watcher_of_a_forgotten_run_says_so_and_never_writes(tmp_path) -> None:
    """Issue 26: `memory forget` deletes the run a read-only window shows; the window says so,
    takes no lease and cannot write the run back (no lease for a run that does not exist)."""
    from engine.errors import GameError
    from engine.session import lease as leases
    from engine.session.saves import run_exists

    run_id = play_venture(tmp_path, stop_after=3)
    other = Window(tmp_path, run_id)  # another process holds the run: this window watches
    watcher = GameSession.load(run_id, save_dir=tmp_path, router=_router())
    assert watcher.read_only
    other.proc.kill()  # the holder dies; a later command takes its stale lease and forgets
    other.proc.wait(timeout=30)
    writer = GameSession.load(run_id, save_dir=tmp_path, router=_router())
    assert not writer.read_only
    writer.forget_run()
    watcher.refresh()
    assert watcher.forgotten and "was forgotten" in watcher.read_only_line()
    assert watcher.try_take_over() is False
    with pytest.raises(GameError):
        watcher.give(RunStage)
    assert not run_exists(watcher.conn, run_id)
    assert (
        watcher.conn.execute(
            "SELECT count(*) FROM run_leases WHERE run_id = ?", (run_id,)
        ).fetchone()[0]
        == 0
    )
    with pytest.raises(leases.StaleStateError):
        leases.acquire(watcher.conn, run_id)
    watcher.close()


def test_a_stopped_holder_is_taken_over_only_when_the_player_confirms(
    tmp_path, monkeypatch
) -> None:
    """Issue 26: a SIGSTOPped holder's heartbeat goes silent; past the expiry another window may
    take the run over once the player confirms, and the stopped one then saves nothing."""
    import time

    from engine.session import lease as leases

    run_id = play_venture(tmp_path, stop_after=1)  # at the gate
    other = Window(tmp_path, run_id)
    assert other.first == "ready False"
    other.proc.send_signal(signal.SIGSTOP)
    try:
        monkeypatch.setattr(leases, "EXPIRY_S", 0.5)  # judged by the one taking over
        time.sleep(1.0)
        watcher = GameSession.load(run_id, save_dir=tmp_path, router=_router())
        assert watcher.read_only and watcher.holder is not None and watcher.holder.expired()
        assert "silent for" in watcher.read_only_line()
        assert watcher.try_take_over() is False  # never without the player's word
        assert watcher.try_take_over(confirmed=True) is True
        watcher.give(Approve)
    finally:
        other.proc.send_signal(signal.SIGCONT)
    answer = other.send("approve")  # what it still shows: the gate it approved nothing at
    assert answer.startswith("refused RunBusyError"), answer
    other.close()
    watcher.close()
    assert replayed(tmp_path, run_id).ok


def test_a_live_holder_is_never_taken_over(tmp_path) -> None:
    run_id = play_venture(tmp_path, stop_after=1)
    other = Window(tmp_path, run_id)
    watcher = GameSession.load(run_id, save_dir=tmp_path, router=_router())
    assert watcher.read_only and not watcher.holder.expired()
    assert watcher.try_take_over(confirmed=True) is False  # its heartbeat is fresh
    other.close()
    watcher.close()
