"""How recall holds up as one save grows: 10k, 100k and 1M memories, in runs of 500.

    python -m bench.memory_growth --json [--sizes 10000,100000,1000000] [--cache /tmp/wf-growth]

For each size a save is built once (the real schema and triggers, bulk inserts in one transaction;
cached under --cache, so the 1M save costs its minutes only on the first call) and then measured in
a fresh Python process, so nothing is warm but the OS page cache:
- `open_first_recall_ms`: `worldforge_savedb.db.connect` (header, identity and page checks, schema) plus the
  first budgeted recall of one run; `open_ms` and `first_recall_ms` are its two parts (`open_ms`
  includes the save's `PRAGMA quick_check`, a read of the whole file);
- `recall_p50_ms` / `recall_p95_ms`: 200 more recalls in that run (3-5 query words each);
- `peak_rss_mib`: the measuring process's peak resident memory (imports included), its own alone
  (bench.process starts it from a fresh launcher: a child of this bench would inherit our peak);
- `bytes_per_memory`: the save file's size over its memory count.

The anchor, `plain_fts5`: the same notes (same texts, same runs) in one plain SQLite FTS5 table
(`run_id, text`), built once and measured the same way in its own fresh process (open + first
`run_id:"<run>" AND text:(w1 OR w2 ...)` ORDER BY rank LIMIT 12, 200 more, the file's bytes per
note); `vs_plain_fts5` gives our bytes per note over its bytes per note.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench import machine, process

RUN_SIZE = 500
KINDS = ("context", "chat_summary", "preference", "procedural", "user_profile")
_WORDS = [
    "clinic",
    "payroll",
    "farmers",
    "pricing",
    "churn",
    "depth",
    "breadth",
    "ship",
    "polish",
    "bundle",
    "discount",
    "referral",
    "cooperative",
    "audit",
    "latency",
    "rival",
    "steward",
    "niche",
    "margin",
    "partner",
    "burn",
    "quality",
    "moat",
    "segment",
    "compliance",
    "backlog",
    "community",
    "webinar",
    "beachhead",
    "workflow",
    "retention",
    "support",
    "adoption",
    "roadmap",
    "landing",
    "solar",
    "wedge",
    "enterprise",
    "onboarding",
    "contract",
    "outbound",
    "automate",
    "invoice",
    "pilot",
    "renewal",
    "runway",
    "seat",
    "channel",
    "launch",
    "survey",
    "interview",
    "escrow",
    "integration",
    "dashboard",
    "storage",
    "warehouse",
    "logistics",
    "harvest",
    "irrigation",
    "loan",
    "insurance",
    "pharmacy",
    "tutor",
    "courier",
    "bakery",
    "grocery",
    "fleet",
    "subscription",
    "marketplace",
    "freemium",
    "upsell",
    "pipeline",
    "forecast",
    "hiring",
    "mentor",
    "governance",
    "equity",
]


def _text(rng: random.Random, i: int) -> str:
    words = rng.choices(_WORDS, k=rng.randint(8, 40))
    return f"note {i}: CEO chose {words[0]} over {words[1]}; " + " ".join(words[2:])


def build(path: Path, size: int) -> None:
    """Write `size` memories in runs of RUN_SIZE through the real schema, one transaction."""
    from memory.local.schema import n_terms, norm_key, run_key
    from worldforge_savedb.db import connect, transaction
    from worldforge_textkit import normalise

    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
        leftover.unlink(missing_ok=True)
    conn = connect(partial)
    rng = random.Random(size)
    sql = (
        "INSERT INTO memories (run_id, id, seq, kind, text, n_terms, run_key, norm_key,"
        " status, author, importance, game_day, ts, source_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
        " 'active', 'system', ?, ?, '2026-01-01T00:00:00.000Z', '[]')"
    )
    with transaction(conn):
        for start in range(0, size, RUN_SIZE):
            run = f"run-{start // RUN_SIZE:06d}"
            key = run_key(run)
            rows = []
            for seq in range(1, min(RUN_SIZE, size - start) + 1):
                text = _text(rng, start + seq)
                rows.append(
                    (
                        run,
                        f"mem-{seq:05d}",
                        seq,
                        rng.choice(KINDS),
                        text,
                        n_terms(text),
                        key,
                        norm_key(normalise(text)),
                        round(rng.uniform(0, 10), 1),
                        seq // 20,
                    )
                )
            conn.executemany(sql, rows)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    partial.rename(path)


def build_plain(path: Path, size: int) -> None:
    """The anchor: the same notes in one plain FTS5 table, nothing else."""
    import sqlite3

    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    conn = sqlite3.connect(partial)
    conn.execute("CREATE VIRTUAL TABLE notes USING fts5(run_id, text)")
    rng = random.Random(size)
    with conn:
        for start in range(0, size, RUN_SIZE):
            run = f"run-{start // RUN_SIZE:06d}"
            rows = []
            for seq in range(1, min(RUN_SIZE, size - start) + 1):
                text = _text(rng, start + seq)
                rng.choice(KINDS), rng.uniform(0, 10)  # the same draws as build()
                rows.append((run, text))
            conn.executemany("INSERT INTO notes (run_id, text) VALUES (?, ?)", rows)
    conn.execute("INSERT INTO notes(notes) VALUES ('optimize')")
    conn.commit()
    conn.close()
    partial.rename(path)


def measure_plain(path: Path, recalls: int = 200) -> dict[str, float]:
    """The anchor's figures, measured as `measure` measures ours."""
    t0 = time.perf_counter()
    import sqlite3

    imported = time.perf_counter()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    runs = -(-conn.execute("SELECT max(rowid) FROM notes").fetchone()[0] // RUN_SIZE)
    rng = random.Random(7)
    run = f"run-{rng.randrange(runs):06d}"
    sql = "SELECT text FROM notes WHERE notes MATCH ? ORDER BY rank LIMIT 12"

    def recall(words: list[str]) -> list[Any]:  # the run's notes holding any of the words
        query = f'run_id:"{run}" AND text:({" OR ".join(words)})'
        return conn.execute(sql, (query,)).fetchall()

    recall(rng.choices(_WORDS, k=4))
    first = time.perf_counter()
    times = []
    for _ in range(recalls):
        words = rng.choices(_WORDS, k=rng.randint(3, 5))
        q0 = time.perf_counter()
        recall(words)
        times.append((time.perf_counter() - q0) * 1000)
    times.sort()
    conn.close()
    return {
        "import_ms": round((imported - t0) * 1000, 2),
        "open_first_recall_ms": round((first - imported) * 1000, 2),
        "recall_p50_ms": round(statistics.median(times), 3),
        "recall_p95_ms": round(times[int(0.95 * (len(times) - 1))], 3),
    }


def measure(path: Path, recalls: int = 200) -> dict[str, float]:
    """Run in a fresh process: open + first recall, then `recalls` recalls in the same run."""
    t0 = time.perf_counter()
    from memory.local.store import MemoryStore
    from worldforge_savedb.db import connect

    imported = time.perf_counter()
    conn = connect(path, create=False)
    opened = time.perf_counter()
    runs = -(-conn.execute("SELECT max(pk) FROM memories").fetchone()[0] // RUN_SIZE)
    rng = random.Random(7)
    store = MemoryStore(conn, f"run-{rng.randrange(runs):06d}")
    store.recall(" ".join(rng.choices(_WORDS, k=4)), game_day=30)
    first = time.perf_counter()
    times = []
    for _ in range(recalls):
        query = " ".join(rng.choices(_WORDS, k=rng.randint(3, 5)))
        q0 = time.perf_counter()
        result = store.recall(query, game_day=30)
        times.append((time.perf_counter() - q0) * 1000)
        assert result.items
    times.sort()
    conn.close()
    return {
        "import_ms": round((imported - t0) * 1000, 2),
        "open_first_recall_ms": round((first - imported) * 1000, 2),
        "open_ms": round((opened - imported) * 1000, 2),
        "first_recall_ms": round((first - opened) * 1000, 2),
        "recall_p50_ms": round(statistics.median(times), 3),
        "recall_p95_ms": round(times[int(0.95 * (len(times) - 1))], 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory_growth")
    parser.add_argument("--json", action="store_true", help="print JSON (the default output)")
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/wf-memory-growth"))
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child's entry
    parser.add_argument("--measure-plain", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--no-anchor", action="store_true", help="skip the plain FTS5 anchor")
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return 0
    if args.measure_plain:
        print(json.dumps(measure_plain(args.measure_plain)))
        return 0
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        print(
            "bench.memory_growth: error: --sizes takes numbers, e.g. 10000,100000", file=sys.stderr
        )
        return 2
    out = []
    for size in sizes:
        from worldforge_savedb.db import SCHEMA_VERSION

        path = args.cache / f"growth-v{SCHEMA_VERSION}-{size}.db"  # a cached save of this format
        built_s = None
        if not path.exists():
            t0 = time.perf_counter()
            build(path, size)
            built_s = round(time.perf_counter() - t0, 1)
        plain = args.cache / f"plain-fts5-v2-{size}.db"
        if not args.no_anchor and not plain.exists():
            build_plain(plain, size)

        def child(flag: str, target: Path) -> dict[str, Any]:
            # a fresh launcher starts the measuring process, so its peak is its own, not ours
            cmd = [sys.executable, "-m", "bench.memory_growth", flag, str(target)]
            got = process.measured(cmd, stdout=subprocess.PIPE)
            return {**json.loads(got["stdout"]), "peak_rss_mib": round(got["peak_mib"], 1)}

        if built_s is None:  # a cached save: opened once first, as a player's is after an
            from memory.local.store import MemoryStore  # noqa: F401 - registers the schema
            from worldforge_savedb.db import connect  # upgrade (a new tokenizer rebuilds its index)

            connect(path, create=False).close()
        figures = child("--measure", path)
        row: dict[str, Any] = {
            "memories": size,
            "runs": -(-size // RUN_SIZE),
            **figures,
            "bytes_per_memory": round(path.stat().st_size / size, 1),
            "build_s": built_s,
            "machine": machine(),
        }
        if not args.no_anchor:
            anchor = child("--measure-plain", plain)
            anchor["bytes_per_memory"] = round(plain.stat().st_size / size, 1)
            row["plain_fts5"] = anchor
            row["vs_plain_fts5_bytes"] = round(
                row["bytes_per_memory"] / anchor["bytes_per_memory"], 2
            )
        out.append(row)
    print(
        json.dumps(out, sort_keys=True)
        if args.json
        else "\n".join(json.dumps(row, sort_keys=True) for row in out)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
