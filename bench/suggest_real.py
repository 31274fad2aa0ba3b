"""Bench: what a REAL local model suggests for the parts the reader leaves unread (issue 43).

Takes the build part of the labelled corpus (bench.corpus; the held-out part is never opened),
reads each rejection and standup reply as the game does, and for each input with a part the reader
leaves unread asks the model tier through the router (engine.workers.suggest: axis from the enum,
words a span of the player's, checked). Prints JSON: each input's unread parts with what was
suggested, kept or discarded (the one line the player would see), the labelled directions of the
record beside it, and counts: asked, placed, discarded, declined, no answer; and the call's wall
time (median). A suggestion binds nothing here: the game binds one only when the player confirms.

By default it starts the real llama-cpp-python server on the tiny random-weight model (`make
llm-runtime`): its choices are noise, but the grammar holds them to the schema's enums, so every
suggestion it makes is an axis of the enum and words of the player's. `--url URL --model NAME`
asks any OpenAI-compatible server instead (an Ollama or llama.cpp with a real model).

Run: `.venv/bin/python -m bench.suggest_real --json [--limit 12] [--url URL --model NAME]`
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.corpus import directions
from engine.config import Settings
from engine.language.reader.read import read_text
from engine.language.suggested import offerable
from engine.routing import Router
from engine.workers.suggest import offer


def run(url: str, model: str, limit: int) -> dict[str, Any]:
    """Ask the model for the build part's unread parts, `limit` inputs at most."""
    router = Router(
        Settings(
            demo_mode="local",
            local_agent_base_url=url,
            local_agent_model=model,
            agent_request_timeout=60,
        ),
        caps_cache=None,
    )
    rows: list[dict[str, Any]] = []
    counts = {"asked": 0, "placed": 0, "discarded": 0, "declined": 0, "no_answer": 0}
    wall: list[float] = []
    for record in directions("build"):
        if len(rows) >= limit:
            break
        if record["source"] not in ("rejection", "standup"):
            continue
        reading = read_text(record["text"], source=record["source"], period="month")
        parts = offerable(reading)
        if not parts:
            continue
        started = time.perf_counter()
        got = offer(router, reading, role="strategist", call_key=f"bench/suggest-{len(rows)}")
        wall.append((time.perf_counter() - started) * 1000)
        counts["asked"] += 1
        counts["placed"] += len(got.suggestions)
        if got.line.startswith("No suggestion"):
            counts["no_answer"] += 1
        elif "Discarded" in got.line:
            counts["discarded"] += 1
        elif not got.suggestions:
            counts["declined"] += 1
        rows.append(
            {
                "said": record["text"],
                "unread": [{"words": p.words, "why": p.reason} for p in parts],
                "suggested": [
                    {"axis": s.axis, "do": s.do, "value": s.value, "by": s.by}
                    for s in got.suggestions
                ],
                "line": got.line,
                "labelled": [
                    {"axis": d.get("axis"), "do": d.get("do"), "value": d.get("value")}
                    for d in record.get("expect", [])
                ],
            }
        )
    return {
        "model": model,
        "inputs": rows,
        "counts": counts,
        "wall_ms_median": round(statistics.median(wall), 1) if wall else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=12, help="inputs to ask about")
    parser.add_argument("--url", help="an OpenAI-compatible server (default: the real tiny one)")
    parser.add_argument("--model", default="tiny")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output)")
    args = parser.parse_args()
    if args.url:
        report = run(args.url, args.model, args.limit)
    else:
        from tests.servers.llama_real import running_server, unavailable_reason

        reason = unavailable_reason()
        if reason:
            print(json.dumps({"skipped": reason}))
            return 1
        with (
            tempfile.TemporaryDirectory(prefix="wf-suggest-real-") as tmp,
            running_server(Path(tmp)) as server,
        ):
            report = run(server.url, server.model, args.limit)
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
