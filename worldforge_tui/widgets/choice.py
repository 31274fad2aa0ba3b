"""A Textual `Select` whose parts are built in the state they show, so mounting it restyles nothing.

A plain `Select` mounts its current-value line and its (hidden) option list, and only then gives
the line its "-has-value" class and the list the compact flag bound from the Select: each a
class change on a mounted widget, which Textual answers by restyling that widget and its
children (six restyles for the settings screen's three choices, ~2-3 ms each). Set before they
mount, both are part of the one styling every widget gets as it mounts; the values they end up
with, and everything the player sees and does, are the plain Select's.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import OptionList, Select


class Choice(Select[Any]):
    """`Select` with the same arguments; its value line and option list start as they end."""

    def __init__(
        self, *args: Any, allow_blank: bool = True, value: Any = Select.NULL, **kwargs: Any
    ) -> None:
        super().__init__(*args, allow_blank=allow_blank, value=value, **kwargs)
        # on mount a Select without a value and without a blank takes its first option
        self._starts_blank = allow_blank and value == Select.NULL

    def compose(self) -> ComposeResult:
        for part in super().compose():
            if isinstance(part, OptionList):  # the overlay: bound to our compact flag on mount
                part.compact = self.compact
            elif hasattr(part, "has_value"):  # the value line: a value is chosen on mount
                part.has_value = not self._starts_blank
            yield part
