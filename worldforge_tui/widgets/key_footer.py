"""The footer of the board and the settings screen: the live keys on one line, each clickable.

Textual's `Footer` is one widget per key, and it recomposes them all (mount, style, lay out) every
time the screen's bindings are refreshed: on every focus change and every board refresh, even when
the same keys come back. Measured here that was the largest single cost of moving focus (Enter from
the log filter, F1-F4) and a good part of each game key. This footer is one line of text built
from the same live bindings (`Screen.active_bindings`, so `check_action` greying and keymap.json
rebinds show), redrawn only when that text changes. A click on a key presses it, as in `Footer`.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from worldforge_tui.widgets.shown import same


def footer_content(screen: Screen[Any], width: int = 0, *, compact: bool = False) -> Content:
    """The footer line for a screen's live bindings: key and label per action, greyed when the
    action is not possible now; the command palette's key at the right edge of `width`."""
    app = screen.app
    parts: list[str | tuple[str, str]] = []
    seen: set[str] = set()
    palette: tuple[str, str, str] | None = None
    for key, (_node, binding, enabled, _tooltip) in screen.active_bindings.items():
        shown = app.get_key_display(binding)
        if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
            palette = (key, shown, binding.description)
            continue
        if not binding.show or binding.action in seen:
            continue
        seen.add(binding.action)
        parts.extend(_key_parts(key, shown, binding.description, enabled, compact))
    left = Content.assemble(*parts)
    if palette is None:
        return left
    key, shown, label = palette
    right = Content.assemble(
        ("▏", "$foreground 20%"), *_key_parts(key, shown, label, True, compact)
    )
    if width and left.cell_length + 1 + right.cell_length > width:  # short: the key alone
        right = Content.assemble(("▏", "$foreground 20%"), *_key_parts(key, shown, "", True, True))
        if left.cell_length + 1 + right.cell_length > width:  # still short: cut the left part
            left = left.truncate(max(1, width - 1 - right.cell_length), ellipsis=True)
    room = width - left.cell_length - right.cell_length
    return Content.assemble(left, " " * max(1, room), right)


def _key_parts(
    key: str, shown: str, label: str, enabled: bool, compact: bool
) -> list[str | tuple[str, str]]:
    click = f"@click=press({key!r})"
    dim = "" if enabled else " dim"
    pad = "" if compact else " "
    return [
        (f"{pad}{shown} ", f"bold $footer-key-foreground{dim} {click}"),
        (f"{label} " if label else "", f"$footer-description-foreground{dim} {click}"),
    ]


class KeyFooter(Static):
    """The live keys of its screen on one line (docked at the bottom); `compact` tightens it."""

    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        width: 1fr;
        background: $footer-background;
        color: $footer-foreground;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """
    auto_links = False  # keys are plain text that presses on click, not underlined links

    def __init__(self) -> None:
        super().__init__("", markup=False)
        self._compact = False
        self._shown: Content | None = None

    @property
    def compact(self) -> bool:
        return self._compact

    @compact.setter
    def compact(self, compact: bool) -> None:
        if compact != self._compact:
            self._compact = compact
            self._redraw(self.screen)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._redraw)
        self._redraw(self.screen)

    def on_resize(self) -> None:
        self._redraw(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _redraw(self, screen: Screen[Any]) -> None:
        if not self.is_attached or screen is not self.screen:
            return
        content = footer_content(screen, self.size.width, compact=self._compact)
        if self._shown is None or not same(self._shown, content):
            self._shown = content
            self.update(content)

    def action_press(self, key: str) -> None:
        """A click on a key: press it, as the keyboard would (a greyed key only bells)."""
        binding = self.screen.active_bindings.get(key)
        if binding is not None and not binding.enabled:
            self.app.bell()
            return
        self.app.simulate_key(key)
