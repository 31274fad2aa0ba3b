"""The live section under the story: the call being written, repainted line by line as it streams.

It draws through Textual's line API (`render_line`): each build renders the text to lines, compares
them with the lines on screen and marks only the lines that differ, so a streamed piece repaints the
region of its own line (two when it wraps), not the section, the pane or the board. Its height is
reserved ahead of the text (a view more than it needs each time it fills what it has): a new line
costs a scroll of the pane, never a layout of the whole screen, except the rare time the text
fills what was reserved (measured: every layout re-arranged and redrew the board). Each turn of the
feed builds at once, so the frame that is due paints every piece that came before it.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.content import Content
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget


def changed_lines(old: list[Strip], new: list[Strip]) -> tuple[int, int]:
    """The span of lines [first, end) that differ between two renders (empty when none do): with
    as many lines in both, the lines after the last difference are the same; with more or fewer,
    every line below the first difference moved."""
    first = next(
        (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
        min(len(old), len(new)),
    )
    end = max(len(old), len(new))
    if len(old) == len(new):
        while end > first and old[end - 1] == new[end - 1]:
            end -= 1
    if first >= end:
        return 0, 0
    return first, end


class LiveSection(Widget):
    """The call being written: `follow(source)` builds its text and repaints the lines that
    changed."""

    DEFAULT_CSS = "LiveSection { height: auto; }"
    MIN_STEP = 4  # lines reserved ahead at the least

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._source: Callable[[], Content] | None = None
        self._on_shown: Callable[[bool], None] | None = None
        self._pending: Callable[[bool], None] | None = None  # lines built, not yet painted
        self._stale = False  # text came before it had a width: built once it is laid out
        # Lines were reserved anew: until the frame that lays them out, text that comes is built
        # right after it (a layout is the rare case: a build before it drew a line below the
        # section's old height, out of view in the frame composed before the layout).
        self._laying_out = False
        self._content = Content("")
        self._strips: list[Strip] = []
        self._width = 0
        self.lines = 0  # lines the text built last needs
        self.rows = 0  # lines reserved (the section's height while it follows a call)
        self.repainted = 0  # lines marked for repaint since it started following (for tests)
        self.on_grow: Callable[[bool], None] | None = None  # the pane follows the last line

    def follow(
        self, source: Callable[[], Content], on_shown: Callable[[bool], None] | None = None
    ) -> None:
        """New text is waiting: build it from `source` now and repaint the lines it changed (the
        feed calls this once for all the pieces queued since its last turn). A build whose lines
        still wait for their frame is built over: the frame paints the newest lines, so pieces
        that came meanwhile join the frame already due instead of waiting for the one after it
        (issue 46: a burst of tokens on the real llama.cpp server had its first piece built and
        the rest held for an after-refresh callback, one frame late). `on_shown(painted)` is
        called as the frame paints the new lines (painted=True), or at once when the screen
        already shows the text (a piece that only adds a space, or completes nothing yet)."""
        self._source, self._on_shown = source, on_shown
        if self._laying_out:  # built right after the frame that lays the lines reserved out
            self._stale = True
        else:
            self._show()

    def _catch_up(self) -> None:
        """Laid out at last (it had no width, or more lines were reserved, when the text came):
        build what came meanwhile."""
        self._laying_out = False
        if self._stale and self._source is not None:
            self._show()

    def _show(self) -> None:
        self._stale = False
        built = self._build()
        if built is None:  # not laid out yet: its pieces wait for the first build that draws
            return
        painted, grew, moved = built
        if painted:  # heard when the frame paints its lines
            self._pending = self._on_shown
        elif self._pending is None and self._on_shown is not None:  # on screen already
            self._on_shown(False)
        # else lines built before still wait for their frame: it shows this text too
        if grew:
            self._laying_out = True
            self.call_after_refresh(self._catch_up)
        if (grew or moved) and self.on_grow is not None:
            self.on_grow(grew)

    def _build(self) -> tuple[bool, bool, bool] | None:
        """Render the text and mark what changed: (lines were marked for repaint; it outgrew the
        lines reserved, which were reserved anew; the number of lines changed), or None when the
        section has no width yet (its first layout, asked here, gives it one)."""
        assert self._source is not None
        content = self._source()
        width = self.content_region.width
        if width > 0 and width == self._width and content.is_same(self._content):
            return False, False, False  # the same text and styles: the same lines, none to paint
        self._content = content
        guessed = width <= 0
        if guessed:  # shown again (or first): as wide as the pane's text, laid out with its lines
            width = self._pane_width()
        if width <= 0:
            self._strips, self.lines = [], 0
            self.refresh(layout=True)
            self.call_after_refresh(self._catch_up)
            self._stale = True
            return None
        strips = Visual.to_strips(self, content, width, None, self.visual_style)
        if width != self._width:  # a resize: every line is new
            self._width, self._strips = width, []
            first, end = 0, max(len(strips), self.rows)
        else:
            first, end = changed_lines(self._strips, strips)
        before = self.lines
        self._strips, self.lines = strips, len(strips)
        painted = end > first
        if painted:
            self.repainted += end - first
            self.refresh(Region(0, first, width, end - first), layout=guessed)
        if self.lines < self.rows:  # a line spare: reserved anew as the text fills the last
            return painted, False, self.lines != before
        view = (
            self.parent.scrollable_content_region.height if isinstance(self.parent, Widget) else 0
        )
        self.rows = self.lines + max(self.MIN_STEP, view)
        self.styles.height = self.rows  # the one layout: a view of lines reserved ahead
        return True, True, True

    def _pane_width(self) -> int:
        """The width its text will have in the pane (the pane's, less this section's padding), for
        the first build after it is shown again, before a layout has given it a region: its lines
        are then painted by that layout's frame, not by the frame after it (measured on the real
        llama.cpp server: a standup's first line waited two frames and a layout for its width)."""
        parent = self.parent
        if not isinstance(parent, Widget):
            return 0
        return max(0, parent.scrollable_content_region.width - self.styles.gutter.width)

    def on_resize(self) -> None:
        """Laid out at another width than its lines were built for (a guess, or the terminal
        resized while a call streams): build them again at the width it has."""
        width = self.content_region.width
        if self._source is not None and width > 0 and width != self._width:
            self.follow(self._source, self._on_shown)

    def render_line(self, y: int) -> Strip:
        """Line `y` of the text (blank in the lines reserved below it), as a frame paints it."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            pending(True)
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self._width or self.content_region.width, self.visual_style.rich_style)

    def render(self) -> Content:
        """The text built last, whole (the screen paints it line by line, `render_line`)."""
        return self._content

    def stop(self) -> None:
        self._source = self._on_shown = self._pending = None
        self._stale = self._laying_out = False
        self._content = Content("")
        self._strips = []
        self._width = 0
        self.lines = self.rows = self.repainted = 0
        self.styles.height = None  # back to the stylesheet's auto
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Its height when not reserved (auto): the lines of the text built last."""
        return self.lines
