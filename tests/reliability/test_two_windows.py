"""Issue 12 case 1 in the TUI: a second window on a run (here a Pilot-driven app) opens it
read-only while another process holds it, says who holds it, scrolls that window's log live, and
takes the run over once the holder closes it."""

from __future__ import annotations

from pathlib import Path

import textual.constants

from tests.reliability.conftest import play_venture
from tests.reliability.test_one_writer import Window
from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp

textual.constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]


async def _until(pilot, check, rounds: int = 200) -> None:
    for _ in range(rounds):
        if check():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition never held")


async def test_second_window_is_read_only_and_watches_the_log(tmp_path: Path) -> None:
    run_id = play_venture(tmp_path, stop_after=1)  # the gate is open
    holder = Window(tmp_path, run_id)
    try:
        assert holder.first == "ready False"
        app = WorldForgeApp(save_dir=tmp_path)
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await settle(app, pilot)
            while app.screen is not app.main:
                app.pop_screen()
            app.open_venture({"resume": run_id})
            await settle(app, pilot)
            assert app.session is not None and app.session.read_only
            notes = [n.message for n in app._notifications]
            assert any(f"pid {holder.proc.pid}" in m and "another window" in m for m in notes)
            await pilot.press("a")  # approve is refused here: the holder's state stays
            await settle(app, pilot)
            assert app.snap.phase == "gate"
            assert holder.send("approve") == "ok fork"  # the holder decides; this window watches
            await _until(pilot, lambda: app.snap is not None and app.snap.phase == "fork")
            assert any(e.type == "ARTIFACT_APPROVED" for e in app.session.events())
            holder.close()
            await _until(pilot, lambda: not app.session.read_only)
            # notify() posts a message: the note arrives after the take-over, not in the same tick
            await _until(
                pilot, lambda: any("you can play" in n.message for n in app._notifications)
            )
    finally:
        holder.close()
