"""The skill ladder (engine.play.policies): random, greedy and lookahead players of a whole venture."""

from __future__ import annotations

import json

from engine.play import policies
from engine.play.balance import ladder, play_policy
from engine.play.headless import Plan, play
from engine.session.commands import Approve, RunStage
from worldforge_tui.cli import main


def _decisions(session) -> list[str]:
    return [s.decision.option for s in session.state.stages if s.decision]


def test_each_policy_plays_a_whole_venture_deciding_every_fork_itself(new_session):
    for policy in policies.POLICIES:
        s = new_session(seed=11)
        play(s, Plan(path="A" * 8, policy=policy))
        assert s.state.phase == "ended"
        posed = sum(1 for e in s.events() if e.type == "DILEMMA_POSED")
        assert len(_decisions(s)) == posed > 0


def test_the_random_player_is_seeded_and_not_a_fixed_letter(new_session):
    a, b = new_session(seed=11), new_session(seed=11)
    play(a, Plan(policy="random"))
    play(b, Plan(policy="random"))
    assert _decisions(a) == _decisions(b)
    paths = set()
    for seed in (3, 4, 5, 6):
        s = new_session(seed=seed)
        play(s, Plan(policy="random"))
        paths.add("".join(_decisions(s)))
    assert len(paths) > 1 and any(len(set(p)) == 2 for p in paths)


def test_greedy_is_the_careful_ceo_and_lookahead_reads_only_a_copy(new_session):
    s = new_session(seed=7)
    s.give(RunStage)
    s.give(Approve)
    st = s.state
    before = (st.economics.numbers(), st.day, len(st.history), [w.id for w in st.org])
    from engine.play import careful

    assert policies.fork_choice("greedy", st) == careful.fork_choice(st)
    assert policies.fork_choice("lookahead", st) in ("A", "B")
    assert (st.economics.numbers(), st.day, len(st.history), [w.id for w in st.org]) == before


def test_the_balance_ladder_counts_each_player_and_hindsight():
    played = [[play_policy(7, "seller", p) for p in policies.POLICIES]]
    out = ladder([], played)
    assert out["pairs"] == 1 and out["hindsight"] == 0.0  # no explored path given: none won
    for i, p in enumerate(policies.POLICIES):
        assert out[p] == float(played[0][i]["result"] == "victory")
        assert len(played[0][i]["prefix"]) == len(played[0][i]["rules"]) > 0  # its letters


def test_the_ladder_reads_each_archetype_on_its_own_pairs():
    """The per-archetype figures count only that founder's pairs and paths: a seller that wins
    every path and a builder that wins none read 1.0 and 0.0, not the 0.5 of their mean."""
    played = [[play_policy(7, a, p) for p in policies.POLICIES] for a in ("builder", "seller")]
    base = {"prefix": "", "seed": 7, "stage": 8, "reason": "", "rules": [], "dilemmas": []}
    rows = [
        {**base, "archetype": "seller", "result": "victory"},
        {**base, "archetype": "builder", "result": "defeat"},
    ]
    out = ladder(rows, played)
    assert out["random_path_mean"] == 0.5
    assert list(out["by_archetype"]) == ["builder", "seller"]
    assert out["by_archetype"]["seller"]["random_path_mean"] == 1.0
    assert out["by_archetype"]["seller"]["hindsight"] == 1.0
    assert out["by_archetype"]["builder"]["random_path_mean"] == 0.0
    assert out["by_archetype"]["builder"]["hindsight"] == 0.0
    for i, p in enumerate(policies.POLICIES):
        for k, a in enumerate(("builder", "seller")):
            assert out["by_archetype"][a][p] == float(played[k][i]["result"] == "victory")


def test_simulate_takes_a_policy_and_refuses_an_unknown_one(tmp_path, capsys):
    rc = main(
        [
            "simulate",
            "--pitch",
            "A booking and invoicing assistant for independent physiotherapy clinics",
            "--seed",
            "7",
            "--policy",
            "lookahead",
            "--save-dir",
            str(tmp_path),
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["outcome"]["result"] in ("victory", "defeat")
    try:
        rc = main(["simulate", "--pitch", "x y z", "--policy", "psychic"])
    except SystemExit as exc:
        rc = int(exc.code or 0)
    assert rc == 2
    assert "psychic" in capsys.readouterr().err


def test_lookahead_counts_a_pending_effect_that_lands_before_its_next_fork(new_session):
    """The planner's projection lands what the board shows pending for the next stage (what the
    greedy player, reading only the option's own preview, leaves out)."""
    s = new_session(seed=7)
    s.give(RunStage)
    s.give(Approve)
    st = s.state
    rid = st.dilemma.options[0].rule_id
    plain = policies.project(st, rid, st.stage.id)
    st.pending.append(
        {
            "rule_id": rid,
            "stage_id": st.stage.id,
            "due_index": st.stage_index + 1,
            "effects": {"trust": -10.0},
            "amounts": {"trust": -10.0},
            "line": "at stage 2: trust -10",
        }
    )
    billed = policies.project(st, rid, st.stage.id)
    assert billed.economics.trust < plain.economics.trust
    assert len(st.pending) == 1  # the company itself still waits for it
