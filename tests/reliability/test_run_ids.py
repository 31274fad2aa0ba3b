"""Issue 12 cases 3 and 8: opaque run ids (no user text in ids, file names or audit rows), legacy
slug ids renamed on open, and identical `simulate` runs started at once never colliding."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.session.api import GameSession
from engine.session.commands import Approve
from memory.local.schema import memory_index_terms, run_key
from tests.reliability.conftest import play_venture
from worldforge_savedb.db import connect, db_path
from worldforge_textkit import terms

ROOT = Path(__file__).resolve().parents[2]
OPAQUE = re.compile(r"run-[0-9a-f]{16}")
LEGACY = "zebracorn-courier-co-299a67"


def _tables_with_run_id(conn: sqlite3.Connection) -> list[str]:
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [
        t for t in names if "run_id" in {r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')}
    ]


def test_run_ids_audit_rows_and_report_names_carry_no_user_text(tmp_path: Path) -> None:
    run_id = play_venture(tmp_path, stop_after=4)
    assert OPAQUE.fullmatch(run_id)
    s = GameSession.load(run_id, save_dir=tmp_path)
    try:
        report = s.export_report()
    finally:
        s.close()
    assert OPAQUE.fullmatch(report.name.split("-day")[0])
    conn = sqlite3.connect(db_path(tmp_path))
    try:
        audit = conn.execute("SELECT run_id, operation, memory_ids, reason FROM memory_audit")
        for row in audit:
            text = " ".join(map(str, row)).lower()
            assert "spoke" not in text and "bike" not in text and "repair" not in text
    finally:
        conn.close()


def _legacy_save(save_dir: Path) -> str:
    """A save as an older build wrote it: the run named after the company, in every table."""
    run_id = play_venture(save_dir, stop_after=4)
    conn = sqlite3.connect(db_path(save_dir), isolation_level=None)
    conn.create_function("memory_run_key", 1, run_key)  # its notes keyed as the old id's
    conn.create_function("memory_index_terms", 2, memory_index_terms)
    try:
        guard = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'memory_audit_no_update'"
        ).fetchone()[0]
        conn.execute("DROP TRIGGER memory_audit_no_update")
        from engine.session.run_ids import run_id_tables

        for table in run_id_tables(conn):
            conn.execute(f'UPDATE "{table}" SET run_id = ? WHERE run_id = ?', (LEGACY, run_id))
        conn.execute("UPDATE runs SET state = json_set(state, '$.run_id', ?)", (LEGACY,))
        conn.execute("DROP TABLE run_leases")  # older builds had no lease
        conn.execute(guard)  # the audit log is append-only again: the migration must lift it
    finally:
        conn.close()
    return run_id


def test_a_legacy_slug_run_id_is_renamed_everywhere_on_open(tmp_path: Path) -> None:
    _legacy_save(tmp_path)
    runs = GameSession.list_runs(tmp_path)
    assert len(runs) == 1 and OPAQUE.fullmatch(runs[0].run_id)
    new_id = runs[0].run_id
    conn = sqlite3.connect(db_path(tmp_path))
    try:
        for table in _tables_with_run_id(conn):
            assert (
                conn.execute(
                    f'SELECT count(*) FROM "{table}" WHERE run_id = ?', (LEGACY,)
                ).fetchone()[0]
                == 0
            ), table
        assert (
            conn.execute(
                "SELECT count(*) FROM memory_audit WHERE run_id = ?", (new_id,)
            ).fetchone()[0]
            > 0
        )
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("UPDATE memory_audit SET reason = 'x'")
    finally:
        conn.close()
    # the run's notes are indexed behind its new key (recall's relevance reads only those terms)
    conn = connect(db_path(tmp_path))
    try:
        text = conn.execute("SELECT text FROM memories WHERE run_id = ?", (new_id,)).fetchone()[0]
        term = f'"{run_key(new_id)}{terms(text)[0]}"'
        hits = conn.execute("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?", (term,))
        assert hits.fetchone()[0] > 0
        conn.execute("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)")
    finally:
        conn.close()
    s = GameSession.load(new_id, save_dir=tmp_path)
    try:
        assert s.state.run_id == new_id and not s.read_only
        s.give(Approve)
    finally:
        s.close()


def test_identical_simulate_runs_started_at_once_all_succeed(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WORLDFORGE_HOME": str(tmp_path)}
    args = [
        sys.executable,
        "-m",
        "worldforge_tui.cli",
        "simulate",
        "--pitch",
        "Zebracorn courier for downtown offices",
        "--seed",
        "3",
        "--save-dir",
        str(tmp_path),
    ]
    procs = [
        subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT
        )
        for _ in range(8)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [e for _, e in outs]
    ids = {o.split(":", 1)[0] for o, _ in outs}
    assert len(ids) == 8 and all(OPAQUE.fullmatch(i) for i in ids)
