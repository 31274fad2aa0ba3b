"""Write a label only when what it shows changes: one rule for every pane, bar and footer.

A `Static.update` always asks Textual for a new layout of the whole screen and a repaint of the
widget, even when the text is the one already shown; the board refreshes every pane on every
step, so unchanged labels made most of a key's layout passes. And `Content == Content` compares
the plain text only, so a line whose colours change (a meter turning red, a footer key greyed
while a worker runs) would never be redrawn by a `==` check: `same` compares the styles too.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


def same(shown: object, new: object) -> bool:
    """Whether `new` draws exactly as `shown` does (text and styles)."""
    if isinstance(shown, Content) and isinstance(new, Content):
        return shown.plain == new.plain and list(shown.spans) == list(new.spans)
    if isinstance(shown, str) and isinstance(new, str):
        return shown == new
    return False  # another kind of renderable: assume it changed


def update(widget: Static, content: str | Content, *, layout: bool = True) -> bool:
    """Show `content` in `widget` unless it already shows exactly that; True when it changed."""
    if same(widget.content, content):
        return False
    widget.update(content, layout=layout)
    return True
