"""An in-process recall index over one run's injectable memories: BM25 relevance plus recency and
importance, kept current by the per-run revision the schema's triggers maintain.

Freshness costs one tiny read (`PRAGMA data_version`) while only the store's own queue wrote to the
connection (`memory.pending` stamps), else a read of the run's counter row too. Rows the store
inserts are handed to the index as they are queued (`note_insert`), so they are never read back;
other changes made on this connection reload only rows whose revision moved; a commit from another
connection, a rollback, a delete or a forgotten-and-recreated run reloads the run in full.
The index also answers the write path: the run's next sequence number and revision, and which live
note already says the same normalised words (exact restatement), without a query.
"""

from __future__ import annotations

import bisect
import math
import sqlite3
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, repeat
from operator import add, mul, truediv

from memory import pending
from memory.db import flush, rollback_count
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


class _TermOf(dict):
    """word -> index term ("" for a stopword or one-letter word), filled on first sight; past
    `_TERM_CACHE` distinct words new words are answered without being kept (bounded memory)."""

    def __missing__(self, word: str) -> str:
        term = stem(word) if len(word) > 1 and word not in STOPWORDS else ""
        if len(self) < _TERM_CACHE:
            self[word] = term
        return term


_TERM_CACHE = 200_000
_term_of = _TermOf()


def terms(text: str) -> list[str]:
    """Index terms: lower-case words minus stopwords and one-letter words, lightly stemmed."""
    return _terms(WORD.findall(text.casefold()))


def _terms(words: list[str]) -> list[str]:
    return [t for t in map(_term_of.__getitem__, words) if t]


@dataclass(slots=True)
class _Doc:
    rec: MemoryRecord
    seq: int
    norm: str
    length: int
    tf: tuple[tuple[str, int], ...]  # (term, frequency) pairs
    slot: int  # position in the RunIndex slot arrays


_DEAD = float("-inf")
_COMPACT_AT = 64  # dropped slots tolerated before the arrays are rebuilt (and half of all slots)


class RunIndex:
    """Ranked access to one run's live memories (provisional and active).

    Documents live in parallel slot arrays (day, seq, importance weight), and postings hold
    (slot, tf, length) rows, so a query is one accumulation pass per query term plus one pass
    over the arrays, with the same arithmetic as scoring document by document.
    """

    def __init__(self, conn: sqlite3.Connection, run_id: str) -> None:
        self.conn = conn
        self.run_id = run_id
        self._docs: dict[str, _Doc] = {}
        self._mids: list[str | None] = []  # None once dropped
        self._days: list[int] = []
        self._seqs: list[int] = []
        self._weights: list[float] = []  # W_IMPORTANCE * importance / 10; _DEAD once dropped
        self._dead = 0
        self._expiring: dict[int, int] = {}  # slot -> expires_day, live slots that expire
        self._slot_days: set[int] = set()  # every game_day in `_days` (dropped slots too)
        self._recency: tuple[int, dict[int, float]] = (0, {})  # query day, game_day -> weight
        self._static: tuple[int | None, list[float]] = (None, [])  # query day, recency + weight
        self._lengths: list[int] = []  # document length (index terms) per slot
        # term (tf 1) or (term, tf) (tf 2.._max_tf) -> slots ascending
        self._postings: defaultdict[str | tuple[str, int], list[int]] = defaultdict(list)
        self._max_tf = 0
        self._df: Counter[str] = Counter()  # term -> live documents holding it
        self._total_len = 0
        self._order: list[tuple[int, int, str]] = []  # (game_day, seq, id), kept sorted
        self._hidden: set[str] | None = None  # recomputed when a binding decision changes
        self._axes: dict[str, set[str]] = {}  # axis -> ids of live binding decisions on it
        self._seen: tuple[int, int, str | None, int] | None = None  # data_version, rollbacks, token, rev
        self._n = 0  # the run's highest sequence number (from its counter row, then own inserts)
        self._by_norm: dict[str, list[str]] = {}  # normalised words -> live ids, write order
        self._state = pending.state(conn)
        self._stamp: pending.Stamp | None = None  # the connection's stamp when last known current

    # -- freshness -------------------------------------------------------------------------------
    def ensure_current(self) -> None:
        """Make the index current: one `PRAGMA data_version` when nothing but the store's own
        queue touched the connection since the last check, else flush the queue and `refresh`."""
        if self._stamp is not None and self._stamp == self._state.stamp(self.run_id):
            return
        flush(self.conn)
        self.refresh()
        self._stamp = self._state.stamp(self.run_id)

    def flushed(self, run_generation: int, generation: int, new_run_generation: int) -> None:
        """The connection's queue just inserted rows of this run that the index already holds:
        stay current if the index was current before the flush."""
        stamp = self._stamp
        if stamp is not None and stamp[1:] == (rollback_count(self.conn), generation,
                                               run_generation):
            self._stamp = (stamp[0], stamp[1], generation, new_run_generation)

    @property
    def next_seq(self) -> int:
        """Sequence number of the run's next insert (call `ensure_current` first)."""
        return self._n + 1

    @property
    def next_rev(self) -> int:
        """Revision of the run's next change (call `ensure_current` first)."""
        return (self._seen[3] if self._seen else 0) + 1

    def same_text(self, norm: str, kinds: tuple[str, ...]) -> MemoryRecord | None:
        """The earliest live note of one of `kinds` whose normalised words are `norm`."""
        for mid in self._by_norm.get(norm, ()):
            rec = self._docs[mid].rec
            if rec.kind in kinds:
                return rec
        return None

    def refresh(self) -> None:
        """Bring the index up to date with the database (cheap when nothing changed)."""
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        rollbacks = rollback_count(self.conn)
        row = self.conn.execute(
            "SELECT token, rev, del_rev, n FROM memory_counters WHERE run_id = ?",
            (self.run_id,)).fetchone()
        token, rev, del_rev, n = (row[0], row[1], row[2], row[3]) if row else (None, 0, 0, 0)
        self._n = n
        seen = self._seen
        if seen is not None and seen == (version, rollbacks, token, rev):
            return
        if (seen is None or seen[:3] != (version, rollbacks, token) or rev < seen[3]
                or del_rev > seen[3]):
            self._clear()
            rows = self.conn.execute(
                f"SELECT {COLUMNS}, seq, norm FROM memories WHERE run_id = ?"
                " AND status IN ('provisional', 'active') ORDER BY seq", (self.run_id,))
        else:
            rows = self.conn.execute(
                f"SELECT {COLUMNS}, seq, norm FROM memories WHERE run_id = ? AND rev > ?"
                " ORDER BY seq", (self.run_id, seen[3]))
        for r in rows:
            self._put(to_record(r), r[-2], r[-1])
        self._seen = (version, rollbacks, token, rev)

    def note_insert(self, rec: MemoryRecord, seq: int, rev: int, norm: str) -> None:
        """Take a row this connection just queued or inserted (at revision `rev`, normalised words
        `norm`) without reading it back; skipped unless the index was current just before it."""
        seen = self._seen
        if seen is None or rev != seen[3] + 1:
            self._stamp = None
            return
        self._put(rec, seq, norm)
        self._n = max(self._n, seq)
        self._seen = (seen[0], seen[1], seen[2], rev)

    def _clear(self) -> None:
        for part in (self._docs, self._expiring, self._slot_days, self._postings, self._axes,
                     self._by_norm, self._df):
            part.clear()
        for array in (self._mids, self._days, self._seqs, self._weights, self._order,
                      self._lengths):
            array.clear()
        self._dead = 0
        self._hidden = None
        self._total_len = 0
        self._max_tf = 0
        self._static = (None, [])

    def _drop(self, memory_id: str) -> None:
        doc = self._docs.pop(memory_id, None)
        if doc is None:
            return
        slot, day = doc.slot, doc.rec.game_day
        self._mids[slot] = None
        self._weights[slot] = _DEAD
        if slot < len(self._static[1]):
            self._static[1][slot] = _DEAD
        self._expiring.pop(slot, None)
        self._dead += 1
        _remove_sorted(self._order, (day, doc.seq, memory_id))
        if doc.rec.kind == "procedural" and doc.rec.axis:
            self._axes[doc.rec.axis].discard(memory_id)
            self._hidden = None
        self._total_len -= doc.length
        same = self._by_norm[doc.norm]
        same.remove(memory_id)
        if not same:
            del self._by_norm[doc.norm]
        postings, df = self._postings, self._df
        for pair in doc.tf:
            term = pair[0]
            key = term if pair[1] == 1 else pair
            group = postings[key]
            del group[bisect.bisect_left(group, slot)]  # slots are appended in increasing order
            if not group:
                del postings[key]
            df[term] -= 1
            if not df[term]:
                del df[term]
        if self._dead > _COMPACT_AT and 2 * self._dead > len(self._mids):
            self._compact()

    def _compact(self) -> None:
        """Rebuild the slot arrays without dropped slots (keeps the documents' order)."""
        live = sorted(self._docs.values(), key=lambda d: d.slot)
        self._clear()
        for doc in live:
            self._put(doc.rec, doc.seq, doc.norm)

    def _put(self, rec: MemoryRecord, seq: int, norm: str) -> None:
        mid = rec.id
        if mid in self._docs:
            self._drop(mid)
        if rec.status not in ("provisional", "active"):
            return
        words = norm.split()
        tf = Counter(map(_term_of.__getitem__, words))  # "" counts the words that are no term
        length = len(words) - tf.pop("", 0)
        slot = len(self._mids)
        day = rec.game_day
        self._mids.append(mid)
        self._days.append(day)
        self._seqs.append(seq)
        self._weights.append(W_IMPORTANCE / 10.0 * rec.importance)
        self._lengths.append(length)
        if rec.expires_day is not None:
            self._expiring[slot] = rec.expires_day
        self._slot_days.add(day)
        pairs = tuple(tf.items())
        self._docs[mid] = _Doc(rec, seq, norm, length, pairs, slot)
        same = self._by_norm.get(norm)
        if same is None:
            self._by_norm[norm] = [mid]
        else:
            bisect.insort(same, mid, key=lambda i: self._docs[i].seq)
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
        for pair in pairs:
            postings[pair[0] if pair[1] == 1 else pair].append(slot)
        self._df.update(iter(tf))  # one more document per term (counted in C)
        if tf and max(tf.values()) > self._max_tf:
            self._max_tf = max(tf.values())

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

    def relevance(self, query: str) -> list[float]:
        """Raw BM25 score per slot (0.0 where no query term occurs); callers squash it to 0..1
        with s / (1 + s). Per posting: idf * f / (f + k1 (1 - b) + k1 b dl / avgdl)."""
        n = len(self._docs)
        acc = [0.0] * len(self._mids)
        if not n:
            return acc
        avgdl = self._total_len / n or 1.0
        c1, c2, k = BM25_K1 * (1 - BM25_B), BM25_K1 * BM25_B / avgdl, BM25_K1 + 1
        scaled: list[float] | None = None  # c2 * dl per slot, built once per query
        postings = self._postings
        for term in dict.fromkeys(terms(query)):
            df = self._df.get(term)
            if not df:
                continue
            if scaled is None:
                scaled = list(map(c2.__mul__, self._lengths))
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5)) * k
            for f in range(1, self._max_tf + 1):
                slots = postings.get(term if f == 1 else (term, f))
                if not slots:
                    continue
                top, base = idf * f, f + c1  # idf * f / (f + c1 + c2 * dl), same operation order
                for slot in slots:
                    acc[slot] += top / (base + scaled[slot])
        return acc

    def _recency_by_day(self, day: int) -> dict[int, float]:
        """game_day -> recency weight for a query on `day` (cached per query day)."""
        cached_day, table = self._recency
        if cached_day != day or not table:
            table = {}
            self._recency = (day, table)
        for g in self._slot_days - table.keys():
            table[g] = W_RECENCY / (1.0 + max(0, day - g) / RECENCY_DAYS)
        return table

    def _static_scores(self, day: int) -> list[float]:
        """recency + importance weight per slot for a query on `day` (kept per query day and
        extended as slots are added; _DEAD for dropped slots)."""
        cached_day, static = self._static
        if cached_day != day:
            static = []
            self._static = (day, static)
        if len(static) < len(self._days):
            recency = self._recency_by_day(day)
            at = len(static)
            static.extend(map(add, map(recency.__getitem__, self._days[at:]), self._weights[at:]))
        return static

    def select(self, query: str, *, game_day: int, ranked_n: int,
               newest_n: int) -> tuple[MemoryRecord | None, list[MemoryRecord], list[MemoryRecord]]:
        """(newest binding decision, newest `newest_n` records, top `ranked_n` by score).

        Score = recency + importance + W_RELEVANCE * s / (1 + s), per slot over whole arrays;
        ties go to the later game day, then the later write. Expired notes and superseded
        decisions never enter.
        """
        self.ensure_current()
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
        if not docs:
            return binding, newest, []
        static = self._static_scores(day)
        acc = self.relevance(query)
        half = W_RELEVANCE
        # static + half * (s / (1 + s)) per slot, element-wise in C
        total = list(map(add, static, map(mul, repeat(half),
                                          map(truediv, acc, map(add, acc, repeat(1.0))))))
        for slot, expires in self._expiring.items():
            if expires <= day:
                total[slot] = _DEAD
        for mid in hidden:
            total[docs[mid].slot] = _DEAD
        live = len(docs) - len(hidden)
        cut = sorted(total)[-ranked_n] if ranked_n < live else _DEAD
        if cut == _DEAD:
            picks = list(compress(range(len(total)), map(_DEAD.__lt__, total)))
        else:
            picks = list(compress(range(len(total)), map(cut.__le__, total)))
        days, seqs, mids = self._days, self._seqs, self._mids
        picks.sort(key=lambda i: (total[i], days[i], seqs[i], mids[i]), reverse=True)
        return binding, newest, [docs[mids[i]].rec for i in picks[:ranked_n]]  # type: ignore[index]


def shared_index(conn: sqlite3.Connection, run_id: str) -> RunIndex:
    """The one live index of `run_id` on `conn`, shared by every store of that run there (so
    one store's queued writes are in another's recall); it lives while a store holds it."""
    indexes = pending.state(conn).indexes
    index = indexes.get(run_id)
    if index is None:
        index = indexes[run_id] = RunIndex(conn, run_id)
    return index


def _remove_sorted(items: list, key: tuple) -> None:
    """Delete `key` from a sorted list if present."""
    at = bisect.bisect_left(items, key)
    if at < len(items) and items[at] == key:
        del items[at]
