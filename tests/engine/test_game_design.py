"""The game design's promises: a distinct state-dependent dilemma per stage, previews that match
receipts, archetypes and a rival with mechanics, seeded events, endings with a score, clean numbers."""

from __future__ import annotations

import copy
import itertools
import json
import re
from dataclasses import replace

import pytest

from engine.errors import SaveError
from engine.game.dilemmas import DECK, pose
from engine.game.endings import ENDINGS
from engine.game.models import ARCHETYPES
from engine.game.rules import RULES, Scale, resolve
from engine.play.headless import Plan, play, summary
from engine.session.api import GameSession
from engine.session.replay import verify
from worldforge_textkit.numbers import months_said

PATHS = ("AAAAAAAA", "BBBBBBBB", "ABBABAAB", "BAABBABA")


@pytest.fixture(scope="module")
def ventures(tmp_path_factory):
    """Each archetype plays a few paths on two seeds (module-scoped: played once)."""
    from engine.config import Settings
    from engine.routing import Router

    router = Router(Settings(demo_mode="simulation"))
    save = tmp_path_factory.mktemp("design")
    out = []
    for archetype in ARCHETYPES:
        for seed, path in ((3, PATHS[0]), (3, PATHS[1]), (11, PATHS[2]), (11, PATHS[3])):
            s = GameSession.start_venture(
                pitch="A booking tool for independent physio clinics",
                archetype=archetype,
                seed=seed,
                save_dir=save,
                router=router,
            )
            play(s, Plan(path=path))
            out.append(s)
    yield out
    for s in out:
        s.close()


def test_each_venture_poses_eight_distinct_dilemmas(ventures):
    for s in ventures:
        posed = [e.payload for e in s.events() if e.type == "DILEMMA_POSED"]
        assert len({p["title"] for p in posed}) == len(posed)
        assert len({p["family"] for p in posed}) == len(posed)
        if s.state.outcome and s.state.outcome.stage == 8 and s.state.stages[-1].decision:
            assert len(posed) == 8


def test_effect_shown_before_the_choice_is_what_the_receipt_applies(ventures):
    checked = 0
    for s in ventures:
        posed = {e.payload["stage_id"]: e.payload for e in s.events() if e.type == "DILEMMA_POSED"}
        for r in s.state.receipts:
            option = next(o for o in posed[r.stage_id]["options"] if o["rule_id"] == r.rule_id)
            assert option["effect_line"] == r.effect_line
            checked += 1
    assert checked > 40


def test_a_role_moves_burn_by_its_cost_and_no_receipt_cancels_itself(ventures):
    for s in ventures:
        for r in s.state.receipts:
            d = r.org_delta
            assert not (d.added_role_id and d.added_role_id == d.removed_role_id)
            assert r.effect_line != "no change"
            burn = r.after.monthly_burn_usd - r.before.monthly_burn_usd
            overhead = r.after.overhead_usd - r.before.overhead_usd
            removed = next(
                (w.monthly_cost_usd for w in s.state.org if w.id == d.removed_role_id), 0
            )
            assert burn == d.monthly_cost_usd - removed + overhead
            if d.added_role_title:
                assert f"adds {d.added_role_title} (${d.monthly_cost_usd:,.0f}/mo)" in r.effect_line


def test_effects_depend_on_state():
    breadth = RULES["strategist.breadth"]
    from engine.game.economy import founding_org, initial_economics

    thin, high = initial_economics(founding_org()), initial_economics(founding_org())
    thin.trust, high.trust = 15, 70
    assert (
        resolve(breadth, thin, "builder")["revenue"]
        < 0
        < resolve(breadth, high, "builder")["revenue"]
    )
    automate = RULES["ops.automate"]
    few, many = copy.copy(thin), copy.copy(thin)
    few.paying_customers, many.paying_customers = 5, 90
    assert resolve(automate, many, "operator")["burn_pressure"] < resolve(
        automate, few, "operator"
    ).get("burn_pressure", 0)
    assert Scale("trust", "proof", 10, 1, -3, 3).amount(thin) == 3  # clamped


def test_archetypes_have_their_own_option_and_modifier(new_session):
    for archetype in ARCHETYPES:
        own = next(rid for rid, rule in RULES.items() if rule.archetype == archetype)
        stage_id = next(
            sid for sid, fam in DECK.items() if any(v.archetype == archetype for v in fam)
        )
        s = new_session(archetype=archetype)
        stage = next(st for st in s.state.stages if st.id == stage_id)
        rules = [o.rule_id for o in pose(s.state, stage).options]
        assert own in rules
        other = next(a for a in ARCHETYPES if a != archetype)
        s2 = new_session(archetype=other)
        stage2 = next(st for st in s2.state.stages if st.id == stage_id)
        assert own not in [o.rule_id for o in pose(s2.state, stage2).options]
    econ = new_session().state.economics
    assert (
        resolve(RULES["founder.craft"], econ, "builder")["proof"]
        > resolve(RULES["founder.craft"], econ, "seller")["proof"]
    )


def test_rival_moves_change_the_metric_they_name(ventures):
    moves = [m for s in ventures for m in s.state.moves]
    assert moves
    changed = [m for m in moves if m.metric_delta]
    assert len(changed) >= 0.9 * len(moves)
    for s in ventures:
        for e in s.events():
            if e.type == "ANTAGONIST_MOVE" and e.payload["metric_delta"]:
                assert f"{e.payload['metric_delta']:+g}" in e.message
    assert any(m.reaction for m in moves)  # the rival punished some choice
    assert len({s.state.antagonist.personality for s in ventures}) >= 2


def test_world_events_are_typed_visible_and_replayed(ventures):
    kinds = {e.kind for s in ventures for e in s.state.world_events}
    assert len(kinds) >= 6
    for s in ventures[:6]:
        logged = [e for e in s.events() if e.type in ("WORLD_EVENT", "WORLD_EVENT_RESOLVED")]
        assert len(logged) >= len(s.state.world_events)
        report = verify(s.conn, s.state.run_id)
        assert report.ok, report.first_difference


def test_an_event_choice_is_answered_by_plan_and_replays(new_session):
    answered = None
    for seed in range(1, 30):
        s = new_session(seed=seed)
        play(s, Plan(path="ABABABAB", said={"answer_event": {"*": ["B"]}}))
        answered = next((e for e in s.state.world_events if e.choice), None)
        if answered:
            break
    assert answered is not None and answered.choice == "B"
    resolved = [e for e in s.events() if e.type == "WORLD_EVENT_RESOLVED"]
    assert resolved and resolved[0].actor == "ceo"
    assert verify(s.conn, s.state.run_id).ok


def test_endings_score_and_truthful_victory_text(ventures):
    ids = {e.id for e in ENDINGS}
    for s in ventures:
        o = s.state.outcome
        assert o is not None and o.ending in ids and 0 <= o.score <= 100 and o.grade in "ABCDF"
        if o.result == "victory":
            econ = s.state.economics
            profitable = econ.monthly_revenue_usd >= econ.monthly_burn_usd
            assert ("not yet profitable" in o.reason) == (not profitable) or o.ending == "commons"
            if not profitable:
                assert f"{months_said(econ.runway_months)} of runway" in o.reason
        else:
            assert o.stage >= 3
    assert len({s.state.outcome.ending for s in ventures}) >= 3
    from engine.views.report import render_report

    o = ventures[0].state.outcome
    assert f"Score: {o.score}/100 ({o.grade})" in render_report(ventures[0].read_model())


def test_numbers_carry_no_float_noise(ventures):
    noise = re.compile(r"\d+\.\d{3,}")
    for s in ventures[:4]:
        out = json.dumps(summary(s))
        assert not noise.search(out), noise.search(out)
        for e in s.events():
            if e.type in ("CONSEQUENCE_APPLIED", "RUN_ENDED", "WORLD_EVENT", "ANTAGONIST_MOVE"):
                text = json.dumps(e.payload)
                assert not noise.search(text), (e.type, noise.search(text))
        econ = s.state.economics
        assert econ.treasury_usd == round(econ.treasury_usd)
        assert econ.market_share == round(econ.market_share, 1)


def test_a_save_from_older_rules_is_refused_with_one_line(new_session):
    s = new_session()
    s.state.rules_version = 1
    from engine.session.saves import save_run

    save_run(s.conn, s.state, s.inputs)
    with pytest.raises(SaveError, match="rules version 1"):
        GameSession.load(s.state.run_id, save_dir=s.save_dir)
    with pytest.raises(SaveError, match="rules version 1"):
        verify(s.conn, s.state.run_id)


def test_a_profitable_company_shows_profitable_not_a_runway_sentinel(ventures, capsys):
    """Revenue covering burn has no runway to count: every output says profitable (JSON null
    runway plus `profitable: true`, the report card in words), never a made-up 99 months."""
    from engine.game.decision import economics_delta
    from engine.game.economy import recompute
    from engine.views.report import render_report

    s = ventures[0]
    econ = s.state.economics
    losing = replace(econ, monthly_revenue_usd=0.0, market_share=0.0)
    recompute(losing)
    assert losing.shown()["profitable"] is False and losing.shown()["runway_months"] > 0
    winning = replace(econ, market_share=100.0)
    recompute(winning)
    assert winning.shown()["profitable"] is True and winning.shown()["runway_months"] is None
    assert economics_delta(losing, winning)["runway_months"] is None
    for v in ventures:
        out = summary(v)["economics"]
        assert out["profitable"] == (out["runway_months"] is None)
        for e in v.events():
            if e.type == "RUN_ENDED":
                shown = e.payload["economics"]
                assert shown["profitable"] == (shown["runway_months"] is None)
            if e.type == "CONSEQUENCE_APPLIED":
                assert e.payload["economics_delta"]["runway_months"] not in (97.8, 99.0)
    s.state.economics = winning
    try:
        out = summary(s)["economics"]
        assert out["runway_months"] is None and out["profitable"] is True
        assert "99" not in json.dumps({"runway": out["runway_months"]})
        card = render_report(s.read_model())
        assert "- Runway (months): none needed (profitable)" in card
        assert "- Profitable: yes" in card
    finally:
        s.state.economics = econ
    card = render_report(s.read_model())
    assert ("- Profitable: yes" in card) == econ.profitable


def test_a_scaled_effect_says_in_words_which_state_makes_it_bigger():
    from engine.game.rules import Scale

    assert Scale("revenue", "trust", 40, 10, -500, 500).hint() == (
        "more revenue when trust is above 40, less below"
    )
    assert Scale("proof", "proof", 25, -0.2, -3, 3).hint() == (
        "more proof when proof is below 25, less above"
    )
    assert Scale("cash", "runway_months", 2, 100, -1, 1).hint() == (
        "more cash when runway is above 2 months, less below"
    )
    assert Scale("cash", "monthly_burn_usd", 0, -0.5, -9, 0).hint() == (
        "less cash the higher the monthly burn"
    )


def test_a_fork_names_the_customer_the_ceo_narrowed_to(new_session):
    """After "start with busy parents" the depth option said "own one niche of families" and
    bound "the busiest parents": the option now names the customer its content binds."""
    from engine.session.commands import Approve, Decide, Reject, RunStage

    def posed_words(s) -> str:
        posed = pose(s.state, s.state.stages[1])
        return " ".join([posed.prompt, *(o.text for o in posed.options)])

    s = new_session(pitch="Meal kits for family dinners in Leeds", seed=3)
    assert "families" in posed_words(s)
    s.give(RunStage)
    s.give(Reject, "start with busy parents")
    s.give(Approve)
    s.give(Decide, "A")
    assert s.state.niche == "busy parents"
    assert "busy parents" in posed_words(s) and "families" not in posed_words(s)


def test_a_rival_punishing_again_says_why_in_other_words(new_session):
    """A copycat punishing three slow moves in a row said "punishing a slow move that leaves time
    to copy" three times running."""
    from engine.game.antagonist import PERSONALITIES

    s = new_session(pitch="Cleaning services for dental practices in Bristol", seed=903)
    play(s, Plan(path="BABABABA"))
    said = [m.reaction for m in s.state.moves if m.reaction]
    assert len(said) >= 2
    assert all(a != b for a, b in itertools.pairwise(said))
    for p in PERSONALITIES.values():
        assert len(set(p.punishes[2])) >= 2
