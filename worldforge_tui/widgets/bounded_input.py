"""An Input that says so when text is refused for its length (a paste past the limit, say),
instead of dropping it silently."""

from __future__ import annotations

from textual.widgets import Input


class BoundedInput(Input):
    """`Input` with `max_length`; a refused insert (Input's public `restricted` hook) is announced."""

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
