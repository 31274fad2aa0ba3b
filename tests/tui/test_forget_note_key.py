"""`d` on the highlighted note of the memory pane forgets that note (after the player confirms): a
recorded command of the run; every other note stands. Before, `f` forgot the whole run and only
`w` showed what forgetting one note would do."""

from __future__ import annotations

from textual.widgets import OptionList

from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.memory_pane import MemoryPane

PITCH = "Meal kits for night-shift nurses"


async def test_d_forgets_the_highlighted_note_only(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        for key in ("a", "1"):
            await pilot.press(key)
            await settle(app, pilot)
        live = [r for r in app.snap.memory if r["status"] in ("provisional", "active")]
        binding = next(r for r in live if r["kind"] == "procedural")
        pane = app.main.query_one(MemoryPane)
        option_list = pane.query_one(OptionList)
        option_list.focus()
        option_list.highlighted = option_list.get_option_index(f"mem:{binding['id']}")
        await pilot.press("d", "n")  # declined: nothing forgotten
        await settle(app, pilot)
        assert binding["id"] in {r["id"] for r in app.snap.memory}
        option_list.focus()
        option_list.highlighted = option_list.get_option_index(f"mem:{binding['id']}")
        await pilot.press("d", "y")
        await settle(app, pilot)
        left = {r["id"] for r in app.snap.memory}
        assert binding["id"] not in left
        assert left == {r["id"] for r in live} - {binding["id"]}
        recorded = [e for e in app.session.events() if e.payload.get("operation") == "forget_note"]
        assert [e.payload["id"] for e in recorded] == [binding["id"]]
        assert app.is_running
