"""A binding note keeps its structured payload (typed directions) through write, recall and a
reopened save, scrubbed like the text; old saves gain the column."""

from __future__ import annotations

import sqlite3

import pytest

from memory.local.store import MemoryStore
from memory.models import NewNote
from worldforge_savedb.db import connect


def test_payload_round_trips_and_rides_in_recall(tmp_path):
    conn = connect(tmp_path / "s.db")
    store = MemoryStore(conn, "run-a")
    payload = {"directions": [{"axis": "price", "value": "$27 a month", "do": True}]}
    rec = store.remember(
        NewNote("procedural", "CEO: price $27", author="ceo", game_day=1, payload=payload)
    )
    assert rec.payload == payload
    recalled = store.recall("price", game_day=2)
    assert any(r.payload == payload for r in recalled.items)
    conn.close()
    again = MemoryStore(connect(tmp_path / "s.db"), "run-a")
    assert again.get(rec.id).payload == payload
    plain = again.remember(NewNote("chat_summary", "shipped", author="system", game_day=2))
    assert plain.payload is None


def test_payload_is_scrubbed_and_bounded(tmp_path):
    store = MemoryStore(connect(tmp_path / "s.db"), "run-b")
    secret = "sk-" + "a" * 40
    rec = store.remember(
        NewNote(
            "procedural", "CEO said", author="ceo", game_day=1, payload={"v": f"key {secret}\x00"}
        )
    )
    assert secret not in str(rec.payload) and "\x00" not in str(rec.payload)
    with pytest.raises(ValueError):
        store.remember(
            NewNote("procedural", "big", author="ceo", game_day=1, payload={"v": ["x" * 300] * 40})
        )


def test_a_save_from_before_payloads_gains_the_column(tmp_path):
    """Payloads came during format 2; format 3's migration makes `memories` anew, with the column."""
    conn = connect(tmp_path / "s.db")
    MemoryStore(conn, "run-c").remember(NewNote("procedural", "old note", author="ceo", game_day=1))
    conn.execute("ALTER TABLE memories DROP COLUMN payload")
    conn.execute("PRAGMA user_version=2")
    conn.commit()
    conn.close()
    store = MemoryStore(connect(tmp_path / "s.db"), "run-c")
    assert [r.payload for r in store.records()] == [None]
    assert isinstance(store.conn, sqlite3.Connection)
