"""A redo for a tone or a length changes the text: "shorter" cuts every long field to its core
sentence (fewer words, the named price kept, the gate checks it by length), "warmer" adds warm
words from the bank, "plainer" / "more formal" / "bolder" take out jargon, contractions or
hedges; "what changed" says what changed in words, and "already" only when the gate's check finds
the work already meets it. Every other direction stays honoured."""

from __future__ import annotations

import re

import pytest

from engine.game.adherence import FIELDS, TONE_SWAPS, check, copy_words, long_fields
from engine.game.pricing import list_price
from engine.language.artifact_text import prose
from engine.language.directions import Direction
from engine.language.steering import read_directions
from engine.writing.banks import WARM_LINES
from engine.writing.phrases import Voice
from engine.writing.realise import realise, what_changed
from tests.engine.test_redo import STANDING, redo_pair
from worldforge_textkit import has_phrase

ROLES = ["strategist", "designer", "marketer", "ops"]


def _prices(text: str) -> set[str]:
    return set(re.findall(r"\$[\d,.]+ a month", text))


@pytest.mark.parametrize("reason", ["Make it shorter", "Too long", "Cut it down"])
@pytest.mark.parametrize("role", ROLES)
def test_a_shorter_redo_cuts_every_long_field_and_keeps_what_binds(role, reason):
    first, second, read = redo_pair(reason, role)
    assert [(d.axis, d.value) for d in read] == [("tone", "short")]
    assert copy_words(second) < copy_words(first) * 0.85, (copy_words(first), copy_words(second))
    assert not long_fields(second)
    assert _prices(" ".join(str(v) for v in second.values())) >= _prices(
        " ".join(str(v) for v in first.values())
    ) - {""}
    assert check(role, second, [*STANDING, *read]) == []  # the standing decision still holds
    assert second["target_audience" if "target_audience" in second else "summary"]
    how = second["follows_decision"]["how"]
    assert "Length: " in how and "already" not in how, how


@pytest.mark.parametrize("role", ROLES)
def test_the_gate_checks_a_shorter_tone_by_length(role):
    first, second, _ = redo_pair("Make it shorter", role)
    short = Direction(axis="tone", value="short")
    broken = check(role, first, [short])
    assert broken and "words in its" in broken[0].did, broken
    assert check(role, second, [short]) == []


@pytest.mark.parametrize("reason", ["Make it warmer", "More human", "Less corporate"])
@pytest.mark.parametrize("role", ROLES)
def test_a_warmer_redo_speaks_to_the_reader_in_warm_words(role, reason):
    first, second, read = redo_pair(reason, role)
    assert [(d.axis, d.value) for d in read] == [("tone", "warm")]
    field = FIELDS["tone"][role][0]
    assert second[field] != first[field]
    assert has_phrase(second[field], "you")
    if role != "designer":  # a headline stays one line; the others close on a bank line
        v = Voice({"customer": "the busiest night-shift nurses"}, "t")
        assert any(v.fill(w) in second[field] for w in WARM_LINES), second[field]
    assert check(role, second, [*STANDING, *read]) == []
    how = second["follows_decision"]["how"]
    assert "Tone: warmer" in how and "already" not in how and "as before" not in how, how


@pytest.mark.parametrize("tone", ["plain", "formal", "bold"])
@pytest.mark.parametrize("role", ROLES)
def test_plain_formal_and_bold_take_their_words_out_of_every_field(role, tone):
    first, _second, _ = redo_pair("Price it at $27 a month", role)
    field = FIELDS["tone"][role][0]
    words = list(TONE_SWAPS[tone])[:2]
    art = dict(first)
    art[field] = f"{art[field]} We {words[0].strip()} it, and {words[1].strip()} it works."
    d = Direction(axis="tone", value=tone)
    assert check(role, art, [d]), "the gate sees the words the tone takes out"
    after = {k: v for k, v in art.items()}
    realise(role, after, [d], Voice({"customer": "the busiest night-shift nurses"}, "t"))
    assert check(role, after, [d]) == []
    for w in words:
        assert not has_phrase(after[field].lower(), w.strip()), (w, after[field])
    line = what_changed(role, art, after, [d])[0]
    assert "already" not in line and "took out" in line, line
    (unchanged,) = what_changed(role, after, after, [d])  # nothing left to act on: said so
    assert (
        unchanged.startswith("Tone: nothing here can be made ")
        and "already" not in unchanged.split(":")[1]
    )
    assert unchanged.endswith("The text is unchanged; name the line to change."), unchanged


@pytest.mark.parametrize("tone", ["plain", "formal", "bold", "warm", "short"])
@pytest.mark.parametrize("role", ROLES)
def test_a_tone_request_with_no_words_to_act_on_says_so_and_why(role, tone):
    first, second, _ = redo_pair("Price it at $27 a month", role)  # the price moved, no tone
    d = Direction(axis="tone", value=tone)
    v = Voice({"customer": "the busiest night-shift nurses"}, "t")
    done = dict(second)
    realise(role, done, [d], v)  # the tone realised: nothing of it is left to act on
    again = dict(done)
    realise(role, again, [d], v)
    assert again == done
    (line,) = what_changed(role, done, again, [d])
    assert "nothing here can be made" in line and "was already" not in line, line
    assert ("Length:" if tone == "short" else "Tone:") in line
    (moved,) = what_changed(role, first, second, [d])  # the text changed, but not by the tone
    if (
        tone != "short"
        and prose(first, (FIELDS["tone"][role][0],)) == prose(second, (FIELDS["tone"][role][0],))
        and not check(role, second, [d])
    ):
        assert "nothing here can be made" in moved, moved


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("Make it shorter", "short"),
        ("Too long", "short"),
        ("Cut it down", "short"),
        ("More human", "warm"),
        ("Less corporate", "warm"),
    ],
)
def test_length_and_warmth_requests_read_as_tone(said, value):
    read = read_directions(
        said,
        source="rejection",
        stage="s2",
        current={},
        base_price=list_price(11),
        customer="night-shift nurses",
    )
    assert [(d.axis, d.value, d.do) for d in read.directions] == [("tone", value, True)]
