"""Bench: the TUI while a worker streams. Time from each streamed piece arriving (the router's event)
to the first frame that shows it (after the screen refresh): a piece in a word, key or number not
yet complete is not drawn (an unfinished word may be half a secret), so it waits for the frame that
shows it whole, and the last pieces of an artifact for the frame that shows the stage's result;
pieces of an attempt given up on are never shown, and counted apart. And key latency while
streaming (a key press until the app has handled it and refreshed), in a headless Textual app.

The model is the loopback fake server streaming a real stage artifact (`--server fake`, default:
steady pieces at a set pace) or the real llama.cpp server (`--server real`, needs
`make llm-runtime`). Run: `.venv/bin/python -m bench.tui_stream --json [--server real]`
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import machine
from bench.tui_keys import watch_frames
from engine.session.commands import RunStage

PITCH = "Meal kits for night-shift nurses"
KEYS = ("f2", "f1")  # show another pane and back: handled on the board while the worker writes


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)


def _summary(values: list[float]) -> dict[str, Any]:
    return {
        "p50_ms": _pct(values, 0.5),
        "p95_ms": _pct(values, 0.95),
        "max_ms": _pct(values, 1.0),
        "n": len(values),
        "mean_ms": round(statistics.fmean(values) * 1000, 2) if values else None,
    }


def _artifact(tmp: Path) -> dict[str, Any]:
    from engine.config import Settings
    from engine.routing import Router
    from engine.session.api import GameSession

    session = GameSession.start_venture(
        pitch=PITCH, seed=3, router=Router(Settings()), save_dir=tmp / "sim"
    )
    try:
        session.give(RunStage)
        return dict(session.state.current.artifact)
    finally:
        session.close()


async def _key_latency(app: Any, pilot: Any, key: str) -> float:
    """Post a key as the terminal driver does, and time it until its action has run and the
    next frame is drawn (Pilot's press waits for an idle app, which never comes while streaming)."""
    from textual import events

    board = app.main
    handled = asyncio.Event()
    real = board.action_pane
    drawn: list[float] = []

    def action_pane(pane: str) -> None:
        real(pane)
        app.call_after_refresh(lambda: (drawn.append(time.perf_counter()), handled.set()))

    board.action_pane = action_pane
    try:
        start = time.perf_counter()
        app.post_message(events.Key(key, None))
        await asyncio.wait_for(handled.wait(), timeout=10)
    finally:
        board.action_pane = real
    return drawn[0] - start


async def _drive(url: str, model: str, tmp: Path, stages: int) -> dict[str, Any]:
    from engine.config import Settings
    from engine.routing import Router
    from worldforge_tui.app import WorldForgeApp

    router = Router(
        Settings(
            demo_mode="local",
            local_agent_base_url=url,
            local_agent_model=model,
            agent_request_timeout=120,
        ),
        caps_cache=None,
    )
    deltas = [0]
    router.watch(lambda e: deltas.__setitem__(0, deltas[0] + (e.kind == "delta")))
    app = WorldForgeApp(pitch=PITCH, seed=3, save_dir=tmp / "tui", router=router)
    keys: list[float] = []
    async with app.run_test(size=(140, 45)) as pilot:
        watch_frames(app)  # frames cost what a real terminal's do (headless skips the encoding)
        done = 0
        while done < stages:
            # wait for the worker to start writing, then press keys until it has shipped
            for _ in range(3000):
                if app.busy is not None and app.live.latencies:
                    break
                await pilot.pause(0.005)
            i = 0
            while app.busy is not None:
                keys.append(await _key_latency(app, pilot, KEYS[i % 2]))
                i += 1
                await pilot.pause(0.05)
            done += 1
            if done < stages and app.snap is not None and app.snap.phase == "gate":
                await pilot.press("a")  # approve; the fork and its standup follow
                for _ in range(3000):
                    if app.snap is not None and app.snap.phase == "fork" and app.busy is None:
                        break
                    await pilot.pause(0.01)
                await pilot.press("1")
                for _ in range(6000):
                    if app.snap is not None and app.snap.phase == "brief" and app.busy is None:
                        break
                    await pilot.pause(0.01)
                await pilot.press("g")
        latencies = list(app.live.latencies)
        unshown = app.live.unshown
    return {
        "pieces_streamed": deltas[0],
        "pieces_shown": len(latencies),
        "pieces_never_shown": unshown,
        "token_to_screen": _summary(latencies),
        "key_latency_while_streaming": _summary(keys),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=("fake", "real"), default="fake")
    parser.add_argument("--stages", type=int, default=2, help="stages to stream (default 2)")
    parser.add_argument("--piece", type=int, default=4, help="fake: characters per piece")
    parser.add_argument("--delay", type=float, default=0.005, help="fake: seconds between pieces")
    parser.add_argument("--json", action="store_true", help="one line of JSON (default: indented)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wf-tui-stream-") as tmp_name:
        tmp = Path(tmp_name)
        if args.server == "real":
            from tests.servers.llama_real import running_server, unavailable_reason

            reason = unavailable_reason()
            if reason:
                print(json.dumps({"skipped": reason}))
                return 1
            servers = running_server(tmp)
            server = next(servers)
            try:
                report = asyncio.run(_drive(server.url, server.model, tmp, args.stages))
            finally:
                servers.close()
            report["server"] = "llama-cpp-python 0.3.36 (tiny model)"
        else:
            from tests.servers.openai_server import FakeOpenAI

            payload = json.dumps(_artifact(tmp))
            with FakeOpenAI(
                "ollama", payload=payload, stream_piece=args.piece, stream_delay=args.delay
            ) as fake:
                report = asyncio.run(_drive(fake.url, "qwen2.5", tmp, args.stages))
            report["server"] = f"loopback fake: {args.piece} chars every {args.delay * 1000:g} ms"
    report["machine"] = machine()
    sys.stdout.write(json.dumps(report, indent=None if args.json else 2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
