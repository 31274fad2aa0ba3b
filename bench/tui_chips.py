"""Bench: the reading under a prompt costs the keys nothing. Driven by Textual's Pilot at the gate
of a seeded venture: a hurried rejection typed key by key into the reject prompt with its chip
row (the words read on a worker thread after a pause in typing), and the same keys typed into a
plain prompt (no reader) in the same rounds. Each sample is the wall time of one key, from
sending it to the app idle again with the character in the field; `shown_ms` is the time from
the last key to the chips showing that text's reading (the 0.15 s debounce included).

Run: `.venv/bin/python -m bench.tui_chips --json` (`--runs N`). Prints medians and p95 in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from textual.widgets import Input

from worldforge_tui.app import WorldForgeApp
from worldforge_tui.screens.dialogs import TextPromptScreen
from worldforge_tui.widgets.reading_chips import ReadingChips

PITCH = "Route planning for restaurant suppliers"
TYPED = "speak to head chefs, drop the routes talk, and call the van Sharp Sally"


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def _settle(app: Any, pilot: Any) -> None:
    for _ in range(400):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.busy is None and not any(w.is_running for w in app.workers):
            return


async def _type(pilot: Any, field: Input) -> list[float]:
    out = []
    for ch in TYPED:
        t0 = time.perf_counter()
        await pilot.press(ch if ch != " " else "space")
        while not field.value.endswith(ch):
            await pilot.pause()
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def one_round(save_dir: Path) -> dict[str, Any]:
    app = WorldForgeApp(pitch=PITCH, seed=5, save_dir=save_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(app, pilot)
        app.push_screen(TextPromptScreen("Plain prompt (no reader)"))
        await pilot.pause()
        plain = await _type(pilot, app.screen.query_one(Input))
        app.pop_screen()
        await pilot.pause()
        await pilot.press("r")
        await _settle(app, pilot)
        chips = app.screen.query_one(ReadingChips)
        keys = await _type(pilot, app.screen.query_one(Input))
        t0 = time.perf_counter()
        while chips.read_for != TYPED:
            await pilot.pause()
        shown = (time.perf_counter() - t0) * 1000
    return {"plain": plain, "chips": keys, "shown": shown}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    plain: list[float] = []
    chips: list[float] = []
    shown: list[float] = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            got = asyncio.run(one_round(Path(tmp)))
        plain += got["plain"]
        chips += got["chips"]
        shown.append(got["shown"])
    out = {
        "keys_per_round": len(TYPED),
        "runs": args.runs,
        "key_ms_plain_prompt": {
            "median": round(statistics.median(plain), 2),
            "p95": round(p95(plain), 2),
        },
        "key_ms_with_chips": {
            "median": round(statistics.median(chips), 2),
            "p95": round(p95(chips), 2),
        },
        "shown_ms_after_last_key": {"median": round(statistics.median(shown), 1)},
    }
    print(json.dumps(out, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
