"""Two directions no artifact can follow together ("leave out salons", later "centre the work on
salons"): the later binds and the earlier is lifted, as an audience and an exclusion already were.
Before, both bound, and work that followed the exclusion was flagged DRIFT on the scope."""

from __future__ import annotations

from types import SimpleNamespace

from engine.language.directions import fold


def _note(day: int, nid: str, **direction: object) -> SimpleNamespace:
    return SimpleNamespace(
        id=nid,
        kind="procedural",
        game_day=day,
        stage_id="stage_8_change",
        payload={"source": "reply", "directions": [direction]},
    )


def test_a_later_scope_lifts_an_exclusion_of_the_same_segment_and_the_other_way_round() -> None:
    leave_out = {"axis": "exclusion", "value": "salons", "do": False}
    centre = {"axis": "scope", "value": "salons", "do": True}
    later_scope = fold([_note(1, "m1", **leave_out), _note(2, "m2", **centre)])
    assert [(d.axis, d.value) for d in later_scope.directions] == [("scope", "salons")]
    later_exclusion = fold([_note(1, "m1", **centre), _note(2, "m2", **leave_out)])
    assert [(d.axis, d.value) for d in later_exclusion.directions] == [("exclusion", "salons")]
    other = fold([_note(1, "m1", **leave_out), _note(2, "m2", **{**centre, "value": "vans"})])
    assert {(d.axis, d.value) for d in other.directions} == {
        ("exclusion", "salons"),
        ("scope", "vans"),
    }


def test_a_later_exclusion_lifts_a_channel_it_names_and_the_other_way_round() -> None:
    """The FIND fork bound "reach customers through paid ads"; a later "No ads" left both bound,
    and the redo that dropped the ads was flagged DRIFT on the channel."""
    ads = {"axis": "channel", "value": "paid ads", "do": True}
    no_ads = {"axis": "exclusion", "value": "ads", "do": False}
    later_exclusion = fold([_note(1, "m1", **ads), _note(2, "m2", **no_ads)])
    assert [(d.axis, d.value) for d in later_exclusion.directions] == [("exclusion", "ads")]
    again = fold([_note(1, "m1", **no_ads), _note(2, "m2", **{**ads, "value": "ads"})])
    assert [(d.axis, d.value) for d in again.directions] == [("channel", "ads")]


def test_no_ads_after_an_ads_fork_is_followed_without_drift(new_session) -> None:
    from engine.play.headless import Plan, play, summary

    s = new_session(pitch="Meal kits for busy nurses in Leeds", seed=904)
    play(s, Plan(path="A" * 8).say("reject", "stage_6_take", "No ads"))
    stages = {x["id"]: x for x in summary(s)["stages"]}  # a venture of 7 to 9 stages
    take, ret = stages["stage_6_take"], stages["stage_7_return"]
    assert take["redos"] == 1
    assert not take["drift"] and not ret["drift"], (take["verdict"], ret["verdict"])
    assert not any("ads" in line.lower() for line in take["shipped"] if "said" not in line)
