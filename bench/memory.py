"""Replay the shared memory workload through the real store on disk, and through the original
game's memory ledger re-created here, and print both timings as JSON.

    python -m bench.memory --workload ../shared/bench/memory-workload.jsonl --json \
        [--original SUBMISSION_DIR]

The writes between two recalls share one transaction, committed before the recall: that is how the
store is used, since the engine runs each game step (its memory writes, events and state) inside one
`worldforge_savedb.db.transaction` and commits once. Each recall runs after that commit and builds the full
budgeted `<campaign_memory>` block at the run's latest game day. `write_s` includes the commits.

`original` (with `--original`, the `submission/` directory of a checkout of the original game,
princepspolycap/agentsleague-afterbuild) replays the same operations through the original's own
module, `agents/memory.py`, loaded from that checkout (its local ledger; no Foundry settings, so no
network): `remember(kind, text, {"run_id": run})` and `recall_memories(query, limit, run_id)`.

`original_same_kept` replays them through `OriginalLedger`, a re-creation of that ledger (the only
way to raise its cap, which the original hard-codes): one JSON list
file, re-read and rewritten atomically (temp file + `os.replace`) on every write, deduplicated on
(kind, text), cut to the last 200 entries; recall re-reads the file, keeps the run's entries, and
scores 10 x (query words found as substrings) + ts / 1e10, top `limit`, the newest procedural
entry forced in. `speedup` is its total over ours. Since a ledger capped at 200 entries searches
far fewer notes than the store keeps, `original_same_kept` times the ledger's recalls again with
the cap raised to the store's kept count (like for like: each recall reads a file holding every
note written so far, as the store's does); its writes are not timed (rewriting a 5,000-entry file
on every write takes minutes), so it reports recall only. The three
replays run interleaved `--runs` times (ours, ledger, ledger at the same count, ours, ...) so the
machine's load hits each alike; figures are medians, with the load printed beside them.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench import machine
from memory.local.store import MemoryStore
from memory.models import Author, NewNote
from worldforge_savedb.db import connect, db_path, transaction

_AUTHOR: dict[str, Author] = {"procedural": "ceo", "user_profile": "ceo"}
LEDGER_CAP = 200


class OriginalLedger:
    """The original game's memory ledger (see the module docstring), on disk, no network."""

    def __init__(self, path: Path, cap: int = LEDGER_CAP) -> None:
        self.path = path
        self.cap = cap
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
            json.dump(items[-self.cap :], fh, indent=1)
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


def load_original(submission: Path, memory_file: Path) -> Any:
    """The original game's own memory module, fresh, its ledger at `memory_file`."""
    source = submission / "agents" / "memory.py"
    name = f"original_memory_{memory_file.parent.name}"
    spec = importlib.util.spec_from_file_location(name, source)
    if spec is None or spec.loader is None:
        raise SystemExit(f"bench.memory: no original memory module at {source}")
    module = importlib.util.module_from_spec(spec)
    for var in ("FOUNDRY_PROJECT_ENDPOINT", "FOUNDRY_MEMORY_STORE"):
        os.environ.pop(var, None)  # its local ledger only: never a network call
    spec.loader.exec_module(module)
    setattr(module, "MEMORY_FILE", memory_file)  # noqa: B010 - a module loaded from a path
    return module


def replay_original(ops: list[dict], save_dir: Path, submission: Path) -> dict[str, float | int]:
    """The same operations through the original's own memory module (`load_original`)."""
    save_dir.mkdir(parents=True, exist_ok=True)
    original = load_original(submission, save_dir / "memory.json")
    write_s = 0.0
    recall_ms: list[float] = []
    start = time.perf_counter()
    for op in ops:
        t0 = time.perf_counter()
        if op["op"] == "write":
            original.remember(op["kind"], op["text"], {"run_id": op["run"]})
            write_s += time.perf_counter() - t0
        else:
            original.recall_memories(op["query"], int(op.get("limit", 4)), op["run"])
            recall_ms.append((time.perf_counter() - t0) * 1000)
    total = time.perf_counter() - start
    return {
        "write_s": round(write_s, 4),
        "recall_p50_ms": round(statistics.median(recall_ms), 4) if recall_ms else 0.0,
        "recall_p95_ms": round(_percentile(recall_ms, 95), 4),
        "kept": len(original._load_local()),
        "cap": LEDGER_CAP,
        "total_s": round(total, 4),
    }


def recall_original(ops: list[dict], save_dir: Path, cap: int) -> dict[str, float | int]:
    """The ledger's recalls over the same notes the store keeps: writes fill the list in memory
    (deduplicated, last `cap`) and are written to the file untimed before each recall, which
    re-reads the file and ranks as the original does."""
    save_dir.mkdir(parents=True, exist_ok=True)
    ledger = OriginalLedger(save_dir / "memory.json", max(1, cap))
    items: list[dict] = []
    recall_ms: list[float] = []
    dirty = False
    for op in ops:
        if op["op"] == "write":
            text = op["text"].strip()[:400]
            if text:
                items = [i for i in items if not (i["kind"] == op["kind"] and i["text"] == text)]
                items.append(
                    {
                        "kind": op["kind"],
                        "text": text,
                        "payload": {"run_id": op["run"]},
                        "ts": time.time(),
                        "origin": "local-memory",
                    }
                )
                dirty = True
            continue
        if dirty:
            ledger._save(items)
            items, dirty = items[-ledger.cap :], False
        t0 = time.perf_counter()
        ledger.recall(op["query"], op["run"], limit=int(op.get("limit", 4)))
        recall_ms.append((time.perf_counter() - t0) * 1000)
    return {
        "recall_p50_ms": round(statistics.median(recall_ms), 4) if recall_ms else 0.0,
        "recall_p95_ms": round(_percentile(recall_ms, 95), 4),
        "kept": len(ledger._load()),
        "cap": ledger.cap,
    }


def _medians(rows: list[dict[str, float | int]]) -> dict[str, float | int]:
    """The per-key median over interleaved repeats (counts are equal across them)."""
    return {k: type(rows[0][k])(statistics.median(r[k] for r in rows)) for k in rows[0]}


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
                NewNote(
                    op["kind"],
                    op["text"],
                    author=_AUTHOR.get(op["kind"], "system"),
                    game_day=int(op["day"]),
                    importance=float(op["importance"]),
                )
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
    parser.add_argument("--runs", type=int, default=3, help="interleaved repeats (default 3)")
    parser.add_argument(
        "--original",
        type=Path,
        metavar="SUBMISSION_DIR",
        help="the original game's submission/ directory: replay through its own memory module",
    )
    parser.add_argument("--json", action="store_true", help="print JSON (the default output)")
    args = parser.parse_args(argv)
    if not args.workload.is_file():
        print(f"bench.memory: error: no workload at {args.workload}", file=sys.stderr)
        return 2
    ops = [json.loads(line) for line in args.workload.read_text().splitlines() if line.strip()]
    before = machine()
    mine: list[dict[str, float | int]] = []
    capped: list[dict[str, float | int]] = []
    same: list[dict[str, float | int]] = []
    for run in range(max(1, args.runs)):
        with tempfile.TemporaryDirectory(prefix="wf-bench-memory-") as tmp:
            keep = args.save_dir if args.save_dir and run == 0 else None
            if keep is not None and db_path(keep).exists():
                db_path(keep).unlink()
            mine.append(replay(ops, keep or Path(tmp) / "save"))
            if args.original:
                capped.append(replay_original(ops, Path(tmp) / "original", args.original))
            same.append(recall_original(ops, Path(tmp) / "same", cap=int(mine[-1]["kept"])))
    ours, original_same = _medians(mine), _medians(same)
    original = _medians(capped) if capped else None
    result: dict[str, object] = {
        **ours,
        "runs": len(mine),
        "original": original or "not run: give --original SUBMISSION_DIR",
        "speedup": round(original["total_s"] / ours["total_s"], 1) if original else None,
        "original_same_kept": original_same,
        "recall_p50_speedup_same_kept": round(
            original_same["recall_p50_ms"] / max(ours["recall_p50_ms"], 1e-9), 1
        ),
        "machine": {"before": before, "after": machine()},
    }
    print(
        json.dumps(result, sort_keys=True)
        if args.json
        else "\n".join(f"{k}: {v}" for k, v in result.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
