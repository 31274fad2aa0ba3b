"""Bench: what one pane switch (F2 then F1, as bench.tui_stream presses them while a worker
streams) costs the board, in figures the machine's load does not move: layouts (compositor
reflows), widgets whose size changed, full-screen vs partial updates, the lines and cells the
widgets rendered for the frames, and the Python calls made (the same switches run again under
cProfile, which counts them); beside them the CPU time per switch (load-sensitive, for scale).

The board is the real one, headless, after a stage has run (the story full), at a wide size (every
pane on screen, the bench's 140x45) and a compact one (one pane at a time). Counting wraps a few
Textual internals (the compositor's reflow and updates, `Widget.render_lines`): bench-only, as
`watch_frames`; the game never touches them.

Run: `.venv/bin/python -m bench.tui_pane_switch --json [--switches 20]`
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import machine

PITCH = "Meal kits for night-shift nurses"
SIZES = {"wide": (140, 45), "compact": (100, 40)}


def _count(counts: Counter[str]) -> Any:
    """Wrap the compositor and `render_lines` to count into `counts`; returns the undo."""
    from textual._compositor import Compositor
    from textual.widget import Widget

    reflow, full, partial, render_lines = (
        Compositor.reflow,
        Compositor.render_full_update,
        Compositor.render_partial_update,
        Widget.render_lines,
    )

    def counted_reflow(self: Any, parent: Any, size: Any) -> Any:
        result = reflow(self, parent, size)
        counts["layouts"] += 1
        counts["widgets_resized"] += len(result.resized)
        return result

    def counted_full(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["full_screen_updates"] += 1
        return full(self, *args, **kwargs)

    def counted_partial(self: Any) -> Any:
        counts["partial_updates"] += 1
        return partial(self)

    def counted_lines(self: Any, crop: Any) -> Any:
        lines = render_lines(self, crop)
        counts["widgets_rendered"] += 1
        counts["lines_rendered"] += len(lines)
        counts["cells_rendered"] += sum(line.cell_length for line in lines)
        return lines

    setattr(Compositor, "reflow", counted_reflow)  # noqa: B010 - bench-only, undone below
    setattr(Compositor, "render_full_update", counted_full)  # noqa: B010
    setattr(Compositor, "render_partial_update", counted_partial)  # noqa: B010
    setattr(Widget, "render_lines", counted_lines)  # noqa: B010

    def undo() -> None:
        setattr(Compositor, "reflow", reflow)  # noqa: B010
        setattr(Compositor, "render_full_update", full)  # noqa: B010
        setattr(Compositor, "render_partial_update", partial)  # noqa: B010
        setattr(Widget, "render_lines", render_lines)  # noqa: B010

    return undo


async def _switches(size: tuple[int, int], switches: int, tmp: Path) -> dict[str, Any]:
    import textual.constants

    from tests.tui.conftest import settle
    from worldforge_tui.app import WorldForgeApp

    textual.constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]
    app = WorldForgeApp(pitch=PITCH, seed=3, save_dir=tmp)
    counts: Counter[str] = Counter()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("g")  # a stage runs: the story pane full, as while streaming
        await settle(app, pilot)
        for key in ("f2", "f1", "f2", "f1"):  # warm: first renders and style caches
            await pilot.press(key)
            await pilot.pause()
        undo = _count(counts)
        cpu = time.process_time()
        try:
            for i in range(switches):
                await pilot.press(("f2", "f1")[i % 2])
                await pilot.pause()
        finally:
            cpu = time.process_time() - cpu
            undo()
        profile = cProfile.Profile()  # the same switches again, their Python calls counted
        profile.enable()
        for i in range(switches):
            await pilot.press(("f2", "f1")[i % 2])
            await pilot.pause()
        profile.disable()
    calls = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
    per = {name: round(value / switches, 2) for name, value in sorted(counts.items())}
    for name in ("layouts", "widgets_resized", "full_screen_updates", "partial_updates"):
        per.setdefault(name, 0.0)
    per["python_calls"] = round(calls / switches)
    return {
        "size": list(size),
        "per_switch": per,
        "cpu_ms_per_switch": round(cpu / switches * 1000, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--switches", type=int, default=20, help="pane switches (default 20)")
    parser.add_argument("--json", action="store_true", help="one line of JSON (default: indented)")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="wf-pane-switch-") as tmp:
        for name, size in SIZES.items():
            report[name] = asyncio.run(_switches(size, args.switches, Path(tmp) / name))
    report["machine"] = machine()
    sys.stdout.write(json.dumps(report, indent=None if args.json else 2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
