"""An Input that says so when text is refused for its length (a paste past the limit, say),
instead of dropping it silently."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.message import Message
from textual.widgets import Input


class BoundedInput(Input):
    """`Input` with `max_length`; a refused insert (Input's public `restricted` hook) is announced.
    A key its screen calls `early` (pressed before a dialog the player did not open was on screen)
    is not typed into it: it is posted as `EarlyKey`."""

    early: Callable[[events.Key], bool] | None = None

    class EarlyKey(Message):
        """A key pressed before the field's dialog was on screen."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def on_key(self, event: events.Key) -> None:
        if event.is_printable and self.early is not None and self.early(event):
            event.prevent_default()  # Input's own key handler never sees it
            event.stop()
            self.post_message(self.EarlyKey(event.key))

    def restricted(self) -> None:
        super().restricted()
        if self.max_length:
            self.app.notify(
                f"Too long: this field takes at most {self.max_length:,} characters; "
                "the text was not inserted.",
                title="Refused",
                severity="warning",
                markup=False,
            )
