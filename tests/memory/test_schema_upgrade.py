"""A save written by the previous memory schema opens, gains the restatement key, and keeps
deduplicating and counting as before."""

from __future__ import annotations

from pathlib import Path

from memory.db import connect, db_path
from memory.store import MemoryStore


def _downgrade(path: Path) -> None:
    """Turn a fresh save into the previous layout: full-text norm index, per-row stage and rev
    indexes, the revision-only insert trigger that needed a separate counter upsert, no key."""
    conn = connect(path)
    store = MemoryStore(conn, "run-old")
    store.remember("context", "Clinics pay on time", author="system", game_day=1)
    store.remember("procedural", "Depth first", author="ceo", game_day=2, axis="depth")
    conn.executescript("""
        DROP INDEX IF EXISTS memories_normkey; DROP INDEX memories_stage_set;
        DROP TRIGGER memories_count_ai;
        ALTER TABLE memories DROP COLUMN norm_key;
        CREATE INDEX memories_norm ON memories (run_id, norm);
        CREATE INDEX memories_stage ON memories (run_id, stage_id);
        CREATE INDEX memories_rev ON memories (run_id, rev);
        CREATE TRIGGER memories_rev_ai AFTER INSERT ON memories BEGIN
            UPDATE memory_counters SET rev = max(rev + 1, new.rev) WHERE run_id = new.run_id;
        END;
    """)
    conn.close()


def test_old_save_upgrades_in_place(save_dir: Path) -> None:
    path = db_path(save_dir)
    _downgrade(path)
    conn = connect(path)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert {"memories_stage_set", "memories_count_ai"} <= names
    assert not {"memories_norm", "memories_stage", "memories_rev", "memories_rev_ai",
                "memories_normkey"} & names
    assert conn.execute("SELECT count(*) FROM memories WHERE norm_key IS NULL").fetchone()[0] == 0
    store = MemoryStore(conn, "run-old")
    again = store.remember("context", "clinics  PAY on time!", author="system", game_day=3)
    assert again.id == "mem-00001" and again.reinforced == 1  # the old row was found by its key
    new = store.remember("context", "Farmers want payroll", author="system", game_day=3)
    assert new.id == "mem-00003"  # the counter carried on
    assert {"mem-00003", "mem-00002"} <= {r.id for r in store.recall("payroll", game_day=3).items}
    conn.close()


def test_the_restatement_key_index_of_the_last_build_is_dropped(save_dir: Path) -> None:
    """The previous build indexed `norm_key`; restatement is now answered in process, so the
    index goes (one dirty page fewer per insert) while the key column stays filled."""
    path = db_path(save_dir)
    conn = connect(path)
    MemoryStore(conn, "run-k").remember("context", "Clinics pay on time", author="system",
                                        game_day=1)
    conn.execute("CREATE INDEX memories_normkey ON memories (run_id, norm_key)")
    conn.close()
    conn = connect(path)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "memories_normkey" not in names
    store = MemoryStore(conn, "run-k")
    again = store.remember("context", "clinics pay on TIME", author="system", game_day=2)
    assert again.id == "mem-00001" and again.reinforced == 1
    assert conn.execute("SELECT count(*) FROM memories WHERE norm_key IS NULL").fetchone()[0] == 0
    conn.close()
