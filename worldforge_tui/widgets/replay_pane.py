"""The Replay log pane: tabs (events, workers & tools, knowledge, memory writes), a filter, the log."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Tab, Tabs

from worldforge_tui import actions
from worldforge_tui.replay_entries import TABS
from worldforge_tui.widgets import shown
from worldforge_tui.widgets.replay_log import ReplayLog


class FilterInput(Input):
    """The log's filter: Escape clears it and returns to the log (as help and the palette say)."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("filter")

    def action_clear_filter(self) -> None:
        self.value = ""
        pane = next((a for a in self.ancestors if isinstance(a, ReplayPane)), None)
        if pane is not None:
            pane.log_view.focus()


class ReplayPane(Vertical):
    """Tabs + filter + the virtualised log; `/` (a board key) focuses the filter, Enter returns."""

    DEFAULT_CSS = """
    ReplayPane { height: 1fr; }
    ReplayPane #replay-tabs { height: 2; }
    ReplayPane #replay-bar { height: 1; }
    ReplayPane #replay-filter { width: 1fr; height: 1; border: none; padding: 0 1; }
    ReplayPane #replay-count { width: auto; padding: 0 1; color: $foreground-muted; }
    ReplayPane ReplayLog { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Tabs(
            *(Tab(label, id=f"replay-tab-{tab_id}") for tab_id, label, _ in TABS), id="replay-tabs"
        )
        with Horizontal(id="replay-bar"):
            yield FilterInput(
                placeholder="/ filter (type, actor, text) · Escape clears",
                id="replay-filter",
                compact=True,
            )
            yield Label("0", id="replay-count", markup=False)
        yield ReplayLog(id="replay-log")

    @property
    def log_view(self) -> ReplayLog:
        return self.query_one(ReplayLog)

    @on(Tabs.TabActivated, "#replay-tabs")
    def _tab_changed(self, event: Tabs.TabActivated) -> None:
        tab_id = (event.tab.id or "replay-tab-events").removeprefix("replay-tab-")
        self.log_view.set_tab(tab_id)

    @on(Input.Changed, "#replay-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.log_view.set_filter(event.value)

    @on(Input.Submitted, "#replay-filter")
    def _filter_done(self) -> None:
        self.log_view.focus()

    @on(ReplayLog.Counted)
    def _counted(self, event: ReplayLog.Counted) -> None:
        label = (
            f"{event.shown:,}" if event.shown == event.total else f"{event.shown:,}/{event.total:,}"
        )
        shown.update(self.query_one("#replay-count", Label), label)

    def action_focus_filter(self) -> None:
        self.query_one("#replay-filter", Input).focus()

    def clear_filter(self) -> bool:
        """Empty the filter (False when there was none)."""
        field = self.query_one("#replay-filter", Input)
        if not field.value:
            return False
        field.value = ""
        return True
