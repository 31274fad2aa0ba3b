"""The corrections a player makes to a reading's chips, without a screen: an axis cycles through
the axes its value could take, do / don't flips and back to the axis it had, a figure keeps its
axis and binds as said, a drop and a second drop, corrections kept over a re-reading."""

from __future__ import annotations

from engine.language.directions import Direction
from worldforge_tui.chip_edits import LEAVE_OUT, TO_DO, Chips, flipped, label, next_axis

CHEFS = Direction(axis="audience", value="head chefs", start=9, end=19)
ROUTES = Direction(axis="exclusion", value="routes", do=False, start=30, end=36)
PRICE = Direction(axis="price", value="$49 a month", amount=49.0, start=40, end=51)


def test_an_axis_cycles_through_the_axes_its_value_could_take_and_comes_round():
    seen: list[str] = []
    d: Direction | None = CHEFS
    for _ in TO_DO:
        d = next_axis(d) if d is not None else None
        assert d is not None and d.do and d.value == "head chefs"
        seen.append(d.axis)
    assert sorted(seen) == sorted(TO_DO) and d is not None and d.axis == "audience"
    claim = next_axis(ROUTES)
    assert claim is not None and claim.axis == "claim" and set(LEAVE_OUT) == {"exclusion", "claim"}
    assert next_axis(PRICE) is None  # a figure keeps its axis


def test_a_flip_makes_a_thing_to_leave_out_and_back_to_the_axis_it_had():
    out = flipped(CHEFS, None)
    assert out is not None and (out.axis, out.do) == ("exclusion", False)
    back = flipped(out, "audience")
    assert back is not None and (back.axis, back.do) == ("audience", True)
    never = flipped(ROUTES, None)
    assert never is not None and (never.axis, never.do) == ("scope", True)
    assert flipped(PRICE, None) is None
    assert label(CHEFS) == "audience · do · head chefs"
    assert label(ROUTES) == "exclusion · don't · routes"
    assert label(PRICE) == "price · do · $49 a month"


def test_corrections_bind_and_stand_over_a_new_reading_of_the_same_words():
    chips = Chips()
    chips.show([CHEFS, ROUTES, PRICE])
    assert chips.confirmed() is None  # nothing corrected: the reading binds as read
    assert chips.flip() == ""
    chips.select(1)
    assert chips.drop() == ""
    chips.select(1)
    assert chips.change_axis().startswith("A price keeps its axis")
    assert chips.flip().startswith("A price binds as said")
    assert [d.line() for d in chips.confirmed() or []] == [
        "leave out head chefs",
        "price $49 a month",
    ]
    chips.show([CHEFS, ROUTES, PRICE, Direction(axis="tone", value="warm", start=60, end=64)])
    assert [d.line() for d in chips.confirmed() or []] == [
        "leave out head chefs",
        "price $49 a month",
        "write in a warm tone",
    ]
    chips.select(-1)  # back to the dropped one: a second drop brings it back
    assert chips.current is not None and chips.current.now is None
    chips.drop()
    assert "leave out routes" in [d.line() for d in chips.confirmed() or []]
    empty = Chips()
    empty.show([])
    assert empty.flip() == "No direction selected." and empty.confirmed() is None
