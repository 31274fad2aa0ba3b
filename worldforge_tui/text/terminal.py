"""What may reach a terminal: escape sequences stripped, controls made visible, secrets redacted.

One mechanism for both front ends: the TUI's `safe_text` uses these patterns for what it draws, and
the CLI wraps stdout and stderr in `SafeStream` for every headless command, so no string from a
save, the settings, a model or the user can retitle, clear or write the clipboard of the terminal
it is printed on (plain and `--json` output alike), and no configured key is printed. No rich or
textual import: headless commands stay light.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

from worldforge_textkit.patterns import CONTROLS, Pattern

# CSI (ESC [ … final), OSC (ESC ] … BEL/ST), DCS/SOS/PM/APC (ESC P|X|^|_ … ST), 2-char ESC sequences,
# and the 8-bit C1 forms of CSI/OSC. Compiled on first use: most output has no control at all.
ESCAPES = Pattern(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|\x9d[^\x07\x9c]*(?:\x07|\x9c)?"
)
# Anything that needs work at all: every control (including tab, newline, ESC) and bidi overrides.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(match: re.Match[str]) -> str:
    """Map a control character to its visible Unicode control picture (or U+FFFD)."""
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return "\ufffd"


def printable(text: str) -> str:
    """`text` with escape sequences removed and other controls shown as symbols; newlines and
    tabs kept (so multi-line output and JSON indentation survive)."""
    if not CONTROLS.search(text):
        return text
    return CONTROLS.sub(visible, ESCAPES.sub("", text.replace("\r\n", "\n")))


class SafeStream:
    """A text stream that passes everything written through `printable` and the secret scrubber."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        from worldforge_textkit.scrub import scrub

        self.inner.write(printable(scrub(text)))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
