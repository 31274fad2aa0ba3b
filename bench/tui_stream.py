"""Bench: the TUI while a worker streams. Time from each streamed piece arriving (the router's event)
to the first frame that shows it (the frame composed for the terminal, `watch_frames`; ours and the
bare floor's alike): a piece in a key or number not yet complete is not drawn, nor one in a word
that may still become (or hold) a secret (`may_show_open_word`: a few letters far from any key word
are drawn as they come), so it waits for the frame that shows it, and the last pieces of an
artifact for the frame that paints the call drawn whole as it ends (the stage's result waits for
that frame, `LiveFeed.hold`);
pieces of an attempt given up on are never shown, and counted apart. And key latency while
streaming (a key press until the app has handled it and refreshed), in a headless Textual app.

The figure is split where it is spent: `model_completes_it` (from a piece's arrival until the
piece that completes its word, key or number arrives: the model's pace) and `screen` (from then to
the frame that shows it: ours and Textual's). Beside it, `bare_floor` is a trivial Textual app (one
anchored Static in a scroll view, updated with the drawable text on each piece) fed the same
stream, piece for piece at the recorded times, timed the same way: what Textual itself costs. It
replays after our run; with `--server real` the model generates beside it as it did beside ours (a
streamed answer of as many tokens, read on another thread, so the model's process and the reading
compete for the CPU as they did): like for like. `--no-keys` streams without the key presses (like
for like with the bare floor, which has none); `token_to_screen_near_keys` is the figure of the
pieces that arrived within 100 ms of a key press (F2/F1: a pane switch), those a switch's frame
holds back. Quote each figure with its load average; `--runs N`
repeats the whole bench and adds the medians of the runs.

The model is the loopback fake server streaming a real stage artifact (`--server fake`, default:
steady pieces at a set pace) or the real llama.cpp server (`--server real`, needs
`make llm-runtime`). Run: `.venv/bin/python -m bench.tui_stream --json [--server real]`
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import statistics
import sys
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

from bench import machine
from bench.tui_keys import FRAMES, watch_frames
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


def _watch_hops(app: Any) -> tuple[dict[str, list[float]], Any]:
    """Time two hops of a piece's way to the screen (bench-only wrappers, as `watch_frames`):
    `handoff` from the earliest piece queued to the screen thread taking the queue (the posted
    LiveTick waiting its turn), and `build` the live section's text built and its changed lines
    marked. The rest of `screen` is waiting for the frame and painting it. Returns the samples
    and what undoes the wrapping."""
    from worldforge_tui.widgets.live_section import LiveSection

    hops: dict[str, list[float]] = {"handoff": [], "build": []}
    feed = app.live
    tick = feed.tick

    def timed_tick() -> None:
        with feed._lock:
            queued = [e.at for e in feed._queue if e.kind == "delta"]
        if queued:
            hops["handoff"].append(time.perf_counter() - min(queued))
        tick()

    feed.tick = timed_tick
    build = LiveSection._build

    def timed_build(section: Any) -> Any:
        start = time.perf_counter()
        try:
            return build(section)
        finally:
            hops["build"].append(time.perf_counter() - start)

    setattr(LiveSection, "_build", timed_build)  # noqa: B010 - bench-only, undone after the run
    return hops, lambda: setattr(LiveSection, "_build", build)


def _on_frames(stamps: Any) -> tuple[list[tuple[float, float]], int]:
    """(arrival, shown) for each stamped piece: a piece stamped for a frame is shown by the first
    frame composed at or after its stamp (`watch_frames`' times), the others when stamped; and how
    many had no frame after them (the run ended first)."""
    frames = sorted(FRAMES)
    shown: list[tuple[float, float]] = []
    missed = 0
    for at, stamped, frame in stamps:
        i = bisect.bisect_left(frames, stamped) if frame else -1
        if i == len(frames):
            missed += 1
        else:
            shown.append((at, frames[i] if frame else stamped))
    return shown, missed


NEAR_KEY = 0.1  # seconds after a key's press in which a piece's arrival counts as near it


def _near(shown: list[tuple[float, float]], pressed: list[float]) -> list[float]:
    """Token -> screen of the pieces that arrived within NEAR_KEY of a key press (the switch's
    frame is the one they wait behind, if any): the figure a switch's cost moves, which the
    whole run's p95 dilutes among the pieces streamed far from any key."""
    keys = sorted(pressed)
    out = []
    for at, t in shown:
        i = bisect.bisect_right(keys, at)
        if i and at - keys[i - 1] < NEAR_KEY:
            out.append(t - at)
    return out


def _drawable_at(events: list[Any]) -> dict[float, float]:
    """For each streamed piece (by its arrival), when it could first be drawn whole: the arrival of
    the first piece of the same call whose text completes its word, key or number (the call's end
    for the last pieces of an artifact, drawn whole as the call ends)."""
    from worldforge_tui.live_writing import _reached

    out: dict[float, float] = {}
    calls: dict[str, list[Any]] = {}
    for event in events:
        calls.setdefault(event.call_key, []).append(event)
    for evs in calls.values():
        end = next((e.at for e in evs if e.kind == "end"), None)
        deltas = [e for e in evs if e.kind == "delta"]
        reach = [_reached(e.text, final=False)[1] for e in deltas]
        j = 0
        for i, event in enumerate(deltas):
            j = max(j, i)
            while j < len(deltas) and reach[j] < len(event.text):
                j += 1
            done = deltas[j].at if j < len(deltas) else end
            if done is not None:
                out[event.at] = done
    return out


def _split(shown: list[tuple[float, float]], drawable: dict[float, float]) -> dict[str, Any]:
    """Token -> screen, and its two parts: the model completing the piece, then the screen."""
    whole = [t - at for at, t in shown]
    model = [drawable[at] - at for at, _ in shown if at in drawable]
    screen = [max(0.0, t - drawable[at]) for at, t in shown if at in drawable]
    return {
        "token_to_screen": _summary(whole),
        "model_completes_it": _summary(model),
        "screen": _summary(screen),
    }


def _generate(url: str, model: str, tokens: int, stop: Any) -> None:
    """Have the server stream an answer of about `tokens` tokens, read piece by piece, until
    `stop` is set: the load a model writing puts on the machine, for the bare floor's replay."""
    import urllib.request

    body = json.dumps(
        {
            "model": model,
            "messages": [{"role": "user", "content": "Write a long plan for a meal-kit company."}],
            "max_tokens": tokens,
            "stream": True,
        }
    ).encode()
    req = urllib.request.Request(
        f"{url}/chat/completions", data=body, headers={"Content-Type": "application/json"}
    )
    while not stop.is_set():
        with urllib.request.urlopen(req, timeout=120) as resp:
            for _line in resp:
                if stop.is_set():
                    return


async def _bare_floor(events: list[Any], server: tuple[str, str] | None = None) -> dict[str, Any]:
    """The same stream into a trivial Textual app, piece for piece at the recorded times (with
    `server`, (url, model), the model writing beside it as it did beside ours)."""
    import threading

    from textual.app import App, ComposeResult
    from textual.containers import VerticalScroll
    from textual.message import Message
    from textual.widgets import Static

    from worldforge_tui.live_writing import _shown_cut

    class Piece(Message):
        def __init__(self, text: str, at: float) -> None:
            super().__init__()
            self.text, self.at = text, at

    class Bare(App[None]):
        def __init__(self) -> None:
            super().__init__()
            self.waiting: list[tuple[int, float]] = []  # (text length with the piece, arrival)
            self.shown: list[tuple[float, float, bool]] = []  # stamped as ours (`_on_frames`)

        def compose(self) -> ComposeResult:
            with VerticalScroll():
                yield Static(id="text", markup=False)

        def on_mount(self) -> None:
            self.query_one(VerticalScroll).anchor()

        def on_piece(self, msg: Piece) -> None:
            self.waiting.append((len(msg.text), msg.at))
            cut = _shown_cut(msg.text, final=False)
            self.query_one("#text", Static).update(msg.text[:cut])
            ready = [at for n, at in self.waiting if n <= cut]
            self.waiting = [(n, at) for n, at in self.waiting if n > cut]
            now = time.perf_counter()  # shown by the first frame from now on
            self.shown.extend((at, now, True) for at in ready)

    deltas = [e for e in events if e.kind == "delta"]
    app = Bare()
    arrivals: list[tuple[float, float]] = []  # (recorded arrival, replayed arrival)
    async with app.run_test(size=(140, 45)) as pilot:
        watch_frames(app)

        def replay() -> None:
            start, first = time.perf_counter(), deltas[0].at
            for event in deltas:
                wait = (event.at - first) - (time.perf_counter() - start)
                if wait > 0:
                    time.sleep(wait)
                now = time.perf_counter()
                arrivals.append((event.at, now))
                app.post_message(Piece(event.text, now))

        stop = threading.Event()
        if server is not None:
            writer = threading.Thread(
                target=_generate, args=(*server, len(deltas) + 50, stop), daemon=True
            )
            writer.start()
        thread = threading.Thread(target=replay, daemon=True)
        thread.start()
        while thread.is_alive():
            await pilot.pause(0.05)
        await pilot.pause(0.2)
        stop.set()
    moved = dict(arrivals)  # the recorded stream's drawable times, moved to the replay's clock
    recorded = _drawable_at(events)
    drawable = {moved[at]: moved.get(done, done - at + moved[at]) for at, done in recorded.items()}
    shown, missed = _on_frames(app.shown)
    return {**_split(shown, drawable), "pieces_without_a_frame": missed}


async def _drive(
    url: str, model: str, tmp: Path, stages: int, keys_on: bool = True, real: bool = False
) -> dict[str, Any]:
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
    events: list[Any] = []  # every streamed event (the router's thread appends; bench-only)
    router.watch(events.append)
    app = WorldForgeApp(pitch=PITCH, seed=3, save_dir=tmp / "tui", router=router)
    # every piece's stamp, not the feed's last LATENCY_SAMPLES: the keys fall early in the stream
    # (the fake's standup streams after them), which the last 2000 pieces would leave out
    app.live.latencies = deque(maxlen=None)
    keys: list[float] = []
    pressed: list[float] = []  # when each key was posted
    async with app.run_test(size=(140, 45)) as pilot:
        watch_frames(app)  # frames cost what a real terminal's do (headless skips the encoding)
        hops, unwatch = _watch_hops(app)
        done = 0
        while done < stages:
            # wait for the worker to start writing, then press keys until it has shipped
            for _ in range(3000):
                if app.busy is not None and app.live.latencies:
                    break
                await pilot.pause(0.005)
            i = 0
            while app.busy is not None:
                if keys_on:
                    pressed.append(time.perf_counter())
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
        unwatch()
        last = max((t for _, t, frame in app.live.latencies if frame), default=0.0)
        for _ in range(300):  # the frame that shows the last stage's result
            if FRAMES and FRAMES[-1] >= last:
                break
            await pilot.pause(0.01)
        shown, missed = _on_frames(app.live.latencies)
        unshown = app.live.unshown
    streamed = [e for e in events if e.kind == "delta"]
    return {
        "pieces_streamed": len(streamed),
        "pieces_shown": len(shown),
        "pieces_never_shown": unshown,
        "pieces_without_a_frame": missed,
        **_split(shown, _drawable_at(events)),
        "key_latency_while_streaming": _summary(keys),
        "token_to_screen_near_keys": _summary(_near(shown, pressed)),
        "hops": {name: _summary(values) for name, values in hops.items()},
        "bare_floor": await _bare_floor(events, (url, model) if real else None),
    }


MEDIANS = (  # figures whose median over the runs is reported: (name, path in a run's report)
    ("token_to_screen_p95_ms", ("token_to_screen", "p95_ms")),
    ("token_to_screen_p50_ms", ("token_to_screen", "p50_ms")),
    ("screen_p95_ms", ("screen", "p95_ms")),
    ("screen_p50_ms", ("screen", "p50_ms")),
    ("model_completes_it_p95_ms", ("model_completes_it", "p95_ms")),
    ("bare_floor_token_to_screen_p95_ms", ("bare_floor", "token_to_screen", "p95_ms")),
    ("bare_floor_screen_p95_ms", ("bare_floor", "screen", "p95_ms")),
    ("bare_floor_screen_p50_ms", ("bare_floor", "screen", "p50_ms")),
    ("near_keys_p95_ms", ("token_to_screen_near_keys", "p95_ms")),
    ("near_keys_p50_ms", ("token_to_screen_near_keys", "p50_ms")),
    ("handoff_p95_ms", ("hops", "handoff", "p95_ms")),
    ("build_p95_ms", ("hops", "build", "p95_ms")),
    ("load_average_1m", ("load_average_1m",)),
)


def _medians(runs: list[dict[str, Any]]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name, path in MEDIANS:
        values = []
        for run in runs:
            value: Any = run
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            if isinstance(value, int | float):
                values.append(float(value))
        out[name] = round(statistics.median(values), 2) if values else None
    return out


def _runs(
    url: str, model: str, tmp: Path, args: argparse.Namespace, real: bool
) -> list[dict[str, Any]]:
    runs = []
    for i in range(args.runs):
        run = asyncio.run(_drive(url, model, tmp / f"run-{i}", args.stages, not args.no_keys, real))
        run["load_average_1m"] = machine()["load_average_1m"]  # as the run ended
        runs.append(run)
    return runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=("fake", "real"), default="fake")
    parser.add_argument("--stages", type=int, default=2, help="stages to stream (default 2)")
    parser.add_argument("--piece", type=int, default=4, help="fake: characters per piece")
    parser.add_argument("--delay", type=float, default=0.005, help="fake: seconds between pieces")
    parser.add_argument("--no-keys", action="store_true", help="no key presses while streaming")
    parser.add_argument("--runs", type=int, default=1, help="runs (medians over them, default 1)")
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
            with running_server(tmp) as server:
                runs = _runs(server.url, server.model, tmp, args, real=True)
            label = "llama-cpp-python 0.3.36 (tiny model)"
        else:
            from tests.servers.openai_server import FakeOpenAI

            payload = json.dumps(_artifact(tmp))
            with FakeOpenAI(
                "ollama", payload=payload, stream_piece=args.piece, stream_delay=args.delay
            ) as fake:
                runs = _runs(fake.url, "qwen2.5", tmp, args, real=False)
            label = f"loopback fake: {args.piece} chars every {args.delay * 1000:g} ms"
    report: dict[str, Any] = dict(runs[0]) if len(runs) == 1 else {"runs": runs}
    if len(runs) > 1:
        report["medians"] = _medians(runs)
    report["server"] = label
    report["machine"] = machine()
    sys.stdout.write(json.dumps(report, indent=None if args.json else 2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
