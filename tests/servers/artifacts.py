"""Real work for a loopback model to serve: the first stage's artifact as the simulation writes it
(the tests' `first_artifact` fixture and bench/action_deadline.py both serve it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.session.api import GameSession
from engine.session.commands import RunStage


def stage_one_artifact(save_dir: str | Path, **start: Any) -> dict[str, Any]:
    """Found a venture (`start`: GameSession.start_venture's words) in `save_dir`, run its first
    stage and return the artifact the simulation wrote."""
    session = GameSession.start_venture(save_dir=save_dir, **start)
    try:
        run = session.give(RunStage)
        assert run is not None
        return dict(run.artifact)
    finally:
        session.close()
