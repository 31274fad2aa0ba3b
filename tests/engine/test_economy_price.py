"""The price customers pay is the price the work states: the list price until one is named, then
the named one (a fork option's or the CEO's words); it divides revenue into paying customers."""

from __future__ import annotations

import pytest

from engine.game.economy import founding_org, initial_economics
from engine.game.pricing import charge, list_price, set_price
from engine.language.directions import Direction
from engine.play.headless import Plan, play
from engine.session.commands import Approve, Decide, Reject, RunStage
from engine.views.fork_words import in_words
from engine.views.report import render_report


def test_the_list_price_is_what_workers_quote_and_what_customers_pay(new_session):
    s = new_session(seed=301)
    assert s.state.economics.arpu_usd == list_price(301)
    assert len({list_price(seed) for seed in range(40)}) > 5  # seeded per venture


@pytest.mark.parametrize(
    ("said", "charged"),
    [
        (Direction(axis="price", value="", amount=80.0, op="max"), 79.99),  # under $80
        (Direction(axis="price", value="", amount=50.0, op="max"), 49.99),
        (Direction(axis="price", value="", amount=40.0, op="min"), 40.0),  # at least $40
        (Direction(axis="price", value="", amount=25.0), 25.0),
        (Direction(axis="price", value="", amount=120.0, period="year"), 10.0),
        (Direction(axis="price", value="", amount=12.0, period="unit", unit="meal"), 12.0),
    ],
)
def test_a_named_price_charges_what_the_ceo_said(said, charged):
    """The game's rule, not the simulator's wording: "under $80" charges at most $80 (one cent
    under), never the $75 a simulated worker writes."""
    assert round(charge(said), 2) == charged


def test_under_a_price_charges_just_under_it_whatever_the_work_says(new_session):
    s = new_session(seed=301)
    for command in (RunStage, Approve):
        s.give(command)
    s.give(Decide, "A")
    s.give(RunStage)
    s.give(Reject, "Too pricey: keep it under $80 a month")
    assert s.state.economics.arpu_usd == 79.99
    assert "$75 a month" in str(s.state.current.artifact if s.state.current else "")


def test_a_named_price_moves_customers_not_revenue(new_session):
    s = new_session(seed=301)
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    s.give(RunStage)
    revenue = s.state.economics.monthly_revenue_usd
    s.give(Reject, "Price it at $25 a month")
    e = s.state.economics
    assert e.arpu_usd == 25 and e.monthly_revenue_usd == revenue > 0
    assert e.paying_customers == round(e.monthly_revenue_usd / 25)
    card = render_report(s.read_model())
    assert "Revenue per customer: $25" in card
    assert "$220" not in card


def test_set_price_trades_customers_for_revenue_each():
    econ = initial_economics(founding_org(), {"revenue": 6_000}, price=100)
    revenue, customers = econ.monthly_revenue_usd, econ.paying_customers
    assert set_price(econ, 50)
    assert (
        econ.monthly_revenue_usd == revenue
        and econ.paying_customers == round(revenue / 50) > customers
    )
    assert set_price(econ, 200)
    assert (
        econ.monthly_revenue_usd == revenue
        and econ.paying_customers == round(revenue / 200) < customers
    )
    assert not set_price(econ, 0) and econ.arpu_usd == 200  # no price: nothing changes


def test_a_pricing_fork_charges_its_price_and_the_receipt_shows_it(new_session):
    s = new_session(seed=301)
    play(s, Plan(path="AAAAAAAA"))  # GO: premium (1.8x the list price); FIND: adoption (0.5x it)
    go, find = s.state.receipts[2], s.state.receipts[4]
    assert (go.rule_id, find.rule_id) == ("go.premium", "marketer.adoption")
    base = list_price(301)
    assert go.before.arpu_usd == base and go.after.arpu_usd == round(base * 1.8 / 5) * 5
    assert go.economics_delta["arpu_usd"] == go.after.arpu_usd - base
    assert (
        go.after.monthly_revenue_usd - go.before.monthly_revenue_usd
        == go.economics_delta["monthly_revenue_usd"]
    )  # the rule's revenue, nothing from the price itself
    # "low" halves the price customers pay now (premium's), not the list price
    assert find.before.arpu_usd == go.after.arpu_usd
    assert find.after.arpu_usd == round(go.after.arpu_usd * 0.5 / 5) * 5 < go.after.arpu_usd
    assert find.after.paying_customers > find.before.paying_customers


def test_a_fork_prices_low_from_the_price_the_ceo_named_in_its_unit(new_session):
    """After "charge $19 a meal", "price low" binds less than $19 a meal, never half the list price
    a month (which was more than the CEO's price: "low" raised it)."""
    s = new_session(pitch="meal kits for night-shift nurses", seed=7)
    said = {"reject": {"stage_2_need": ["Too pricey: charge $19 a meal and leave out students"]}}
    # the first two forks' B keep this company alive to its sixth stage (rules 65: all A fell
    # at the fifth, out of cash)
    play(s, Plan(path="BBAAAAAA", said=said))
    find = s.state.receipts[4]
    assert find.rule_id == "marketer.adoption" and find.before.arpu_usd == 19
    decision = [e for e in s.events() if e.type == "CEO_DECISION"][4].payload
    bound = [d for d in decision["directions"] if d["axis"] == "price"]
    assert [(d["amount"], d["period"], d.get("unit")) for d in bound] == [(10.0, "unit", "meal")]
    assert find.after.arpu_usd == 10 < list_price(7)
    posed = [e for e in s.events() if e.type == "DILEMMA_POSED"][4].payload
    shown = next(o["binds"] for o in posed["options"] if o["rule_id"] == "marketer.adoption")
    assert "$10 a meal" in shown  # the fork shows what the decision then binds, word for word
    binds, _, replaces = shown.partition(" (replaces your ")  # and what of the CEO's it replaces
    # in this venture's words ("price the meal kits at $10 a meal"), the content it binds
    assert binds == "; ".join(
        in_words(Direction.from_dict(d), s.state) for d in decision["directions"]
    )
    assert replaces == "“price $19 a meal”)"
    executed = [e.payload for e in s.events() if e.type == "STAGE_EXECUTED"]
    take = [p for p in executed if p["stage_id"] == "stage_6_take"][-1]  # TAKE's work
    # a rival's raid adds HOLD before TAKE here; matching its price binds 0.8 x $10
    assert [x.id for x in s.state.stages][5] == "stage_x_hold"
    assert s.state.stages[5].decision is not None
    assert s.state.stages[5].decision.rule_id == "hold.match"
    assert "$8 a meal" in str(take["artifact"])
