"""Issue 26's stress test, short enough for CI (about a minute): see tests/reliability/stress.py.
The figure is the long run by hand: `python -m tests.reliability.stress --iterations 500 --seed 26
--width 4`."""

from __future__ import annotations

import pytest

from tests.reliability.stress import stress


@pytest.mark.slow
def test_a_shared_save_folder_survives_kills_stops_and_forgets(tmp_path) -> None:
    # signals within 0.8 s of a start: a headless venture takes longer than that even on a quiet
    # machine, so the kills and stops land (with up to 3 s, a quiet run once finished every
    # process before its signal: 0 kills, 0 stops)
    out = stress(tmp_path, iterations=24, seed=7, width=3, max_delay=0.8)
    details = out["details"]
    assert out["damaged"] == 0, details
    assert out["lost_acknowledged"] == 0, details
    assert out["resurrected"] == 0, details
    assert out["unclean_exits"] == 0, details
    assert out["replay_failures"] == 0, details
    assert out["acknowledged_steps"] > 0 and out["kills"] + out["stops"] > 0
