"""Screens styled once as they mount, not twice: the board and every screen the board pushes.

Textual applies the stylesheet to each widget it mounts, and then restyles a pushed screen whole
when it first resumes (the push itself): for the board that was ~25 ms of its first frame
(47 widgets), for the settings screen about a tenth of its opening. The first resume of a
screen skips that pass; a later one (a screen kept installed and reopened, which a theme change
made while it was away has not reached) restyles as Textual does.
"""

from __future__ import annotations

from textual import events


class StyledOnMount:
    """Mixed into a Screen before Textual's Screen (its handler runs first and says no restyle)."""

    _resumed_once = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._resumed_once:
            self._resumed_once = True
            event.refresh_styles = False  # just mounted: every widget was styled as it mounted
