"""Prices are the game's: the price a venture's workers quote until one is named, what a named
price means a month, and what the economy charges for it (the simulator and the economy both ask
here; how a worker words a price is the writing's business, never the economy's).

A named price charges what the CEO said: exactly the amount, or the amount for "at least"; "under
$80" charges one cent under the bound ($79.99), the most a customer can pay that is still under it.
A price per year or week is charged as its monthly share; a price per thing bought ("$12 a meal")
counts one a paying customer a month. Revenue comes from market share; the price divides it into
paying customers (a lower price, more customers paying less each).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.game.economy import TUNING, recompute
from engine.language.artifact_text import PER_MONTH
from engine.language.directions import Direction

if TYPE_CHECKING:
    from collections.abc import Iterable

    from engine.game.models import Economics, GameState

# Each venture's list price is the reference (TUNING arpu_usd) times a seeded share, to $5; a
# price below `lowest` a month is no price.
PRICE = {"list_share_low": 0.3, "list_share_high": 0.6, "round_to": 5, "lowest": 1}
UNDER = 0.01  # "under $X" charges this much below X


def list_price(seed: int) -> int:
    """The venture's list price a month (seeded): what its workers quote until a price is named."""
    share = random.Random(f"{seed}:price").uniform(
        PRICE["list_share_low"], PRICE["list_share_high"]
    )
    step = PRICE["round_to"]
    return int(round(TUNING["arpu_usd"] * share / step) * step)


def monthly_price(amount: float, period: str = "month") -> float:
    """A price stated per month, week, year or thing bought, as a monthly price."""
    return round(amount * PER_MONTH.get(period, 1.0), 4)


def charge(d: Direction) -> float:
    """What the economy charges a customer a month for a named price (see the module's note)."""
    amount = d.amount or 0.0
    return monthly_price(amount - UNDER if d.op == "max" else amount, d.period)


def set_price(econ: Economics, monthly_usd: float) -> bool:
    """A price becomes what customers pay (a month, to the cent): revenue stays what market share
    brings, the paying customers are what it takes at this price. False when it is no price."""
    if monthly_usd < PRICE["lowest"]:
        return False
    econ.arpu_usd = round(float(monthly_usd), 2)
    recompute(econ)
    return True


def charge_named_price(econ: Economics, directions: Iterable[Direction]) -> None:
    """The last price these directions name (to do) is what customers pay from now on."""
    named = [d for d in directions if d.axis == "price" and d.do and d.amount]
    if named:
        set_price(econ, charge(named[-1]))


def price_in_force(st: GameState) -> Direction:
    """What customers pay now, the base a fork's price options scale: the economy's revenue per
    customer (the list price until a named price moves it), in the unit the approved work bound it
    in when that direction is what is charged ("$19 a meal" stays per meal), else a month."""
    arpu = st.economics.arpu_usd
    for raw in reversed(st.current.binding if st.current else []):
        d = Direction.from_dict(raw)
        if d.axis != "price" or not d.do or not d.amount or d.period not in ("month", "unit"):
            continue
        if abs(round(charge(d), 2) - arpu) < 0.01:
            return Direction(axis="price", value="", amount=arpu, period=d.period, unit=d.unit)
    return Direction(axis="price", value="", amount=arpu)
