"""The report card's runtime names what served the calls, not what the settings asked for."""

from __future__ import annotations

from engine.config import Settings
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.routing.types import served_line
from engine.session.api import GameSession
from engine.views.report import render_report
from tests.servers.openai_server import refused_url


def test_served_line_counts_tiers_and_models():
    assert served_line([]) == "simulation (no calls)"
    pairs = [("local", "tiny")] * 3 + [("simulation", "simulation")]
    assert served_line(pairs) == "local: tiny 3, simulation 1 of 4 calls"


def test_a_local_run_that_fell_back_says_simulation(tmp_path):
    """Settings say local; the server is down; the card must not say "local"."""
    router = Router(
        Settings(demo_mode="local", local_agent_base_url=refused_url(), local_agent_model="qwen2.5")
    )
    session = GameSession.start_venture(
        pitch="Repair bookings for bike shops", seed=3, save_dir=tmp_path, router=router
    )
    try:
        play(session, Plan())
        card = render_report(session.read_model())
    finally:
        session.close()
    line = next(x for x in card.splitlines() if "runtime" in x)
    assert "runtime simulation " in line and "local" not in line
    assert line.endswith(" calls")
