"""Authorisation before I/O, right to deletion (no trace in any file), canary secrets never on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.contract import ScopeError
from memory.local.store import MemoryStore
from memory.models import NewNote
from worldforge_savedb.db import connect, db_path, transaction


def _statements(conn) -> list[str]:
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    return seen


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.recall("x", game_day=1, run_id="run-b"),
        lambda s: s.records(run_id="run-b"),
        lambda s: s.counts(run_id="run-b"),
        lambda s: s.audit(run_id="run-b"),
        lambda s: s.get("mem-00001", run_id="run-b"),
        lambda s: s.forget_run("run-b"),
    ],
)
def test_other_run_raises_before_any_query(store: MemoryStore, call) -> None:
    store.remember(NewNote("context", "run A note", author="system", game_day=1))
    seen = _statements(store.conn)
    with pytest.raises(ScopeError):
        call(store)
    assert seen == []
    store.conn.set_trace_callback(None)
    assert len(store.records()) == 1


def test_runs_never_see_each_other(conn) -> None:
    a, b = MemoryStore(conn, "run-a"), MemoryStore(conn, "run-b")
    a.remember(NewNote("procedural", "A decides depth", author="ceo", game_day=1))
    b.remember(NewNote("procedural", "B decides breadth", author="ceo", game_day=1))
    assert [r.text for r in a.recall("decides", game_day=1).items] == ["A decides depth"]
    assert [r.text for r in b.records()] == ["B decides breadth"]
    assert a.counts()["procedural"] == 1


def _scan(save_dir: Path, needle: bytes) -> list[str]:
    hits = []
    for path in sorted(save_dir.rglob("*")):
        if path.is_file() and needle in path.read_bytes():
            hits.append(path.name)
    return hits


def test_forget_run_leaves_no_trace_in_any_file(save_dir: Path) -> None:
    conn = connect(db_path(save_dir))
    reader = connect(db_path(save_dir))  # a second connection that has read the data
    gone, kept = MemoryStore(conn, "run-gone"), MemoryStore(conn, "run-kept")
    for i in range(40):
        gone.remember(
            NewNote(
                "chat_summary", f"ZEBRAFOXTROT secret plan number {i}", author="system", game_day=i
            )
        )
        gone.worker_write(
            {"kind": "context", "text": f"ZEBRAFOXTROT finding {i}"},
            worker="w",
            stage_id=f"s{i}",
            game_day=i,
        )
    kept.remember(NewNote("chat_summary", "KEEPERNOTE stays", author="system", game_day=1))
    assert MemoryStore(reader, "run-gone").recall("plan", game_day=5).items
    report = gone.forget_run()
    assert report.deleted == 80 and report.compacted
    assert _scan(save_dir, b"ZEBRAFOXTROT") == []
    assert _scan(save_dir, b"KEEPERNOTE") != []
    assert gone.records() == [] and gone.recall("plan", game_day=5).items == []
    assert MemoryStore(reader, "run-gone").recall("plan", game_day=5).items == []
    audit = gone.audit()  # the content-free audit outlives the memories
    assert audit[-1].operation == "forget_run" and len(audit[-1].memory_ids) == 80
    assert kept.records()[0].text == "KEEPERNOTE stays"
    assert (
        gone.remember(NewNote("context", "fresh start", author="system", game_day=1)).id
        == "mem-00001"
    )
    reader.close()
    conn.close()


def test_forget_inside_a_transaction_defers_compaction(save_dir: Path) -> None:
    conn = connect(db_path(save_dir))
    s = MemoryStore(conn, "run-x")
    s.remember(NewNote("context", "QUOKKAWORD", author="system", game_day=1))
    with transaction(conn):
        report = s.forget_run()
        assert not report.compacted
    assert s.compact()
    assert _scan(save_dir, b"QUOKKAWORD") == []
    conn.close()


def test_canary_secrets_never_reach_any_file(save_dir: Path) -> None:
    canaries = {
        "openai": "sk-proj-CANARYopenai0123456789abcdefXYZ",
        "github": "ghp_CANARYgithub0123456789abcdefghijklmn",
        "password": "CANARYpassw0rd!",
        "url": "CANARYurlpass",
    }
    conn = connect(db_path(save_dir))
    s = MemoryStore(conn, "run-c")
    s.remember(
        NewNote(
            "procedural",
            f"Use key {canaries['openai']} for the pilot",
            author="ceo",
            game_day=1,
            axis="pilot",
            source_ids=[canaries["github"]],
        )
    )
    s.remember(
        NewNote(
            "user_profile",
            f"Founder login password: {canaries['password']}",
            author="ceo",
            game_day=1,
        )
    )
    s.worker_write(
        {
            "kind": "context",
            "text": f"Staging DB is postgres://admin:{canaries['url']}@db.internal/x",
        },
        worker="ops",
        stage_id="stage_6_take",
        game_day=2,
    )
    s.consolidate(
        *[
            [
                s.worker_write(
                    {"kind": "context", "text": f"note {i} {canaries['github']}"},
                    worker="w",
                    stage_id=f"x{i}",
                    game_day=3,
                ).memory_id
                for i in range(2)
            ]
        ],
        summary=f"merged {canaries['openai']}",
        reviewer=f"token={canaries['password']}",
        game_day=4,
    )
    s.harden(game_day=5)
    s.recall(canaries["openai"], game_day=5)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    for name, canary in canaries.items():
        assert _scan(save_dir, canary.encode()) == [], name
    assert _scan(save_dir, b"[redacted]")


def test_forget_leaves_no_index_term_of_the_run(save_dir: Path) -> None:
    """The FTS5 index keeps lower-cased terms in its own pages: after forget none of the run's
    terms is listed by the index and no file holds the pitch's words in any case."""
    conn = connect(db_path(save_dir))
    gone, kept = MemoryStore(conn, "run-gone"), MemoryStore(conn, "run-kept")
    with transaction(conn):
        for i in range(60):
            gone.remember(
                NewNote(
                    "chat_summary",
                    f"Quetzalcoatlus pitch {i} for Xylophonic clinics",
                    author="system",
                    game_day=i,
                )
            )
            kept.remember(
                NewNote(
                    "chat_summary", f"Keeper note {i} about payroll", author="system", game_day=i
                )
            )
    gone.forget_run()
    conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, memories_fts, 'row')")
    vocab = [r[0] for r in conn.execute("SELECT term FROM temp.vocab")]
    assert vocab and not [t for t in vocab if "quetzalcoatlus" in t or "xylophonic" in t]
    conn.execute("DROP TABLE temp.vocab")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for needle in (b"quetzalcoatlus", b"Quetzalcoatlus", b"xylophonic", b"Xylophonic"):
        assert _scan(save_dir, needle) == [], needle
    assert len(kept.recall("payroll", game_day=60).items) == 12
    conn.close()
