"""The lifecycle rules, once for every backend: hardening after each fork, retention, reviewed
consolidation. Each rule reads records and says what to change; the backends write it their own
way (`memory.writes.PolicyStore.harden` and `.prune` run them on any store).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, NamedTuple, TypedDict

from memory.guards import clean, note_words
from memory.models import (
    CRITICAL_KINDS,
    LIVE_STATUSES,
    WORKER_KINDS,
    ConsolidationResult,
    HardenReport,
    MemoryRecord,
    NewNote,
)
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import normalise

PRUNE_MAX_IMPORTANCE = 4.0
EPISODIC_KINDS = frozenset({"preference", "context", "chat_summary"})
MAX_CONSOLIDATION_SOURCES = 50
PRUNE_REASON = "expired-noncritical-importance-at-most-4"
EXPIRY_REASON = "expired-kept-archived"
MIN_DUPLICATE_WORDS = 3


class Change(TypedDict, total=False):
    """What a hardening pass sets on one note (record field names)."""

    status: Literal["active", "archived"]
    superseded_by: str
    reinforced: int
    importance: float


def _covering(rec: MemoryRecord, active: Sequence[MemoryRecord]) -> MemoryRecord | None:
    """An active note of the same kind group that already says everything `rec` says (its content
    words are a subset), so `rec` is a duplicate; a note adding any word (a correction) is not."""
    mine = note_words(rec.text)
    if len(mine) < MIN_DUPLICATE_WORDS:
        mine = frozenset()
    group = WORKER_KINDS if rec.kind in WORKER_KINDS else frozenset({rec.kind})
    norm = normalise(rec.text)
    for other in active:
        if other.id == rec.id or other.kind not in group:
            continue
        if normalise(other.text) == norm or (mine and mine <= note_words(other.text)):
            return other
    return None


def plan_harden(
    live: Sequence[MemoryRecord], *, game_day: int
) -> tuple[HardenReport, dict[str, Change]]:
    """The hardening pass over a run's live notes (in write order): promote surviving provisional
    notes, archive expired ones and duplicates of an active note (lineage in `superseded_by`, the
    active note reinforced), and supersede older binding decisions on the same axis. Returns the
    report and the changes, record field -> new value by id, for the backend to write."""
    report = HardenReport()
    changes: dict[str, Change] = {}
    status = {r.id: r.status for r in live}
    for rec in live:
        if rec.status != "provisional":
            continue
        if rec.expires_day is not None and rec.expires_day <= game_day:
            changes[rec.id] = {"status": "archived"}
            report.archived.append(rec.id)
        elif twin := _covering(rec, [r for r in live if status[r.id] == "active"]):
            changes[rec.id] = {"status": "archived", "superseded_by": twin.id}
            bump = changes.setdefault(twin.id, {})
            bump["reinforced"] = bump.get("reinforced", twin.reinforced) + 1
            bump["importance"] = max(bump.get("importance", twin.importance), rec.importance)
            report.archived.append(rec.id)
        else:
            changes[rec.id] = {"status": "active"}
            report.promoted.append(rec.id)
        status[rec.id] = changes[rec.id]["status"]
    by_axis: dict[str, list[MemoryRecord]] = {}
    for rec in live:
        if rec.kind == "procedural" and rec.axis and status[rec.id] in LIVE_STATUSES:
            by_axis.setdefault(rec.axis, []).append(rec)
    for recs in by_axis.values():
        recs.sort(key=lambda r: (r.game_day, r.id))
        for older in recs[:-1]:
            change = changes.setdefault(older.id, {})
            change["status"], change["superseded_by"] = "archived", recs[-1].id
            report.superseded.append(older.id)
    return report, changes


def prunable(records: Sequence[MemoryRecord], *, game_day: int) -> list[str]:
    """The one retention rule: the ids of a run's notes (all of them, in write order) that are
    neither critical nor binding, nor the source of a live semantic note, and have expired with an
    importance of at most PRUNE_MAX_IMPORTANCE. The dry run and the real one both list these."""
    protected = {
        s
        for r in records
        if r.kind == "semantic" and r.status in LIVE_STATUSES
        for s in r.source_ids
    }
    return [
        r.id
        for r in records
        if r.kind not in CRITICAL_KINDS
        and r.id not in protected
        and r.expires_day is not None
        and r.expires_day <= game_day
        and r.importance <= PRUNE_MAX_IMPORTANCE
    ]


def expired_live(
    records: Sequence[MemoryRecord], *, game_day: int, deleted: Sequence[str] = ()
) -> list[str]:
    """The ids of a run's live notes (in write order) past their expiry day that the retention
    rule keeps (binding, a founder profile, important, or a merged note's source): recall has left
    them out of every brief since that day, so a prune archives them (kept, with an audit row)
    and the store holds no expired note as live. The dry run and the real one both list these."""
    gone = set(deleted)
    return [
        r.id
        for r in records
        if r.status in LIVE_STATUSES
        and r.id not in gone
        and r.expires_day is not None
        and r.expires_day <= game_day
    ]


class Note(NamedTuple):
    """What consolidation needs to know of a note, from either store."""

    kind: str
    status: str
    importance: float
    consolidated_into: str | None
    text: str
    reviewer: str | None


@dataclass(frozen=True, eq=False, repr=False)
class Consolidation(FrozenRecord):
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

    def note(self, importance: float, game_day: int) -> NewNote:
        """The semantic note, as every store's `insert` takes it."""
        return NewNote(
            kind="semantic",
            text=self.text,
            status="active",
            author="ceo",
            importance=importance,
            game_day=game_day,
            source_ids=tuple(self.ids),
            memory_id=self.semantic_id,
            reviewer=self.reviewer,
        )


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
    key = f"{run_id}:{':'.join(ids)}"  # deterministic: the same sources give the same note
    return Consolidation(ids, text, who, "sem-" + hashlib.sha256(key.encode()).hexdigest()[:12])


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
        return replace(result, status="already_consolidated", importance=existing.importance)
    if targets != {None}:
        raise ValueError("a source is already consolidated into another note")
    if any(s.kind not in EPISODIC_KINDS for s in sources):
        raise ValueError("only preference, context and chat_summary notes can be consolidated")
    if any(s.status not in ("provisional", "active") for s in sources):
        raise ValueError("only live notes can be consolidated")
    importance = round(sum(s.importance for s in sources) / len(sources), 2)
    return replace(result, importance=importance)
