"""What binds is what the player confirmed: a reading the player corrected (a chip's axis changed,
its do / don't flipped, one dropped) travels with the command, binds instead of the reading's,
is recorded so replay binds the same, and a command nobody corrected records as it always did.
The own-answer confirm shows conflicts across axes, as the reject and standup confirms do."""

from __future__ import annotations

import pytest

from engine.errors import InputError
from engine.language.directions import Direction
from engine.language.steering import checked
from engine.session.commands import Approve, Decide, DecideOwn, Reject, RunStage, StandupReply
from engine.session.replay import verify

SAID = "Speak to head chefs and drop the routes talk"


def _gate(new_session):
    s = new_session(pitch="Route planning for restaurant suppliers", seed=5)
    s.give(RunStage)
    assert s.state.phase == "gate"
    return s


def _binding_lines(s) -> list[str]:
    note = s.memory.records(kinds=["procedural"])[-1]
    return [Direction.from_dict(d).line() for d in (note.payload or {})["directions"]]


def test_a_corrected_rejection_binds_what_the_player_confirmed_and_replays(new_session):
    s = _gate(new_session)
    read = Reject.from_said(SAID).read(s.state).directions
    assert [d.line() for d in read] == ["speak to head chefs", "leave out routes talk"]
    audience, _routes = read
    flipped = Direction(axis="exclusion", value=audience.value, do=False, start=audience.start)
    command = Reject.from_said(SAID).corrected([flipped])  # flipped one, dropped the other
    s.execute(command)
    assert _binding_lines(s) == ["leave out head chefs"]
    reject = next(r for r in s.inputs if r["cmd"] == "reject")
    assert reject["confirmed"][0]["axis"] == "exclusion"
    assert verify(s.conn, s.state.run_id).ok


def test_a_reading_nobody_corrected_records_as_it_always_did(new_session):
    s = _gate(new_session)
    assert Reject.from_said(SAID).record() == {"cmd": "reject", "reason": SAID}
    s.give(Reject, SAID)
    assert _binding_lines(s) == ["speak to head chefs", "leave out routes talk"]


def test_confirming_nothing_binds_nothing_and_asks_instead(new_session):
    s = _gate(new_session)
    with pytest.raises(InputError, match="What should change"):
        Reject.from_said(SAID).corrected([]).check(s.state)


def test_a_confirmed_exclusion_is_never_bound_as_its_opposite_and_a_bad_one_is_one_line():
    bad = Direction(axis="exclusion", value="routes", do=True)
    assert checked([bad.to_dict()])[0].do is False
    with pytest.raises(InputError, match="bad axis"):
        checked([{"axis": "mood", "value": "calm"}])


def test_a_corrected_standup_reply_binds_the_confirmed_directions(new_session):
    s = _gate(new_session)
    s.give(Approve)
    s.give(Decide, "A")
    reply = StandupReply.from_said("Talk to bakers, not cafes")
    read = reply.read(s.state).directions
    assert [d.axis for d in read] == ["audience", "exclusion"]
    s.execute(reply.corrected([read[0]]))
    assert _binding_lines(s) == ["speak to bakers"]
    assert verify(s.conn, s.state.run_id).ok


def test_the_own_answer_confirm_shows_a_conflict_and_its_smallest_fix(new_session):
    s = _gate(new_session)
    s.give(Reject, "Speak to hair salons")
    s.give(Approve)
    assert s.state.phase == "fork"
    p = DecideOwn.from_said("Go with the first, and leave out salons").preview(s.state)
    assert p is not None
    assert "“speak to hair salons” and “leave out salons” cannot both hold" in p.says
    assert "Smallest fix: drop" in p.says
    calm = DecideOwn.from_said("Go with the first").preview(s.state)
    assert calm is not None and "cannot" not in calm.says


def test_an_own_answer_is_read_once_against_its_fork(new_session):
    """Played: "side gig for now, go full time once we got 20 regulars" showed "No direction
    read yet: nothing binds" while it picked an option, and "20 regulars" (a customer count the
    game keeps no target for) vanished without a word: the chips came from one reading and what
    was unread from another. One reading now gives both: the option it picks and what binds
    nothing."""
    s = _gate(new_session)
    s.give(Approve)
    assert s.state.phase == "fork"
    fork = {str(o.key): o.text for o in s.state.dilemma.options}
    said = f"{fork['B'].split(':')[0].lower()} for now. 20 regulars first"
    read = DecideOwn.from_said(said).read(s.state)
    assert read.option == "B"
    assert "20 regulars" in read.unread
    assert not DecideOwn.from_said("the second one").read(s.state).unread


def test_an_own_answer_narrows_the_customer_only_as_its_reading_binds(new_session):
    """Played: "network first obvs, but not just mates - the dog park crowd" made "mates - the
    dog park" the customer every later worker, standup and rival move named, and the confirm
    said "Leaves out just mates -": the own-answer picker's own guess at a niche, a second
    reading of the words. The niche and what is left out are now the reading's, as bound."""
    s = _gate(new_session)
    s.give(Approve)
    before = s.state.niche
    said = "the first one obvs, but not just mates - the dog park crowd"
    view = DecideOwn.from_said(said).reading(s.state)
    assert "mates" not in view["says"] and view["niche"] is None and view["dropped"] is None
    s.give(DecideOwn, said)
    assert s.state.niche == before
    focused = new_session(pitch="Route planning for restaurant suppliers", seed=5)
    focused.give(RunStage)
    focused.give(Approve)
    assert (
        DecideOwn.from_said("the first, and focus on hospitals").reading(focused.state)["niche"]
        == "hospitals"
    )
