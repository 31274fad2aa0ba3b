"""A run as it stood before a player action, to put back when the player cancels the action.

A player action can commit more than one step (a rejection, then its redo; a decision, then the
standup) and the model work of the later step runs after the earlier one committed. Esc cancels
the whole action, so the run must go back to where it stood before the action began: its row
(day, cash, redo count, inputs), its events, its memories and counters, its queued cloud writes.
`Checkpoint.take` copies the run's rows of every table keyed by `run_id` (the same tables a run
rename walks, `engine.session.run_ids.run_id_tables`); `restore` puts them back in one
transaction. Kept as they are: the content-free audit log (append-only: a cancelled write's audit
row stays, as it would for any write undone) and the run's lease (its version only ever moves on,
so a stale holder can never match it again).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from engine.session.run_ids import run_id_tables
from worldforge_savedb.db import transaction
from worldforge_savedb.records import FrozenRecord

KEPT = frozenset({"memory_audit", "run_leases", "memory_cosmos_tombstones"})


@dataclass(frozen=True, eq=False, repr=False)
class Checkpoint(FrozenRecord):
    """One run's rows, table by table (columns, rows), as read before an action."""

    run_id: str
    tables: tuple[tuple[str, tuple[str, ...], list[tuple[object, ...]]], ...]

    @classmethod
    def take(cls, conn: sqlite3.Connection, run_id: str) -> Checkpoint:
        """Read the run's rows (this session holds the run's lease: nobody else writes them)."""
        out = []
        for table in run_id_tables(conn):
            if table in KEPT:
                continue
            cur = conn.execute(f'SELECT * FROM "{table}" WHERE run_id = ?', (run_id,))
            columns = tuple(d[0] for d in cur.description)
            out.append((table, columns, [tuple(r) for r in cur.fetchall()]))
        return cls(run_id, tuple(out))

    def restore(self, conn: sqlite3.Connection) -> None:
        """Put the run's rows back as they were, in one write transaction. Tables with triggers
        first (deleting and re-inserting memories moves their index and counters), then the rest,
        so the counters end as they were read."""
        with transaction(conn):
            for table, columns, rows in reversed(self.tables):
                conn.execute(f'DELETE FROM "{table}" WHERE run_id = ?', (self.run_id,))
                if rows:
                    names = ", ".join(f'"{c}"' for c in columns)
                    marks = ", ".join("?" for _ in columns)
                    conn.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', rows)
