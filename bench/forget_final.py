"""Figure: bytes of a forgotten run written after the forget, by every window and command that
could still write it.

    python -m bench.forget_final [--ventures 3]

Per venture (simulated, in the bench's own home): play two stages, export the report, then take
the run in a second window (the first becomes a stale holder, as `--take-over` leaves it) and
forget it there. Then every writer is tried: the stale holder's export (default place and an
explicit path), a step, a routing change (the settings screen's command), the forgetting window's
export, and the CLI's export, prune, consolidate and forget. Counted: bytes of every file in the
home created or grown after the forget that names the run (its id or company), rows naming the
run in the save (the content-free audit log aside) and log lines naming it written after the
forget, and whether each attempt was refused in one line.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from bench import machine
from engine.config import log_dir
from engine.errors import GameError
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RoutingChanged, RunStage
from engine.session.run_ids import run_id_tables
from worldforge_savedb.db import db_path
from worldforge_tui.cli import main as cli

PITCHES = (
    "Repair bookings for independent bike shops",
    "Meal kits for night-shift nurses",
    "Bookkeeping for small vineyards",
)


def _files(home: Path) -> dict[Path, int]:
    return {p: p.stat().st_size for p in home.rglob("*") if p.is_file()}


def _naming(path: Path, needles: list[bytes], start: int = 0) -> bool:
    try:
        data = path.read_bytes()[start:]
    except OSError:
        return False
    return any(n in data for n in needles)


def _rows(save_dir: Path, run_id: str) -> int:
    """Rows naming the run in the save, the content-free audit log aside."""
    conn = sqlite3.connect(db_path(save_dir))
    try:
        total = 0
        for table in run_id_tables(conn):
            if table != "memory_audit":
                sql = f'SELECT count(*) FROM "{table}" WHERE run_id = ?'
                total += int(conn.execute(sql, (run_id,)).fetchone()[0])
        return total
    finally:
        conn.close()


def venture(home: Path, index: int) -> dict[str, Any]:
    save_dir = Path(os.environ["WORLDFORGE_HOME"]) / f"saves{index}"
    stale = GameSession.start_venture(
        pitch=PITCHES[index % len(PITCHES)], seed=index + 1, save_dir=save_dir
    )
    run_id, company = stale.state.run_id, stale.state.founder.company
    for _ in range(2):
        stale.give(RunStage)
        stale.give(Approve)
        stale.give(Decide, "A")
    stale.export_report()
    taker = GameSession.load(run_id, save_dir=save_dir)
    taker.forget_run()
    needles = [run_id.encode(), company.encode()]
    before = _files(home)
    attempts: dict[str, str] = {}

    def attempt(name: str, fn: Any) -> None:
        try:
            fn()
        except GameError as err:
            attempts[name] = "refused" if "\n" not in str(err) else "refused (several lines)"
        else:
            attempts[name] = "WROTE"

    attempt("stale export", stale.export_report)
    attempt("stale export --out", lambda: stale.export_report(home / f"out{index}.md"))
    attempt("stale step", lambda: stale.give(RunStage))
    attempt("stale settings", lambda: stale.execute(RoutingChanged.of(stale.router)))
    attempt("forgetting window export", taker.export_report)
    for name, argv in (
        ("cli export", ["export", run_id]),
        ("cli prune", ["memory", "prune", "--run", run_id]),
        (
            "cli consolidate",
            [
                "memory",
                "consolidate",
                "--run",
                run_id,
                "--source",
                "mem-00001",
                "--source",
                "mem-00002",
                "--summary",
                "x",
                "--reviewer",
                "ceo",
            ],
        ),
        ("cli forget", ["memory", "forget", "--run", run_id, "--yes"]),
    ):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli([*argv, "--save-dir", str(save_dir)])
        lines = err.getvalue().strip().splitlines()
        attempts[name] = "refused" if code == 2 and len(lines) == 1 else f"exit {code}"
    stale.close()
    written = 0
    for path, size in _files(home).items():
        if path.suffix in (".db", ".db-wal", ".db-shm") or path.name.endswith(("-wal", "-shm")):
            continue  # the save itself: counted by rows below
        grown = size - before.get(path, 0)
        if grown > 0 and _naming(path, needles, before.get(path, 0)):
            written += grown
    return {
        "bytes_written_after_forget": written,
        "rows_of_run_in_save": _rows(save_dir, run_id),
        "attempts": attempts,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ventures", type=int, default=3)
    args = ap.parse_args()
    home = Path(os.environ["HOME"])  # the bench's own home: saves, settings and logs inside
    runs = [venture(home, i) for i in range(args.ventures)]
    print(
        json.dumps(
            {
                "ventures": len(runs),
                "bytes_written_after_forget": sum(r["bytes_written_after_forget"] for r in runs),
                "rows_of_run_in_save": sum(r["rows_of_run_in_save"] for r in runs),
                "attempts_refused_in_one_line": sum(
                    v == "refused" for r in runs for v in r["attempts"].values()
                ),
                "attempts": sum(len(r["attempts"]) for r in runs),
                "log_dir": str(log_dir()),
                "runs": runs,
                "machine": machine(),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
