"""Replay re-derives a run from its inputs; balance plays all 256 paths within the design targets."""

from __future__ import annotations

import json

import pytest

from engine.game.shape import MAX_FORKS
from engine.play.balance import PITCH, PathRow, run_balance
from engine.play.headless import Plan, play
from engine.session.commands import Approve, RoutingChanged, RunStage
from engine.session.replay import verify
from worldforge_tui.cli import main


def test_replay_verify_passes_and_catches_tampering(new_session, capsys):
    s = new_session()
    play(
        s,
        Plan(
            path="BABABABA",
            said={
                "reject": {"stage_4_search": ["show the pricing page first"]},
                "decide_own": {"stage_6_take": ["hire a part-time support lead"]},
            },
        ),
    )
    report = verify(s.conn, s.state.run_id)
    assert report.ok, report.first_difference
    assert report.events_checked == len(s.events())
    rc = main(["replay", s.state.run_id, "--save-dir", str(s.save_dir), "--verify", "--json"])
    assert rc == 0 and json.loads(capsys.readouterr().out)["ok"] is True
    s.conn.execute(
        "UPDATE events SET message = 'forged' WHERE run_id=? AND type='CEO_DECISION'",
        (s.state.run_id,),
    )
    bad = verify(s.conn, s.state.run_id)
    assert not bad.ok and "CEO_DECISION" in bad.first_difference


def test_replay_unknown_run_is_one_line(tmp_path, capsys, new_session):
    new_session()
    rc = main(["replay", "nope", "--save-dir", str(tmp_path / "saves"), "--verify"])
    assert rc == 2 and "no run" in capsys.readouterr().err


# Each option is the better one in at least this share of the histories reaching its fork. Over
# the 18 tuning seeds the rarest is 16.2 % at rules 68 (`python -m bench.balance_sweep`); four seeds see fewer
# histories per fork and read it lower (12.6 % on these four), so CI allows 10 %: an
# option that is never or almost never the better one still fails.
MIN_BETTER = 0.10
# A mixed handful: the two old CI seeds (easy: about half the paths win) and the two hardest of
# 101-124 in the sweep before this retune (about a fifth win), so a figure that holds only where
# the game is easy fails here. A fixed path meets 16 (seed, archetype) combinations.
CI_SEEDS = [7, 8, 113, 121]
# Issue 45's figure, best fixed path ≤ 60 % of (seed, archetype), is the sweep's: 50.0 % over the
# 18 tuning seeds at rules version 67, 56.9 % at 68 (56.9 % at 66, 65.3 % before). A handful of four seeds reads
# the best path high (the best wins 10 of its 16 combinations here), so CI checks that no fixed
# path wins 14 or more of its 16: a path that wins nearly everywhere still fails.
BEST_FIXED_PATH_MAX = 13 / 16


@pytest.fixture(scope="module")
def balance():
    """Four seeds, all four archetypes: a fixed path meets 16 combinations (on seeds 7-8 alone it
    met 8, and the two easy seeds let three fixed paths win all 8)."""
    rows: list[PathRow] = []
    report = run_balance(seeds=CI_SEEDS, rows_out=rows)
    return report, rows


def test_balance_covers_every_path_and_reports_the_design_figures(balance):
    report, rows = balance
    assert report["paths"] == len(CI_SEEDS) * 4 * 2**MAX_FORKS == len(rows)
    assert {len(r["path"]) for r in rows} == {MAX_FORKS}
    # a profitable ending has no runway to show: null plus profitable, never a 99 sentinel
    assert all(
        r["economics"]["profitable"] == (r["economics"]["runway_months"] is None) for r in rows
    )
    assert report["victories"] > 0 and report["defeats"] > 0
    assert len(report["defeat_reasons"]) >= 2
    # some ventures here gain a stage (a ninth fork) and some skip one (seven)
    assert len(report["forks"]) == MAX_FORKS and all(f["histories"] > 0 for f in report["forks"])
    assert set(report["forks_per_venture"]) == {7, 8, 9}, report["forks_per_venture"]
    assert report["distinct_dilemmas_per_venture"] == {"min": 7, "max": 9}
    assert report["dilemmas_repeated"] == 0
    assert (
        report["fixed_paths"]["best"][0]["win_rate"]
        >= report["fixed_paths"]["worst"][0]["win_rate"]
    )


def test_no_fixed_path_wins_nearly_every_combination_of_the_ci_sweep(balance):
    report, _rows = balance
    assert report["fixed_paths"]["max_win_rate"] <= BEST_FIXED_PATH_MAX, report["fixed_paths"]


def test_the_design_targets_hold_on_a_small_sweep(balance):
    """Issue 45's targets, on the CI-sized sweep (four seeds x 4 archetypes); the full figures
    are over the 300 tuning seeds and 300 held out (`python -m bench.balance_sweep --range ...`;
    tune-18 and held-out-18 are the 18-seed ranges the figures below were first read on)."""
    report, _rows = balance
    # a random fork path: 0.279 over the 18 tuning seeds at rules 68 (the target is 0.20-0.35)
    assert 0.20 <= report["win_rate"] <= 0.40
    assert len(report["defeat_reasons"]) >= 4
    # pressure across the venture: defeats from stage 4 on, most of them before the last stage
    assert report["defeats_before_stage_6"] >= 0.20
    assert report["defeats_at_last_stage"] <= 0.45
    assert report["paths_graded_f"] <= 0.40
    fixed = report["fixed_paths"]
    assert 0.10 <= fixed["all_a"] <= 0.90 and 0.10 <= fixed["all_b"] <= 0.90
    assert report["archetypes_change_outcome"] >= 0.30
    forks = report["forks"]
    for fork in forks:  # no dominant option, the last two forks included
        assert min(fork["better"]["A"], fork["better"]["B"]) >= MIN_BETTER, fork


def test_the_skill_ladder_rewards_planning_over_reading_the_card(balance):
    """Over the 18 tuning seeds at rules 68 greedy wins 0.500 of (seed, archetype), lookahead
    0.611, hindsight 0.986 (at 67: 0.514, 0.625, 1.0): a player who reads only the previews wins at most three in
    four, one who plans two forks ahead wins at least two more, and some path wins nearly
    everywhere."""
    report, _rows = balance
    lad = report["ladder"]
    assert lad["pairs"] == 16
    won = {p: round(lad[p] * 16) for p in ("greedy", "lookahead", "hindsight")}
    assert won["greedy"] <= 12
    assert won["lookahead"] >= won["greedy"] + 2
    assert won["hindsight"] >= 15


def test_branched_paths_play_exactly_as_a_fresh_venture(balance, new_session):
    """The explorer (prefix sharing, sessions that keep no log, no standups) gives each path
    exactly the outcome a saved venture played from scratch gets: every field of the row, on both
    seeds and all four archetypes."""
    from engine.play.balance import _row

    _report, rows = balance
    picks = rows[::193]  # 22 ventures, at least one of every (seed, archetype): 256 rows each
    assert {(r["seed"], r["archetype"]) for r in picks} == {
        (s, a) for s in CI_SEEDS for a in ("builder", "seller", "designer", "operator")
    }
    for r in picks:
        s = new_session(pitch=PITCH, seed=r["seed"], archetype=r["archetype"], name="Balance Co")
        play(s, Plan(path=r["path"]))
        fresh = _row(s, r["prefix"], r["archetype"], r["seed"])
        assert {**fresh, "path": r["path"]} == r


def test_settings_change_is_logged_and_replays(new_session):
    from engine.config import Settings

    s = new_session()
    s.give(RunStage)
    s.router.update_settings(Settings(demo_mode="simulation", agent_routing="cloud_first"))
    info = RoutingChanged.of(s.router)
    s.execute(info)
    assert info.agent_routing == "cloud_first" and "key" not in str(info).lower()
    event = s.events()[-1]
    assert event.type == "SETTINGS_CHANGED" and "cloud_first" in event.message
    s.give(Approve)
    assert verify(s.conn, s.state.run_id).ok
