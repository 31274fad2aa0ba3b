"""Memory lifecycle: hardening after each fork, retention prune, reviewed consolidation, forgetting.

Functions take a bound `MemoryStore` (scope already checked) and run inside its transaction,
except `compact`, which must run after commit.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from memory import audit
from memory.guards import clean, note_words
from memory.models import (
    CRITICAL_KINDS,
    WORKER_KINDS,
    ConsolidationResult,
    ForgetReport,
    HardenReport,
    MemoryRecord,
    PruneReport,
)
from textkit import normalise

if TYPE_CHECKING:
    from memory.local.store import MemoryStore

PRUNE_MAX_IMPORTANCE = 4.0
EPISODIC_KINDS = frozenset({"preference", "context", "chat_summary"})
MAX_CONSOLIDATION_SOURCES = 50
PRUNE_REASON = "expired-noncritical-importance-at-most-4"


def _set_status(
    store: MemoryStore, memory_id: str, status: str, superseded_by: str | None = None
) -> None:
    store.conn.execute(
        "UPDATE memories SET status = ?, superseded_by = coalesce(?, superseded_by)"
        " WHERE run_id = ? AND id = ?",
        (status, superseded_by, store.run_id, memory_id),
    )


MIN_DUPLICATE_WORDS = 3


def _covering_note(store: MemoryStore, rec: MemoryRecord) -> str | None:
    """An active note of the same kind group that already says everything `rec` says (its content
    words are a subset), so `rec` is a duplicate; a note adding any word (a correction) is not."""
    mine = note_words(rec.text)
    if len(mine) < MIN_DUPLICATE_WORDS:
        mine = set()
    group = sorted(WORKER_KINDS) if rec.kind in WORKER_KINDS else [rec.kind]
    marks = ",".join("?" * len(group))
    for other_id, text in store.conn.execute(
        f"SELECT id, text FROM memories WHERE run_id = ? AND id != ? AND status = 'active'"
        f" AND kind IN ({marks}) ORDER BY seq",
        (store.run_id, rec.id, *group),
    ):
        if normalise(text) == normalise(rec.text) or (mine and mine <= note_words(text)):
            return str(other_id)
    return None


def harden(store: MemoryStore, *, game_day: int) -> HardenReport:
    """Promote surviving provisional notes, archive expired ones and duplicates of an active note
    (lineage in `superseded_by`), and supersede older binding decisions on the same axis."""
    report = HardenReport()
    for rec in store.records(statuses=["provisional"]):
        if rec.expires_day is not None and rec.expires_day <= game_day:
            _set_status(store, rec.id, "archived")
            report.archived.append(rec.id)
            continue
        twin = _covering_note(store, rec)
        if twin is not None:
            _set_status(store, rec.id, "archived", superseded_by=twin)
            store.conn.execute(
                "UPDATE memories SET reinforced = reinforced + 1, importance = max(importance, ?)"
                " WHERE run_id = ? AND id = ?",
                (rec.importance, store.run_id, twin),
            )
            report.archived.append(rec.id)
        else:
            _set_status(store, rec.id, "active")
            report.promoted.append(rec.id)
    by_axis: dict[str, list[MemoryRecord]] = {}
    for rec in store.records(kinds=["procedural"], statuses=["provisional", "active"]):
        if rec.axis:
            by_axis.setdefault(rec.axis, []).append(rec)
    for recs in by_axis.values():
        recs.sort(key=lambda r: (r.game_day, r.id))
        newest = recs[-1]
        for older in recs[:-1]:
            _set_status(store, older.id, "archived", superseded_by=newest.id)
            report.superseded.append(older.id)
    for operation, ids in (
        ("harden_promote", report.promoted),
        ("harden_archive", report.archived),
        ("harden_supersede", report.superseded),
    ):
        if ids:
            audit.append(
                store.conn, store.run_id, operation, ids, "hardening-pass", game_day=game_day
            )
    return report


def live_semantic_sources(store: MemoryStore) -> set[str]:
    """Ids that a live semantic note depends on (never pruned)."""
    out: set[str] = set()
    for (sources,) in store.conn.execute(
        "SELECT source_ids FROM memories WHERE run_id = ? AND kind = 'semantic'"
        " AND status IN ('provisional', 'active')",
        (store.run_id,),
    ):
        out.update(json.loads(sources))
    return out


def prune_blocker(rec: MemoryRecord, *, game_day: int, protected: set[str]) -> str | None:
    """The one retention rule: None when `rec` may be deleted, else the reason it is kept."""
    if rec.kind in CRITICAL_KINDS:
        return "critical-or-binding"
    if rec.id in protected:
        return "semantic-source"
    if rec.expires_day is None:
        return "no-expiry"
    if rec.expires_day > game_day:
        return "not-expired"
    if rec.importance > PRUNE_MAX_IMPORTANCE:
        return "important"
    return None


def prune(store: MemoryStore, *, game_day: int, dry_run: bool) -> PruneReport:
    """Delete (or, on a dry run, only list) every record the retention rule allows."""
    protected = live_semantic_sources(store)
    eligible = [
        r.id
        for r in store.records()
        if prune_blocker(r, game_day=game_day, protected=protected) is None
    ]
    if dry_run:
        return PruneReport(status="dry_run", eligible_ids=eligible, deleted_count=0)
    for memory_id in eligible:
        store.conn.execute(
            "DELETE FROM memories WHERE run_id = ? AND id = ?", (store.run_id, memory_id)
        )
    if eligible:
        store.conn.execute(
            "DELETE FROM memory_cloud_outbox WHERE run_id = ? AND memory_id IN"
            f" ({','.join('?' * len(eligible))})",
            (store.run_id, *eligible),
        )
        audit.append(
            store.conn, store.run_id, "retention_prune", eligible, PRUNE_REASON, game_day=game_day
        )
    return PruneReport(status="applied", eligible_ids=eligible, deleted_count=len(eligible))


def semantic_id(run_id: str, source_ids: Sequence[str]) -> str:
    """Deterministic, order-insensitive id of the semantic note built from `source_ids`."""
    key = f"{run_id}:{':'.join(sorted(set(source_ids)))}"
    return "sem-" + hashlib.sha256(key.encode()).hexdigest()[:12]


class Note(NamedTuple):
    """What consolidation needs to know of a note, from either store."""

    kind: str
    status: str
    importance: float
    consolidated_into: str | None
    text: str
    reviewer: str | None


@dataclass(frozen=True)
class Consolidation:
    """A checked consolidation request: the sources' ids, the summary, the reviewer and the id
    of the semantic note it makes."""

    ids: list[str]
    text: str
    reviewer: str
    semantic_id: str

    @property
    def wanted(self) -> list[str]:
        """The ids to read: the sources and an earlier result."""
        return [self.semantic_id, *self.ids]

    def note(self, importance: float, game_day: int) -> dict[str, Any]:
        """The semantic note's fields, as both stores' writers take them."""
        return {
            "kind": "semantic",
            "text": self.text,
            "status": "active",
            "author": "ceo",
            "importance": importance,
            "game_day": game_day,
            "expires_day": None,
            "source_ids": self.ids,
            "stage_id": None,
            "axis": None,
            "memory_id": self.semantic_id,
            "reviewer": self.reviewer,
        }


def consolidation(
    run_id: str, source_ids: Sequence[str], summary: str, reviewer: str
) -> Consolidation:
    """Check a consolidation request before anything is read (ValueError says what is wrong)."""
    ids = sorted({clean(s, limit=64) for s in source_ids if clean(s, limit=64)})
    if not 2 <= len(ids) <= MAX_CONSOLIDATION_SOURCES:
        raise ValueError(f"consolidation needs 2..{MAX_CONSOLIDATION_SOURCES} distinct sources")
    text, who = clean(summary), clean(reviewer, limit=64)
    if not text:
        raise ValueError("consolidation summary is empty")
    if not who:
        raise ValueError("consolidation needs a reviewer")
    return Consolidation(ids, text, who, semantic_id(run_id, ids))


def plan_consolidation(req: Consolidation, notes: Mapping[str, Note]) -> ConsolidationResult:
    """The outcome before any write, the same rule for both stores: `already_consolidated` for a
    matching retry, else `dry_run` (the note to write). `notes` holds what was read of
    `req.wanted`; ValueError says why the sources cannot be consolidated."""
    missing = [i for i in req.ids if i not in notes]
    if missing:
        raise ValueError(f"unknown memory id(s): {', '.join(missing)}")
    sources = [notes[i] for i in req.ids]
    result = ConsolidationResult(
        status="dry_run",
        semantic_memory_id=req.semantic_id,
        source_memory_ids=req.ids,
        text=req.text,
        importance=0.0,
        reviewer=req.reviewer,
    )
    targets = {s.consolidated_into for s in sources}
    if targets == {req.semantic_id}:
        existing = notes.get(req.semantic_id)
        if existing is None or existing.text != req.text or existing.reviewer != req.reviewer:
            raise ValueError("retry does not match the existing consolidation")
        return result.model_copy(
            update={"status": "already_consolidated", "importance": existing.importance}
        )
    if targets != {None}:
        raise ValueError("a source is already consolidated into another note")
    if any(s.kind not in EPISODIC_KINDS for s in sources):
        raise ValueError("only preference, context and chat_summary notes can be consolidated")
    if any(s.status not in ("provisional", "active") for s in sources):
        raise ValueError("only live notes can be consolidated")
    importance = round(sum(s.importance for s in sources) / len(sources), 2)
    return result.model_copy(update={"importance": importance})


def consolidate(
    store: MemoryStore,
    source_ids: Sequence[str],
    *,
    summary: str,
    reviewer: str,
    game_day: int,
    dry_run: bool,
) -> ConsolidationResult:
    """Reviewed consolidation of episodic notes into one semantic note; sources are kept
    (archived, with `consolidated_into`). Idempotent: a matching retry writes nothing."""
    req = consolidation(store.run_id, source_ids, summary, reviewer)
    notes = {
        r[0]: Note(*r[1:])
        for r in store.conn.execute(
            "SELECT id, kind, status, importance, consolidated_into, text, reviewer FROM memories"
            f" WHERE run_id = ? AND id IN ({','.join('?' * len(req.wanted))})",
            (store.run_id, *req.wanted),
        )
    }
    result = plan_consolidation(req, notes)
    if dry_run or result.status == "already_consolidated":
        return result
    store._insert(**req.note(result.importance, game_day))
    store.conn.execute(
        f"UPDATE memories SET consolidated_into = ?, status = 'archived' WHERE run_id = ?"
        f" AND id IN ({','.join('?' * len(req.ids))})",
        (req.semantic_id, store.run_id, *req.ids),
    )
    audit.append(
        store.conn,
        store.run_id,
        "consolidate",
        [req.semantic_id, *req.ids],
        "reviewed-consolidation",
        game_day=game_day,
    )
    return result.model_copy(update={"status": "consolidated"})


def forget(store: MemoryStore) -> ForgetReport:
    """Delete every memory, counter and queued cloud write of the run, and merge the FTS index so
    no segment keeps the run's terms (secure_delete zeroes the freed pages; `compact` then clears
    the WAL); the content-free audit survives."""
    ids = [
        r[0]
        for r in store.conn.execute("SELECT id FROM memories WHERE run_id = ?", (store.run_id,))
    ]
    store.conn.execute("DELETE FROM memories WHERE run_id = ?", (store.run_id,))
    store.conn.execute("DELETE FROM memory_counters WHERE run_id = ?", (store.run_id,))
    store.conn.execute("DELETE FROM memory_cloud_outbox WHERE run_id = ?", (store.run_id,))
    # An FTS5 'delete' only marks the run's terms deleted; merging every segment drops them.
    store.conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')")
    if store.cloud is not None:
        store.conn.execute(
            "INSERT INTO memory_cloud_outbox (run_id, op) VALUES (?, 'delete_scope')",
            (store.run_id,),
        )
    audit.append(store.conn, store.run_id, "forget_run", ids, "right-to-deletion")
    return ForgetReport(run_id=store.run_id, deleted=len(ids), compacted=False)


def compact(conn: sqlite3.Connection) -> bool:
    """Fold the WAL into the file, VACUUM, and truncate the WAL; True when no reader blocked it."""
    if conn.in_transaction:
        raise RuntimeError("compact must run outside a transaction")
    first = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    conn.execute("VACUUM")
    last = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return bool(first[0] == 0 and last[0] == 0)
