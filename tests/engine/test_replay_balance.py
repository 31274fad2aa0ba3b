"""Replay re-derives a run from its inputs; balance plays all 256 paths within the design targets."""

from __future__ import annotations

import json

import pytest

from engine.balance import run_balance
from engine.headless import Plan, play
from engine.replay import verify
from worldforge_tui.cli import main


def test_replay_verify_passes_and_catches_tampering(new_session, capsys):
    s = new_session()
    play(s, Plan(path="BABABABA", rejects={"stage_4_search": ["show the pricing page first"]},
                 owns={"stage_6_take": "hire a part-time support lead"}))
    report = verify(s.conn, s.state.run_id)
    assert report.ok, report.first_difference
    assert report.events_checked == len(s.events())
    rc = main(["replay", s.state.run_id, "--save-dir", str(s.save_dir), "--verify", "--json"])
    assert rc == 0 and json.loads(capsys.readouterr().out)["ok"] is True
    s.conn.execute("UPDATE events SET message = 'forged' WHERE run_id=? AND type='CEO_DECISION'",
                   (s.state.run_id,))
    bad = verify(s.conn, s.state.run_id)
    assert not bad.ok and "CEO_DECISION" in bad.first_difference


def test_replay_unknown_run_is_one_line(tmp_path, capsys, new_session):
    new_session()
    rc = main(["replay", "nope", "--save-dir", str(tmp_path / "saves"), "--verify"])
    assert rc == 2 and "no run" in capsys.readouterr().err


@pytest.fixture(scope="module")
def balance():
    return run_balance(seed=7)


def test_balance_targets(balance):
    assert balance["paths"] == 256
    assert 0.25 <= balance["win_rate"] <= 0.75
    assert len(balance["defeat_reasons"]) >= 3
    paired = {"strategist.depth", "strategist.breadth", "designer.ship", "designer.polish",
              "marketer.adoption", "marketer.runway", "ops.automate", "ops.human_loop",
              "ops.shareholder", "ops.cooperative"}
    assert paired <= set(balance["rules_fired"])
    a, b = balance["all_a"], balance["all_b"]
    assert a["economics"] != b["economics"] and a["org"] != b["org"]


def test_victory_and_every_defeat_reason_reachable(balance):
    from engine.economy import DEFEATS

    assert balance["victories"] > 0
    assert set(balance["defeat_reasons"]) == {reason for _, _, reason in DEFEATS}


def test_settings_change_is_logged_and_replays(new_session):
    from engine.config import Settings

    s = new_session()
    s.run_stage()
    s.router.update_settings(Settings(demo_mode="simulation", agent_routing="cloud_first"))
    info = s.note_settings_change(s.router.settings)
    assert info["agent_routing"] == "cloud_first" and "key" not in str(info).lower()
    event = s.events()[-1]
    assert event.type == "SETTINGS_CHANGED" and "cloud_first" in event.message
    s.approve()
    assert verify(s.conn, s.state.run_id).ok
