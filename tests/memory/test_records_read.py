"""A store's records are the save's rows as they are now: a row decoded once is not decoded again
(`memory.local.store._record` remembers rows by their values), yet a change made through another
connection (a second window, a lease taken over) or another store is read at once."""

from __future__ import annotations

import dataclasses

import pytest

from memory.local.store import MemoryStore
from memory.models import NewNote
from worldforge_savedb.db import connect, db_path, transaction


def test_change_from_another_connection_is_read_at_once(save_dir, store: MemoryStore) -> None:
    store.remember(NewNote("context", "Clinics book on Mondays", author="system", game_day=1))
    first = store.records()
    assert [r.status for r in first] == ["active"]
    assert store.records() == first  # read again: the same rows, the same records

    other = connect(db_path(save_dir))  # the second window's own connection to the save
    try:
        with transaction(other):
            other.execute("UPDATE memories SET status = 'archived', importance = 9.0")
        theirs = MemoryStore(other, "run-a")
        theirs.remember(NewNote("context", "Clinics pay by card", author="system", game_day=2))
    finally:
        other.close()

    now = store.records()
    assert [(r.text, r.status, r.importance) for r in now] == [
        ("Clinics book on Mondays", "archived", 9.0),
        ("Clinics pay by card", "active", 5.0),
    ]
    assert first[0].status == "active"  # a record handed out earlier is not changed under it


def test_a_record_handed_out_cannot_be_changed(store: MemoryStore) -> None:
    rec = store.remember(NewNote("context", "Clinics book on Mondays", author="system", game_day=1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.status = "revoked"  # type: ignore[misc]
    assert store.get(rec.id).status == "active"


def test_the_same_row_in_two_runs_is_two_records(conn) -> None:
    a, b = MemoryStore(conn, "run-a"), MemoryStore(conn, "run-b")
    for s in (a, b):
        s.remember(NewNote("context", "Same words in both runs", author="system", game_day=1))
    assert [r.run_id for r in a.records()] == ["run-a"]
    assert [r.run_id for r in b.records()] == ["run-b"]


def test_a_record_another_store_kept_is_copied_field_for_field(store: MemoryStore) -> None:
    """`keep_copy` (the failover seeding the save file from Cosmos) writes every field the record
    and a new note share, under the record's own id, once."""
    from memory.models import MemoryRecord

    rec = MemoryRecord(
        id="mem-00042",
        run_id="run-a",
        kind="procedural",
        text="Depth first",
        status="provisional",
        author="system",
        importance=7.5,
        game_day=3,
        ts="2025-01-01T00:00:00.000Z",
        expires_day=9,
        source_ids=["mem-00001"],
        stage_id="stage_2_need",
        axis="focus",
        payload={"focus": ["depth"]},
    )
    assert store.keep_copy(rec) and not store.keep_copy(rec)
    got = store.get("mem-00042")
    shared = [f for f in dataclasses.asdict(rec) if f not in ("ts", "origin")]
    assert {f: getattr(got, f) for f in shared} == {f: getattr(rec, f) for f in shared}
