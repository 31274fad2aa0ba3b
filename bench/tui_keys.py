"""Bench: how fast each screen opens and each key shows its effect, driven by Textual's Pilot.

Every sample is the wall time from sending the key to the moment its effect is on the app (the
screen is on top, the pane is shown and focused, the phase has moved, the filter has narrowed the
log) with the app idle again. Each scenario runs in a fresh app `--runs` times; the JSON gives the
median and p95 per key, and the worst p95 among screens and among keys.

Run: `.venv/bin/python -m bench.tui_keys --json` (add `--busy 1` to keep a CPU-bound process
running meanwhile, as on a machine shared with a build). Targets: screens <= 150 ms p95, keys <= 100
ms p95. Each row gives wall and CPU ms (this process, all threads: the engine's step runs on one),
which a loaded machine blurs less, and the load each round ran under. The anchor is a bare Textual
app with as many widgets as the board, measured in the same rounds: `vs_anchor` divides a row's CPU
median by the anchor's (keys by its pane switch, screens by its pushed screen, the theme by its own).
The theme change also reads against a bare app of the board's kinds of widget, after a form of the
settings screen's kinds was opened (`vs_kinds_anchor`): Textual's own floor for that change.

`--before TREE` times another source tree in the same rounds, each round a fresh process per tree
run one after the other (ABAB), so the machine's load hits both alike; `before` holds its rows and
`cpu_new_over_before` the ratio of CPU medians per row.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any, ClassVar

from bench import machine
from bench.bare_app import Bare, spec_of

PITCH = "Meal kits for night-shift nurses"
SCREEN_TARGET_MS = 150
KEY_TARGET_MS = 100
LOG_EVENTS = 100_000


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


FRAMES: list[float] = []  # when each frame was composed (the app's display hook, below)
# What `timed` waits for: "done", the effect's test, asked as each frame is composed; "hit", the
# (wall, CPU) clocks of the first frame composed while it held.
WAITING: dict[str, Any] = {}


def watch_frames(app: Any) -> None:
    """Record the time of every frame the app composes for the terminal (headless included), and
    stamp the first one that shows what `timed` waits for.

    `_display` is where a composed frame goes to the driver; wrapping it is the only way to see
    "painted" without a real terminal. Headless, Textual skips turning the frame into terminal
    bytes; that is done here too, so the time includes what a real terminal's frame costs us.
    Bench-only: the game never touches it.
    """
    original = app._display

    def display(screen: Any, renderable: Any) -> None:
        if renderable is not None and not app._batch_count:
            if app.is_headless and hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)
            FRAMES.append(time.perf_counter())
            done = WAITING.get("done")
            if done is not None and "hit" not in WAITING and done():
                WAITING["hit"] = (time.perf_counter(), time.process_time())
        original(screen, renderable)

    app._display = display


CPU: dict[str, list[float]] = {}  # the same samples in CPU ms of this process (all its threads)


async def timed(
    pilot: Any, key: str, done: Callable[[], bool], limit: float = 10.0
) -> tuple[float, float]:
    """(wall ms, CPU ms) from sending `key` to the first frame composed while `done()` holds: what
    the player sees when the effect is on screen (work deferred past that frame is not counted).
    CPU is the process's own (its threads included: the engine's step runs on one), so the load
    of other processes blurs it far less than wall time. The frame stamps itself (watch_frames),
    so waiting here costs nothing that is counted."""
    from textual import events

    app = pilot.app
    await pilot.pause()  # start from an idle app
    char = key if len(key) == 1 else {"space": " ", "slash": "/", "question_mark": "?"}.get(key)
    return await first_frame(
        pilot, lambda: app.post_message(events.Key(key, char)), done, limit, key
    )


async def first_frame(
    pilot: Any, act: Callable[[], object], done: Callable[[], bool], limit: float, what: str
) -> tuple[float, float]:
    """(wall ms, CPU ms) from `act()` to the first frame composed while `done()` holds."""
    WAITING.clear()
    WAITING["done"] = done
    start = time.perf_counter()
    cpu = time.process_time()
    act()
    while "hit" not in WAITING:
        await asyncio.sleep(0.005)
        if time.perf_counter() - start > limit:
            WAITING.clear()
            raise RuntimeError(f"{what}: effect not seen within {limit} s")
    wall, cpu_end = WAITING.pop("hit")
    WAITING.clear()
    await pilot.pause()
    return (wall - start) * 1000, (cpu_end - cpu) * 1000


async def settle(app: Any, pilot: Any) -> None:
    for _ in range(400):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.busy is None and not any(w.is_running for w in app.workers):
            return
    raise RuntimeError("app never settled")


def on(app: Any, name: str) -> Callable[[], bool]:
    return lambda: app.screen.__class__.__name__ == name


def shows(board: Any, pane: str) -> Callable[[], bool]:
    return lambda: bool(board.shown_pane == pane)


def ends_with(field: Any, text: str) -> Callable[[], bool]:
    return lambda: bool(field.value.endswith(text))


async def one_run(size: tuple[int, int], samples: dict[str, list[float]]) -> None:
    from textual.widgets import Input

    from worldforge_tui.app import WorldForgeApp
    from worldforge_tui.widgets.replay_log import ReplayLog

    def add(name: str, sample: tuple[float, float]) -> None:
        samples.setdefault(name, []).append(sample[0])
        CPU.setdefault(name, []).append(sample[1])

    with tempfile.TemporaryDirectory(prefix="wf-bench-keys-") as tmp:
        os.environ["WORLDFORGE_HOME"] = tmp
        app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp)
        app.animation_level = "none"
        async with app.run_test(size=size) as pilot:
            watch_frames(app)
            await settle(app, pilot)
            board = app.main
            BOARD_WIDGETS.append(sum(1 for _ in board.walk_children(with_self=False)))
            BOARD_KINDS[:] = spec_of(board)
            # ---- screens -------------------------------------------------------------
            for key, screen, close in (
                ("s", "SettingsScreen", "escape"),
                ("question_mark", "HelpScreen", "escape"),
                ("l", "LoadScreen", "escape"),
                ("n", "NewVentureScreen", "escape"),
                ("ctrl+p", "CommandPalette", "escape"),
            ):
                add(f"screen {key}", await timed(pilot, key, on(app, screen)))
                await pilot.press(close)
                await pilot.pause()
            # the settings screen is built on its first open and reused after that
            add("screen s (reopened)", await timed(pilot, "s", on(app, "SettingsScreen")))
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("f4")
            await pilot.press("home")
            add("screen enter (inspector)", await timed(pilot, "enter", on(app, "InspectorScreen")))
            await pilot.press("escape")
            # ---- panes and focus ----------------------------------------------------------
            for key, pane in (("f1", "story"), ("f2", "receipt"), ("f3", "memory"), ("f4", "log")):
                add(f"key {key}", await timed(pilot, key, shows(board, pane)))
            field = board.query_one("#replay-filter", Input)
            add("key / (filter)", await timed(pilot, "slash", lambda: app.focused is field))
            for ch in "stage":
                add(
                    "key typed into filter",
                    await timed(pilot, ch, ends_with(field, ch)),
                )
            log = board.query_one("#replay-log", ReplayLog)
            add("key enter (filter → log)", await timed(pilot, "enter", lambda: app.focused is log))
            # ---- theme ----------------------------------------------------------------------
            await pilot.pause()
            add("theme change", await change_theme(pilot, "nord"))
            # ---- game keys (the engine's step included) -------------------------------------
            await pilot.press("f1")

            def phase(want):
                return lambda: app.snap.phase == want and app.busy is None

            add("key a (fork shown)", await timed(pilot, "a", phase("fork")))
            add(
                "key 1 (receipt shown)",
                await timed(pilot, "1", lambda: app.busy is None and board.shown_pane == "receipt"),
            )
            add("key g (next gate shown)", await timed(pilot, "g", phase("gate")))
            # ---- the filter over a big log --------------------------------------------------
            from engine.session.events import Event

            log.push_many(
                Event(
                    id=10_000 + i,
                    run_id="bench",
                    ts="",
                    game_day=i // 50,
                    type=("STAGE_EXECUTED", "MEMORY_WRITTEN")[i % 2],
                    actor="ops",
                    payload={},
                    message=f"event {i}: stage {i % 8} of the plan",
                )
                for i in range(LOG_EVENTS)
            )
            log.flush()
            await pilot.press("slash")
            for ch in "stage ":
                add(
                    f"key typed into filter ({LOG_EVENTS:,} events)",
                    await timed(pilot, "space" if ch == " " else ch, ends_with(field, ch)),
                )
            add(
                f"key enter (filter → log, {LOG_EVENTS:,} events)",
                await timed(pilot, "enter", lambda: app.focused is log),
            )


async def change_theme(pilot: Any, theme: str) -> tuple[float, float]:
    """(wall ms, CPU ms) from setting the theme to the first frame drawn in it."""
    app = pilot.app

    def act() -> None:
        app.theme = theme

    return await first_frame(pilot, act, lambda: app.current_theme.name == theme, 10.0, theme)


BOARD_WIDGETS: list[int] = []  # widgets on the board once a venture is open (one_run fills it)
BOARD_KINDS: list[list[object]] = []  # the board's widget kinds and counts (bench.bare_app)
ANCHOR_WIDGETS: list[int] = []


async def anchor_run(size: tuple[int, int], samples: dict[str, list[float]]) -> None:
    """The same measurements on a bare Textual app with the board's widget count: four panes of
    labels that keys show and focus, and a pushed screen of labels. Run after each game run,
    so the anchor shares the machine load; the game's rows read against `anchor key` and
    `anchor screen`."""
    from textual.app import App, ComposeResult
    from textual.containers import VerticalScroll
    from textual.screen import Screen
    from textual.widgets import Footer, Header, Static

    class Page(Screen[None]):
        BINDINGS: ClassVar[list[Any]] = [("escape", "app.pop_screen", "back")]

        def compose(self) -> ComposeResult:
            yield Header()
            for i in range(30):
                yield Static(f"setting {i}")
            yield Footer()

    # Header and Footer are 2 widgets plus their parts (the header's 3, the footer's keys): the
    # rest are four focusable panes of labels, as many as make the board's count.
    per_pane = max(1, (max(BOARD_WIDGETS, default=46) - 2 - 3 - 7) // 4 - 1)

    class Bare(App[None]):
        BINDINGS: ClassVar[list[Any]] = [
            (f"f{i}", f"pane({i})", f"pane {i}") for i in range(1, 5)
        ] + [("s", "push_screen('page')", "page")]
        SCREENS: ClassVar[dict[str, Any]] = {"page": Page}
        shown = 1

        def compose(self) -> ComposeResult:
            yield Header()
            for i in range(1, 5):
                with VerticalScroll(id=f"pane{i}", can_focus=True):
                    for j in range(per_pane):
                        yield Static(f"pane {i} line {j}")
            yield Footer()

        def action_pane(self, i: int) -> None:
            for k in range(1, 5):
                self.query_one(f"#pane{k}").display = k == i
            self.query_one(f"#pane{i}").focus()
            self.shown = i

    app = Bare()
    async with app.run_test(size=size) as pilot:
        watch_frames(app)
        await pilot.pause()
        ANCHOR_WIDGETS.append(sum(1 for _ in app.screen.walk_children(with_self=False)))
        for _ in range(2):
            key = "s"
            wall, cpu = await timed(pilot, key, lambda: app.screen.__class__.__name__ == "Page")
            samples.setdefault("anchor screen", []).append(wall)
            CPU.setdefault("anchor screen", []).append(cpu)
            await pilot.press("escape")
            await pilot.pause()
        for i in (2, 3, 4, 1, 2, 3, 4, 1):
            wall, cpu = await timed(pilot, f"f{i}", lambda i=i: app.shown == i)  # type: ignore[misc]
            samples.setdefault("anchor key", []).append(wall)
            CPU.setdefault("anchor key", []).append(cpu)
        wall, cpu = await change_theme(pilot, "nord")
        samples.setdefault("anchor theme change", []).append(wall)
        CPU.setdefault("anchor theme change", []).append(cpu)
    await kinds_theme_run(size, samples)
    await kinds_key_run(size, samples)


async def kinds_key_run(size: tuple[int, int], samples: dict[str, list[float]]) -> None:
    """Pane keys on a bare app with the board's own kinds and count of widgets (bench.bare_app,
    the spec taken from the live board in the game run): f1-f4 show one quarter and focus it.
    The game's keys read against it as `vs_kinds_anchor` (wall p95 over wall p95)."""
    if not BOARD_KINDS:
        return
    app = Bare([list(BOARD_KINDS)])
    async with app.run_test(size=size) as pilot:
        watch_frames(app)
        await pilot.pause()
        screen = app.screen
        for i in (2, 3, 4, 1, 2, 3, 4, 1):
            wall, cpu = await timed(pilot, f"f{i}", lambda i=i: screen.shown == i)  # type: ignore[attr-defined,misc]
            samples.setdefault("anchor key (same widget kinds)", []).append(wall)
            CPU.setdefault("anchor key (same widget kinds)", []).append(cpu)


async def kinds_theme_run(size: tuple[int, int], samples: dict[str, list[float]]) -> None:
    """The theme change on a bare Textual app built of the board's kinds of widget (a pane bar,
    four panes of text, tabs with a filter input and a log, a row of seven buttons, a status line
    with a sparkline, a footer) after opening and closing a form of the settings screen's kinds
    (choices, inputs, labels, buttons) and the command palette, as the game run does before its
    theme change (their stylesheets stay in the app's, and every theme change reparses them):
    Textual's own reparse, restyle and repaint for these widgets and their stylesheets, with none
    of the game's code or CSS. `theme change` reads against it as `vs_kinds_anchor`."""
    from textual.app import App, ComposeResult
    from textual.containers import Horizontal, Vertical, VerticalScroll
    from textual.screen import Screen
    from textual.widgets import Button, Input, Label, Log, Select, Sparkline, Static, Tab, Tabs

    text = " ".join(f"word{i}" for i in range(400))  # about a story pane's worth of prose

    class Form(Screen[None]):
        def compose(self) -> ComposeResult:
            yield Label("Settings")
            for i in range(3):
                yield Label(f"choice {i}")
                yield Select([("one", 1), ("two", 2)], value=1, allow_blank=False, compact=True)
            for i in range(7):
                yield Label(f"field {i}")
                yield Input(f"value {i}", compact=True)
            for label in ("Test", "Copy", "Save", "Back"):
                yield Button(label, compact=True)

    class Kinds(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("Story · Receipt · Memory · Log")
            with Horizontal():
                with Vertical():
                    yield VerticalScroll(Static(text), can_focus=True)
                with Vertical():
                    yield VerticalScroll(Static(text[:600]), can_focus=True)
                    yield VerticalScroll(Static(text[:600]), can_focus=True)
            with Vertical():
                yield Tabs(Tab("Events"), Tab("Workers"), Tab("Knowledge"), Tab("Memory"))
                yield Input(placeholder="filter", compact=True)
                yield Log()
            with Horizontal():
                for i in range(7):
                    yield Button(f"act {i}", compact=True)
            yield Static("$42k rw 1.7mo b $27k")
            yield Sparkline([1, 3, 2, 5, 4])
            yield Static("^q Quit  ? Help")

        def on_mount(self) -> None:  # a Log writes (and sizes itself) once it is mounted
            self.query_one(Log).write_lines(f"event {i}" for i in range(40))

    app = Kinds()
    async with app.run_test(size=size) as pilot:
        watch_frames(app)
        await pilot.pause()
        await app.push_screen(Form())
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        for key in ("ctrl+p", "escape"):  # the palette, opened and closed as in the game run
            await pilot.press(key)
            await pilot.pause()
        wall, cpu = await change_theme(pilot, "nord")
        samples.setdefault("anchor theme change (same widget kinds)", []).append(wall)
        CPU.setdefault("anchor theme change (same widget kinds)", []).append(cpu)


def summary(samples: dict[str, list[float]], cpu: dict[str, list[float]]) -> dict[str, Any]:
    rows: dict[str, dict[str, Any]] = {
        name: {
            "median_ms": round(statistics.median(v), 1),
            "p95_ms": round(p95(v), 1),
            "cpu_median_ms": round(statistics.median(cpu[name]), 1),
            "cpu_p95_ms": round(p95(cpu[name]), 1),
            "n": len(v),
        }
        for name, v in samples.items()
    }
    anchor_cpu = {
        kind: rows[f"anchor {kind}"]["cpu_median_ms"]
        for kind in ("key", "screen", "theme change")
        if f"anchor {kind}" in rows
    }
    for name, row in rows.items():
        kind = "screen" if name.startswith("screen") else "key"
        kind = "theme change" if name == "theme change" else kind
        if not name.startswith("anchor") and anchor_cpu.get(kind):
            row["vs_anchor"] = round(row["cpu_median_ms"] / anchor_cpu[kind], 2)
    key_kinds = rows.get("anchor key (same widget kinds)")
    if key_kinds and key_kinds["p95_ms"]:
        for name, row in rows.items():
            if name.startswith("key"):
                row["vs_kinds_anchor"] = round(row["p95_ms"] / key_kinds["p95_ms"], 2)
    kinds = rows.get("anchor theme change (same widget kinds)")
    if kinds and "theme change" in rows and kinds["cpu_median_ms"]:
        rows["theme change"]["vs_kinds_anchor"] = round(
            rows["theme change"]["cpu_median_ms"] / kinds["cpu_median_ms"], 2
        )
    screens = {k: v for k, v in rows.items() if k.startswith("screen")}
    keys = {k: v for k, v in rows.items() if k.startswith(("key", "theme"))}
    anchor = {k: v for k, v in rows.items() if k.startswith("anchor")}
    worst_screen = max(screens.items(), key=lambda kv: kv[1]["p95_ms"])
    worst_key = max(keys.items(), key=lambda kv: kv[1]["p95_ms"])
    worst_cpu_screen = max(screens.items(), key=lambda kv: kv[1]["cpu_p95_ms"])
    worst_cpu_key = max(keys.items(), key=lambda kv: kv[1]["cpu_p95_ms"])
    return {
        "rows": rows,
        "worst_screen": {"name": worst_screen[0], **worst_screen[1]},
        "worst_key": {"name": worst_key[0], **worst_key[1]},
        "worst_cpu_screen": {"name": worst_cpu_screen[0], **worst_cpu_screen[1]},
        "worst_cpu_key": {"name": worst_cpu_key[0], **worst_cpu_key[1]},
        "anchor_bare_app": anchor,
        "targets": {"screen_p95_ms": SCREEN_TARGET_MS, "key_p95_ms": KEY_TARGET_MS},
        "screens_within_target": worst_screen[1]["p95_ms"] <= SCREEN_TARGET_MS,
        "keys_within_target": worst_key[1]["p95_ms"] <= KEY_TARGET_MS,
        "screens_cpu_within_target": worst_cpu_screen[1]["cpu_p95_ms"] <= SCREEN_TARGET_MS,
        "keys_cpu_within_target": worst_cpu_key[1]["cpu_p95_ms"] <= KEY_TARGET_MS,
    }


def burners(count: int) -> list[subprocess.Popen[bytes]]:
    """CPU-bound processes that keep the machine busy while the bench runs."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


async def collect(runs: int, size: tuple[int, int]) -> dict[str, Any]:
    """`runs` game runs, each followed by an anchor run: raw samples, widget counts, loads."""
    import textual.constants

    textual.constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]  # read by App()
    samples: dict[str, list[float]] = {}
    loads = []
    for _ in range(runs):  # interleaved with the bare anchor, so both see the same load
        loads.append(round(os.getloadavg()[0], 2))
        await one_run(size, samples)
        await anchor_run(size, samples)
    return {
        "samples": samples,
        "cpu": CPU,
        "loads": loads,
        "board_widgets": max(BOARD_WIDGETS, default=0),
        "anchor_widgets": max(ANCHOR_WIDGETS, default=0),
    }


def child(tree: str | None, size: str) -> dict[str, Any]:
    """One round in a fresh process (`tree` first on the path): its raw samples."""
    env = {**os.environ, **({"PYTHONPATH": tree} if tree else {})}
    out = subprocess.run(
        [sys.executable, "-m", "bench.tui_keys", "--runs", "1", "--size", size, "--raw"]
        + (["--tree", tree] if tree else []),
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=900,
    )
    if out.returncode != 0:  # say why the round failed (its last line), not just that it did
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"a round of {tree or 'this tree'} failed: {last}")
    result: dict[str, Any] = json.loads(out.stdout.splitlines()[-1])
    return result


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Rounds' raw samples as one summary, with the load of each round."""
    samples: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for part in parts:
        for name, values in part["samples"].items():
            samples.setdefault(name, []).extend(values)
            cpu.setdefault(name, []).extend(part["cpu"][name])
    return {
        **summary(samples, cpu),
        "loads_per_round": [load for part in parts for load in part["loads"]],
        "board_widgets": parts[0]["board_widgets"],
        "anchor_widgets": parts[0]["anchor_widgets"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.tui_keys", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh apps per scenario (default 5)")
    parser.add_argument("--size", default="80x24", help="terminal size WxH (default 80x24)")
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        metavar="N",
        help="CPU-bound processes kept running meanwhile (default 0)",
    )
    parser.add_argument("--before", help="another source tree, timed in the same rounds (ABAB)")
    parser.add_argument("--json", action="store_true", help="print one JSON object (the default)")
    parser.add_argument("--raw", action="store_true", help=argparse.SUPPRESS)  # a round's samples
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # the source tree a round imports
    args = parser.parse_args(argv)
    if args.tree:
        sys.path.insert(0, args.tree)  # its worldforge_tui and engine, this bench's code
    width, height = (int(x) for x in args.size.lower().split("x"))
    if args.raw:
        print(json.dumps(asyncio.run(collect(args.runs, (width, height)))))
        return 0
    before = machine()
    procs = burners(args.busy)
    try:
        if args.before:
            new, old = [], []
            for _ in range(args.runs):
                new.append(child(None, args.size))
                old.append(child(os.path.abspath(args.before), args.size))
            result = merge(new)
            old_result = merge(old)
            result["before"] = old_result
            result["cpu_new_over_before"] = {
                name: round(row["cpu_median_ms"] / old_row["cpu_median_ms"], 2)
                for name, row in result["rows"].items()
                if (old_row := old_result["rows"].get(name)) and old_row["cpu_median_ms"]
            }
        else:
            result = merge([asyncio.run(collect(args.runs, (width, height)))])
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    print(
        json.dumps(
            {
                "bench": "tui_keys",
                "runs": args.runs,
                "size": [width, height],
                "busy_processes": args.busy,
                "cpus": os.cpu_count(),
                **result,
                "machine": {"before": before, "after": machine()},
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
