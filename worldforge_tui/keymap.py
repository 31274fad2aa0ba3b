"""User key overrides: `keymap.json` in the config dir maps binding ids to keys ({"gate.approve": "y"}).

Read once at start-up; a missing file is normal, a broken one is reported and ignored.
"""

from __future__ import annotations

import json
from pathlib import Path

from worldforge_tui.text.safe_text import first_line

KEYMAP_FILENAME = "keymap.json"
MAX_KEYMAP_CHARS = 65_536  # a few hundred bindings fit many times over


def checked(value: object) -> dict[str, str]:
    """Binding id → comma-separated keys; ids and keys are short plain names. A plain check (the
    board's start-up imported pydantic for this alone: 42 modules before the first form)."""
    if not isinstance(value, dict):
        raise ValueError("the keymap is not an object of binding ids to keys")
    for binding_id, keys in value.items():
        if not isinstance(keys, str):
            raise ValueError(f"keymap entry {str(binding_id)[:40]!r} is not a string of keys")
        if not binding_id or len(binding_id) > 60 or len(keys) > 60 or not keys.strip():
            raise ValueError(f"bad keymap entry {binding_id[:40]!r}")
        if not all(ch.isprintable() for ch in binding_id + keys):
            raise ValueError(f"keymap entry {binding_id[:40]!r} has control characters")
    return {k: v.strip() for k, v in value.items()}


def load_keymap(directory: Path) -> tuple[dict[str, str], str | None]:
    """(overrides, problem): overrides to pass to `App.set_keymap`, or a one-line problem."""
    path = directory / KEYMAP_FILENAME
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"keymap {path} unreadable: {exc}"
    if len(raw) > MAX_KEYMAP_CHARS:
        return {}, f"keymap {path} ignored: larger than {MAX_KEYMAP_CHARS:,} characters"
    try:
        return checked(json.loads(raw)), None
    except RecursionError:  # `[[[[…` nested past the parser's depth
        return {}, f"keymap {path} ignored: nested too deeply"
    except ValueError as exc:
        return {}, f"keymap {path} ignored: {first_line(exc, 160)}"
