"""Untrusted text (pitches, reasons, model output) made safe to put on a terminal, literally.

Every string a player or a model wrote goes through `clean` or `one_line` before display: ANSI and
other escape sequences are removed, remaining control characters become visible symbols, and very
long text is cut. `literal` wraps the result in a rich `Text` so no markup (`[bold]`, `[/]`) is parsed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich loads with the TUI; headless commands use `clean` / `one_line` only
    from rich.text import Text

from worldforge_textkit.patterns import CONTROLS as _CONTROLS
from worldforge_tui.text.terminal import ESCAPES as _ESCAPES
from worldforge_tui.text.terminal import UNSAFE as _UNSAFE
from worldforge_tui.text.terminal import visible as _visible

ELLIPSIS = "…"
DEFAULT_LIMIT = 4000
LINE_LIMIT = 400

_NEWLINES = re.compile(r"\s*\n\s*")


def clean(value: object, limit: int | None = DEFAULT_LIMIT) -> str:
    """Strip escape sequences, make control characters visible, normalise newlines, cut to `limit`."""
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    if (limit is None or len(text) <= limit) and not _UNSAFE.search(text):
        return text  # fast path: plain printable text needs nothing
    if limit is not None and len(text) > limit * 4:
        text = text[: limit * 4]  # bound the regex work on hostile megabyte strings
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _ESCAPES.sub("", text)
    text = _CONTROLS.sub(_visible, text)
    text = text.expandtabs(4)
    if limit is not None and len(text) > limit:
        text = text[: max(0, limit - 1)] + ELLIPSIS
    return text


def one_line(value: object, limit: int | None = LINE_LIMIT) -> str:
    """`clean` text folded onto one line (newlines become ` ⏎ `), for lists and log rows."""
    if (
        isinstance(value, str)
        and (limit is None or len(value) <= limit)
        and not _UNSAFE.search(value)
    ):
        return value.strip()
    text = clean(value, None if limit is None else limit * 2)
    text = _NEWLINES.sub(" ⏎ ", text.strip())
    if limit is not None and len(text) > limit:
        text = text[: max(0, limit - 1)] + ELLIPSIS
    return text


def first_line(err: BaseException, limit: int | None = 200) -> str:
    """The one line a front end shows for an error: its first line, cut to `limit` (its type's
    name when it says nothing)."""
    text = str(err).strip()
    return text.splitlines()[0][:limit] if text else type(err).__name__


def literal(value: object, limit: int | None = DEFAULT_LIMIT) -> Text:
    """A rich `Text` holding the cleaned string verbatim: markup in it is shown, never parsed."""
    from rich.text import Text

    return Text(clean(value, limit))


def literal_line(value: object, limit: int | None = LINE_LIMIT) -> Text:
    """A one-line rich `Text` of the cleaned string, for labels and rows."""
    from rich.text import Text

    return Text(one_line(value, limit), no_wrap=True, overflow="ellipsis")
