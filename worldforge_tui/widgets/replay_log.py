"""The replay log: a virtualised, batched, filterable view of every engine event.

Events are converted on the thread that produced them and queued; a timer on the UI loop moves
the queue into the view every ~80 ms, so a flood of events costs one refresh per tick, not one per
event. Only visible rows are rendered (Textual's line API), cached in an LRU of strips.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from worldforge_tui import actions, heap
from worldforge_tui.replay_entries import (
    ACTOR_WIDTH,
    CAT_KNOWLEDGE,
    CAT_MEMORY,
    TYPE_WIDTH,
    EventInbox,
    LogEntry,
    head,
    in_tab,
)

FLUSH_SECONDS = 0.08
FREEZE_BATCH = 2000
MAX_WIDTH = 480


class ReplayLog(ScrollView, can_focus=True):
    """Scrollable event rows with a cursor; Enter asks to inspect the selected row's payload."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "replay-log--cursor",
        "replay-log--id",
        "replay-log--type",
        "replay-log--actor",
        "replay-log--memory",
        "replay-log--knowledge",
        "replay-log--fallback",
    }
    DEFAULT_CSS = """
    ReplayLog {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        overflow-x: hidden;  /* a scrollbar appearing mid-flood would hide the tail row */
        & > .replay-log--cursor { background: $boost; text-style: bold; }
        &:focus > .replay-log--cursor { background: $accent 40%; }
        & > .replay-log--id { color: $foreground-muted; }
        & > .replay-log--type { color: $primary; }
        & > .replay-log--actor { color: $secondary; }
        & > .replay-log--memory { color: $success; }
        & > .replay-log--knowledge { color: $accent; }
        & > .replay-log--fallback { color: $warning; text-style: bold; }
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("log")

    cursor: reactive[int] = reactive(-1, repaint=False)

    class Inspect(Message):
        """The player asked to see one row's full payload."""

        def __init__(self, entry: LogEntry) -> None:
            super().__init__()
            self.entry = entry

    class Counted(Message):
        """Row totals changed (shown, total): lets the pane label its tabs."""

        def __init__(self, shown: int, total: int) -> None:
            super().__init__()
            self.shown = shown
            self.total = total

    def __init__(
        self,
        *,
        max_entries: int = 200_000,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.max_entries = max_entries
        self.inbox = EventInbox()  # engine events from any thread wait here for the next flush
        self._pending: deque[LogEntry] = self.inbox.entries
        self._entries: list[LogEntry] = []
        self._view: list[int] = []
        self._tab = "events"
        self._filter = ""
        self._width = 0
        self._last_id = 0
        self._follow = True
        self._cache: LRUCache[tuple[int, bool], Strip] = LRUCache(1024)

    # ---- feeding -------------------------------------------------------------------------
    def push(self, event: object) -> None:
        """Queue one engine event (thread-safe; converted here, shown on the next flush)."""
        self.inbox.put(event)

    def push_many(self, batch: Iterable[object]) -> None:
        """Queue many events at once (thread-safe)."""
        self.inbox.put_many(batch)

    def reset(self) -> None:
        """Forget every row (a different run was opened)."""
        self._pending.clear()
        self._entries.clear()
        self._view.clear()
        self._cache.clear()
        self._width = 0
        self._last_id = 0
        self._follow = True
        self.cursor = -1
        self.virtual_size = Size(0, 0)
        self.refresh()

    @property
    def entries(self) -> list[LogEntry]:
        """All rows held, oldest first (read-only by convention)."""
        return self._entries

    @property
    def visible_entries(self) -> list[LogEntry]:
        """The rows that pass the current tab and filter."""
        return [self._entries[i] for i in self._view]

    @property
    def pending_count(self) -> int:
        return len(self._pending)

    # While the app waits a moment for a command's result, the command's events are held for its
    # result's frame (the app flushes then): a tick between would draw them a frame early, and
    # lay the board out once more, for a step that takes a few milliseconds.
    held = False

    def on_mount(self) -> None:
        self.set_interval(FLUSH_SECONDS, self._tick, name="replay-flush")

    def _tick(self) -> None:
        if not self.held:
            self.flush()

    def flush(self) -> int:
        """Move queued rows into the view (UI thread); returns how many arrived."""
        if not self._pending:
            return 0
        batch: list[LogEntry] = []
        pop = self._pending.popleft
        last = self._last_id
        while self._pending:
            entry = pop()
            if entry.id and entry.id <= last:
                continue  # already shown (a resync overlapped the live listener)
            last = max(last, entry.id)
            batch.append(entry)
        self._last_id = last
        if not batch:
            return 0
        start = len(self._entries)
        self._entries.extend(batch)
        self._width = min(MAX_WIDTH, max(self._width, *(len(e.text) for e in batch)))
        matches = self._matches
        self._view.extend(i for i in range(start, start + len(batch)) if matches(self._entries[i]))
        if len(self._entries) > self.max_entries:
            self._prune()
        if len(batch) >= FREEZE_BATCH:
            # A flood leaves ~a million long-lived objects; without this every later full GC
            # rescans them all (~100 ms), stalling whichever keypress it lands on.
            heap.settle()
        self._after_change()
        return len(batch)

    def _prune(self) -> None:
        drop = len(self._entries) - int(self.max_entries * 0.9)
        del self._entries[:drop]
        self._rebuild()

    # ---- tabs and filter -----------------------------------------------------------------
    def _matches(self, entry: LogEntry) -> bool:
        if not in_tab(entry, self._tab):
            return False
        return not self._filter or self._filter in entry.text.lower()

    def _rebuild(self) -> None:
        matches = self._matches
        self._view = [i for i, entry in enumerate(self._entries) if matches(entry)]
        self._cache.clear()

    def set_tab(self, tab: str) -> None:
        """Show only one tab's rows (events, workers, knowledge, memory)."""
        if tab != self._tab:
            self._tab = tab
            self._rebuild()
            self._follow = True
            self._after_change()

    def set_filter(self, text: str) -> None:
        """Show only rows whose text contains `text` (case-insensitive)."""
        text = text.strip().lower()
        if text != self._filter:
            narrowing = bool(self._filter) and self._filter in text
            self._filter = text
            if narrowing:  # a longer filter only removes rows: scan the current view, not all
                entries = self._entries
                self._view = [i for i in self._view if text in entries[i].text.lower()]
                self._cache.clear()
            else:
                self._rebuild()
            self._follow = True
            self._after_change()

    @property
    def tab(self) -> str:
        return self._tab

    def _after_change(self) -> None:
        self.virtual_size = Size(max(self._width, 1), len(self._view))
        if self._follow:
            self.cursor = len(self._view) - 1
            self.scroll_end(animate=False, immediate=True, x_axis=False)
            # again once laid out: a scrollbar that appears with this batch shrinks the view
            self.call_after_refresh(self._follow_tail)
        elif self.cursor >= len(self._view):
            self.cursor = len(self._view) - 1
        self._cache.clear()
        self.refresh()
        self.post_message(self.Counted(len(self._view), len(self._entries)))

    def _follow_tail(self) -> None:
        if self._follow:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    # ---- cursor and actions --------------------------------------------------------------
    @property
    def selected(self) -> LogEntry | None:
        """The row under the cursor, if any."""
        if 0 <= self.cursor < len(self._view):
            return self._entries[self._view[self.cursor]]
        return None

    def watch_cursor(self, old: int, new: int) -> None:
        self._cache.discard((old, True))
        self._cache.discard((new, False))
        self.refresh()

    def _move_to(self, row: int) -> None:
        if not self._view:
            return
        row = max(0, min(len(self._view) - 1, row))
        self.cursor = row
        self._follow = row == len(self._view) - 1
        height = self.scrollable_content_region.height or 1
        top = self.scroll_offset.y
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    def action_cursor(self, delta: int) -> None:
        self._move_to(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self._move_to(self.cursor + direction * max(1, self.scrollable_content_region.height - 1))

    def action_first(self) -> None:
        self._move_to(0)

    def action_last(self) -> None:
        self._move_to(len(self._view) - 1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Escape clears the filter only while there is one (else it cancels a call, app-wide)."""
        if action == "clear_filter":
            return bool(self._filter)
        return True

    def action_clear_filter(self) -> None:
        from worldforge_tui.widgets.replay_pane import ReplayPane

        pane = next((a for a in self.ancestors if isinstance(a, ReplayPane)), None)
        if pane is not None:
            pane.clear_filter()

    def action_inspect(self) -> None:
        entry = self.selected
        if entry is not None:
            self.post_message(self.Inspect(entry))

    def on_click(self, event: events.Click) -> None:
        row = self.scroll_offset.y + event.y
        if 0 <= row < len(self._view):
            if row == self.cursor and event.chain >= 2:
                self.action_inspect()
            self._move_to(row)

    # ---- rendering -----------------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()

    def on_focus(self) -> None:
        self._cache.clear()
        self.refresh()

    def on_blur(self) -> None:
        self._cache.clear()
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if row >= len(self._view):
            return Strip.blank(width, base)
        is_cursor = row == self.cursor
        key = (row, is_cursor)
        strip = self._cache.get(key)
        if strip is None:
            strip = self._render_row(self._entries[self._view[row]], is_cursor)
            self._cache[key] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, base).apply_offsets(scroll_x, row)

    def _render_row(self, entry: LogEntry, is_cursor: bool) -> Strip:
        """Segments straight from the row's columns (the text is already cleaned of controls)."""

        def style(name: str) -> Style:
            return self.get_component_rich_style(name, partial=True)

        type_style = "replay-log--type"
        if entry.cats & CAT_MEMORY:
            type_style = "replay-log--memory"
        elif entry.cats & CAT_KNOWLEDGE:
            type_style = "replay-log--knowledge"
        if entry.type == "ROUTE_FALLBACK" or entry.payload.get("fallback_reason"):
            type_style = "replay-log--fallback"
        text = entry.text
        type_at = len(head(entry.id, entry.day))
        actor_at = type_at + TYPE_WIDTH + 1
        message_at = actor_at + ACTOR_WIDTH
        base = self.rich_style
        if is_cursor:
            base = base + self.get_component_rich_style("replay-log--cursor")
        segments = [
            Segment(text[:type_at], style("replay-log--id")),
            Segment(text[type_at:actor_at], style(type_style)),
            Segment(text[actor_at:message_at], style("replay-log--actor")),
            Segment(text[message_at:]),
        ]
        return Strip(segments).apply_style(base)
