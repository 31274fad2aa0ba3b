"""The revenue plan follows the price: its revenue is its paying customers times the price the
artifact states, a named price sets those numbers (fresh work and redos), and the gate's check
flags a plan priced otherwise."""

from __future__ import annotations

import copy

import pytest

from engine.game.adherence import check
from engine.game.economy import founding_org, initial_economics
from engine.game.world import build_stages
from engine.language.artifact_text import prose, stated_prices
from engine.language.directions import Binding
from engine.language.steering import read_directions
from engine.session.commands import AnswerEvent, Approve, Decide, Reject, RunStage
from engine.views.render import render_artifact
from engine.writing.simulate import simulate_artifact
from tests.engine.test_directions import FOUNDER

ROLE_STAGE = {"marketer": 4, "ops": 5}


def _art(role: str, said: str | None = None, *, seed: int = 31, booked: float = 0.0) -> dict:
    econ = initial_economics(founding_org())
    if booked:
        econ.monthly_revenue_usd = booked
    binding = Binding(directions=read_directions(said, source="standup").directions if said else [])
    return simulate_artifact(
        role,
        founder=FOUNDER,
        stage=build_stages(founding_org())[ROLE_STAGE[role]],
        binding=binding,
        economics=econ,
        seed=seed,
        attempt=1,
    )


def _follows(fp: dict) -> bool:
    p = fp["price_usd_per_month"]
    pairs = zip(fp["paying_customers_m1_to_m6"], fp["target_mrr_usd_m1_to_m6"], strict=True)
    return all(abs(x - c * p) < p for c, x in pairs)


@pytest.mark.parametrize("role", ["marketer", "ops"])
@pytest.mark.parametrize("seed", [21, 31, 44])
def test_the_plan_is_its_customers_at_the_price_the_artifact_states(role, seed):
    fp = _art(role, seed=seed)["financial_plan"]
    assert _follows(fp)
    assert fp["paying_customers_m1_to_m6"] == sorted(fp["paying_customers_m1_to_m6"])
    if role == "marketer":  # the email's price is the plan's price
        art = _art(role, seed=seed)
        assert {a for a, _ in stated_prices(prose(art))} == {fp["price_usd_per_month"]}


@pytest.mark.parametrize("role", ["marketer", "ops"])
def test_a_named_price_sets_the_plans_numbers(role):
    base = _art(role)["financial_plan"]
    art = _art(role, "Price it at $25 a month")
    fp = art["financial_plan"]
    assert fp["price_usd_per_month"] == 25
    assert _follows(fp)
    assert fp["target_mrr_usd_m1_to_m6"] != base["target_mrr_usd_m1_to_m6"]
    assert fp["paying_customers_m1_to_m6"] == base["paying_customers_m1_to_m6"]  # same volume
    assert (
        check(role, art, read_directions("Price it at $25 a month", source="standup").directions)
        == []
    )
    shown = [line for b in render_artifact(art) for line in b.lines]
    assert "Price a customer pays: $25 a month" in shown
    assert any(line.startswith("Paying customers, months 1 to 6: ") for line in shown)


def test_a_yearly_price_is_the_plans_monthly_price_and_under_a_bound_stays_under():
    fp = _art("marketer", "Price it at $300 a year")["financial_plan"]
    assert fp["price_usd_per_month"] == 25
    fp = _art("ops", "Price it under 30 dollars a month")["financial_plan"]
    assert fp["price_usd_per_month"] < 30 and _follows(fp)


def test_the_plan_never_starts_below_what_is_booked():
    fp = _art("marketer", "Price it at $20 a month", booked=9_000)["financial_plan"]
    assert fp["target_mrr_usd_m1_to_m6"][0] >= 9_000 and _follows(fp)
    fp = _art("ops", "Price it at $29 a month; monthly revenue at least $20,000", booked=8_000)[
        "financial_plan"
    ]
    assert fp["target_mrr_usd_m1_to_m6"][-1] == 20_000
    assert fp["target_mrr_usd_m1_to_m6"][0] >= 8_000 and _follows(fp)


def test_the_check_flags_a_plan_priced_otherwise():
    directions = read_directions("Price it at $25 a month", source="standup").directions
    art = _art("marketer", "Price it at $25 a month")
    other = copy.deepcopy(art)
    other["financial_plan"]["price_usd_per_month"] = 110.0
    found = check("marketer", other, directions)
    assert [v.did for v in found] == ["plans its revenue at $110 a month"]
    other = copy.deepcopy(art)
    other["financial_plan"]["target_mrr_usd_m1_to_m6"] = [
        c * 110 for c in art["financial_plan"]["paying_customers_m1_to_m6"]
    ]
    found = check("marketer", other, directions)
    assert found and found[0].did.startswith("plans $") and "at $25" in found[0].did
    bare = copy.deepcopy(art)  # a model's plan without price or customers: judged by the text
    del bare["financial_plan"]["price_usd_per_month"]
    assert check("marketer", bare, directions) == []


def test_a_seeded_price_drift_is_in_the_numbers_too():
    said = "Price it at $25 a month"
    d = read_directions(said, source="standup").directions[0]
    econ = initial_economics(founding_org())
    art = simulate_artifact(
        "marketer",
        founder=FOUNDER,
        stage=build_stages(founding_org())[4],
        binding=Binding(directions=[d]),
        economics=econ,
        seed=31,
        attempt=1,
        drift=d,
    )
    assert art["financial_plan"]["price_usd_per_month"] != 25 and _follows(art["financial_plan"])


def test_a_redo_naming_the_price_reprices_the_plan_and_says_so(new_session):
    s = new_session(seed=31)
    while not (s.state.phase == "gate" and s.state.current.role == "marketer"):
        st = s.state
        if st.phase == "brief":
            if st.pending_event is not None:
                s.give(AnswerEvent, st.pending_event.default or "A")
            else:
                s.give(RunStage)
        elif st.phase == "gate":
            s.give(Approve)
        else:
            s.give(Decide, "A")
        assert s.state.phase != "ended"
    before = s.state.current.artifact["financial_plan"]
    s.give(Reject, "Price it at 25 dollars a month")
    run = s.state.current
    fp = run.artifact["financial_plan"]
    assert fp["price_usd_per_month"] == 25 and _follows(fp)
    assert fp["target_mrr_usd_m1_to_m6"] != before["target_mrr_usd_m1_to_m6"]
    how = run.artifact["follows_decision"]["how"]  # what changed, apart from the summary
    assert f"${fp['target_mrr_usd_m1_to_m6'][-1]:,.0f}" in how
    assert "Month-6 revenue target: $" in how
    plan_line = next(c for c in run.changes if c.startswith("The numbers: "))
    assert "Price a customer pays: $" in plan_line and "→ $25 a month" in plan_line
    assert not run.rubric.drift
