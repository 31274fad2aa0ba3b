"""TUI test set-up: animations off, no blinking cursor, so pilot runs are fast and stable."""

from __future__ import annotations

from typing import Any

import pytest
import textual.constants
from textual.widgets import Input

from engine.config import Settings
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import RunStage
from tests.servers.fixtures import fake_openai, fake_openai_factory  # noqa: F401  (fixtures)

# The venture of the tests that serve a worker's work from a loopback model (`first_artifact`).
MODEL_PITCH = "Meal kits for night-shift nurses"
MODEL_SEED = 3

textual.constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]  # read by App.__init__; the env var is read too early


@pytest.fixture(scope="module")
def first_artifact(tmp_path_factory) -> dict[str, Any]:
    """The first stage's artifact of MODEL_PITCH as the simulation writes it: what a loopback
    model serves the worker, so a venture played on the local tier has real work to judge."""
    session = GameSession.start_venture(
        pitch=MODEL_PITCH,
        seed=MODEL_SEED,
        router=Router(Settings()),
        save_dir=tmp_path_factory.mktemp("sim"),
    )
    try:
        run = session.give(RunStage)
        assert run is not None
        return dict(run.artifact)
    finally:
        session.close()


@pytest.fixture(autouse=True)
def steady_cursor(monkeypatch):
    """Stop Input's cursor blink (a source of snapshot flakiness)."""
    monkeypatch.setattr(Input, "cursor_blink", False, raising=False)
    yield


async def settle(app, pilot, rounds: int = 400) -> None:
    """Wait until no session command is running and none was chained after it (no sleeps)."""
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()
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
