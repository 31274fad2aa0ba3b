"""Per-connection memory write queue and freshness stamps.

A store's inserts and audit rows are queued here and sent with `executemany` when the outermost
`memory.db.transaction` commits (or earlier, before any read): the save file gets every write by
the end of its transaction, and a rollback drops the queue with the rest of the transaction.

The same object tells the per-run recall indexes, without a query, whether anything they did not
see may have changed: another connection's commit (`PRAGMA data_version`), a rollback, a change on
this connection that the queue did not make (`total_changes` moved), or a flush of the run's rows.
"""

from __future__ import annotations

import sqlite3
import weakref
from typing import TYPE_CHECKING

from memory import db

if TYPE_CHECKING:
    from memory.index import RunIndex

INSERT_MEMORY = (
    "INSERT INTO memories (run_id, id, seq, kind, text, norm, status, author, importance, game_day,"
    " ts, expires_day, source_ids, origin, stage_id, axis, worker, reviewer, norm_key, rev)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'local-sqlite', ?, ?, ?, ?, ?, ?)")
INSERT_AUDIT = ("INSERT INTO memory_audit (run_id, operation, memory_ids, reason, ts, game_day)"
                " VALUES (?, ?, ?, ?, ?, ?)")

Stamp = tuple[int, int, int, int]  # data_version, rollbacks, generation, run generation


class ConnState:
    """The memory module's view of one connection: queued rows, shared run indexes, stamps."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.rows: list[tuple] = []  # INSERT_MEMORY parameters, run_id first
        self.audits: list[tuple] = []  # INSERT_AUDIT parameters
        self.indexes: weakref.WeakValueDictionary[str, RunIndex] = weakref.WeakValueDictionary()
        self.generation = 0  # bumped by any change on this connection the queue did not make
        self.run_generation: dict[str, int] = {}  # bumped when a run's queued rows are flushed
        self._clean_total = conn.total_changes
        self._version: tuple[int | None, int] = (None, 0)  # transaction serial, data_version

    # -- queue -------------------------------------------------------------------------------------
    def queue_row(self, params: tuple) -> None:
        """Queue one memories row (sent before the transaction commits or anything reads)."""
        if not self.rows and not self.audits:
            db.defer(self.conn, self, self.flush, self.discard)
        self.rows.append(params)

    def queue_audit(self, params: tuple) -> None:
        """Queue one audit row, kept in order with the other queued audit rows."""
        if not self.rows and not self.audits:
            db.defer(self.conn, self, self.flush, self.discard)
        self.audits.append(params)

    def flush(self) -> None:
        """Insert the queued rows (two statements); the runs' own indexes stay current."""
        rows, audits = self.rows, self.audits
        if not rows and not audits:
            return
        self.rows, self.audits = [], []
        generation = self.current_generation()
        runs = {r[0] for r in rows}
        before = {run: self.run_generation.get(run, 0) for run in runs}
        if rows:
            self.conn.executemany(INSERT_MEMORY, rows)
        if audits:
            self.conn.executemany(INSERT_AUDIT, audits)
        self._clean_total = self.conn.total_changes
        for run in runs:
            self.run_generation[run] = before[run] + 1
            index = self.indexes.get(run)
            if index is not None:
                index.flushed(before[run], generation, before[run] + 1)

    def discard(self) -> None:
        """The transaction rolled back: drop the queue (the indexes reload on the rollback)."""
        self.rows, self.audits = [], []
        self.generation += 1

    # -- freshness ---------------------------------------------------------------------------------
    def current_generation(self) -> int:
        """The generation, bumped first if this connection changed anything behind the queue."""
        total = self.conn.total_changes
        if total != self._clean_total:
            self._clean_total = total
            self.generation += 1
        return self.generation

    def stamp(self, run_id: str) -> Stamp:
        """What an index of `run_id` must have seen to be current without reading the run."""
        serial = db.transaction_serial(self.conn)
        if serial is not None and serial == self._version[0]:
            version = self._version[1]  # we hold the write lock: no other commit since
        else:
            version = self.conn.execute("PRAGMA data_version").fetchone()[0]
            self._version = (serial, version)
        return (version, db.rollback_count(self.conn), self.current_generation(),
                self.run_generation.get(run_id, 0))


_states: dict[int, ConnState] = {}


def state(conn: sqlite3.Connection) -> ConnState:
    """The one ConnState of `conn` (states of closed connections are let go on the way)."""
    st = _states.get(id(conn))
    if st is not None and st.conn is conn:
        return st
    for key, other in list(_states.items()):
        if not _is_open(other.conn):
            del _states[key]
    st = _states[id(conn)] = ConnState(conn)
    return st


def _is_open(conn: sqlite3.Connection) -> bool:
    try:
        conn.total_changes  # noqa: B018 - raises on a closed connection
    except sqlite3.ProgrammingError:
        return False
    return True
