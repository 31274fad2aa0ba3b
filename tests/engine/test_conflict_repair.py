"""Conflicts across axes are found as minimal conflicting sets with the smallest fix (which one to
drop, or a change that keeps the rest), at the gate, at the confirm and in the CLI's --json
reading: an audience that is also left out, a channel an exclusion names, a price under a floor
the CEO set, two bounds on one number that leave nothing."""

from __future__ import annotations

import pytest

from engine.language.composition import conflicts, repair
from engine.language.directions import Direction
from engine.play.headless import Plan, play
from engine.session.commands import Approve, Decide, Reject, RunStage, StandupReply

FLOOR = Direction(axis="price", value="", amount=30.0, op="min", memory_id="m1")
CAP = Direction(axis="price", value="", amount=25.0, op="max", memory_id="m2")
SALONS = Direction(axis="audience", value="hair salons", memory_id="m3")
FORUMS = Direction(axis="channel", value="salon owner forums", memory_id="m4")
NO_SALONS = Direction(axis="exclusion", value="salons", do=False, memory_id="m5")


def _price(amount: float, op: str = "eq") -> Direction:
    return Direction(axis="price", value="", amount=amount, op=op)


def _week(amount: float, op: str = "eq") -> Direction:
    return Direction(axis="timeline", value="", key="launch", amount=amount, op=op)


@pytest.mark.parametrize(
    ("ds", "clash"),
    [
        ([FLOOR, _price(20)], True),  # a price under the floor the CEO set
        ([FLOOR, _price(30)], False),
        ([FLOOR, CAP], True),  # a floor over a cap: no price can hold both
        ([CAP, _price(25)], True),  # "under $25" allows no $25
        ([_week(3, "max"), _week(3)], False),  # "by week 3" allows week 3
        ([_week(3, "max"), _week(5)], True),
        ([_week(3, "max"), _week(5, "min")], True),
        ([SALONS, NO_SALONS], True),
        ([FORUMS, NO_SALONS], True),
        ([SALONS, FORUMS, FLOOR], False),
    ],
)
def test_what_conflicts_and_what_does_not(ds, clash):
    assert bool(conflicts(ds)) is clash


def test_a_price_under_a_floor_offers_the_drop_and_the_change_that_keeps_the_floor():
    (c,) = conflicts([FLOOR, _price(20)])
    assert c.directions == ("price at least $30 a month", "price $20 a month")
    assert c.drop == "price at least $30 a month" and c.drop_memory_id == "m1"
    assert c.change == "change “price $20 a month” to “price $30 a month”"
    assert "cannot both hold" in c.line


def test_the_smallest_fix_drops_the_fewest_directions_not_the_older_of_each_pair():
    fix = repair([SALONS, FORUMS, NO_SALONS])
    assert len(fix.conflicts) == 2
    assert [c.drop for c in fix.conflicts] == [
        "speak to hair salons",
        "reach customers through salon owner forums",
    ]
    assert fix.drop == ("leave out salons",)  # one drop answers both sets
    assert "Smallest fix: drop “leave out salons” (1 direction)" in fix.line
    both = repair([FLOOR, _price(20), SALONS, NO_SALONS])
    assert both.drop == ("price at least $30 a month", "speak to hair salons")


def _at_gate_with_a_floor(new_session):
    s = new_session(pitch="Bookkeeping for hair salons", seed=4)
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    s.give(StandupReply, "Speak to hair salons; price it at least $30 a month")
    s.give(RunStage)
    return s


def test_the_confirm_shows_each_conflict_and_the_smallest_fix(new_session):
    s = _at_gate_with_a_floor(new_session)
    assert s.state.phase == "gate"
    p = Reject("Leave out salons and price it at $20 a month").preview(s.state)
    assert p is not None
    assert "“price at least $30 a month” and “price $20 a month” cannot both hold" in p.says
    assert "“speak to hair salons” and “leave out salons” cannot both hold" in p.says
    assert "Smallest fix: drop" in p.says
    assert Reject("Price it at $35 a month").preview(s.state) is None


def test_the_cli_json_reading_carries_the_conflicts_and_the_fix(new_session):
    s = new_session(pitch="Bookkeeping for hair salons", seed=4)
    readings: list[dict[str, object]] = []
    play(
        s,
        Plan.from_cli(
            {
                "standup_reply": ["2:Speak to hair salons; price it at least $30 a month"],
                "reject": ["3:Leave out salons and price it at $20 a month"],
            }
        ),
        readings,
    )
    first, second = readings
    assert first["repair"] == {"conflicts": [], "drop": []}
    fix = second["repair"]
    assert isinstance(fix, dict)
    assert fix["drop"] == ["price at least $30 a month", "speak to hair salons"]
    assert {c["change"] for c in fix["conflicts"]} == {
        "change “price $20 a month” to “price $30 a month”",
        None,
    }
