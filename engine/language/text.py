"""Player text as the engine accepts it: the length limits (the TUI inputs stop at the same ones)
and `clean_text`, which refuses control characters and scrubs secrets. Words, stopwords, phrases,
slugs and clipping are `worldforge_textkit`'s, one definition for every layer."""

from __future__ import annotations

import re

import worldforge_textkit
from engine.errors import InputError

MAX_PITCH_CHARS = 2000
MAX_NAME_CHARS = 60
MAX_REASON_CHARS = 1000
MAX_FIELD_CHARS = 120  # one field of the pitch's reading (who pays, offering, place, problem)

# C0 and C1 controls other than the whitespace ones (tab, newline, carriage return)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def clean_text(value: str, *, field: str, max_chars: int, required: bool = True) -> str:
    """Validate player text: a control character (NUL, an escape) is refused with its code point;
    then `worldforge_textkit.clean` (format characters such as bidi overrides and zero-width dropped,
    whitespace collapsed, NFC), secrets scrubbed, emptiness and length enforced."""
    if not isinstance(value, str):
        raise InputError(f"{field} must be text")
    bad = _CONTROL.search(value)
    if bad:
        raise InputError(
            f"{field} contains a control character (U+{ord(bad.group()):04X}); use plain text"
        )
    from worldforge_textkit.scrub import (
        scrub,  # its patterns load with the first player text, not at start-up
    )

    text = scrub(worldforge_textkit.clean(value))  # secrets never enter game state
    if required and not text:
        raise InputError(f"{field} is empty")
    if len(text) > max_chars:
        raise InputError(f"{field} is too long ({len(text):,} characters; at most {max_chars:,})")
    return text
