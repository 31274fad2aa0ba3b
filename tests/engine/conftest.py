"""Engine fixtures: a simulation router and a helper that plays a whole venture headless."""

from __future__ import annotations

import pytest

from engine.config import Settings
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession

PITCH = "A solar microgrid cooperative for rural farmers"


@pytest.fixture
def sim_router() -> Router:
    return Router(Settings(demo_mode="simulation"))


@pytest.fixture
def new_session(tmp_path, sim_router):
    """Factory: start a venture in tmp_path (same save dir for every call in one test)."""
    made: list[GameSession] = []

    def make(pitch: str = PITCH, seed: int = 7, **kw) -> GameSession:
        s = GameSession.start_venture(
            pitch=pitch, seed=seed, save_dir=tmp_path / "saves", router=sim_router, **kw
        )
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


@pytest.fixture
def played(new_session):
    """Factory: a venture played to its end with a plan."""

    def run(path: str = "A" * 8, seed: int = 7, **plan) -> GameSession:
        s = new_session(seed=seed)
        play(s, Plan(path=path, **plan))
        return s

    return run
