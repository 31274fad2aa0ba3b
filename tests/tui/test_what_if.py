"""The memory pane's "what if they forgot this?" key: the highlighted note's stage re-derived
without it, shown in a dialog (brief, work, score, DRIFT); the run itself does not change."""

from __future__ import annotations

from textual.widgets import OptionList, Static

from engine.session.saves import state_json
from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.memory_pane import MemoryPane

PITCH = "Mobile grooming for dogs, for solo groomers who work from a van"
REASON = (
    "Speak to solo groomers who work from a van, not dog owners. Price it at 25 dollars a month."
)


def _highlight(app, kind: str) -> str:
    pane = app.main.query_one(MemoryPane)
    options = app.main.query_one("#memory-list", OptionList)
    for i in range(options.option_count):
        oid = options.get_option_at_index(i).id or ""
        if oid.startswith("mem:") and pane.records[oid[4:]].get("kind") == kind:
            options.highlighted = i
            return oid[4:]
    raise AssertionError(f"no {kind} note in the pane")


async def test_what_if_shows_the_work_without_the_highlighted_note(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=31, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("r", *REASON, "enter")
        await settle(app, pilot)
        events = len(app.session.events())
        state = state_json(app.session.state)
        app.main.action_pane("memory")
        _highlight(app, "procedural")
        await pilot.press(app.key_of("memory.what_if"))
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "InspectorScreen"
        body = str(app.screen.query_one("#inspector-body", Static).visual)
        assert "What if they forgot this note?" in " ".join(
            str(x.render()) for x in app.screen.query(".dialog-title")
        )
        assert "This note binds 1 stage: 1 YOU." in body  # each stage it binds, named
        assert "Stage 1 YOU" in body and "attempt 2" in body
        assert "− price $25 a month (from your rejection, YOU)" in body
        assert "Score: " in body and "Gate: " in body and "Who it is for:" in body
        assert "mem-" not in body  # no internal ids on screen
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "MainScreen"
        assert len(app.session.events()) == events  # nothing was recorded
        assert state_json(app.session.state) == state


async def test_what_if_with_nothing_highlighted_says_so(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=31, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        app.main.action_pane("memory")
        app.main.query_one("#memory-list", OptionList).highlighted = None
        await pilot.press(app.key_of("memory.what_if"))
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "MainScreen"
        assert any("Highlight a note" in n.message for n in app._notifications)


async def test_what_if_for_a_note_no_stage_has_used_yet_is_one_notice(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=31, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        app.main.action_pane("memory")
        _highlight(app, "preference")  # written by stage 1's worker: no later stage ran yet
        await pilot.press(app.key_of("memory.what_if"))
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "MainScreen"
        assert any("while note" in n.message for n in app._notifications)
