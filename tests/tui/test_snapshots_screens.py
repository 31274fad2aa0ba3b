"""Snapshot tests: every screen and every phase at 80×24 and 120×40 (and the board at 60×20),
seeded, animations off, fixed clock for the load dialog. (The payload inspector shows event
timestamps, so it is checked by behaviour in test_screens.py, not by picture.)

Regenerate after a deliberate visual change with `pytest tests/tui/test_snapshots_screens.py
--snapshot-update`, and review the SVGs first (`snapshot_report.html`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.conftest import after_keys, settle
from worldforge_tui.app import WorldForgeApp

PITCH = "Meal kits for night-shift nurses"
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


async def play_to_the_end(pilot) -> None:
    """Approve every gate, alternate options at every fork, until the end screen shows."""
    app = pilot.app
    await settle(app, pilot)
    for turn in range(60):
        if app.snap.phase == "ended":
            break
        key = {"gate": "a", "fork": "12"[turn % 2], "brief": "g"}[app.snap.phase]
        if app.snap.pending_event is not None:  # an event waits: the player answers it
            key = "1"
        await pilot.press(key)
        await settle(app, pilot)
    assert app.screen.__class__.__name__ == "EndScreen"


async def fatal_fork(pilot) -> None:
    """Stage 3's fork with the company just inside a line one option's numbers cross."""
    from tests.tui.test_consequences import near_a_line

    app = pilot.app
    await settle(app, pilot)
    for _ in range(20):
        if app.snap.phase == "fork" and app.snap.stage_index == 2:
            break
        await pilot.press({"gate": "a", "fork": "1", "brief": "g"}[app.snap.phase])
        await settle(app, pilot)
    near_a_line(app.session)
    app.snapshot()
    app.refresh_view()
    app.main.reveal("story")
    await pilot.pause()


SCENES = {
    "gate": after_keys(),
    "fork": after_keys("a"),
    "standup": after_keys("a", "1"),
    "reject_prompt": after_keys("r"),
    "settings": after_keys("s"),
    "help": after_keys("question_mark"),
    "load": after_keys("l"),
    "forget_confirm": after_keys("f3", "f"),
    "log_filter": after_keys("slash", "m", "e", "m"),
    "end": play_to_the_end,
    "own_confirm": after_keys("a", "o", "s", "e", "l", "l", "enter"),
    "story_since_decision": after_keys("a", "1", "f1"),
    "palette_options": after_keys("a", "ctrl+p"),
    "fatal_fork": fatal_fork,
}


@pytest.fixture(autouse=True)
def fixed_clock_and_paths(monkeypatch):
    """The load dialog says when a save was written and the help names the keymap's path: pin
    both so the pictures do not age or carry a test's temporary directory."""
    monkeypatch.setattr("worldforge_tui.screens.load.human_time", lambda stamp: "today 12:00")
    monkeypatch.setattr("engine.config.config_dir", lambda: Path("/home/player/.config/worldforge"))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene", list(SCENES))
def test_scene(snap_compare, tmp_path, scene, size):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    assert snap_compare(app, terminal_size=size, run_before=SCENES[scene])


@pytest.mark.parametrize("size", SIZES)
def test_new_venture_form(snap_compare, tmp_path, size):
    app = WorldForgeApp(save_dir=tmp_path, seed=7)  # the form's seed is fresh unless named
    assert snap_compare(app, terminal_size=size, run_before=after_keys())


def test_small_terminal_60x20_keeps_revenue(snap_compare, tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    assert snap_compare(app, terminal_size=(60, 20), run_before=after_keys("a"))
