"""TUI test set-up: animations off, no blinking cursor, so pilot runs are fast and stable."""

from __future__ import annotations

import pytest
import textual.constants
from textual.widgets import Input

from tests.servers.fixtures import (  # noqa: F401  (fixtures)
    fake_openai,
    fake_openai_factory,
    first_artifact,
)

textual.constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]  # read by App.__init__; the env var is read too early


@pytest.fixture(autouse=True)
def steady_cursor(monkeypatch):
    """Stop Input's cursor blink (a source of snapshot flakiness)."""
    monkeypatch.setattr(Input, "cursor_blink", False, raising=False)
    yield


async def settle(app, pilot, rounds: int = 400) -> None:
    """Wait until the engine has loaded (behind the first form), no session command is running
    and none was chained after it (no sleeps)."""
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if getattr(app, "booting", False):
            continue
        if app.busy is None and not any(w.is_running for w in app.workers):
            await pilot.pause()
            if app.busy is None:
                return
    raise AssertionError(f"app never settled (busy={app.busy!r})")


def after_keys(*keys: str):
    """A snapshot's run_before: let the board settle, then press each key and settle again."""

    async def run(pilot):
        await settle(pilot.app, pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot.app, pilot)

    return run


def text_of(app, selector: str) -> str:
    """Plain text a Static-like widget on the active screen shows."""
    widget = app.screen.query_one(selector)
    content = widget.visual if hasattr(widget, "visual") else widget.render()
    return str(getattr(content, "plain", content))
