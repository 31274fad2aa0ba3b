"""TUI test set-up: animations off, no blinking cursor, so pilot runs are fast and stable."""

from __future__ import annotations

import pytest
import textual.constants
from textual.widgets import Input

textual.constants.TEXTUAL_ANIMATIONS = "none"  # read by App.__init__; the env var is read too early


@pytest.fixture(autouse=True)
def steady_cursor(monkeypatch):
    """Stop Input's cursor blink (a source of snapshot flakiness)."""
    monkeypatch.setattr(Input, "cursor_blink", False, raising=False)
    yield
