"""Screens and panes around the gate: compact layout, memory actions, load, help, inspector,
command palette entries."""

from __future__ import annotations

from textual.widgets import OptionList

from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.memory_pane import MemoryPane
from worldforge_tui.widgets.replay_log import ReplayLog

PITCH = "Meal kits for night-shift nurses"


async def test_compact_layout_switches_panes_and_reveals_receipt(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        board = app.main
        assert board.has_class("-compact") and board.shown_pane == "story"
        assert not board.query_one("#right").display and not board.query_one("#log").display
        await pilot.press("f4")
        assert board.shown_pane == "log" and board.query_one("#log").region.height > 0
        await pilot.press("f1", "a")
        await settle(app, pilot)
        await pilot.press("1")
        await settle(app, pilot)
        assert board.shown_pane == "receipt"
        assert board.query_one("#receipt").region.height > 0
        assert "You decided" in text_of(app, "#receipt-body")


async def test_memory_pane_prune_consolidate_forget(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        for key in ("a", "1", "g", "a", "2", "g"):
            await pilot.press(key)
            await settle(app, pilot)
        pane = app.main.query_one(MemoryPane)
        notes = [
            r["id"]
            for r in app.snap.memory
            if r["kind"] in ("preference", "context", "chat_summary")
            and r["status"] in ("provisional", "active")
        ][:2]
        assert len(notes) == 2
        option_list = pane.query_one(OptionList)
        option_list.focus()
        for memory_id in notes:
            option_list.highlighted = option_list.get_option_index(f"mem:{memory_id}")
            await pilot.press("space")
        assert pane.marked == set(notes)
        await pilot.press("c", *list("nurses want night delivery"), "enter")
        await settle(app, pilot)
        semantic = [r for r in app.snap.memory if r["kind"] == "semantic"]
        assert semantic and "night delivery" in semantic[0]["text"] and not pane.marked

        await pilot.press("p")
        await settle(app, pilot)
        assert any("Prune dry run" in n.message for n in app._notifications)
        from engine.game.rules import RULES
        from tests.slips import slips

        said = [n.message for n in app._notifications] + [e.message for e in app.replay.entries]
        assert "Merged 2 notes into one reviewed note." in said
        assert [s for line in said for s in slips(line, frozenset(RULES))] == []

        await pilot.press("f")
        await pilot.press("n")  # declined: nothing forgotten
        await settle(app, pilot)
        assert sum(app.snap.memory_counts.values()) > 0
        option_list.focus()
        await pilot.press("f", "y")
        await settle(app, pilot)
        assert sum(app.snap.memory_counts.values()) == 0
        assert app.is_running


async def test_load_help_inspector_and_palette(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        run_id = app.session.state.run_id
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert "Settings (s)" in commands and "Approve artifact (a)" in commands
        assert not any(title.startswith("Choose option 1") for title in commands)

        await pilot.press("question_mark")
        assert app.screen.__class__.__name__ == "HelpScreen"
        await pilot.press("escape")

        log = app.main.query_one(ReplayLog)
        log.focus()
        await pilot.press("home", "enter")
        assert app.screen.__class__.__name__ == "InspectorScreen"
        body = text_of(app, "#inspector-body")
        assert '"type": "RUN_STARTED"' in body and '"payload"' in body
        await pilot.press("escape")

        await pilot.press("l")
        assert app.screen.__class__.__name__ == "LoadScreen"
        assert run_id in app.screen.query_one(OptionList).get_option_at_index(0).id
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session.state.run_id == run_id and app.snap.phase == "gate"
        assert [e.id for e in log.entries if e.id] == [e.id for e in app.session.events()]


async def test_reject_disabled_after_two_redos_with_a_notice(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        for reason in ("leave out salons", "price it at $27 a month"):  # placeable: each a redo
            await pilot.press("r", *[("space" if c == " " else c) for c in reason], "enter")
            await settle(app, pilot)
        assert app.session.state.stages[0].redos == 2 and app.snap.phase == "gate"
        assert app.main.query_one("#btn-reject").disabled
        assert app.main.check_action("give", ("gate.reject",)) is None  # shown greyed, not hidden
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "MainScreen"  # no reason prompt opened
        assert any("Reject is not possible now" in n.message for n in app._notifications)
        assert "no redos left" in text_of(app, "#action-hint")


async def test_small_terminals_keep_every_meter_and_the_whole_pill(tmp_path):
    """At 60 columns the day and pill move under the meters; a long pill does so at 80."""
    from worldforge_tui.widgets.key_footer import KeyFooter
    from worldforge_tui.widgets.status_bar import StatusBar

    for size, pill in (((60, 20), None), ((80, 24), "local: qwen2.5-coder:32b-instruct-q4_K_M")):
        app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path / str(size[0]))
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            bar = app.main.query_one(StatusBar)
            if pill is not None:
                bar.set_pill(pill)
            await pilot.pause()
            assert bar.has_class("-two-lines") and bar.region.height == 2
            for selector in ("#status-meters", "#status-pill", "#status-day"):
                widget = bar.query_one(selector)
                text = text_of(app, selector)
                assert widget.content_region.width >= len(text) > 0, (size, selector, text)
                assert widget.region.right <= size[0]
            assert all(m in text_of(app, "#status-meters") for m in (" V", " ⚠", " r "))
            footer = app.main.query_one(KeyFooter).visual.plain  # type: ignore[attr-defined]  # Content
            assert len(footer.rstrip()) <= size[0] and "…" not in footer
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path / "wide")
    async with app.run_test(size=(120, 40)) as pilot:  # room to spare: one line, sparkline shown
        await settle(app, pilot)
        bar = app.main.query_one(StatusBar)
        assert not bar.has_class("-two-lines") and bar.query_one("#status-spark").display


async def test_the_help_names_the_treasury_by_the_books_currency(tmp_path):
    """Played: a Leeds venture's status bar read "£24k", while the help's meter list put "$"
    before the treasury."""
    app = WorldForgeApp(pitch="Dog walking for busy nurses in Leeds", seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.session.state.founder.currency == "GBP"
        await pilot.press("question_mark")
        await settle(app, pilot)
        glossary = text_of(app, "#help-glossary")
        assert "£  treasury" in glossary and "$  treasury" not in glossary
