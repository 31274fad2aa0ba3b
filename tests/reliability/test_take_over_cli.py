"""Issue 26: the CLI's take-over of a stale lease. `memory prune|consolidate|forget --take-over`
takes a run from a window whose heartbeat went silent (SIGSTOPped here, a real process), only
because the player asked for it; a live window is never taken from, and every refusal is one line
and exit 2. The window is the one of tests/reliability/test_one_writer.py (a real session in
another process on the same save file)."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from engine.session import lease as leases
from tests.reliability.conftest import play_venture, replayed
from tests.reliability.test_one_writer import Window
from worldforge_tui.cli import main


def _prune(save_dir: Path, run_id: str, *extra: str) -> list[str]:
    return ["memory", "prune", "--run", run_id, "--save-dir", str(save_dir), *extra]


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_live_window_is_never_taken_over_from_the_cli(tmp_path, capsys) -> None:
    run_id = play_venture(tmp_path, stop_after=1)  # at the gate
    other = Window(tmp_path, run_id)
    try:
        assert other.first == "ready False"
        assert main(_prune(tmp_path, run_id, "--take-over")) == 2
        err = _one_line(capsys.readouterr().err)
        assert "--take-over refused" in err and "another window" in err and "pid " in err
        assert main(_prune(tmp_path, run_id)) == 2  # without the flag: the same holder named
        assert "another window" in _one_line(capsys.readouterr().err)
        assert other.send("approve").startswith("ok")  # the holder goes on, nothing was lost
    finally:
        other.close()
    assert replayed(tmp_path, run_id).ok


def test_a_stopped_window_is_taken_over_only_with_the_flag(
    tmp_path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_id = play_venture(tmp_path, stop_after=1)
    other = Window(tmp_path, run_id)
    assert other.first == "ready False"
    other.proc.send_signal(signal.SIGSTOP)
    try:
        # the expiry is judged by the one taking over; a stopped process writes no heartbeat, so
        # its silence only grows: after the sleep it is past the (shortened) expiry, whatever the load
        monkeypatch.setattr(leases, "EXPIRY_S", 0.5)
        time.sleep(1.0)
        assert main(_prune(tmp_path, run_id)) == 2
        err = _one_line(capsys.readouterr().err)
        assert "silent for" in err and "add --take-over" in err
        assert main(_prune(tmp_path, run_id, "--take-over")) == 0, capsys.readouterr().err
        assert "pruned" in capsys.readouterr().out
    finally:
        other.proc.send_signal(signal.SIGCONT)
    answer = other.send("approve")  # what it still shows: it no longer holds the run
    assert answer.startswith("refused RunBusyError"), answer
    other.close()
    assert replayed(tmp_path, run_id).ok  # the take-over's prune is a recorded command
