"""Events and rival moves are written in the company's world: a meal-kit company hears about its
vegetable supplier and its cook, a solar company about its panels and installers; every world's
words fill every event and every rival line without a stray slot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.game import antagonist, world_events
from engine.game.world_words import EVENT_WORDS, FIELDS
from engine.language.domains import WORLDS
from engine.session.commands import Approve, RunStage

MEALS = "Meal kits for night-shift nurses at big city hospitals"
SOLAR = "Solar microgrids for rural farmers in Kenya"
GENERIC = ("hosting provider", "broken release", "custom build", "your people", "best feature")


def test_every_offering_world_has_every_event_word():
    assert set(WORLDS) <= set(EVENT_WORDS)
    for world, words in EVENT_WORDS.items():
        assert tuple(words) == FIELDS, world
        assert all(w and w == w.strip() and "{" not in w for w in words.values()), world


def _texts(state) -> list[str]:
    return [world_events._fill(state, k.text) for k in world_events.KINDS]


@pytest.mark.parametrize("world", sorted(EVENT_WORDS))
def test_every_world_fills_every_event_and_rival_line(new_session, world, monkeypatch):
    s = new_session(pitch=MEALS, seed=41)
    monkeypatch.setattr(antagonist, "read_pitch", lambda _p: type("R", (), {"world": world}))
    monkeypatch.setattr(world_events, "read_pitch", lambda _p: type("R", (), {"world": world}))
    events = _texts(s.state)
    assert all(e[:1] == e[:1].upper() for e in events), events
    lines = [*events]
    lines += [antagonist.doing(s.state, arc) for arc in antagonist.ACTIONS]
    words = antagonist.world_words(s.state)
    lines += [v.format(**words) for p in antagonist.PERSONALITIES.values() for v in p.verbs]
    for line in lines:
        assert not re.search(r"[{}<>]", line), line


def test_a_meal_kit_company_hears_about_meals_not_servers(new_session):
    s = new_session(pitch=MEALS, seed=41)
    texts = " ".join(_texts(s.state)).lower()
    assert "vegetable supplier" in texts and "meal box" in texts and "canteen" in texts
    assert not any(g in texts for g in GENERIC)
    # the verb agrees with the customer ("night-shift nurses use", not "uses")
    assert "that night-shift nurses use lists" in texts


def test_rival_moves_speak_of_the_companys_world(new_session):
    from engine.play.headless import Plan, play

    s = new_session(pitch=SOLAR, seed=43)
    play(s, Plan(path="AB" * 4))
    said = " ".join(m.narrative for m in s.state.moves)
    assert s.state.moves and not any(g in said for g in GENERIC)
    p = antagonist.PERSONALITIES[s.state.antagonist.personality]
    words = antagonist.world_words(s.state)
    assert any(v.format(**words) in said for v in p.verbs)
    # the rival's moves vary their words across a venture
    assert len({m.title for m in s.state.moves}) > 1


def test_the_fork_pressure_line_is_filled(new_session):
    s = new_session(pitch=MEALS, seed=41)
    s.give(RunStage)
    s.give(Approve)
    d = s.state.dilemma
    assert d is not None and s.state.antagonist.name in d.prompt
    assert not re.search(r"[{}]", d.prompt), d.prompt


def test_every_problem_reads_after_lose_time_to_and_tired_of():
    """The banks' problems fill "lose time to {pain}", "tired of {pain}" and "juggle {pain}": one
    read "lose time to no time to cook after a night shift". Every offering world has a bank."""
    from engine.writing.trades import TRADE_WORDS
    from engine.writing.worlds import world_banks

    assert set(WORLDS) <= set(world_banks())
    banks = [*world_banks().items(), *TRADE_WORDS.items()]
    for name, bank in banks:
        for pain in bank.get("pain", ()):
            assert not re.match(r"(?:no|not|never|without|lose|losing)(?:\s|$)", pain), (name, pain)


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_pain_that_already_loses_time_is_struggled_with(new_session, seed):
    """ "Students who lose time to weekends lost to the washing pile" said the loss twice: a
    problem that already says the time is lost (lost, eats, spent) is struggled with instead."""
    from engine.play.headless import Plan, play

    s = new_session(pitch="a laundry pickup service for students in Glasgow", seed=seed)
    play(s, Plan(path="AAAAAAAA"))
    text = " ".join(str(e.payload.get("artifact", "")) for e in s.events())
    assert "lose time to" in text or "struggle with" in text
    assert not re.search(r"los(?:e|es|ing) time to [^.;,]*\b(?:lost|eats|spent)\b", text)


def test_every_bank_has_every_word_the_writing_asks_for():
    """The banks are data (engine/writing/worlds.json): each field the simulated writing reads
    (`wb["…"]`, `v.world["…"]` in engine/writing/simulate.py) is there, non-empty, in every
    offering world's bank and the general one, and holds phrases only."""
    import engine.writing.simulate as simulate
    from engine.writing.worlds import world_banks, world_words

    source = Path(simulate.__file__).read_text(encoding="utf-8")
    asked = set(re.findall(r'(?:\bwb|\.world)\["(\w+)"\]', source))
    assert {"pain", "outcome", "tools", "features", "things"} <= asked
    banks = world_banks()
    assert set(WORLDS) | {"general"} <= set(banks)
    for name, bank in banks.items():
        for field in asked:
            words = bank.get(field)
            assert words and all(isinstance(w, str) and w.strip() for w in words), (name, field)
    assert world_words("no such world") is banks["general"]


@pytest.mark.parametrize(
    "pitch", ["a dog grooming van that comes to your door in Bristol", "a cat grooming salon"]
)
def test_a_grooming_company_is_not_written_as_a_dog_walker(new_session, pitch):
    """The pets world was written for walkers and sitters: a grooming van's customers "lose time
    to a pet left alone all day" and want "a happy, tired pet by evening". Its words now fit any
    pet care (booking, cancelled carers, appointments in the working day)."""
    from engine.play.headless import Plan, play

    for seed in (1, 2, 3):
        s = new_session(pitch=pitch, seed=seed)
        play(s, Plan(path="AAAAAAAA"))
        text = " ".join(str(e.payload.get("artifact", "")) for e in s.events()).lower()
        # the corpus reads "dog grooming" as paid for by dog owners (pitches.jsonl: "vegan dog
        # food subscription" -> dog owners), so the owners are named by their pet
        assert re.search(r"\b(?:pet|dog|cat) owners\b", text)
        assert not re.search(r"left alone|tired pet|waits by the door", text)


def test_no_line_calls_a_customer_that():
    """ "A pet owner that never set up the photo updates": a customer unit is a person as often
    as a business, so no line puts "that" after one."""
    from engine.writing import banks

    lines = [x for v in vars(banks).values() if isinstance(v, tuple) for x in v]
    lines += [x for v in banks.ARCHETYPE_LINES.values() for x in v]
    assert len(lines) > 100
    assert not [x for x in lines if isinstance(x, str) and re.search(r"unit\} that\b", x)]


def test_a_niche_named_with_the_reads_whole_in_every_event(new_session):
    """Played: after "go deep" the niche is "the busiest nurses", and the referral wave read
    "Happy the busiest nurses start telling their peers about your regular visits.": no word
    stands before a customer that may carry its own article."""
    s = new_session(pitch=MEALS, seed=41)
    s.state.niche = "the busiest nurses"
    for text in _texts(s.state):  # no sentence opens "Happy the busiest nurses"
        assert not re.search(r"(?:^|[.:] )[A-Z][a-z]+ the busiest nurses", text), text
    referral = world_events._fill(s.state, world_events.KIND_BY_ID["referral"].text)
    assert referral.startswith("The busiest nurses, happy with your "), referral
