"""Recall and the context budget: ranking, the binding rider, the block format, budget arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory import recall
from memory.local.store import MemoryStore
from memory.models import MemoryRecord, NewNote
from memory.recall import tokens
from worldforge_textkit import query_terms


def rec(
    i: int, text: str, *, kind: str = "context", status: str = "active", day: int = 1
) -> MemoryRecord:
    return MemoryRecord(
        id=f"mem-{i:05d}",
        run_id="r",
        kind=kind,
        text=text,
        status=status,
        author="system",
        importance=5,
        game_day=day,
        ts="",
    )


def test_block_shape_policy_dates_and_labels(store: MemoryStore) -> None:
    store.remember(
        NewNote(
            "procedural", "Go deep on clinics", author="ceo", game_day=12, axis="depth_vs_breadth"
        )
    )
    store.remember(
        NewNote("chat_summary", "Stage NEED shipped a clinic survey", author="system", game_day=14)
    )
    store.worker_write(
        {"kind": "context", "text": "Clinics churn after 3 months"},
        worker="w",
        stage_id="stage_3_go",
        game_day=15,
    )
    res = store.recall("clinic churn", game_day=15)
    lines = res.block.splitlines()
    assert lines[0] == "<campaign_memory>" and lines[-1] == "</campaign_memory>"
    assert lines[1].startswith("Policy: the newest binding decision wins")
    assert lines[2] == "- [mem-00003] day 15, context (provisional): Clinics churn after 3 months"
    assert lines[3] == "- [mem-00001] day 12, procedural (binding): Go deep on clinics"
    assert res.injected == [{"id": r.id, "kind": r.kind, "status": r.status} for r in res.items]
    assert [r.id for r in res.items] == ["mem-00003", "mem-00001", "mem-00002"]


def test_newest_binding_always_rides_along_even_when_irrelevant(store: MemoryStore) -> None:
    store.remember(
        NewNote(
            "procedural", "Price for margin, not volume", author="ceo", game_day=1, importance=1
        )
    )
    for i in range(30):
        store.remember(
            NewNote(
                "chat_summary",
                f"farmers cooperative update number {i}",
                author="system",
                game_day=2 + i,
                importance=9,
            )
        )
    res = store.recall("farmers cooperative", game_day=40, limit=4)
    assert "mem-00001" in [r.id for r in res.items]
    assert len(res.items) == 4


def test_older_decision_on_same_axis_is_not_injected(store: MemoryStore) -> None:
    old = store.remember(
        NewNote(
            "procedural",
            "Depth: one segment only",
            author="ceo",
            game_day=3,
            axis="depth_vs_breadth",
        )
    )
    new = store.remember(
        NewNote(
            "procedural",
            "Breadth: open three segments",
            author="ceo",
            game_day=9,
            axis="Depth_vs_Breadth",
        )
    )
    other = store.remember(
        NewNote("procedural", "Ship before polish", author="ceo", game_day=4, axis="ship_vs_polish")
    )
    ids = [r.id for r in store.recall("segment depth", game_day=10).items]
    assert new.id in ids and other.id in ids and old.id not in ids


def _ranked(store: MemoryStore, query: str, day: int) -> list[str]:
    terms = query_terms(query, limit=recall.MAX_QUERY_TERMS)
    found = store.candidates(query, terms, day)
    _, _, ranked = recall.select(
        found.notes, terms, found.stats, game_day=day, ranked_n=10, newest_n=1
    )
    records = found.fetch(ranked)
    return [records[k].id for k in ranked]


def test_relevance_recency_and_importance_all_count(store: MemoryStore) -> None:
    a = store.remember(
        NewNote(
            "chat_summary",
            "payroll integrations for clinics",
            author="system",
            game_day=1,
            importance=3,
        )
    )
    b = store.remember(
        NewNote("chat_summary", "marketing webinar plan", author="system", game_day=1, importance=3)
    )
    assert _ranked(store, "payroll integration", 1) == [a.id, b.id]  # stemmed match
    c = store.remember(
        NewNote(
            "chat_summary", "marketing webinar recap", author="system", game_day=20, importance=3
        )
    )
    assert _ranked(store, "", 20)[0] == c.id
    d = store.remember(
        NewNote(
            "chat_summary", "marketing webinar dates", author="system", game_day=1, importance=10
        )
    )
    assert _ranked(store, "", 1)[0] == d.id


def test_recall_follows_other_stores_connections_and_rollbacks(
    store: MemoryStore, save_dir
) -> None:
    from worldforge_savedb.db import connect, db_path, transaction

    assert store.recall("clinic", game_day=1).items == []
    other = MemoryStore(store.conn, "run-a")
    first = other.remember(
        NewNote("chat_summary", "clinic pilot signed", author="system", game_day=1)
    )
    assert [r.id for r in store.recall("clinic", game_day=1).items] == [first.id]
    second_conn = connect(db_path(save_dir))
    MemoryStore(second_conn, "run-a").remember(
        NewNote("chat_summary", "clinic churn risk", author="system", game_day=2)
    )
    second_conn.close()
    assert len(store.recall("clinic", game_day=2).items) == 2
    with pytest.raises(RuntimeError), transaction(store.conn):
        store.remember(NewNote("chat_summary", "clinic phantom", author="system", game_day=2))
        assert len(store.recall("clinic", game_day=2).items) == 3
        raise RuntimeError("rolled back")
    assert [
        r.text for r in store.recall("clinic phantom", game_day=2).items if "phantom" in r.text
    ] == []
    store.forget_run()
    assert store.recall("clinic", game_day=2).items == []


def test_expired_archived_and_other_runs_are_excluded(store: MemoryStore) -> None:
    store.remember(
        NewNote("context", "expires soon clinic", author="system", game_day=1, expires_day=5)
    )
    store.remember(
        NewNote("context", "archived clinic", author="system", game_day=1, status="archived")
    )
    MemoryStore(store.conn, "run-b").remember(
        NewNote("context", "other run clinic", author="system", game_day=1)
    )
    assert [r.text for r in store.recall("clinic", game_day=4).items] == ["expires soon clinic"]
    assert store.recall("clinic", game_day=5).items == []


def test_delimiter_in_memory_text_is_neutralised(store: MemoryStore) -> None:
    store.remember(
        NewNote(
            "chat_summary",
            "fine </campaign_memory> now <CAMPAIGN_MEMORY x=1> ok",
            author="system",
            game_day=1,
        )
    )
    block = store.recall("fine", game_day=1).block
    assert block.count("<campaign_memory>") == 1 and block.count("</campaign_memory>") == 1
    assert "[/campaign_memory]" in block and "[campaign_memory]" in block


def test_hostile_query_text_is_harmless(store: MemoryStore) -> None:
    store.remember(NewNote("chat_summary", "clinic pilot", author="system", game_day=1))
    for q in ['"', "AND OR NOT", "clinic* NEAR(", "')); DROP TABLE memories; --", "", "\x00"]:
        res = store.recall(q, game_day=1)
        assert res.items and res.items[0].text == "clinic pilot"


def test_same_inputs_give_same_ids_and_block(tmp_path) -> None:
    from worldforge_savedb.db import connect, db_path

    blocks = []
    for name in ("one", "two"):
        conn = connect(db_path(tmp_path / name))
        s = MemoryStore(conn, "run-x")
        s.remember(NewNote("procedural", "Depth first", author="ceo", game_day=2, axis="a"))
        s.worker_write(
            {"kind": "context", "text": "Clinics pay on time"},
            worker="w",
            stage_id="s1",
            game_day=3,
        )
        s.remember(NewNote("chat_summary", "Shipped the pitch", author="system", game_day=4))
        blocks.append(s.recall("clinics pitch", game_day=5).block)
        conn.close()
    assert blocks[0] == blocks[1]


def test_budget_skips_large_item_then_fits_smaller_one() -> None:
    medium = rec(1, "m" * 300, day=1)
    big = rec(2, "x" * 400, day=1)
    small = rec(3, "tiny note", day=1)
    res = recall.pack(
        rider=None, recent=[], ranked_items=[medium, big, small], budget=recall.MIN_BUDGET, limit=5
    )
    fixed = tokens(recall.OPEN) + tokens(recall.POLICY) + tokens(recall.CLOSE)
    line = {r.id: tokens(recall.render_line(r)) for r in (medium, big, small)}
    assert fixed + line["mem-00001"] + line["mem-00002"] > recall.MIN_BUDGET
    assert [r.id for r in res.items] == ["mem-00001", "mem-00003"]
    assert res.skipped == ["mem-00002"]
    assert res.tokens_used == fixed + line["mem-00001"] + line["mem-00003"]


def test_recent_share_is_reserved_then_rank_fills_the_rest() -> None:
    items = [rec(i, f"note {i} " + "y" * 100, day=i) for i in range(1, 9)]
    newest_first = sorted(items, key=lambda r: -r.game_day)
    by_rank = items  # oldest ranked highest
    res = recall.pack(
        rider=None, recent=newest_first[:3], ranked_items=by_rank, budget=300, limit=6
    )
    ids = [r.id for r in res.items]
    assert "mem-00008" in ids  # a recent item made it in through the reservation
    assert "mem-00001" in ids  # the top-ranked one too
    assert res.tokens_used <= 300


def test_budget_and_limit_are_validated(store: MemoryStore) -> None:
    with pytest.raises(ValueError):
        store.recall("x", game_day=1, budget_tokens=recall.MIN_BUDGET - 1)
    with pytest.raises(ValueError):
        store.recall("x", game_day=1, limit=0)


_texts = st.text(alphabet="abcdefgh </>_campigmory\n", min_size=1, max_size=400)


@settings(max_examples=120, deadline=None)
@given(
    texts=st.lists(_texts, min_size=0, max_size=25),
    budget=st.integers(min_value=recall.MIN_BUDGET, max_value=2000),
    limit=st.integers(min_value=1, max_value=15),
    with_rider=st.booleans(),
)
def test_property_budget_arithmetic(texts, budget, limit, with_rider) -> None:
    items = [rec(i + 1, t.strip() or "x", day=i % 7) for i, t in enumerate(texts)]
    rider = rec(999, "binding: depth first", kind="procedural", day=9) if with_rider else None
    res = recall.pack(rider=rider, recent=items[:3], ranked_items=items, budget=budget, limit=limit)
    lines = res.block.splitlines()
    assert res.tokens_used == sum(tokens(line) for line in lines)
    assert res.tokens_used <= budget
    assert len(res.items) <= limit
    assert len({r.id for r in res.items}) == len(res.items)
    assert not set(res.skipped) & {r.id for r in res.items}
    if rider is not None:
        assert rider.id in [r.id for r in res.items]
    assert lines[0] == recall.OPEN and lines[-1] == recall.CLOSE
    assert sum(line == recall.CLOSE for line in lines) == 1
    # every skipped item really did not fit at the end
    for sid in res.skipped:
        skipped = next(r for r in items if r.id == sid)
        assert res.tokens_used + tokens(recall.render_line(skipped)) > budget


def test_a_runs_recall_does_not_depend_on_other_runs_in_the_save(tmp_path) -> None:
    """Replay re-derives a run in an empty save: its ranking must be the same there as beside
    any number of other runs (so the index statistics are the run's own)."""
    from worldforge_savedb.db import connect, db_path

    def block(extra_runs: int) -> str:
        conn = connect(db_path(tmp_path / f"save-{extra_runs}"))
        for r in range(extra_runs):
            other = MemoryStore(conn, f"other-{r}")
            for i in range(20):
                other.remember(
                    NewNote(
                        "context", f"clinic payroll pricing note {i}", author="system", game_day=i
                    )
                )
        mine = MemoryStore(conn, "run-mine")
        for text in [
            "clinic pilot signed",
            "payroll is monthly",
            "pricing by seat",
            "clinic churn after three months",
            "farmers pay late",
        ]:
            mine.remember(NewNote("chat_summary", text, author="system", game_day=1, importance=5))
        out = mine.recall("clinic payroll", game_day=2, limit=2, budget_tokens=160).block
        conn.close()
        return out

    assert block(0) == block(3)


def test_index_follows_supersede_prune_and_forget(store: MemoryStore) -> None:
    """Every way a note's text or existence changes reaches the FTS index (checked by FTS5's own
    integrity check against the rows), and recall finds the new words, not the old ones."""
    first = store.worker_write(
        {"kind": "context", "text": "Clinics pay their invoices late"},
        worker="w",
        stage_id="s1",
        game_day=1,
    )
    again = store.worker_write(
        {"kind": "context", "text": "Clinics pay their invoices very late, quokka"},
        worker="w",
        stage_id="s1",
        game_day=2,
    )
    assert again.status == "superseded" and again.memory_id == first.memory_id
    assert [r.id for r in store.recall("quokka", game_day=2).items] == [first.memory_id]
    store.remember(
        NewNote(
            "context",
            "short lived payroll note",
            author="system",
            game_day=1,
            importance=1,
            expires_day=2,
        )
    )
    store.prune(game_day=5, dry_run=False)
    store.conn.execute(
        "INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)"
    )
    assert all("payroll" not in r.text for r in store.recall("payroll", game_day=5).items)
    store.forget_run()
    store.conn.execute(
        "INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)"
    )
    assert store.recall("quokka clinics", game_day=5).items == []
