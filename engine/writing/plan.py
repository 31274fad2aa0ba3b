"""The revenue plan a marketer or ops worker writes: paying customers a month times the price a
customer pays, so the plan's numbers follow the price the artifact states (and a named price
changes them). Its fields: `price_usd_per_month` (the price, monthly), `paying_customers_m1_to_m6`
(the plan's volume) and `target_mrr_usd_m1_to_m6` (what they pay), plus burn, breakeven, churn.

How a price feeds the numbers lives here (`price_plan`, `reprice`, `fit_customers`); how fast the
customers grow (GROWTH, the words around the curve) is the writing's to tune. The invariant the
gate checks (engine.game.adherence.plan_price_miss): every month's revenue is within one
customer's price of customers × price, and the plan's price is the named one.
"""

from __future__ import annotations

import math
import random
from typing import Any

from engine.game.models import Economics
from engine.game.rules import RULES

# Month-on-month growth of paying customers, months 2 to 6: it slows as the warmest customers are
# won, as a young company's does (about 2.5x in six months when the standing decision chases
# volume, its rule's `growth`; 1.8x otherwise; a flat 1.5 a month read as 7.6x and nobody
# believed it).
GROWTH: dict[str, tuple[float, ...]] = {
    "volume": (1.30, 1.25, 1.20, 1.15, 1.12),
    "steady": (1.18, 1.15, 1.12, 1.10, 1.08),
}
LONGEST_PLAN = 24  # months: a breakeven further out than this is stated as month 24


def grow(cohort: int, rates: tuple[float, ...]) -> list[int]:
    """Six months of paying customers from a first month's cohort: each month at least one more."""
    customers = [max(1, cohort)]
    for r in rates:
        customers.append(max(customers[-1] + 1, round(customers[-1] * r)))
    return customers


def breakeven(mrr: list[float], burn: float, rates: tuple[float, ...]) -> int:
    """The first month whose revenue covers the burn; past month 6 the last month's growth goes
    on (a plan that never covers its burn within two years says month 24)."""
    for month, revenue in enumerate(mrr, start=1):
        if revenue >= burn:
            return month
    revenue, month = (mrr[-1] if mrr else 0.0), len(mrr)
    while revenue > 0 and revenue < burn and month < LONGEST_PLAN:
        revenue, month = revenue * rates[-1], month + 1
    return month if revenue > 0 else LONGEST_PLAN


def price_plan(
    economics: Economics, rng: random.Random, rule_id: str, price: float
) -> dict[str, Any]:
    """Six months of paying customers at `price` a month and the revenue they bring; the first
    month never starts below what is already booked."""
    rule = RULES.get(rule_id)
    rates = GROWTH[rule.growth if rule else "steady"]
    booked = economics.monthly_revenue_usd
    cohort = max(rng.randint(4, 9), math.ceil(booked / price - 1e-9) if price > 0 else 1)
    customers = grow(cohort, rates)
    fp: dict[str, Any] = {
        "price_usd_per_month": float(price),
        "paying_customers_m1_to_m6": customers,
        "target_mrr_usd_m1_to_m6": [],
        "burn_usd_per_month": round(economics.monthly_burn_usd),
        "breakeven_month": 0,
        "churn_target_pct": round(rng.uniform(2.5, 6.0), 1),
    }
    reprice(fp, price, booked=booked)
    fp["breakeven_month"] = breakeven(
        fp["target_mrr_usd_m1_to_m6"], economics.monthly_burn_usd, rates
    )
    return fp


def reprice(
    fp: dict[str, Any], price: float, *, booked: float = 0.0, keep_revenue: bool = False
) -> None:
    """Put `price` (monthly) into the plan and make its numbers follow it: the customers stay and
    the revenue is theirs at the new price (never below what is booked), or, with `keep_revenue`
    (a revenue target the CEO named), the revenue stays and the customers are what it takes."""
    if price <= 0:
        return
    fp["price_usd_per_month"] = float(price)
    if keep_revenue or not fp.get("paying_customers_m1_to_m6"):
        fit_customers(fp)
        return
    floor = max(1, math.ceil(booked / price - 1e-9)) if booked > 0 else 1
    curve = [max(1, int(c)) for c in fp["paying_customers_m1_to_m6"]]
    scale = floor / curve[0] if curve[0] < floor else 1.0  # the curve's shape, from the floor up
    customers: list[int] = []
    for c in curve:
        customers.append(max(math.ceil(c * scale - 1e-9), floor, customers[-1] if customers else 1))
    fp["paying_customers_m1_to_m6"] = customers
    fp["target_mrr_usd_m1_to_m6"] = [round(c * price) for c in customers]


def fit_customers(fp: dict[str, Any]) -> None:
    """The customers each month's revenue target takes at the plan's price (a plan without a
    price is left as it is)."""
    price = fp.get("price_usd_per_month")
    mrr = fp.get("target_mrr_usd_m1_to_m6")
    if not isinstance(price, int | float) or price <= 0 or not isinstance(mrr, list):
        return
    fp["paying_customers_m1_to_m6"] = [max(1, math.ceil(float(x) / price - 1e-9)) for x in mrr]
