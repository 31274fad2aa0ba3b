"""Bench: the first key pressed on the welcome frame does what the frame says, in a real terminal.

Run: `.venv/bin/python -m bench.tui_first_key [--runs 20]` (needs tmux; prints one JSON object).
Each run starts `worldforge play` in a fresh tmux session (100×30, its own WORLDFORGE_HOME), waits
for the welcome frame ("found a company"), and presses one of its keys at once, while the engine
is still loading: `l` must open the load dialog, `?` the help, and `n` then `bike` the new-venture
form with "bike" in its pitch. A run whose key opened nothing, opened something else, or was typed
into a form the player did not open counts as a key lost. Target: 0 lost.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WELCOME = "found a company"
# key(s) pressed on the welcome frame → text that shows they did what it says, text that must not
# show (a key typed into the pitch field of a form the player did not open)
CASES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("l",), "Load a venture", "Pitch"),
    (("?",), "how to play", "Pitch"),
    (("n", "bike"), "bike", "Load a venture"),
)
WAIT = 60.0  # seconds for a frame to show on a loaded machine before the run counts as lost


SOCKET = f"wf-first-key-{os.getpid()}"  # a tmux server of its own: no other session is touched


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", "-L", SOCKET, *args], check=True, capture_output=True, text=True, timeout=30
    ).stdout


def start(name: str, command: str) -> None:
    """A detached session running `command` (retried: a server that is exiting as its last
    session closes can refuse the next one for a moment)."""
    for attempt in range(5):
        try:
            tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", command)
            return
        except subprocess.CalledProcessError:
            if attempt == 4:
                raise
            time.sleep(0.5)


def screen(name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name)


def until(name: str, text: str) -> str | None:
    """The pane once it shows `text`, or None after WAIT seconds."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        shown = screen(name)
        if text in shown:
            return shown
        time.sleep(0.02)
    return None


def one_start(run: int, keys: tuple[str, ...], expect: str, never: str) -> dict[str, object]:
    """Start the game, press `keys` on the welcome frame, and say whether they were kept."""
    name = f"wf-first-key-{os.getpid()}-{run}"
    game = Path(sys.executable).with_name("worldforge")
    with tempfile.TemporaryDirectory() as home:
        command = f"env WORLDFORGE_HOME={home} {game} play"
        start(name, command)
        try:
            welcome = until(name, WELCOME)
            if welcome is None:
                return {"keys": keys, "lost": True, "why": "no welcome frame"}
            still_loading = "New venture" not in welcome  # the form would have opened by now
            for key in keys:
                tmux("send-keys", "-t", name, "-l", key)
            shown = until(name, expect)
            time.sleep(0.3)  # a stray key would show in the next frames
            final = screen(name)
            lost = shown is None or never in final
            return {"keys": keys, "lost": lost, "pressed_while_loading": still_loading}
        finally:
            subprocess.run(
                ["tmux", "-L", SOCKET, "kill-session", "-t", name],
                check=False,
                capture_output=True,
                timeout=30,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print(json.dumps({"error": "tmux is not installed"}))
        return 2
    runs = [one_start(i, *CASES[i % len(CASES)]) for i in range(args.runs)]
    print(
        json.dumps(
            {
                "bench": "tui_first_key",
                "starts": len(runs),
                "keys_lost": sum(1 for r in runs if r["lost"]),
                "pressed_while_loading": sum(1 for r in runs if r.get("pressed_while_loading")),
                "runs": runs,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
