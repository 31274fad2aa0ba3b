"""The replay pane: batched flushes, tabs, filter, cursor and the inspect request."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Tabs

from worldforge_tui.widgets.replay_log import ReplayLog
from worldforge_tui.widgets.replay_pane import ReplayPane


class PaneApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.inspected: list = []

    def compose(self) -> ComposeResult:
        yield ReplayPane()

    def on_replay_log_inspect(self, message: ReplayLog.Inspect) -> None:
        self.inspected.append(message.entry)


def events(n: int, start: int = 1):
    kinds = ("STAGE_EXECUTED", "MEMORY_WRITTEN", "CEO_DECISION")
    return [
        {
            "id": i,
            "game_day": i,
            "type": kinds[i % 3],
            "actor": "ops",
            "message": f"row {i} [bold]x[/]",
            "payload": {"served_by": "simulation"} if i % 3 == 0 else {},
        }
        for i in range(start, start + n)
    ]


def select_tab(app: App[None], tab_id: str) -> None:
    """Switch the pane's visible tab by id (events, workers, knowledge, memory), as a click does."""
    app.screen.query_one("#replay-tabs", Tabs).active = f"replay-tab-{tab_id}"


def rendered(log: ReplayLog) -> list[str]:
    return [log.render_line(y).text for y in range(log.size.height)]


async def test_batched_flush_tabs_filter_and_inspect():
    app = PaneApp()
    async with app.run_test(size=(100, 20)) as pilot:
        log = app.screen.query_one(ReplayLog)
        log.push_many(events(30))
        assert log.entries == []  # nothing shown until the flush tick
        log.flush()
        await pilot.pause()
        assert len(log.entries) == 30 and log.selected.id == 30  # follows the tail
        assert any("row 30 [bold]x[/]" in line for line in rendered(log))

        log.push_many(events(5, start=28))  # overlapping ids are dropped
        log.flush()
        assert [e.id for e in log.entries][-3:] == [30, 31, 32]

        select_tab(app, "memory")
        await pilot.pause()
        assert {e.type for e in log.visible_entries} == {"MEMORY_WRITTEN"}

        select_tab(app, "events")
        await pilot.pause()
        log.focus()
        app.screen.query_one(ReplayPane).action_focus_filter()  # `/` on the board (test_focus)
        await pilot.press("r", "o", "w", " ", "1", "2", "enter")
        assert [e.id for e in log.visible_entries] == [12]
        await pilot.press("enter")
        assert [e.id for e in app.inspected] == [12]

        app.screen.query_one(ReplayPane).action_focus_filter()
        await pilot.press("backspace", "backspace", "backspace", "enter", "home")
        assert log.selected.id == 1
        await pilot.press("down", "down", "enter")
        assert app.inspected[-1].id == 3


async def test_prunes_to_max_entries():
    app = PaneApp()
    async with app.run_test(size=(80, 12)) as pilot:
        log = app.screen.query_one(ReplayLog)
        log.max_entries = 100
        log.push_many(events(250))
        log.flush()
        await pilot.pause()
        assert len(log.entries) <= 100 and log.entries[-1].id == 250
