"""A forget is final everywhere: no window, stale holder or command writes anything of the run
again (each refuses in one line); and a player may forget, prune or export a run whatever rules
version played it (only play and replay refuse an old one)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine.errors import GameError
from engine.session.api import GameSession
from engine.session.commands import Approve, RunStage
from engine.session.run_ids import run_id_tables
from worldforge_savedb.db import db_path
from worldforge_tui.cli import main

PITCH = "Repair bookings for independent bike shops"


def _rows_of(save_dir: Path, run_id: str) -> dict[str, int]:
    """Rows naming the run in every table but the content-free audit log."""
    conn = sqlite3.connect(db_path(save_dir))
    try:
        out = {}
        for table in run_id_tables(conn):
            if table == "memory_audit":
                continue
            n = conn.execute(f'SELECT count(*) FROM "{table}" WHERE run_id = ?', (run_id,))
            out[table] = int(n.fetchone()[0])
        return {t: n for t, n in out.items() if n}
    finally:
        conn.close()


def _files_of(save_dir: Path, run_id: str) -> list[Path]:
    return [p for p in save_dir.rglob("*") if run_id in p.name]


def test_a_stale_holder_writes_nothing_of_a_forgotten_run(tmp_path: Path) -> None:
    stale = GameSession.start_venture(pitch=PITCH, name="Spoke Co", seed=3, save_dir=tmp_path)
    run_id = stale.state.run_id
    stale.give(RunStage)
    stale.export_report()  # a report exported before the forget goes with the run
    taker = GameSession.load(run_id, save_dir=tmp_path)  # takes the run (as --take-over does)
    gone = taker.forget_run()
    assert gone["reports_deleted"]
    assert _rows_of(tmp_path, run_id) == {} and _files_of(tmp_path, run_id) == []
    try:
        for act in (
            stale.export_report,  # `e` in the window that held the run
            lambda: stale.export_report(tmp_path / "elsewhere.md"),
            lambda: stale.give(Approve),
            taker.export_report,  # the window that forgot it
        ):
            with pytest.raises(GameError) as err:
                act()
            assert "\n" not in str(err.value)
            assert "forgotten" in str(err.value)
        assert not (tmp_path / "elsewhere.md").exists()
        audit = _audit_rows(tmp_path, run_id)
        for argv in (["export", run_id], ["memory", "prune", "--run", run_id]):
            assert main([*argv, "--save-dir", str(tmp_path)]) == 2, argv
        assert (
            main(["memory", "forget", "--run", run_id, "--yes", "--save-dir", str(tmp_path)]) == 2
        )
        assert _audit_rows(tmp_path, run_id) == audit  # not even another content-free row
        assert _rows_of(tmp_path, run_id) == {}
        assert _files_of(tmp_path, run_id) == []
    finally:
        stale.close()


def _audit_rows(save_dir: Path, run_id: str) -> int:
    conn = sqlite3.connect(db_path(save_dir))
    try:
        sql = "SELECT count(*) FROM memory_audit WHERE run_id = ?"
        return int(conn.execute(sql, (run_id,)).fetchone()[0])
    finally:
        conn.close()


def _old_run(save_dir: Path, capsys) -> str:
    """A played run as an older build (rules version 61) left it."""
    session = GameSession.start_venture(pitch=PITCH, name="Spoke Co", seed=3, save_dir=save_dir)
    session.give(RunStage)
    session.give(Approve)
    run_id = session.state.run_id
    session.close()
    conn = sqlite3.connect(db_path(save_dir))
    with conn:
        conn.execute(
            "UPDATE runs SET state = json_set(state, '$.rules_version', 61) WHERE run_id = ?",
            (run_id,),
        )
    conn.close()
    capsys.readouterr()
    return run_id


def test_an_old_rules_run_can_be_exported_pruned_and_forgotten(tmp_path: Path, capsys) -> None:
    run_id = _old_run(tmp_path, capsys)
    home = ["--save-dir", str(tmp_path)]
    assert main(["replay", run_id, "--verify", *home]) == 2  # replay may refuse it, in a line
    err = capsys.readouterr().err
    assert "rules version 61" in err and err.count("\n") == 1
    out = tmp_path / "old.md"
    assert main(["export", run_id, "--out", str(out), *home]) == 0
    assert "Spoke Co" in out.read_text()
    capsys.readouterr()
    assert main(["memory", "prune", "--run", run_id, "--json", *home]) == 0
    capsys.readouterr()
    assert main(["memory", "forget", "--run", run_id, "--yes", "--json", *home]) == 0
    assert json.loads(capsys.readouterr().out)["run_id"] == run_id
    assert _rows_of(tmp_path, run_id) == {}
