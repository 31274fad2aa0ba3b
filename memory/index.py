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


class RunIndex:
    """Ranked access to one run's live memories (provisional and active)."""

    def __init__(self, conn: sqlite3.Connection, run_id: str) -> None:
        self.conn = conn
        self.run_id = run_id
        self._docs: dict[str, _Doc] = {}
        self._postings: dict[str, dict[str, tuple[int, int]]] = {}  # term -> id -> (tf, length)
        # id -> (game_day, seq, weighted importance, expires_day, id): the scoring inputs
        self._rows: dict[str, tuple[int, int, float, int | None, str]] = {}
        self._days: dict[int, int] = {}  # game_day -> live docs on that day
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

    def _clear(self) -> None:
        self._docs.clear()
        self._postings.clear()
        self._rows.clear()
        self._days.clear()
        self._order.clear()
        self._axes.clear()
        self._hidden = None
        self._total_len = 0

    def _drop(self, memory_id: str) -> None:
        doc = self._docs.pop(memory_id, None)
        if doc is None:
            return
        del self._rows[memory_id]
        key = (doc.rec.game_day, doc.seq, memory_id)
        at = bisect.bisect_left(self._order, key)
        if at < len(self._order) and self._order[at] == key:
            del self._order[at]
        if doc.rec.kind == "procedural" and doc.rec.axis:
            self._axes[doc.rec.axis].discard(memory_id)
            self._hidden = None
        day = doc.rec.game_day
        self._days[day] -= 1
        if not self._days[day]:
            del self._days[day]
        self._total_len -= doc.length
        for term in doc.terms:
            ids = self._postings.get(term)
            if ids is not None:
                ids.pop(memory_id, None)
                if not ids:
                    del self._postings[term]

    def note_insert(self, rec: MemoryRecord, seq: int, rev: int, norm: str) -> None:
        """Take a row this connection just inserted (at revision `rev`, normalised words `norm`)
        without reading it back; skipped unless the index was current just before it."""
        seen = self._seen
        if seen is None or rev != seen[3] + 1:
            return
        self._put(rec, seq, _terms(norm.split()))
        self._seen = (seen[0], seen[1], seen[2], rev)

    def _put(self, rec: MemoryRecord, seq: int, words: list[str] | None = None) -> None:
        self._drop(rec.id)
        if rec.status not in ("provisional", "active"):
            return
        if words is None:
            words = terms(rec.text)
        tf: dict[str, int] = {}
        for w in words:
            tf[w] = tf.get(w, 0) + 1
        self._docs[rec.id] = _Doc(rec, seq, len(words), tuple(tf))
        self._rows[rec.id] = (rec.game_day, seq, W_IMPORTANCE / 10.0 * rec.importance,
                              rec.expires_day, rec.id)
        self._days[rec.game_day] = self._days.get(rec.game_day, 0) + 1
        bisect.insort(self._order, (rec.game_day, seq, rec.id))
        if rec.kind == "procedural" and rec.axis:
            self._axes.setdefault(rec.axis, set()).add(rec.id)
            self._hidden = None
        self._total_len += len(words)
        for w, f in tf.items():
            self._postings.setdefault(w, {})[rec.id] = (f, len(words))

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
            part = {mid: idf * f / (f + c1 + c2 * dl) for mid, (f, dl) in post.items()}
            if scores:
                get_a, get_b = scores.get, part.get
                scores = {mid: get_a(mid, 0.0) + get_b(mid, 0.0) for mid in scores.keys() | part}
            else:
                scores = part
        return scores

    def select(self, query: str, *, game_day: int, ranked_n: int,
               newest_n: int) -> tuple[MemoryRecord | None, list[MemoryRecord], list[MemoryRecord]]:
        """(newest binding decision, newest `newest_n` records, top `ranked_n` by score).

        Scoring runs as one comprehension over precomputed tuples; the recency term is looked up
        per distinct game day, and superseded decisions are dropped after the top-k cut.
        """
        self.refresh()
        hidden = self._superseded()
        day = game_day
        newest: list[MemoryRecord] = []
        binding: MemoryRecord | None = None
        for _, _, mid in reversed(self._order):
            rec = self._docs[mid].rec
            if (rec.expires_day is not None and rec.expires_day <= day) or rec.id in hidden:
                continue
            if len(newest) < newest_n:
                newest.append(rec)
            if binding is None and rec.kind == "procedural":
                binding = rec
            if binding is not None and len(newest) >= newest_n:
                break
        rel_get = {mid: s / (1.0 + s) for mid, s in self.relevance(query).items()}.get
        recency = {g: W_RECENCY / (1.0 + max(0, day - g) / RECENCY_DAYS) for g in self._days}
        half = W_RELEVANCE
        scored = [(recency[g] + imp + half * rel_get(mid, 0.0), g, seq, mid)
                  for g, seq, imp, exp, mid in self._rows.values() if exp is None or exp > day]
        top = heapq.nlargest(ranked_n + len(hidden), scored)
        ranked = [self._docs[t[3]].rec for t in top if t[3] not in hidden][:ranked_n]
        return binding, newest, ranked
