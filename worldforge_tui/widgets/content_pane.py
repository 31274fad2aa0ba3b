"""A scrollable pane whose whole body is one rendered `Content`, re-laid out only when it changes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from worldforge_tui.widgets.shown import same


class ContentPane(VerticalScroll):
    """Base for the story and receipt panes: `render_body(content)` swaps the text when it differs."""

    DEFAULT_CSS = """
    ContentPane { height: 1fr; }
    ContentPane > .pane-body { width: 1fr; padding: 0 1; }
    """

    BODY_ID = "pane-body"
    _shown: Content | None = None

    def initial_content(self) -> Content:
        return Content("")

    def compose(self) -> ComposeResult:
        yield Static(self.initial_content(), id=self.BODY_ID, classes="pane-body")

    def render_body(self, content: Content) -> bool:
        """Show `content`; False (and no re-layout) when it is what is already shown."""
        if self._shown is not None and same(self._shown, content):
            return False
        self._shown = content
        self.query_one(f"#{self.BODY_ID}", Static).update(content)
        return True
