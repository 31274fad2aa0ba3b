"""Recall in the save file: what `memory.recall` ranks, read from SQLite.

The run's live notes come from the covering index `memories_recall` (no row is read); FTS5 says
which of them hold each query term, reading only the run's own doclists (every index term
carries the run's key, see `memory.local.schema`), and how many of the run's notes hold it; the
run's counter row holds its note count and total length. So BM25's statistics are the run's own,
and a run ranks the same in any save, beside any other runs, as its replay does (FTS5's built-in
`bm25()` counts over the whole table). Only the few chosen notes are read whole.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from memory import recall
from memory.local.rows import COLUMNS, to_record
from memory.local.schema import run_key
from memory.models import MemoryRecord

_NOTES = (
    "SELECT pk, seq, kind, status, game_day, importance, expires_day, axis, n_terms"
    " FROM memories WHERE run_id = ? AND status IN ('provisional', 'active')"
)
_HOLDERS = "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?"


def candidates(conn: sqlite3.Connection, run_id: str, terms: Sequence[str]) -> recall.Candidates:
    """The run's live notes, which query `terms` each holds, and the run's statistics."""
    key = run_key(run_id)
    # a term is letters and digits only, quoted: no query text reaches FTS5 syntax
    holders = {t: {pk for (pk,) in conn.execute(_HOLDERS, (f'"{key}{t}"',))} for t in terms}
    row = conn.execute(
        "SELECT docs, length FROM memory_counters WHERE run_id = ?", (run_id,)
    ).fetchone()
    held: dict[int, set[str]] = {}
    for t, pks in holders.items():
        for pk in pks:
            held.setdefault(pk, set()).add(t)

    stats = recall.Stats(
        notes=row[0] if row else 0,
        length=row[1] if row else 0,
        df={t: len(pks) for t, pks in holders.items()},
    )
    none: frozenset[str] = frozenset()
    rows = conn.cursor()
    rows.row_factory = None  # plain tuples: a run's every live note is read here
    notes = [recall.Note._make((*r, held.get(r[0], none))) for r in rows.execute(_NOTES, (run_id,))]
    return recall.Candidates(notes, stats, lambda keys: _fetch(conn, keys))


def _fetch(conn: sqlite3.Connection, pks: list[int | str]) -> dict[int | str, MemoryRecord]:
    marks = ",".join("?" * len(pks))
    rows = conn.execute(f"SELECT pk, {COLUMNS} FROM memories WHERE pk IN ({marks})", pks)
    return {r[0]: to_record(r[1:]) for r in rows}
