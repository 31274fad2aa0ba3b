"""Whom a price is per when the audience is a corner the rival ignores: played, after "Flank",
the simulated page read "A weekly summary for each tradespeople the big players ignore", "£60 a
month per tradespeople the big players ignore" and "three proof points from tradespeople the big
players ignores"."""

from __future__ import annotations

import re

import pytest

from engine.game.dilemmas import flanked
from engine.language.grammar import plural, singular
from engine.writing.simulate import _unit_of


def _unit(customer: str, pitch_customer: str) -> str:  # as the voice draws it (general trade)
    return re.sub(r"^(?:the|a|an) ", "", singular(_unit_of(customer, pitch_customer)))


@pytest.mark.parametrize(
    ("customer", "pitch_customer", "unit", "units"),
    [
        ("tradespeople", "plumbers and electricians", "tradesperson", "tradespeople"),
        ("busy nurses and others like them", "busy nurses", "busy nurse", "busy nurses"),
    ],
)
def test_a_flanked_audience_prices_per_its_own_head(customer, pitch_customer, unit, units):
    corner = flanked(customer)
    assert "the big players ignore" in corner
    assert _unit(corner, pitch_customer) == unit
    assert plural(_unit(corner, pitch_customer)) == units


@pytest.mark.parametrize(
    ("customer", "pitch_customer"),
    [
        ("plumbers and electricians", "plumbers and electricians"),
        (flanked("tradespeople") + " and bigger firms", "plumbers n sparkies"),
        ("plumbers n sparkies", "plumbers n sparkies"),
    ],
)
def test_two_kinds_of_customer_are_counted_as_customers(customer, pitch_customer):
    """Played: "finds where each plumbers and electrician already looks" and "The pilot costs
    £85 a month per tradespeople the big players ignore and bigger firm"."""
    assert _unit(customer, pitch_customer) == "customer"
