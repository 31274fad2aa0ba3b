"""The floor under `bench.memory`: what the shared workload costs with nothing of ours in the way.

    python -m bench.memory_floor --workload ../shared/bench/memory-workload.jsonl --json

Three parts, each the least any store must do for that workload on this machine, medians of --runs:
- `sqlite_s`: the workload's rows and audit rows inserted with `executemany` into a bare two-table
  WAL file, committed at the same 1,000 points as `bench.memory` (before each recall);
- `tokenize_s`: lower-casing, splitting and counting each note's words into a term → postings map
  in plain Python, no stemming, stopwords or guards;
- `clean_s`: `memory.text.clean` (control characters out, whitespace folded) on every note;
- `recall_s`: plain BM25 over the run's notes so far for each of the 1,000 recalls, top 4 by
  `heapq` (no stemming, recency, importance, budget or block); building the postings is untimed.
Their sum, with no guard, record or audit logic at all, is the floor `bench.memory`'s 0.58 s
target sits on.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from memory.text import clean

_WORD = re.compile(r"[a-z0-9]+")


def _ops(workload: Path) -> list[dict]:
    return [json.loads(line) for line in workload.read_text().splitlines() if line.strip()]


def _counts(text: str) -> Counter[str]:
    """A note's words, lower-cased, counted: the least a text index keeps per note."""
    return Counter(_WORD.findall(text.lower()))


def sqlite_s(ops: list[dict]) -> float:
    """Bare inserts plus one commit per recall point, in a WAL file on disk."""
    with tempfile.TemporaryDirectory(prefix="wf-floor-") as tmp:
        conn = sqlite3.connect(Path(tmp) / "floor.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(
            "CREATE TABLE m (pk INTEGER PRIMARY KEY, run_id TEXT, id TEXT, kind TEXT, text TEXT,"
            " importance REAL, game_day INT, ts TEXT, UNIQUE (run_id, id));"
            "CREATE TABLE audit (seq INTEGER PRIMARY KEY, run_id TEXT, op TEXT, ids TEXT, ts TEXT);")
        counts: dict[str, int] = {}
        rows: list[tuple] = []
        audits: list[tuple] = []
        start = time.perf_counter()
        for op in ops + [{"op": "recall"}]:
            if op["op"] == "write":
                n = counts[op["run"]] = counts.get(op["run"], 0) + 1
                mid = f"mem-{n:05d}"
                rows.append((op["run"], mid, op["kind"], op["text"], op["importance"], op["day"], "t"))
                audits.append((op["run"], "remember", mid, "t"))
            elif rows:
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("INSERT INTO m (run_id, id, kind, text, importance, game_day, ts)"
                                 " VALUES (?,?,?,?,?,?,?)", rows)
                conn.executemany("INSERT INTO audit (run_id, op, ids, ts) VALUES (?,?,?,?)", audits)
                conn.execute("COMMIT")
                rows, audits = [], []
        elapsed = time.perf_counter() - start
        conn.close()
    return elapsed


def tokenize_s(texts: list[str]) -> float:
    """Word counts per note into a term → [(note, count)] map: the least a text index does."""
    start = time.perf_counter()
    postings: dict[str, list[tuple[int, int]]] = {}
    for i, text in enumerate(texts):
        for term, count in _counts(text).items():
            postings.setdefault(term, []).append((i, count))
    return time.perf_counter() - start


def recall_s(ops: list[dict], k1: float = 1.2, b: float = 0.75) -> float:
    """Score every recall against its run's notes written before it (the scoring alone is timed)."""
    postings: dict[str, dict[str, list[tuple[int, int]]]] = {}
    lengths: dict[str, list[int]] = {}
    elapsed = 0.0
    for op in ops:
        run = op["run"]
        runs_postings = postings.setdefault(run, {})
        lens = lengths.setdefault(run, [])
        if op["op"] == "write":
            counts = _counts(op["text"])
            doc = len(lens)
            lens.append(sum(counts.values()))
            for term, count in counts.items():
                runs_postings.setdefault(term, []).append((doc, count))
            continue
        start = time.perf_counter()
        n = len(lens)
        if n:
            avgdl = sum(lens) / n
            scores: dict[int, float] = {}
            for term in set(_WORD.findall(op["query"].lower())):
                posts = runs_postings.get(term)
                if not posts:
                    continue
                idf = math.log(1 + (n - len(posts) + 0.5) / (len(posts) + 0.5))
                for doc, tf in posts:
                    norm = k1 * (1 - b + b * lens[doc] / avgdl)
                    scores[doc] = scores.get(doc, 0.0) + idf * tf * (k1 + 1) / (tf + norm)
            heapq.nlargest(int(op.get("limit", 4)), scores.items(), key=lambda item: item[1])
        elapsed += time.perf_counter() - start
    return elapsed


def clean_s(texts: list[str]) -> float:
    start = time.perf_counter()
    for text in texts:
        clean(text)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory_floor")
    parser.add_argument("--workload", required=True, type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print JSON (the default output)")
    args = parser.parse_args(argv)
    if not args.workload.is_file():
        print(f"bench.memory_floor: error: no workload at {args.workload}", file=sys.stderr)
        return 2
    ops = _ops(args.workload)
    texts = [op["text"] for op in ops if op["op"] == "write"]
    parts = {"sqlite_s": [sqlite_s(ops) for _ in range(args.runs)],
             "tokenize_s": [tokenize_s(texts) for _ in range(args.runs)],
             "clean_s": [clean_s(texts) for _ in range(args.runs)],
             "recall_s": [recall_s(ops) for _ in range(args.runs)]}
    out: dict[str, float | int] = {k: round(statistics.median(v), 4) for k, v in parts.items()}
    out["floor_s"] = round(sum(float(v) for v in out.values()), 4)
    out["writes"] = len(texts)
    print(json.dumps(out, sort_keys=True) if args.json else
          "\n".join(f"{k}: {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
