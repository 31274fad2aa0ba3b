"""Replay the shared memory workload through the real store on disk, and through the original
game's memory ledger re-created here, and print both timings as JSON.

    python -m bench.memory --workload ../shared/bench/memory-workload.jsonl --json

The writes between two recalls share one transaction, committed before the recall: that is how the
store is used, since the engine runs each game step (its memory writes, events and state) inside one
`memory.local.db.transaction` and commits once. Each recall runs after that commit and builds the full
budgeted `<campaign_memory>` block at the run's latest game day. `write_s` includes the commits.

`original` replays the same operations through `OriginalLedger`, the original game's local memory
as `reference/original-game-study.md` section 3 and the seed's part 3 describe it: one JSON list
file, re-read and rewritten atomically (temp file + `os.replace`) on every write, deduplicated on
(kind, text), cut to the last 200 entries; recall re-reads the file, keeps the run's entries, and
scores 10 x (query words found as substrings) + ts / 1e10, top `limit`, the newest procedural
entry forced in. `speedup` is its total over ours.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from memory.local.db import connect, db_path, transaction
from memory.local.store import MemoryStore
from memory.models import Author

_AUTHOR: dict[str, Author] = {"procedural": "ceo", "user_profile": "ceo"}
LEDGER_CAP = 200


class OriginalLedger:
    """The original game's memory ledger (see the module docstring), on disk, no network."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._save([])

    def _load(self) -> list[dict]:
        try:
            items = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return items if isinstance(items, list) else []

    def _save(self, items: list[dict]) -> None:
        fd, temp = tempfile.mkstemp(dir=self.path.parent, prefix="memory_tmp_")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(items[-LEDGER_CAP:], fh, indent=1)
        os.replace(temp, self.path)

    def remember(self, kind: str, text: str, run_id: str) -> None:
        text = text.strip()[:400]
        if not text:
            return
        items = [i for i in self._load() if not (i["kind"] == kind and i["text"] == text)]
        items.append(
            {
                "kind": kind,
                "text": text,
                "payload": {"run_id": run_id},
                "ts": time.time(),
                "origin": "local-memory",
            }
        )
        self._save(items)

    def recall(self, query: str, run_id: str, limit: int = 4) -> list[dict]:
        items = [i for i in self._load() if i.get("payload", {}).get("run_id") == run_id]
        words = [w for w in query.lower().split() if w]

        def score(item: dict) -> float:
            low = item["text"].lower()
            return 10 * sum(1 for w in words if w in low) + item["ts"] / 1e10

        ranked = sorted(items, key=score, reverse=True)[:limit]
        procedural = [i for i in items if i["kind"] == "procedural"]
        if procedural and procedural[-1] not in ranked:
            ranked = [procedural[-1], *ranked[: max(limit - 1, 1)]]
        return ranked


def replay_original(ops: list[dict], save_dir: Path) -> dict[str, float | int]:
    """The same operations through `OriginalLedger`."""
    save_dir.mkdir(parents=True, exist_ok=True)
    ledger = OriginalLedger(save_dir / "memory.json")
    write_s = 0.0
    recall_ms: list[float] = []
    start = time.perf_counter()
    for op in ops:
        t0 = time.perf_counter()
        if op["op"] == "write":
            ledger.remember(op["kind"], op["text"], op["run"])
            write_s += time.perf_counter() - t0
        else:
            ledger.recall(op["query"], op["run"], limit=int(op.get("limit", 4)))
            recall_ms.append((time.perf_counter() - t0) * 1000)
    total = time.perf_counter() - start
    return {
        "write_s": round(write_s, 4),
        "recall_p50_ms": round(statistics.median(recall_ms), 4) if recall_ms else 0.0,
        "recall_p95_ms": round(_percentile(recall_ms, 95), 4),
        "kept": len(ledger._load()),
        "total_s": round(total, 4),
    }


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = max(0, min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1))))
    return ordered[k]


def replay(ops: list[dict], save_dir: Path) -> dict[str, float | int]:
    """Run every op of the workload through the store; returns the figures the issue asks for."""
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
            store.remember(
                op["kind"],
                op["text"],
                author=_AUTHOR.get(op["kind"], "system"),
                game_day=int(op["day"]),
                importance=float(op["importance"]),
            )
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
    ops = [json.loads(line) for line in args.workload.read_text().splitlines() if line.strip()]
    with tempfile.TemporaryDirectory(prefix="wf-bench-memory-") as tmp:
        ours = replay(ops, args.save_dir or Path(tmp) / "save")
        original = replay_original(ops, Path(tmp) / "original")
    result: dict[str, object] = {
        **ours,
        "original": original,
        "speedup": round(original["total_s"] / ours["total_s"], 1),
    }
    print(
        json.dumps(result, sort_keys=True)
        if args.json
        else "\n".join(f"{k}: {v}" for k, v in result.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
