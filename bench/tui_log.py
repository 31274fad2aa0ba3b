"""Bench: push 100,000 events into the replay log; time until shown, RSS, keypress latency after.

Run: `.venv/bin/python -m bench.tui_log` (prints one JSON object). Targets: flood under 2 s,
RSS under 200 MB, keypress latency under 150 ms.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time

from textual.app import App, ComposeResult
from textual.widgets import Input

from bench import machine
from engine.session.events import Event
from worldforge_tui.widgets.replay_log import ReplayLog
from worldforge_tui.widgets.replay_pane import ReplayPane

KEYS = ("up", "pageup", "home", "end", "down")  # distinct keys: each measured once
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


def _rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)


async def run(count: int = 100_000) -> dict:
    app = LogBenchApp()
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        log = app.screen.query_one(ReplayLog)
        log.focus()
        await pilot.pause()
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
        latencies = []
        for key in KEYS:
            t0 = time.perf_counter()
            await pilot.press(key)
            latencies.append((time.perf_counter() - t0) * 1000)
        app.screen.query_one(ReplayPane).action_focus_filter()  # `/` is a board key now
        await pilot.pause()
        t0 = time.perf_counter()
        await pilot.press("s", "t", "a", "g", "e", "space")  # 6 keys typed into the filter
        filter_ms = (time.perf_counter() - t0) * 1000
        assert app.screen.query_one("#replay-filter", Input).value == "stage "
        assert len(log.entries) == count
    return {
        "bench": "tui_log",
        "events": count,
        "push_s": round(pushed, 3),
        "until_shown_s": round(shown, 3),
        "rss_mb": _rss_mb(),
        "key_latency_ms_max": round(max(latencies), 1),
        "key_latency_ms_median": round(sorted(latencies)[len(latencies) // 2], 1),
        "key_latency_ms": {k: round(v, 1) for k, v in zip(KEYS, latencies, strict=True)},
        "filter_6_keys_ms": round(filter_ms, 1),
        "targets": {"until_shown_s": 2.0, "rss_mb": 200, "key_latency_ms": 150},
    }


def main() -> int:
    print(json.dumps({**asyncio.run(run()), "machine": machine()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
