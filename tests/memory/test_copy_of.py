"""`copy_of`: an in-memory copy of an open save that continues as the save would (balance branches)."""

from __future__ import annotations

from memory.local.store import MemoryStore
from memory.models import NewNote
from worldforge_savedb.db import connect, copy_of, transaction


def test_a_copy_holds_the_same_save_and_changes_apart_from_it(tmp_path):
    conn = connect(tmp_path / "save.db")
    store = MemoryStore(conn, "run-a")
    with transaction(conn):
        store.remember(
            NewNote("procedural", "ship weekly to the clinics", author="ceo", game_day=1)
        )
    tables = "SELECT name, sql FROM sqlite_master ORDER BY name"
    copy = copy_of(conn)
    assert copy.execute(tables).fetchall() == conn.execute(tables).fetchall()
    assert copy.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert (
        copy.execute("PRAGMA user_version").fetchone()[0]
        == (conn.execute("PRAGMA user_version").fetchone()[0])
    )
    branch = MemoryStore(copy, "run-a")
    with transaction(copy):
        branch.remember(
            NewNote("procedural", "price for volume in the second year", author="ceo", game_day=2)
        )
    count = "SELECT count(*) FROM memories"
    assert copy.execute(count).fetchone()[0] == conn.execute(count).fetchone()[0] + 1
    hits = branch.recall("clinics weekly", game_day=2).items
    assert any("clinics" in item.text for item in hits)
    copy.close()
    conn.close()
