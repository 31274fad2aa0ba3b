"""One recall ranking: the same writes to the save file and to Cosmos DB recall the same block (the
same notes, in the same order, within the same budget), for many queries and days, so a run
replays alike on either backend."""

from __future__ import annotations

from typing import Any

from memory.local.store import MemoryStore
from memory.models import NewNote
from worldforge_savedb.db import connect, db_path

WRITES: list[tuple[str, dict[str, Any]]] = [
    (
        "user_profile",
        {"text": "Founder: a nurse who ran night shifts for ten years", "game_day": 0},
    ),
    ("procedural", {"text": "Ship weekly and name the customer", "game_day": 1, "axis": "pace"}),
    ("chat_summary", {"text": "Clinic pilot signed with two night-shift wards", "game_day": 2}),
    (
        "context",
        {"text": "Payroll runs monthly; clinics pay net 60", "game_day": 2, "importance": 8},
    ),
    ("preference", {"text": "The CEO prefers pricing by seat", "game_day": 3}),
    ("procedural", {"text": "Slow down: quality before speed", "game_day": 4, "axis": "pace"}),
    ("chat_summary", {"text": "Churn after three months at the clinic pilot", "game_day": 5}),
    ("context", {"text": "Rival launched a free tier", "game_day": 6, "expires_day": 7}),
    (
        "semantic",
        {
            "text": "Clinics buy on trust; pilots convert when a ward lead vouches",
            "game_day": 6,
            "importance": 9,
        },
    ),
    (
        "chat_summary",
        {"text": "Shift nurses want meal plans they can prep on Sunday", "game_day": 7},
    ),
]
QUERIES = ["clinic pilot pricing", "night shift nurses", "", "rival free tier", "payroll", "zzz"]


def _write(store: Any) -> None:
    for kind, fields in WRITES:
        rest = {k: v for k, v in fields.items() if k != "text"}
        store.remember(NewNote(kind, fields["text"], author="system", **rest))
    for text in (
        "Ward leads want a weekly report",
        "Ward leads want a weekly report!",
        "Nurses churn when onboarding takes a week",
    ):
        store.worker_write(
            {"kind": "context", "text": text, "importance": 6},
            worker="ops",
            stage_id="stage_3_go",
            game_day=8,
        )
    store.harden(game_day=8)


def test_save_file_and_cosmos_recall_the_same_block(store_factory, tmp_path) -> None:
    conn = connect(db_path(tmp_path / "save"))
    local, cosmos = MemoryStore(conn, "run-alike"), store_factory("run-alike")
    try:
        _write(local)
        _write(cosmos)
        assert [r.id for r in local.records()] == [r.id for r in cosmos.records()]
        for day in (8, 9, 20):
            for query in QUERIES:
                for limit, budget in ((12, 700), (3, 160)):
                    want = local.recall(query, game_day=day, limit=limit, budget_tokens=budget)
                    got = cosmos.recall(query, game_day=day, limit=limit, budget_tokens=budget)
                    assert got.block == want.block, (day, query, limit)
                    assert got.skipped == want.skipped
    finally:
        conn.close()
