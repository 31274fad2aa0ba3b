"""The main screen: Story, Decision receipt, Memory and Replay log panes, action bar, status bar.

Its keys come from the action registry (`worldforge_tui.actions`); `check_action` asks the registry
what the current phase allows: an action of another phase is hidden, one the engine would refuse
now is shown greyed, so the footer and the buttons always say what is possible.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Static

from worldforge_tui import actions
from worldforge_tui.consequences import since_last_decision
from worldforge_tui.screens.resume import StyledOnMount
from worldforge_tui.widgets import shown
from worldforge_tui.widgets.action_bar import ActionBar
from worldforge_tui.widgets.key_footer import KeyFooter
from worldforge_tui.widgets.memory_pane import MemoryPane
from worldforge_tui.widgets.receipt_pane import ReceiptPane
from worldforge_tui.widgets.replay_pane import ReplayPane
from worldforge_tui.widgets.status_bar import StatusBar
from worldforge_tui.widgets.story_pane import StoryPane

if TYPE_CHECKING:
    from engine.views.snapshot import Snapshot
    from worldforge_tui.app import WorldForgeApp

W = TypeVar("W", bound=Widget)
PANES = (("story", "Story"), ("receipt", "Receipt"), ("memory", "Memory"), ("log", "Replay log"))


def pane_bar(active: str, key_of: Callable[[str], str] | None = None) -> Content:
    """The compact-mode pane switcher: live key, name, the active one highlighted; clickable."""
    parts = []
    for number, (pane, label) in enumerate(PANES, start=1):
        style = "reverse bold" if pane == active else ""
        key = key_of(f"pane.{pane}") if key_of is not None else f"F{number}"
        parts.append(f"[{style} @click=screen.pane('{pane}')] {key} {label} [/]")
    return Content.from_markup("  ".join(parts))


def titled(widget: W, title: str) -> W:
    """Set a pane's border title before it mounts (no restyle after the first frame)."""
    widget.border_title = title
    return widget


TYPED_AHEAD_LIMIT = 4000  # keys kept while the engine loads, replayed once it has


class MainScreen(StyledOnMount, Screen[None]):
    """The board. In compact terminals one pane shows at a time (tabs, or F1–F4)."""

    # Textual's `Screen.focused` repaints the whole screen when the focus moves: every widget on
    # the board rendered again for an F1-F4 (~460 lines of 45 on a wide board), in the frame that
    # also carries the streamed pieces, which waited behind it (bench.tui_stream). What the move
    # changes repaints itself: the widgets focused and blurred (their Focus/Blur), the panes'
    # `:focus-within` borders (restyled), the footer's keys (the bindings signal).
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    COMPACT_BELOW = 110  # columns; HORIZONTAL_BREAKPOINTS use the same edge
    # On the board only (the only screen whose CSS uses them): set on the app, every screen
    # pushed would be restyled whole once more when its first resize adds the class.
    HORIZONTAL_BREAKPOINTS = [(0, "-compact"), (COMPACT_BELOW, "-wide")]  # noqa: RUF012
    # pane → which containers compact mode displays (the wide layout displays them all)
    COMPACT_LAYOUT: ClassVar[dict[str, dict[str, bool]]] = {
        "story": {"top": True, "story": True, "right": False, "log": False},
        "receipt": {
            "top": True,
            "story": False,
            "right": True,
            "receipt": True,
            "memory": False,
            "log": False,
        },
        "memory": {
            "top": True,
            "story": False,
            "right": True,
            "receipt": False,
            "memory": True,
            "log": False,
        },
        "log": {"top": False, "log": True},
    }

    def __init__(self) -> None:
        super().__init__()
        self._pane = "story"
        self._laid_out: tuple[str, bool] | None = None
        # The classes the first resize would give, set before the board is first styled: added by
        # that resize instead, each restyles every widget on the board once more before the
        # first frame (the breakpoint class all ~50 of them, the status bar's its own).
        self._width = self._opening_width()
        self.add_class(
            self.breakpoint_class(self._width),
            update=False,  # styled once, when it mounts (restyling now parsed the CSS early)
        )

    @classmethod
    def breakpoint_class(cls, width: int) -> str:
        """The class Textual's resize gives a board `width` columns wide (its breakpoints)."""
        return "-wide" if width >= cls.COMPACT_BELOW else "-compact"

    def _opening_width(self) -> int:
        try:
            return self.app.size.width
        except Exception:  # noqa: BLE001 - built outside a running app (tests): the resize decides
            return 0

    BINDINGS: ClassVar[list[BindingType]] = list(actions.bindings("board"))
    ROWS: ClassVar[tuple[actions.GameAction, ...]] = actions.in_scope("board")  # as BINDINGS

    @classmethod
    def from_table(cls) -> MainScreen:
        """The board, keyed from the action table as it is now: a row added after this module
        loaded (a command registered at run time) answers its key like the others."""
        if actions.in_scope("board") == cls.ROWS:
            return cls()
        rows = actions.in_scope("board")
        board: type[MainScreen] = type(
            cls.__name__, (cls,), {"BINDINGS": actions.bindings("board"), "ROWS": rows}
        )
        return board()

    def compose(self) -> ComposeResult:
        yield Static(pane_bar("story"), id="pane-tabs")
        with Horizontal(id="top"):
            yield titled(StoryPane(id="story"), "Story")
            with Vertical(id="right"):
                yield titled(ReceiptPane(id="receipt"), "Decision receipt")
                yield titled(MemoryPane(id="memory"), "Memory")
        yield titled(ReplayPane(id="log"), "Replay log")
        yield ActionBar(id="actions")
        yield StatusBar(id="status", classes="-compact" if 0 < self._width < 140 else None)
        yield KeyFooter()

    @property
    def wf(self) -> WorldForgeApp:
        return self.app  # type: ignore[return-value]

    # ---- rendering -----------------------------------------------------------------------
    def show(self, snap: Snapshot | None, *, busy: bool = False) -> None:
        """Render every pane from one snapshot (None = no venture open)."""
        found = since_last_decision(self.query_one(ReplayPane).log_view.entries) if snap else ()
        self.query_one(StoryPane).show(snap, found, self.wf.key_of, busy=busy)
        self.query_one(ReceiptPane).show(snap)
        self.query_one(MemoryPane).show(snap)
        status = self.query_one(StatusBar)
        if snap is None:
            status.show(None, (), None, self.wf.pill())
            self.query_one(ActionBar).show_state(None, {}, busy)
        else:
            status.show(
                snap.economics,
                snap.treasury_history,
                snap.day,
                self.wf.pill(),
                memory=snap.memory_store,
            )
            labels = None
            if snap.dilemma is not None and len(snap.dilemma.options) >= 2:
                first, second = snap.dilemma.options[:2]
                fatal = snap.fatal_options
                labels = (
                    ("✖ " if first.key in fatal else "") + first.text,
                    ("✖ " if second.key in fatal else "") + second.text,
                )
            self.query_one(ActionBar).show_state(
                snap.phase, self.allowed(snap), busy, snap.redos_left, labels
            )
        self.query_one(ActionBar).relabel(self.wf.key_of)
        self.refresh_bindings()

    def on_resize(self) -> None:
        self._lay_out()
        status = self.query_one(StatusBar)
        compact = self.size.width < 140
        self.query_one(KeyFooter).compact = self.size.width < self.COMPACT_BELOW
        if status.has_class("-compact") != compact:
            status.set_class(compact, "-compact")
            self.show(self.wf.snap, busy=self.wf.busy is not None)
        status.fit(self.size.width)  # meters before the sparkline; two lines when short

    # ---- compact pane switching ----------------------------------------------------------
    def action_pane(self, pane: str) -> None:
        """Show and focus a pane (F1–F4, or a click on the pane bar), at any size."""
        self.reveal(pane, focusing=True)
        target = self.focus_target(pane)
        if target is not None:
            target.focus(scroll_visible=False)

    def focus_target(self, pane: str) -> Widget | None:
        """The widget that takes the keys when a pane is chosen."""
        selector = {
            "story": "#story",
            "receipt": "#receipt",
            "memory": "#memory-list",
            "log": "#replay-log",
        }.get(pane)
        return self.query_one(selector) if selector else None

    def reveal(self, pane: str, *, focusing: bool = False) -> None:
        """Bring a pane forward (the one shown in compact mode); focus stays where it is, or
        leaves a widget hidden now, unless the caller (`focusing`) moves it into the pane."""
        self._pane = pane
        self._lay_out(keep_focus=focusing)
        tabs = self.query_one("#pane-tabs", Static)
        bar = pane_bar(pane, self.wf.key_of)
        # Its one line keeps its length when only the highlighted pane changes: a repaint of the
        # line, not a layout of the board (each F1-F4 laid every widget out again, ~35 a streamed
        # stage in the bench's key presses); a rebound key's longer name still lays it out.
        before = getattr(tabs.content, "plain", None)
        shown.update(tabs, bar, layout=before is None or len(before) != len(bar.plain))

    def _lay_out(self, *, keep_focus: bool = False) -> None:
        """Display only the chosen pane's containers in compact mode, all of them when wide.

        Toggling `display` on a few containers restyles only them; a class on the screen would
        restyle every widget on the board (measured: ~0.4 s a key on a busy machine). A focused
        widget that goes out of sight loses the focus here, in the same frame, as Textual would
        do on the next layout (one more restyle and frame)."""
        compact = 0 < self.size.width < self.COMPACT_BELOW
        if self._laid_out == (self._pane, compact):
            return
        self._laid_out = (self._pane, compact)
        layout = self.COMPACT_LAYOUT[self._pane] if compact else {}
        hidden: list[Widget] = []
        with self.app.batch_update():
            for name in ("top", "story", "right", "receipt", "memory", "log"):
                widget = self.query_one(f"#{name}")
                display = layout.get(name, True)
                if not display:
                    hidden.append(widget)
                if widget.display != display:
                    widget.display = display
            focused = None if keep_focus else self.focused
            if focused is not None and any(w in hidden for w in focused.ancestors_with_self):
                self.set_focus(None)

    @property
    def shown_pane(self) -> str:
        """The pane compact mode shows now (and the one last chosen when wide)."""
        return self._pane

    def action_focus_filter(self) -> None:
        """`/` from anywhere on the board: show the log and type into its filter."""
        self.reveal("log")
        self.query_one(ReplayPane).action_focus_filter()

    # ---- gate actions --------------------------------------------------------------------
    def _phase_state(self) -> tuple[str | None, dict[str, bool], bool]:
        """(phase, what the engine allows, busy) as the registry needs them."""
        snap = self.wf.snap
        if snap is None or self.wf.session is None:
            return None, {}, self.wf.busy is not None
        return snap.phase, self.allowed(snap), self.wf.busy is not None

    def allowed(self, snap: Snapshot) -> dict[str, bool]:
        """What the engine allows now; nothing in a window that only watches the venture."""
        session = self.wf.session
        return {} if session is not None and session.read_only else dict(snap.can)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Phase keys: shown for their own phase only, and greyed there when not possible."""
        row = actions.by_action("board", action, parameters)
        return True if row is None else self.row_state(row)

    def row_state(self, row: actions.GameAction) -> bool | None:
        """A board row's `check_action` answer now (the palette asks it too)."""
        return actions.state_of(row, *self._phase_state())

    def on_key(self, event: events.Key) -> None:
        """A phase key that cannot act now says why instead of doing nothing. While the engine
        loads, a key is kept and replayed once it has loaded (`n`, `l`, `?` then do what the
        welcome frame says), never dropped and never typed into a dialog opened meanwhile."""
        if self.wf.booting and event.is_printable and event.character:
            event.stop()
            if len(self.wf.typed_ahead) < TYPED_AHEAD_LIMIT:
                self.wf.typed_ahead.append((event.key, event.character))
            return
        rows = [
            r
            for r in actions.in_scope("board")
            if r.command and event.key in self.wf.live_keys.get(r.id, r.key).split(",")
        ]
        row = rows[0] if rows else None  # a key may serve two phases (1/2: fork, event)
        if row is None or any(actions.state_of(r, *self._phase_state()) is True for r in rows):
            return
        event.stop()
        snap = self.wf.snap
        if snap is None:
            why = f"no venture is open ({self.wf.key_of('app.new')} starts one)"
        elif self.wf.busy is not None:
            why = "a worker is still at work"
        elif self.wf.session is not None and self.wf.session.read_only:
            why = "this window is watching the venture (read-only); play it where it is open"
        else:
            why = (
                actions.hint_line(snap.phase, dict(snap.can), self.wf.key_of, snap.redos_left)
                or f"the venture is in {snap.phase}"
            )
        self.notify(
            f"{row.label.rstrip('…')} is not possible now: {why}",
            markup=False,
            severity="warning",
            timeout=3,
        )

    def action_give(self, row_id: str) -> None:
        """Every command row's action: the app's one path gives the row's command."""
        self.wf.player.give(row_id)

    @on(Button.Pressed, "#actions Button")
    async def _button(self, event: Button.Pressed) -> None:
        for row in actions.ACTIONS:
            if row.button is not None and event.button.id == row.button:
                await self.run_action(row.action)
                return
