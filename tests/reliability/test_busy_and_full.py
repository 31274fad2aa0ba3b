"""Issue 26: a busy save is waited for and retried, then refused in one line (exit 2); a full disk
is one line, exit 2, with no `--- Logging error ---` traceback; parallel writers lose nothing."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.reliability.conftest import play_venture
from worldforge_savedb import db as worldforge_savedb
from worldforge_savedb.db import connect, db_path

ROOT = Path(__file__).resolve().parents[2]
PITCH = "Repair bookings for independent bike shops"


def _cli(save: Path, *args: str, pre: str = "") -> subprocess.CompletedProcess[str]:
    code = textwrap.dedent(f"""
        import sys
        {pre}
        from worldforge_tui.cli import main
        sys.exit(main(sys.argv[1:]))
    """)
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT), "WORLDFORGE_HOME": str(save)},
    )


def test_a_full_disk_is_one_line_and_exit_2(tmp_path: Path) -> None:
    play_venture(tmp_path, stop_after=2)
    size = sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file())
    limit = size + 64_000  # room to open; not for a whole venture's writes
    pre = (
        "import resource, signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))"
    )
    res = _cli(tmp_path, "simulate", "--pitch", PITCH, "--save-dir", str(tmp_path), pre=pre)
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2, res.stderr[-2000:]
    assert len(lines) == 1 and "Logging error" not in res.stderr and "Traceback" not in res.stderr
    assert "full" in lines[0] or "No space" in lines[0] or "too large" in lines[0], lines[0]
    conn = connect(db_path(tmp_path), create=False)  # space is back: the save opens, whole
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_a_busy_save_is_waited_for_then_refused_in_one_line(tmp_path: Path, monkeypatch) -> None:
    run_id = play_venture(tmp_path, stop_after=2)
    monkeypatch.setattr(worldforge_savedb, "BUSY_TIMEOUT_MS", 200)
    monkeypatch.setattr(worldforge_savedb, "BUSY_RETRIES", 1)
    holder = sqlite3.connect(db_path(tmp_path), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process mid-write, for longer than we wait
    try:
        with pytest.raises(worldforge_savedb.SaveBusyError) as err:
            conn = connect(db_path(tmp_path), create=False)
            conn.close()
        assert "the save is busy" in str(err.value) and "\n" not in str(err.value)
        from worldforge_tui.cli import main

        code = main(["memory", "prune", "--run", run_id, "--save-dir", str(tmp_path)])
        assert code == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    conn = connect(db_path(tmp_path), create=False)  # free again: it opens at once
    conn.close()


def test_parallel_simulate_on_one_save_loses_nothing(tmp_path: Path) -> None:
    """Six `simulate` processes on one save folder at once (run by hand with 20 for the figure)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WORLDFORGE_HOME": str(tmp_path)}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "worldforge_tui.cli",
                "simulate",
                "--pitch",
                PITCH,
                "--seed",
                str(i),
                "--save-dir",
                str(tmp_path),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(6)
    ]
    errors = [(p.wait(timeout=600), p.stderr.read() if p.stderr else "") for p in procs]
    assert [code for code, _ in errors] == [0] * 6, errors
    conn = connect(db_path(tmp_path), create=False)
    try:
        assert conn.execute("SELECT count(*) FROM runs").fetchone()[0] == 6
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
