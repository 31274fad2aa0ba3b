"""Bench: push 100,000 events into the replay log; time until shown, memory, keypress latency after.

Run: `.venv/bin/python -m bench.tui_log` (prints one JSON object). Targets: flood under 2 s; the
log's memory bounded (resident memory after the flood ≤ 60 MB more than the same app empty);
keys ≤ 100 ms. A key is timed from the key event to the first frame that shows its effect (the
cursor moved, the filter holds the letter: bench.tui_keys' frame watch), not to the test driver's
idle, which alone cost ~41 ms a key on a trivial app.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

from textual.app import App, ComposeResult
from textual.widgets import Input

from bench import machine
from bench.tui_keys import timed, watch_frames
from engine.session.events import Event
from worldforge_tui.widgets.replay_log import ReplayLog
from worldforge_tui.widgets.replay_pane import ReplayPane

KEYS = ("up", "pageup", "home", "down", "end")  # distinct keys, each moving the cursor: once each
TYPES = ("STAGE_EXECUTED", "MEMORY_WRITTEN", "CEO_DECISION", "ROUTE_FALLBACK", "ANTAGONIST_MOVE")


def make_events(start: int, count: int) -> list[Event]:
    """Synthetic engine `Event`s (the listener's real type), with small payloads."""
    out = []
    for i in range(start, start + count):
        kind = TYPES[i % len(TYPES)]
        payload = {"served_by": "simulation", "model": "simulation"} if i % 5 == 0 else {"n": i}
        out.append(
            Event(
                id=i,
                run_id="bench",
                ts="2025-01-01T00:00:00Z",
                game_day=i // 50,
                type=kind,
                actor="ops",
                payload=payload,
                message=f"event {i}: the worker [bold]shipped[/] stage {i % 8} of the plan",
            )
        )
    return out


class LogBenchApp(App[None]):
    """Just the replay pane, as on the main screen."""

    def compose(self) -> ComposeResult:
        yield ReplayPane()


def moved(log: ReplayLog, cursor: int) -> Callable[[], bool]:
    return lambda: log.cursor != cursor


def holds(field: Input, text: str) -> Callable[[], bool]:
    return lambda: field.value == text


def _rss_mb() -> float:
    """This process's resident memory now (Linux /proc), MB."""
    with open("/proc/self/status", encoding="ascii") as fh:
        kib = next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))
    return round(kib / 1024, 1)


async def run(count: int = 100_000) -> dict:
    app = LogBenchApp()
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        watch_frames(app)
        log = app.screen.query_one(ReplayLog)
        log.focus()
        await pilot.pause()
        empty_mb = _rss_mb()
        pushed = built = 0.0
        start = time.perf_counter()
        for i in range(1, count + 1, 500):  # bursts, as from a listener; only the log keeps them
            t0 = time.perf_counter()
            batch = make_events(i, min(500, count + 1 - i))
            t1 = time.perf_counter()
            log.push_many(batch)
            built += t1 - t0
            pushed += time.perf_counter() - t1
        del batch
        while log.pending_count or len(log.entries) < count:
            await asyncio.sleep(0.01)
        await pilot.pause()
        shown = time.perf_counter() - start - built  # event construction is the engine's cost
        after_mb = _rss_mb()
        latencies = []
        for key in KEYS:
            latencies.append((await timed(pilot, key, moved(log, log.cursor)))[0])
        app.screen.query_one(ReplayPane).action_focus_filter()  # `/` is a board key now
        await pilot.pause()
        field = app.screen.query_one("#replay-filter", Input)
        filter_ms = []
        for char in "stage":  # 5 keys typed into the filter, each to the frame that shows it
            filter_ms.append((await timed(pilot, char, holds(field, field.value + char)))[0])
        assert field.value == "stage"
        assert len(log.entries) == count
    return {
        "bench": "tui_log",
        "events": count,
        "push_s": round(pushed, 3),
        "until_shown_s": round(shown, 3),
        "rss_mb_empty": empty_mb,
        "rss_mb_after": after_mb,
        "rss_growth_mb": round(after_mb - empty_mb, 1),
        "key_latency_ms_max": round(max(latencies), 1),
        "key_latency_ms_median": round(sorted(latencies)[len(latencies) // 2], 1),
        "key_latency_ms": {k: round(v, 1) for k, v in zip(KEYS, latencies, strict=True)},
        "filter_key_ms_median": round(sorted(filter_ms)[len(filter_ms) // 2], 1),
        "filter_key_ms_max": round(max(filter_ms), 1),
        "targets": {"until_shown_s": 2.0, "rss_growth_mb": 60, "key_latency_ms": 100},
    }


def main() -> int:
    print(json.dumps({**asyncio.run(run()), "machine": machine()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
