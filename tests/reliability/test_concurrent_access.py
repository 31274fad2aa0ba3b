"""Two processes on one save dir: a game writing ventures while `worldforge memory show` and the
load list read, with no "database is locked" failures (busy timeout, short transactions)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from engine.session.savefile import integrity, open_save
from engine.session.saves import list_runs
from tests.reliability.conftest import play_venture
from worldforge_savedb.db import db_path

ROOT = Path(__file__).resolve().parents[2]

WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from engine.play.headless import Plan, play
    from engine.session.api import GameSession
    save_dir, done = sys.argv[1], Path(sys.argv[2])
    try:
        for i in range(6):
            s = GameSession.start_venture(pitch="Meal plans for night shift nurses", name=f"W{i}",
                                          seed=i, save_dir=save_dir)
            try:
                play(s, Plan(path="AB" * 4, said={"reject": {"stage_2_need": ["Name the first ward"]}}))
            finally:
                s.close()
    finally:
        done.write_text("done")
""")

READER = textwrap.dedent("""
    import contextlib, io, json, sys
    from pathlib import Path
    from engine.session.api import GameSession
    from worldforge_tui.cli import main
    save_dir, run_id, done = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    reads, failures = 0, []
    while not done.exists() or reads < 10:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["memory", "show", "--run", run_id, "--save-dir", save_dir, "--json"])
        if code != 0:
            failures.append(err.getvalue().strip()[:200])
        try:
            GameSession.list_runs(save_dir)
        except Exception as exc:
            failures.append(f"list_runs: {exc}"[:200])
        reads += 1
    print(json.dumps({"reads": reads, "failures": failures}))
""")


def test_game_writes_while_memory_show_reads(tmp_path):
    save_dir = tmp_path / "shared"
    run_id = play_venture(save_dir, stop_after=6)
    done = tmp_path / "writer-done"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(save_dir), str(done)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(save_dir), run_id, str(done)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, w_err = writer.communicate(timeout=120)
    r_out, r_err = reader.communicate(timeout=120)
    assert writer.returncode == 0, w_err[-2000:]
    assert reader.returncode == 0, r_err[-2000:]
    result = json.loads(r_out.strip().splitlines()[-1])
    assert result["failures"] == []
    assert result["reads"] >= 10
    assert "locked" not in w_err + r_err
    conn = open_save(db_path(save_dir), create=False)
    try:
        assert integrity(conn) == "ok"
        runs = list_runs(conn)
        assert len(runs) == 7 and sum(r.phase == "ended" for r in runs) == 6
    finally:
        conn.close()
