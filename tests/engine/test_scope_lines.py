"""A scope reads as the CEO said it and binds one line at a time: "name the first ward" centres
the work on the first ward (article kept), a later scope takes the earlier one's line (never two
"centred on" lines), a place the CEO names binds where the work starts ("launch in Leeds first"), the work
counts in the customer's own noun (delivery riders per rider, never per driver), and a worker
writing for someone else is caught even with a customer word left in."""

from __future__ import annotations

import re

from engine.game.adherence import check
from engine.game.flaws import find_flaws
from engine.language.directions import Direction
from engine.language.steering import read_directions
from engine.play.headless import Plan, play
from engine.writing.phrases import Voice
from engine.writing.realise import realise

RIDERS = "bike repair for delivery riders"
CENTRED = re.compile(r", centred on |[Bb]uilt around |centres on ")


def _scope(text: str, axis: str = "scope") -> list[str]:
    read = read_directions(text, source="rejection", stage="s1")
    return [d.value for d in read.directions if d.axis == axis]


def test_a_scope_keeps_the_article_the_ceo_gave_it():
    assert _scope("Charge $22 a walk and name the neighbourhood") == ["the neighbourhood"]
    assert _scope("Only the booking workflow, please") == ["the booking workflow"]
    assert _scope("Name our best nurse") == ["our best nurse"]
    assert _scope("mention courier insurance") == ["courier insurance"]


def _place(text: str) -> list[str]:
    return _scope(text, "place")


def test_a_named_place_is_where_the_work_starts_and_a_date_or_a_channel_is_not():
    assert _place("charge $25 a repair and launch in Leeds first") == ["Leeds"]
    assert _place("We only operate in north Leeds") == ["north Leeds"]
    assert _place("Pilot in the Northern Quarter") == ["the Northern Quarter"]
    assert _place("name Leeds") == ["Leeds"]
    assert _place("Only serve Headingley for now") == ["Headingley"]
    for not_a_place in ("launch in March", "start in week 2", "start in Slack communities"):
        assert _place(not_a_place) == [], not_a_place
    read = read_directions("start in week 2", source="rejection", stage="s1")
    assert [d.axis for d in read.directions] == ["timeline"]
    both = read_directions("only the brake repairs and start in Headingley", source="rejection")
    assert sorted(d.line() for d in both.directions) == [
        "centre the work on the brake repairs",
        "start in Headingley",
    ]


def test_a_place_binds_the_redo_and_outlives_a_later_scope(new_session):
    """ "Start in Leeds" is in the redo and in every later brief and work, also after a fork
    that centres the work on something else (a place and a scope each bind their own line)."""
    s = new_session(pitch="mobile bike repair for commuters", seed=11)
    said = {"reject": {"stage_1_you": ["charge $25 a repair and launch in Leeds first"]}}
    play(s, Plan(path="BAAAAAAA", said=said))  # A at NEED: forty customer interviews (a scope)
    work = [e.payload for e in s.events() if e.type == "STAGE_EXECUTED"]
    redo = [w for w in work if w["stage_id"] == "stage_1_you"][-1]["artifact"]
    go = [w for w in work if w["stage_id"] == "stage_3_go"][-1]["artifact"]
    assert "start in Leeds" in go["follows_decision"]["how"]
    assert "forty customer interviews" in str(go)
    for art in (redo, go):
        text = str(art)
        assert "Leeds" in text and "$25 a repair" in text
        # a price per repair has no free first month to offer
        assert "first month is free" not in text


def test_a_later_scope_takes_the_earlier_ones_line_and_units_are_the_customers(new_session):
    s = new_session(pitch=RIDERS, seed=3)
    said = {
        "reject": {
            "stage_1_you": ["Only the brake repairs, please"],
            "stage_2_need": ["name the first ward"],
        }
    }
    play(s, Plan(path="AAAAAAAA", said=said))
    work = [e.payload for e in s.events() if e.type == "STAGE_EXECUTED"]
    need = next(w for w in reversed(work) if w["stage_id"] == "stage_2_need")["artifact"]
    lines = [str(x) for okr in need["okrs_q1"] for x in okr["key_results"]]
    centred = [x for x in lines if CENTRED.search(x)]
    assert centred == [x for x in lines if "centred on the first ward" in x] and len(centred) == 1
    text = " ".join(str(w["artifact"]) for w in work)
    assert "riders" in text and not re.search(r"\bdrivers?\b", text)


def test_a_worker_writing_for_someone_else_is_caught_with_a_customer_word_left_in():
    art = {
        "subject": "For retail investors: a bike back on the road by noon",
        "body": "Hi, we built it for retail investors. 5 riders tried it in the pilot. $85 a month.",
    }
    kinds = {f["kind"]: f["note"] for f in find_flaws("marketer", art, customer="delivery riders")}
    assert "retail investors" in kinds["wrong_audience"]
    mine = {**art, "subject": "For delivery riders", "body": "Hi, delivery riders: $85 a month."}
    ok = find_flaws("marketer", mine, customer="delivery riders")
    assert "wrong_audience" not in {f["kind"] for f in ok}
    # an audience the pitch itself names is no mistake
    theirs = find_flaws("marketer", art, customer="retail investors")
    assert "wrong_audience" not in {f["kind"] for f in theirs}


def test_a_place_takes_only_a_place_line_never_a_line_that_says_in_of_something_else():
    """Seed 775's ops work lost its scope: the place's line replaced the audience line that
    carried it ("… booked in one afternoon" read as a place's line by its " in ")."""
    carried = "A monthly digest for the busiest independent small studios: booked in one afternoon"
    art = {"retention_loops": ["A list of quiet studios", "A weekly check-in", carried]}
    glasgow = Direction(axis="place", value="Glasgow")
    realise("ops", art, [glasgow], Voice({"customer": "small studios"}, "t"))
    assert carried in art["retention_loops"]
    scope = Direction(axis="scope", value="independent small studios")
    assert check("ops", art, [glasgow, scope]) == []
