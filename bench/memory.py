"""Replay the shared memory workload through the real store on disk and print timings as JSON.

    python -m bench.memory --workload ../shared/bench/memory-workload.jsonl --json

The writes between two recalls share one transaction, committed before the recall: that is how the
store is used, since the engine runs each game step (its memory writes, events and state) inside one
`memory.db.transaction` and commits once. Each recall runs after that commit and builds the full
budgeted `<campaign_memory>` block at the run's latest game day. `write_s` includes the commits.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from memory.db import connect, db_path, transaction
from memory.store import MemoryStore

_AUTHOR = {"procedural": "ceo", "user_profile": "ceo"}


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = max(0, min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1))))
    return ordered[k]


def replay(workload: Path, save_dir: Path) -> dict[str, float | int]:
    """Run every op of the workload; returns the figures the issue asks for."""
    ops = [json.loads(line) for line in workload.read_text().splitlines() if line.strip()]
    conn = connect(db_path(save_dir))
    stores: dict[str, MemoryStore] = {}
    day: dict[str, int] = {}
    write_s = 0.0
    recall_ms: list[float] = []
    start = time.perf_counter()
    step = ExitStack()  # the open game step: writes since the last recall
    for op in ops:
        run = op["run"]
        store = stores.get(run)
        if store is None:
            store = stores[run] = MemoryStore(conn, run)
        if op["op"] == "write":
            t0 = time.perf_counter()
            if not conn.in_transaction:
                step.enter_context(transaction(conn))
            store.remember(op["kind"], op["text"], author=_AUTHOR.get(op["kind"], "system"),
                           game_day=int(op["day"]), importance=float(op["importance"]))
            write_s += time.perf_counter() - t0
            day[run] = max(day.get(run, 0), int(op["day"]))
        else:
            t0 = time.perf_counter()
            step.close()  # commit the step's writes
            write_s += time.perf_counter() - t0
            t0 = time.perf_counter()
            store.recall(op["query"], game_day=day.get(run, 0), limit=int(op.get("limit", 4)))
            recall_ms.append((time.perf_counter() - t0) * 1000)
    t0 = time.perf_counter()
    step.close()
    write_s += time.perf_counter() - t0
    total = time.perf_counter() - start
    kept = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
    conn.close()
    return {
        "writes": sum(1 for o in ops if o["op"] == "write"),
        "recalls": len(recall_ms),
        "write_s": round(write_s, 4),
        "recall_p50_ms": round(statistics.median(recall_ms), 4) if recall_ms else 0.0,
        "recall_p95_ms": round(_percentile(recall_ms, 95), 4),
        "kept": kept,
        "total_s": round(total, 4),
    }


def main(argv: list[str] | None = None) -> int:
    """CLI entry: replay into a temporary save dir (or --save-dir) and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.memory")
    parser.add_argument("--workload", required=True, type=Path)
    parser.add_argument("--save-dir", type=Path, help="keep the save file here (default: temp)")
    parser.add_argument("--json", action="store_true", help="print JSON (the default output)")
    args = parser.parse_args(argv)
    if not args.workload.is_file():
        print(f"bench.memory: error: no workload at {args.workload}", file=sys.stderr)
        return 2
    if args.save_dir:
        result = replay(args.workload, args.save_dir)
    else:
        with tempfile.TemporaryDirectory(prefix="wf-bench-memory-") as tmp:
            result = replay(args.workload, Path(tmp))
    print(json.dumps(result, sort_keys=True) if args.json else
          "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
