"""Hardening, retention prune at its boundaries, idempotent consolidation, audit."""

from __future__ import annotations

import sqlite3

import pytest

from memory.lifecycle import PRUNE_MAX_IMPORTANCE, consolidation
from memory.local.store import MemoryStore
from memory.models import NewNote


def note(
    store: MemoryStore,
    text: str,
    *,
    stage: str = "stage_1_you",
    day: int = 1,
    ttl: int = 7,
    importance: float = 3.0,
) -> str:
    d = store.worker_write(
        {"kind": "context", "text": text, "ttl_days": ttl, "importance": importance},
        worker="w",
        stage_id=stage,
        game_day=day,
    )
    assert d.status == "written" and d.memory_id is not None, d
    return d.memory_id


def test_harden_promotes_archives_duplicates_and_expired(store: MemoryStore) -> None:
    survivor = note(store, "Clinics want invoices monthly")
    expired = note(store, "Rival is hiring sales reps", ttl=2, stage="stage_2_need")
    known = store.remember(
        NewNote(
            "context", "Pilot users like dashboards and CSV exports", author="system", game_day=1
        )
    )
    dup = note(store, "pilot users like dashboards", stage="stage_3_go")
    correction = note(store, "Pilot users no longer like dashboards", stage="stage_4_search")
    report = store.harden(game_day=3)
    assert report.promoted == [survivor, correction]
    assert sorted(report.archived) == sorted([expired, dup])
    assert store.get(survivor).status == "active"
    assert (store.get(dup).status, store.get(dup).superseded_by) == ("archived", known.id)
    assert store.get(known.id).reinforced == 1
    assert store.harden(game_day=3).to_dict() == {
        "promoted": [],
        "archived": [],
        "superseded": [],
    }


def test_harden_supersedes_older_binding_on_same_axis_only(store: MemoryStore) -> None:
    a = store.remember(
        NewNote("procedural", "Depth: clinics only", author="ceo", game_day=2, axis="scope")
    )
    b = store.remember(
        NewNote("procedural", "Ship before polish", author="ceo", game_day=3, axis="pace")
    )
    c = store.remember(
        NewNote("procedural", "Breadth: add farms", author="ceo", game_day=8, axis="scope")
    )
    rejection = store.remember(
        NewNote("procedural", "Redo: cite the survey", author="ceo", game_day=8)
    )
    report = store.harden(game_day=9)
    assert report.superseded == [a.id]
    old = store.get(a.id)
    assert (old.status, old.superseded_by) == ("archived", c.id)  # kept for history
    assert {store.get(i).status for i in (b.id, c.id, rejection.id)} == {"active"}
    assert store.recall("x", game_day=9).items[0].id in {c.id, rejection.id}


def test_workers_cannot_write_binding_memory_via_remember(store: MemoryStore) -> None:
    with pytest.raises(PermissionError):
        store.remember(NewNote("procedural", "obey me", author="worker", game_day=1))
    with pytest.raises(ValueError):
        store.remember(NewNote("nonsense", "x", author="ceo", game_day=1))


def _prunable(
    store: MemoryStore,
    text: str,
    *,
    day: int = 1,
    expires: int | None = 5,
    importance: float = 3.0,
    kind: str = "context",
) -> str:
    return store.remember(
        NewNote(
            kind, text, author="system", game_day=day, importance=importance, expires_day=expires
        )
    ).id


def test_prune_boundaries_share_one_rule(store: MemoryStore) -> None:
    eligible = _prunable(
        store, "expires exactly today, importance at the limit", importance=PRUNE_MAX_IMPORTANCE
    )
    too_important = _prunable(store, "a bit too important", importance=4.01)
    not_yet = _prunable(store, "expires tomorrow", expires=6)
    forever = _prunable(store, "no expiry", expires=None)
    binding = _prunable(store, "binding decision", kind="procedural")
    profile = _prunable(store, "founder profile", kind="user_profile")
    dry = store.prune(game_day=5, dry_run=True)
    assert dry.status == "dry_run" and dry.deleted_count == 0
    assert dry.eligible_ids == [eligible]
    assert dry.archived_ids == [too_important, binding, profile]  # expired, kept: archived
    assert len(store.records()) == 6
    applied = store.prune(game_day=5, dry_run=False)
    assert applied.eligible_ids == dry.eligible_ids and applied.deleted_count == 1
    assert applied.archived_ids == dry.archived_ids
    assert {r.id for r in store.records()} == {too_important, not_yet, forever, binding, profile}
    assert store.prune(game_day=6, dry_run=True).eligible_ids == [not_yet]
    ops = [(a.operation, a.memory_ids, a.reason) for a in store.audit()][-2:]
    assert ops == [
        ("retention_prune", [eligible], "expired-noncritical-importance-at-most-4"),
        ("retention_archive", [too_important, binding, profile], "expired-kept-archived"),
    ]


def test_a_note_that_expires_goes_on_its_expiry_day(store: MemoryStore) -> None:
    """A note marked "expires day 14" that a prune keeps (important, or binding) is counted by
    the dry run from day 14 and archived by the prune, with an audit row; not a day before."""
    important = _prunable(store, "clinics renew in spring", expires=14, importance=7.0)
    binding = _prunable(store, "leave out salons", expires=14, kind="procedural")
    lasting = _prunable(store, "price stays at 79.99", expires=None, kind="procedural")
    day_13 = store.prune(game_day=13, dry_run=True)
    assert day_13.eligible_ids == [] and day_13.archived_ids == []
    day_14 = store.prune(game_day=14, dry_run=True)
    assert day_14.eligible_ids == [] and day_14.archived_ids == [important, binding]
    assert {store.get(i).status for i in (important, binding)} == {"active"}  # a dry run
    applied = store.prune(game_day=51, dry_run=False)
    assert applied.archived_ids == [important, binding] and applied.deleted_count == 0
    assert store.get(important).status == store.get(binding).status == "archived"
    assert store.get(lasting).status == "active"
    last = store.audit()[-1]
    assert (last.operation, last.memory_ids) == ("retention_archive", [important, binding])
    again = store.prune(game_day=52, dry_run=True)  # archived once: nothing left to go
    assert again.eligible_ids == [] and again.archived_ids == []


def test_prune_never_removes_a_live_semantic_source(store: MemoryStore) -> None:
    s1 = note(store, "Clinic A pays late", ttl=1)
    s2 = note(store, "Clinic B pays late", ttl=1, stage="stage_2_need")
    store.consolidate([s1, s2], summary="Clinics pay late", reviewer="ceo", game_day=2)
    assert store.prune(game_day=50, dry_run=False).eligible_ids == []
    assert store.get(s1).status == "archived"


def test_consolidation_is_idempotent_and_deterministic(store: MemoryStore) -> None:
    ids = [note(store, f"Farm {n} wants a payroll add-on", stage=f"s{n}") for n in range(3)]
    expected = consolidation("run-a", ids[::-1], "any summary", "any reviewer").semantic_id
    dry = store.consolidate(
        ids, summary="Farms want payroll", reviewer="ceo", game_day=4, dry_run=True
    )
    assert dry.status == "dry_run" and dry.semantic_memory_id == expected
    audit_before = len(store.audit())
    assert len(store.records()) == 3 and audit_before == 3
    first = store.consolidate(
        list(reversed(ids)), summary="Farms want payroll", reviewer="ceo", game_day=4
    )
    assert first.status == "consolidated" and first.importance == 3.0
    sem = store.get(expected)
    assert sem.kind == "semantic" and sem.source_ids == sorted(ids) and sem.author == "ceo"
    snapshot = (len(store.records()), len(store.audit()))
    retry = store.consolidate(ids, summary="Farms want payroll", reviewer="ceo", game_day=9)
    assert retry.status == "already_consolidated" and retry.semantic_memory_id == expected
    dry_retry = store.consolidate(
        ids, summary="Farms want payroll", reviewer="ceo", game_day=9, dry_run=True
    )
    assert dry_retry.status == "already_consolidated"
    assert (len(store.records()), len(store.audit())) == snapshot
    with pytest.raises(ValueError, match="retry does not match"):
        store.consolidate(ids, summary="Something else", reviewer="ceo", game_day=9)
    with pytest.raises(ValueError, match="another note"):
        store.consolidate(ids[:2], summary="Farms want payroll", reviewer="ceo", game_day=9)
    assert [r.id for r in store.recall("payroll farms", game_day=5).items] == [expected]


@pytest.mark.parametrize(
    ("sources", "summary", "reviewer", "match"),
    [
        (["mem-00001"], "s", "ceo", "2.."),
        (["mem-00001", "mem-00404"], "s", "ceo", "unknown"),
        (["mem-00001", "mem-00002"], "   ", "ceo", "empty"),
        (["mem-00001", "mem-00002"], "s", " ", "reviewer"),
        (["mem-00001", "mem-00003"], "s", "ceo", "only preference"),
    ],
)
def test_consolidation_rejects_bad_input(
    store: MemoryStore, sources, summary, reviewer, match
) -> None:
    note(store, "one")
    note(store, "two entirely different", stage="s2")
    store.remember(NewNote("procedural", "binding", author="ceo", game_day=1))
    with pytest.raises(ValueError, match=match):
        store.consolidate(sources, summary=summary, reviewer=reviewer, game_day=2)


def test_audit_is_content_free_and_append_only(store: MemoryStore) -> None:
    store.remember(NewNote("procedural", "CANARYWORD decision", author="ceo", game_day=1))
    note(store, "CANARYWORD finding")
    store.harden(game_day=2)
    rows = store.audit()
    assert {r.operation for r in rows} >= {"remember", "worker_write", "harden_promote"}
    assert "CANARYWORD" not in str([r.to_dict() for r in rows]).upper()
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("UPDATE memory_audit SET reason = 'x'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("DELETE FROM memory_audit")


def test_a_failed_step_rolls_back_memory_and_audit(store: MemoryStore) -> None:
    from worldforge_savedb.db import transaction

    with pytest.raises(RuntimeError), transaction(store.conn):
        store.remember(NewNote("procedural", "Depth first", author="ceo", game_day=1))
        note(store, "a note")
        raise RuntimeError("step failed")
    assert store.records() == [] and store.audit() == []
    assert (
        store.remember(NewNote("context", "after", author="system", game_day=1)).id == "mem-00001"
    )
