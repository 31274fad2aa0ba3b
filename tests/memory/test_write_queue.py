"""Queued writes: rows and audit rows wait in `memory.pending` until the outermost commit or the
first read, and every read, rollback, forget and second store or connection still sees the truth."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.db import connect, db_path, flush, transaction
from memory.store import MemoryStore


def _raw_count(conn, table: str = "memories") -> int:
    return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_queued_writes_are_read_in_the_same_transaction(store: MemoryStore) -> None:
    conn = store.conn
    with transaction(conn):
        ids = [store.remember("context", f"clinic note {i}", author="system", game_day=1).id
               for i in range(3)]
        assert _raw_count(conn) == 0  # still queued: nothing sent to SQLite yet
        assert {r.id for r in store.recall("clinic", game_day=1).items} == set(ids)
        assert [r.id for r in store.records()] == ids  # a read sends the queue first
        assert _raw_count(conn) == 3 and _raw_count(conn, "memory_audit") == 3
        assert store.counts()["context"] == 3


def test_every_write_is_on_disk_when_its_transaction_commits(store: MemoryStore,
                                                             save_dir: Path) -> None:
    with transaction(store.conn):
        for i in range(4):
            store.remember("chat_summary", f"stage {i} shipped", author="system", game_day=i)
    other = connect(db_path(save_dir))
    try:
        assert _raw_count(other) == 4 and _raw_count(other, "memory_audit") == 4
        assert tuple(other.execute("SELECT n, rev FROM memory_counters WHERE run_id = 'run-a'"
                                   ).fetchone()) == (4, 4)
    finally:
        other.close()


def test_rollback_drops_the_queue_and_the_index_forgets_it(store: MemoryStore) -> None:
    kept = store.remember("context", "payroll runs monthly", author="system", game_day=1)
    with pytest.raises(RuntimeError), transaction(store.conn):
        store.remember("context", "clinic pilot signed", author="system", game_day=2)
        store.remember("procedural", "Depth first", author="ceo", game_day=2)
        raise RuntimeError("the step failed")
    assert [r.id for r in store.records()] == [kept.id]
    assert [r.id for r in store.recall("clinic pilot depth", game_day=2).items] == [kept.id]
    assert len(store.audit()) == 1
    again = store.remember("context", "clinic pilot signed", author="system", game_day=3)
    assert again.id == "mem-00002" and again.reinforced == 0  # the rolled-back id is reused


def test_restatement_within_one_transaction_reinforces(store: MemoryStore) -> None:
    with transaction(store.conn):
        first = store.remember("context", "Clinics pay on time", author="system", game_day=1)
        again = store.remember("context", "clinics pay  ON time!", author="system", game_day=2)
        other_kind = store.remember("preference", "Clinics pay on time", author="system",
                                    game_day=2)
    assert again.id == first.id and again.reinforced == 1
    assert other_kind.id != first.id
    assert [a.reason for a in store.audit()] == ["written-context", "reinforced",
                                                 "written-preference"]


def test_forget_after_queued_writes_leaves_no_trace(store: MemoryStore) -> None:
    conn = store.conn
    secret_free = "farmers want weekly payroll"
    with transaction(conn):
        store.remember("context", secret_free, author="system", game_day=1)
        report = store.forget_run(compact=False)
    store.compact()
    assert report.deleted == 1
    assert _raw_count(conn) == 0
    assert _raw_count(conn, "memory_counters") == 0
    rows = [tuple(r) for table in ("memories", "memory_audit", "memory_cloud_outbox")
            for r in conn.execute(f"SELECT * FROM {table}")]
    assert not any("payroll" in str(v) for row in rows for v in row)
    assert [a.operation for a in store.audit()] == ["remember", "forget_run"]
    assert store.recall("payroll", game_day=1).items == []


def test_two_stores_of_one_run_share_queued_writes(conn) -> None:
    a, b = MemoryStore(conn, "run-s"), MemoryStore(conn, "run-s")
    with transaction(conn):
        first = a.remember("context", "clinic pilot", author="system", game_day=1)
        second = b.remember("context", "clinic renewal", author="system", game_day=1)
        assert b.remember("context", "Clinic pilot", author="system", game_day=1).id == first.id
        assert {r.id for r in b.recall("clinic", game_day=1).items} == {first.id, second.id}
    assert (first.id, second.id) == ("mem-00001", "mem-00002")


def test_another_connection_writing_the_run_is_seen(conn, save_dir: Path) -> None:
    mine = MemoryStore(conn, "run-x")
    mine.remember("context", "clinic pilot", author="system", game_day=1)
    assert len(mine.recall("clinic", game_day=1).items) == 1
    other_conn = connect(db_path(save_dir))
    try:
        theirs = MemoryStore(other_conn, "run-x")
        rec = theirs.remember("context", "clinic renewal", author="system", game_day=2)
        assert rec.id == "mem-00002"
    finally:
        other_conn.close()
    assert {r.id for r in mine.recall("clinic", game_day=2).items} == {"mem-00001", "mem-00002"}
    assert mine.remember("context", "clinic renewal", author="system", game_day=3).reinforced == 1
    assert mine.remember("context", "payroll", author="system", game_day=3).id == "mem-00003"


def test_raw_sql_between_writes_is_noticed(store: MemoryStore) -> None:
    conn = store.conn
    with transaction(conn):
        rec = store.remember("context", "clinic pilot", author="system", game_day=1)
        flush(conn)  # raw SQL readers and writers send the queue first
        conn.execute("UPDATE memories SET status = 'archived' WHERE id = ?", (rec.id,))
        again = store.remember("context", "clinic pilot", author="system", game_day=2)
    assert again.id != rec.id and again.reinforced == 0  # the archived note is not live
    assert [r.id for r in store.recall("clinic", game_day=2).items] == [again.id]
