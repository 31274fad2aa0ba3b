"""The recall index ranks exactly as a plain full scan would (property), and keeps up with its own
writes, updates made elsewhere, and rollbacks."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.db import connect, transaction
from memory.index import (
    BM25_B,
    BM25_K1,
    RECENCY_DAYS,
    W_IMPORTANCE,
    W_RECENCY,
    W_RELEVANCE,
    RunIndex,
    terms,
)
from memory.models import MemoryRecord
from memory.store import MemoryStore

VOCAB = ["clinic", "clinics", "payroll", "farmers", "depth", "breadth", "ship", "polish", "churn",
         "pricing", "the", "a"]


def reference(records: list[MemoryRecord], query: str, day: int) -> list[tuple[float, str]]:
    """Score every live, unexpired, unsuperseded record the slow way; best first."""
    live = [r for r in records if r.status in ("provisional", "active")]
    newest_on_axis: dict[str, MemoryRecord] = {}
    for r in live:
        if r.kind == "procedural" and r.axis:
            best = newest_on_axis.get(r.axis)
            if best is None or (r.game_day, r.id) > (best.game_day, best.id):
                newest_on_axis[r.axis] = r
    hidden = {r.id for r in live if r.kind == "procedural" and r.axis
              and newest_on_axis[r.axis].id != r.id}
    docs = {r.id: terms(r.text) for r in live}
    n = len(docs)
    avgdl = (sum(len(t) for t in docs.values()) / n or 1.0) if n else 1.0
    scores = []
    for r in live:
        if r.id in hidden or (r.expires_day is not None and r.expires_day <= day):
            continue
        s = 0.0
        for term in dict.fromkeys(terms(query)):
            df = sum(term in t for t in docs.values())
            f = docs[r.id].count(term)
            if df and f:
                idf = math.log(1 + (n - df + 0.5) / (df + 0.5)) * (BM25_K1 + 1)
                dl = len(docs[r.id])
                s += idf * f / (f + BM25_K1 * (1 - BM25_B) + BM25_K1 * BM25_B * dl / avgdl)
        recency = W_RECENCY / (1.0 + max(0, day - r.game_day) / RECENCY_DAYS)
        scores.append((recency + W_IMPORTANCE / 10 * r.importance + W_RELEVANCE * s / (1 + s),
                       r.id))
    return sorted(scores, reverse=True)


_note = st.tuples(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=8),
                  st.integers(0, 12),                      # game day
                  st.floats(0, 10),                        # importance
                  st.sampled_from(["context", "chat_summary", "procedural"]),
                  st.sampled_from([None, "axis_a", "axis_b"]),
                  st.one_of(st.none(), st.integers(1, 14)))  # expires day


@settings(max_examples=60, deadline=None)
@given(notes=st.lists(_note, min_size=0, max_size=40),
       query=st.lists(st.sampled_from(VOCAB + ["unknown"]), max_size=4),
       day=st.integers(0, 15), ranked_n=st.integers(1, 15), archive=st.sets(st.integers(0, 39)))
def test_ranking_matches_a_full_scan(notes, query, day, ranked_n, archive) -> None:
    conn = connect(":memory:")
    store = MemoryStore(conn, "run-p")
    store.recall("warm", game_day=0)  # the index is current, so later writes are pushed into it
    for i, (words, g, imp, kind, axis, exp) in enumerate(notes):
        text = f"note {i} " + " ".join(words)
        store.remember(kind, text, author="ceo", game_day=g, importance=imp, expires_day=exp,
                       axis=axis if kind == "procedural" else None)
    for i in sorted(archive):
        if i < len(notes):  # an update made behind the index's back (revision moves)
            conn.execute("UPDATE memories SET status = 'archived' WHERE id = ?", (f"mem-{i + 1:05d}",))
    q = " ".join(query)
    expected = reference(store.records(), q, day)
    for index in (store._index, RunIndex(conn, "run-p")):  # incremental and freshly loaded
        _, _, ranked = index.select(q, game_day=day, ranked_n=ranked_n, newest_n=2)
        want = expected[:ranked_n]
        assert len(ranked) == len(want)
        score = {mid: sc for sc, mid in expected}
        for got, (sc, _) in zip(ranked, want, strict=True):
            assert score[got.id] == pytest.approx(sc, abs=1e-9)
    conn.close()


def test_index_takes_its_own_writes_without_reading_them_back(store: MemoryStore) -> None:
    store.remember("chat_summary", "first clinic note", author="system", game_day=1)
    store.recall("clinic", game_day=1)  # loads the run once
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    with transaction(store.conn):
        for i in range(3):
            store.remember("chat_summary", f"clinic note {i}", author="system", game_day=1)
    ids = [r.id for r in store.recall("clinic", game_day=1).items]
    store.conn.set_trace_callback(None)
    assert ids and len(ids) == 4
    assert not [s for s in seen if s.lstrip().upper().startswith("SELECT") and "FROM memories " in s]


def test_index_sees_an_update_made_through_another_store(store: MemoryStore) -> None:
    rec = store.remember("chat_summary", "clinic pilot", author="system", game_day=1)
    assert [r.id for r in store.recall("clinic", game_day=1).items] == [rec.id]
    other = MemoryStore(store.conn, store.run_id)
    other.conn.execute("UPDATE memories SET status = 'archived' WHERE id = ?", (rec.id,))
    assert store.recall("clinic", game_day=1).items == []


def test_many_drops_compact_the_arrays_and_ranking_still_matches(store: MemoryStore) -> None:
    words = ["clinic", "payroll", "farmers", "depth", "churn"]
    for i in range(150):
        store.remember("context", f"note {i} {words[i % 5]} {words[(i * 3) % 5]}", author="system",
                       game_day=i % 9, importance=(i * 7) % 11)
    store.recall("clinic", game_day=9)
    store.conn.execute("UPDATE memories SET status = 'archived' WHERE seq % 3 != 0")
    index = store._index
    _, _, ranked = index.select("clinic churn", game_day=9, ranked_n=12, newest_n=2)
    assert len(index._docs) == 50 and len(index._mids) < 100  # dropped slots were compacted away
    want = reference(store.records(), "clinic churn", 9)[:12]
    assert [r.id for r in ranked] == [mid for _, mid in want]
