"""Screens styled when something they show could look different, not on every resume: the board
and every screen the board pushes.

Textual applies the stylesheet to each widget it mounts, and then restyles a pushed screen whole
each time it resumes (the push itself): for the board that was ~25 ms of its first frame
(47 widgets); for the settings screen, kept installed and reopened, 30-45 ms of its ~60 ms reopen
(78 widgets). What a suspended screen's styles depend on is the stylesheet with the theme's
variables: while a screen is on the stack Textual restyles it on every theme change
(`App.refresh_css` walks the whole stack), so only a screen off the stack when the theme changed
is behind. The first resume (just mounted, styled as it mounted) and every resume with no theme
change while the screen was away skip the pass; a screen away during a theme change restyles as
Textual does. (Widget CSS is scoped to its own widget type and the app has one stylesheet, read at
start, so a stylesheet source added while a screen was away cannot match its widgets.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events

if TYPE_CHECKING:
    from textual.app import App
    from textual.theme import Theme


class StyledOnMount:
    """Mixed into a Screen before Textual's Screen (its handlers run first and say no restyle)."""

    _watching = False  # subscribed to the app's theme changes (from the first resume on)
    _styles_behind = False  # a theme changed while this screen was off the stack
    app: App[Any]  # the running app (Textual's Screen provides it)

    def _theme_changed(self, _theme: Theme) -> None:
        # published right after App.refresh_css restyled every screen on the stack
        if not any(screen is self for screen in self.app.screen_stack):  # type: ignore[comparison-overlap]
            self._styles_behind = True

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._watching:  # the first resume: just mounted, every widget styled as it mounted
            self._watching = True
            self.app.theme_changed_signal.subscribe(self, self._theme_changed)  # type: ignore[arg-type]
        event.refresh_styles = self._styles_behind  # else styled in the current theme already
        self._styles_behind = False
