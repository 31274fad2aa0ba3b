"""An in-process recall index over one run's injectable memories: BM25 relevance plus recency and
importance, kept current by the per-run revision the schema's triggers maintain.

Freshness costs two tiny reads per recall (`PRAGMA data_version`, the run's counter row). Changes
made on this connection reload only rows whose revision moved; a commit from another connection,
a rollback, a delete or a forgotten-and-recreated run reloads the run in full.
"""

from __future__ import annotations

import bisect
import heapq
import math
import sqlite3
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from memory.db import rollback_count
from memory.models import MemoryRecord
from memory.rows import COLUMNS, to_record
from memory.text import STOPWORDS, WORD

W_RELEVANCE, W_RECENCY, W_IMPORTANCE = 0.5, 0.25, 0.25
RECENCY_DAYS = 7.0
BM25_K1, BM25_B = 1.2, 0.75


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light plural/verb-ending fold so "invoices" finds "invoice" and "shipping" finds "ship"."""
    for suffix, keep in (("ies", "y"), ("ing", ""), ("es", ""), ("ed", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: len(word) - len(suffix)] + keep
    return word


def terms(text: str) -> list[str]:
    """Index terms: lower-case words minus stopwords and one-letter words, lightly stemmed."""
    return _terms(WORD.findall(text.casefold()))


def _terms(words: list[str]) -> list[str]:
    return [stem(w) for w in words if len(w) > 1 and w not in STOPWORDS]


@dataclass(slots=True)
class _Doc:
    rec: MemoryRecord
    seq: int
    length: int
    terms: tuple[str, ...]
    weight: float  # W_IMPORTANCE * importance / 10: the importance part of the score


class RunIndex:
    """Ranked access to one run's live memories (provisional and active)."""

    def __init__(self, conn: sqlite3.Connection, run_id: str) -> None:
        self.conn = conn
        self.run_id = run_id
        self._docs: dict[str, _Doc] = {}
        # id -> (game_day, seq, weight, expires_day): the scoring inputs, flat for the hot loop
        self._rows: dict[str, tuple[int, int, float, int | None]] = {}
        self._expiring = 0  # live docs with an expiry day (0: no expiry check needed)
        self._postings: dict[str, dict[str, tuple[int, int]]] = {}  # term -> id -> (tf, length)
        # game_day -> (weight, seq, id) of that day's live docs, kept sorted: the best documents
        # that match no query term are read off the top of these buckets instead of scored
        self._by_day: dict[int, list[tuple[float, int, str]]] = {}
        self._total_len = 0
        self._order: list[tuple[int, int, str]] = []  # (game_day, seq, id), kept sorted
        self._hidden: set[str] | None = None  # recomputed when a binding decision changes
        self._axes: dict[str, set[str]] = {}  # axis -> ids of live binding decisions on it
        self._seen: tuple[int, int, str | None, int] | None = None  # data_version, rollbacks, token, rev

    # -- freshness -------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Bring the index up to date with the database (cheap when nothing changed)."""
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        rollbacks = rollback_count(self.conn)
        row = self.conn.execute("SELECT token, rev, del_rev FROM memory_counters WHERE run_id = ?",
                                (self.run_id,)).fetchone()
        token, rev, del_rev = (row[0], row[1], row[2]) if row else (None, 0, 0)
        seen = self._seen
        if seen is not None and seen == (version, rollbacks, token, rev):
            return
        if (seen is None or seen[:3] != (version, rollbacks, token) or rev < seen[3]
                or del_rev > seen[3]):
            self._clear()
            rows = self.conn.execute(
                f"SELECT {COLUMNS}, seq FROM memories WHERE run_id = ?"
                " AND status IN ('provisional', 'active')", (self.run_id,))
        else:
            rows = self.conn.execute(
                f"SELECT {COLUMNS}, seq FROM memories WHERE run_id = ? AND rev > ?",
                (self.run_id, seen[3]))
        for r in rows:
            self._put(to_record(r), r[-1])
        self._seen = (version, rollbacks, token, rev)

    def note_insert(self, rec: MemoryRecord, seq: int, rev: int, norm: str) -> None:
        """Take a row this connection just inserted (at revision `rev`, normalised words `norm`)
        without reading it back; skipped unless the index was current just before it."""
        seen = self._seen
        if seen is None or rev != seen[3] + 1:
            return
        self._put(rec, seq, _terms(norm.split()))
        self._seen = (seen[0], seen[1], seen[2], rev)

    def _clear(self) -> None:
        self._docs.clear()
        self._rows.clear()
        self._expiring = 0
        self._postings.clear()
        self._by_day.clear()
        self._order.clear()
        self._axes.clear()
        self._hidden = None
        self._total_len = 0

    def _drop(self, memory_id: str) -> None:
        doc = self._docs.pop(memory_id, None)
        if doc is None:
            return
        del self._rows[memory_id]
        if doc.rec.expires_day is not None:
            self._expiring -= 1
        day = doc.rec.game_day
        _remove_sorted(self._order, (day, doc.seq, memory_id))
        bucket = self._by_day[day]
        _remove_sorted(bucket, (doc.weight, doc.seq, memory_id))
        if not bucket:
            del self._by_day[day]
        if doc.rec.kind == "procedural" and doc.rec.axis:
            self._axes[doc.rec.axis].discard(memory_id)
            self._hidden = None
        self._total_len -= doc.length
        for term in doc.terms:
            ids = self._postings.get(term)
            if ids is not None:
                ids.pop(memory_id, None)
                if not ids:
                    del self._postings[term]

    def _put(self, rec: MemoryRecord, seq: int, words: list[str] | None = None) -> None:
        mid = rec.id
        if mid in self._docs:
            self._drop(mid)
        if rec.status not in ("provisional", "active"):
            return
        if words is None:
            words = terms(rec.text)
        tf = Counter(words)
        length = len(words)
        weight = W_IMPORTANCE / 10.0 * rec.importance
        self._docs[mid] = _Doc(rec, seq, length, tuple(tf), weight)
        day = rec.game_day
        self._rows[mid] = (day, seq, weight, rec.expires_day)
        if rec.expires_day is not None:
            self._expiring += 1
        bucket = self._by_day.get(day)
        if bucket is None:
            self._by_day[day] = [(weight, seq, mid)]
        else:
            bisect.insort(bucket, (weight, seq, mid))
        order = self._order
        if not order or order[-1] < (day, seq, mid):
            order.append((day, seq, mid))
        else:
            bisect.insort(order, (day, seq, mid))
        if rec.kind == "procedural" and rec.axis:
            self._axes.setdefault(rec.axis, set()).add(mid)
            self._hidden = None
        self._total_len += length
        postings = self._postings
        for w, f in tf.items():
            post = postings.get(w)
            if post is None:
                postings[w] = {mid: (f, length)}
            else:
                post[mid] = (f, length)

    # -- queries ---------------------------------------------------------------------------------
    def _superseded(self) -> set[str]:
        """Older binding decisions on an axis that has a newer live one."""
        if self._hidden is None:
            hidden: set[str] = set()
            for ids in self._axes.values():
                if len(ids) > 1:
                    docs = sorted((self._docs[i] for i in ids),
                                  key=lambda d: (d.rec.game_day, d.seq))
                    hidden.update(d.rec.id for d in docs[:-1])
            self._hidden = hidden
        return self._hidden

    def relevance(self, query: str) -> dict[str, float]:
        """Raw BM25 scores over this run (callers squash them to 0..1 with s / (1 + s))."""
        n = len(self._docs)
        if not n:
            return {}
        avgdl = self._total_len / n or 1.0
        c1, c2, k = BM25_K1 * (1 - BM25_B), BM25_K1 * BM25_B / avgdl, BM25_K1 + 1
        scores: dict[str, float] = {}
        for term in dict.fromkeys(terms(query)):
            post = self._postings.get(term)
            if not post:
                continue
            idf = math.log(1 + (n - len(post) + 0.5) / (len(post) + 0.5)) * k
            if not scores:
                scores = {mid: idf * f / (f + c1 + c2 * dl) for mid, (f, dl) in post.items()}
                continue
            get = scores.get
            for mid, (f, dl) in post.items():
                scores[mid] = get(mid, 0.0) + idf * f / (f + c1 + c2 * dl)
        return scores

    def select(self, query: str, *, game_day: int, ranked_n: int,
               newest_n: int) -> tuple[MemoryRecord | None, list[MemoryRecord], list[MemoryRecord]]:
        """(newest binding decision, newest `newest_n` records, top `ranked_n` by score).

        Score = recency + importance + relevance weights (recency looked up per distinct game
        day). Only documents matching a query term are scored one by one; the best of the rest
        come off the per-day buckets (sorted by importance) through a heap, which gives the same
        top `ranked_n` as scoring every document. Superseded decisions and expired notes never
        enter.
        """
        self.refresh()
        hidden = self._superseded()
        day = game_day
        docs = self._docs
        newest: list[MemoryRecord] = []
        binding: MemoryRecord | None = None
        for _, _, mid in reversed(self._order):
            rec = docs[mid].rec
            if (rec.expires_day is not None and rec.expires_day <= day) or mid in hidden:
                continue
            if len(newest) < newest_n:
                newest.append(rec)
            if binding is None and rec.kind == "procedural":
                binding = rec
            if binding is not None and len(newest) >= newest_n:
                break
        recency = {g: W_RECENCY / (1.0 + max(0, day - g) / RECENCY_DAYS) for g in self._by_day}
        half = W_RELEVANCE
        rel = self.relevance(query)
        rows = self._rows
        scored = [(recency[g] + w + half * (s / (1.0 + s)), g, seq, mid)
                  for mid, s in rel.items() for g, seq, w, _ in (rows[mid],)]
        if self._expiring or hidden:
            scored = [t for t in scored if t[3] not in hidden
                      and ((exp := rows[t[3]][3]) is None or exp > day)]
        scored.extend(self._best_unmatched(rel, hidden, recency, day, ranked_n))
        top = heapq.nlargest(ranked_n, scored)
        return binding, newest, [docs[t[3]].rec for t in top]

    def _best_unmatched(self, matched: dict[str, float], hidden: set[str],
                        recency: dict[int, float], day: int,
                        n: int) -> list[tuple[float, int, int, str]]:
        """The `n` best live documents matching no query term, scored as recency + importance,
        in the same (score, game_day, seq, id) order a full scan would give."""
        buckets = self._by_day
        heap = []
        for g, bucket in buckets.items():
            weight, seq, mid = bucket[-1]
            heap.append((-(recency[g] + weight), -g, -seq, len(bucket) - 1, mid))
        heapq.heapify(heap)
        docs = self._docs
        out: list[tuple[float, int, int, str]] = []
        while heap and len(out) < n:
            neg, neg_g, neg_seq, at, mid = heapq.heappop(heap)
            g = -neg_g
            if at:
                weight, seq, nxt = buckets[g][at - 1]
                heapq.heappush(heap, (-(recency[g] + weight), neg_g, -seq, at - 1, nxt))
            if mid in matched or mid in hidden:
                continue
            exp = docs[mid].rec.expires_day
            if exp is None or exp > day:
                out.append((-neg, g, -neg_seq, mid))
        return out


def _remove_sorted(items: list, key: tuple) -> None:
    """Delete `key` from a sorted list if present."""
    at = bisect.bisect_left(items, key)
    if at < len(items) and items[at] == key:
        del items[at]
