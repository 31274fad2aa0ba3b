"""Runs in the save file: one row per venture holding its inputs (for replay) and its latest state.

The state is saved as compact JSON of its dataclasses; a state read back is untrusted input, so it
is validated into them by pydantic (imported on the first load only: `simulate` never loads)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import SaveError
from engine.game.models import GameState
from engine.session import run_ids as _run_ids  # (and it renames legacy run ids on open)
from engine.session.events import now_iso
from worldforge_savedb.db import register_schema, transaction
from worldforge_savedb.records import FrozenRecord

if TYPE_CHECKING:
    from pydantic import TypeAdapter


@dataclass(frozen=True, eq=False, repr=False)
class RunSummary(FrozenRecord):
    """One saved venture as the load list and `worldforge runs` show it (read from its row)."""

    run_id: str
    name: str
    pitch: str
    archetype: str
    seed: int
    day: int
    phase: str
    stage: int
    outcome: str | None
    reason: str | None
    updated: str


def _ensure(conn: sqlite3.Connection) -> None:
    conn.execute("""CREATE TABLE IF NOT EXISTS runs (
        run_id TEXT PRIMARY KEY, name TEXT NOT NULL, pitch TEXT NOT NULL, archetype TEXT NOT NULL,
        seed INTEGER NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL, day INTEGER NOT NULL,
        phase TEXT NOT NULL, stage INTEGER NOT NULL, outcome TEXT, reason TEXT,
        inputs TEXT NOT NULL, state TEXT NOT NULL)""")


register_schema("runs", _ensure)


def run_exists(conn: sqlite3.Connection, run_id: str) -> bool:
    """Whether the save holds the run (a save that has no runs table yet holds none)."""
    return _run_ids.table_exists(conn, "runs") and (
        conn.execute("SELECT 1 FROM runs WHERE run_id=?", (run_id,)).fetchone() is not None
    )


def save_run(conn: sqlite3.Connection, state: GameState, inputs: list[dict[str, Any]]) -> None:
    """Insert or update the run row; joins the caller's transaction."""
    f = state.founder
    outcome = state.outcome
    with transaction(conn):
        conn.execute(
            """INSERT INTO runs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
               ON CONFLICT(run_id) DO UPDATE SET updated=excluded.updated, day=excluded.day,
               phase=excluded.phase, stage=excluded.stage, outcome=excluded.outcome,
               reason=excluded.reason, inputs=excluded.inputs, state=excluded.state""",
            (
                state.run_id,
                f.company,
                f.pitch,
                f.archetype,
                state.seed,
                now_iso(),
                now_iso(),
                state.day,
                state.phase,
                state.stage_index,
                outcome.result if outcome else None,
                outcome.reason if outcome else None,
                json.dumps(inputs, ensure_ascii=False),
                state_json(state),
            ),
        )


def state_json(state: GameState) -> str:
    """The state as the save holds it: compact JSON, fields in declaration order, UTF-8 kept.

    Each record is encoded from its own `__dict__` (`vars`, no Python call): a record's instance
    dict holds exactly its fields, in declaration order (its `__init__` sets them in that order;
    test_state_codec checks every record of a played and a loaded state). A fresh dict of the
    fields per record cost 30 % more (the ~31 saves of a venture are ~6 % of `simulate`). A
    state is a tree (records, lists and dicts, as read from JSON), so the encoder keeps no set
    of the containers it is inside (`check_circular`)."""
    return json.dumps(
        state, default=vars, ensure_ascii=False, separators=(",", ":"), check_circular=False
    )


@cache
def _state_adapter() -> TypeAdapter[GameState]:
    from pydantic import TypeAdapter

    return TypeAdapter(GameState)


def state_from_json(text: str | bytes) -> GameState:
    """A saved state, validated (types, required fields, numbers coerced as declared); raises
    ValueError (pydantic's ValidationError) on anything that is not a state."""
    state: GameState = _state_adapter().validate_json(text)
    return state


def load_run(conn: sqlite3.Connection, run_id: str) -> tuple[GameState, list[dict[str, Any]]]:
    row = conn.execute("SELECT state, inputs FROM runs WHERE run_id=?", (run_id,)).fetchone()
    if row is None:
        raise SaveError(f"no run {run_id[:60]!r} in this save dir (see `worldforge play` → load)")
    try:
        return state_from_json(row["state"]), json.loads(row["inputs"])
    except ValueError as err:
        raise SaveError(
            f"run {run_id!r} is damaged and cannot be loaded ({type(err).__name__})"
        ) from err


def list_runs(conn: sqlite3.Connection) -> list[RunSummary]:
    columns = ", ".join(f.name for f in fields(RunSummary))  # the summary's fields are columns
    rows = conn.execute(f"SELECT {columns} FROM runs ORDER BY updated DESC, run_id").fetchall()
    return [RunSummary(**dict(r)) for r in rows]


def delete_run(conn: sqlite3.Connection, run_id: str) -> None:
    with transaction(conn):
        conn.execute("DELETE FROM runs WHERE run_id=?", (run_id,))


def resolve_save_dir(save_dir: str | Path | None) -> Path:
    """`--save-dir`, else WORLDFORGE_HOME, else the platformdirs user data dir."""
    if save_dir:
        return Path(save_dir).expanduser()
    from engine.config import save_dir as default_save_dir

    return default_save_dir()
