"""Expiry happens on the day it says: a note the memory pane shows as "expired day N" is one the
`p` dry run counts (and a prune archives), never "0 memories would go" beside it."""

from __future__ import annotations

from textual.widgets import OptionList

from memory.models import NewNote
from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.memory_pane import MemoryPane, expired, record_prompt


async def test_p_counts_the_notes_the_pane_says_expired(tmp_path):
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        session = app.session
        today = session.state.day
        session.memory.remember(  # important: the old rule kept it live for ever
            NewNote(
                "context",
                "Night-shift nurses renew every spring",
                author="system",
                game_day=today,
                importance=7.0,
                expires_day=today,
            )
        )
        app.main.query_one(MemoryPane).query_one(OptionList).focus()  # `p` is the pane's key
        await pilot.press("p")
        await settle(app, pilot)
        records = [r.to_dict() for r in session.memory.records()]  # what the pane lists
        shown = [
            r for r in records if r.get("status") in ("provisional", "active") and expired(r, today)
        ]
        assert len(shown) >= 1  # the pane says "expired day N" of the new note
        assert "expired day" in str(record_prompt(shown[-1], False, today))
        said = [n.message for n in app._notifications if "Prune dry run" in n.message]
        assert said and said[-1].startswith(f"Prune dry run: {len(shown)} memor"), said
        assert " 0 memories would go" not in said[-1]
