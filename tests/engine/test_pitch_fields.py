"""The pitch's vocabulary is data (every row's example reads back; a bad row fails at load), bad
pitches are inert, and the fields the player confirms found the venture and replay exactly."""

from __future__ import annotations

import json

import pytest

from engine.errors import InputError
from engine.language import pitch_words
from engine.language.pitch import confirmed, read_pitch, shown
from engine.language.text import MAX_FIELD_CHARS
from engine.play.headless import Plan, play
from engine.session.founding import validate_start
from engine.session.replay import verify


def _payer_rows() -> list[dict]:
    raw = json.loads(pitch_words.WORDS_FILE.read_text(encoding="utf-8"))
    return raw["payers"]


@pytest.mark.parametrize("row", _payer_rows(), ids=lambda r: r["words"])
def test_every_payer_row_reads_back_from_its_example(row):
    r = read_pitch(row["example"])
    assert r.customer_found, row
    # the payer, with the thing's own adjectives where the example gives some ("classic car owners")
    assert row["payer"].lower().split()[-1] in r.customer.lower(), (row, r.customer)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda raw: raw["payers"][0].pop("example"), "example"),
        (lambda raw: raw["payers"][0].update(kind="pet"), "kind"),
        (lambda raw: raw["modals"][0]["words"].append("Can"), "lower case"),
        (lambda raw: raw["modals"][0].update(colour="red"), "unknown keys"),
        (lambda raw: raw.pop("pronouns"), "lacks"),
    ],
)
def test_a_bad_vocabulary_row_fails_at_load_naming_it(change, says):
    raw = json.loads(pitch_words.WORDS_FILE.read_text(encoding="utf-8"))
    change(raw)
    with pytest.raises(ValueError, match=says):
        pitch_words._load(raw)


@pytest.mark.parametrize(
    "pitch",
    [
        "Tea for nurses " * 70_000,  # about 1 MB
        "[bold]Tea[/] for [link=x]nurses[/link] \x1b[31m",
        "Tea\x00 for nurses",
        "🍵 for 👩‍⚕️ nurses 🚀",
        "Чай для медсестёр в Москве",
        "سلطات للممرضات",
        ", ".join(["and for them"] * 100) + " we sell tea",
    ],
)
def test_a_bad_pitch_is_read_inertly_and_never_names_a_pronoun(pitch):
    r = read_pitch(pitch)
    assert r.offering and r.customer
    assert r.customer.split()[0].lower() not in {"we", "you", "they", "them", "it", "i"}
    assert "[" not in r.customer and "\x1b" not in r.customer and "\x00" not in r.customer


@pytest.mark.parametrize(
    ("reading", "says"),
    [
        ({"customer": "nurses\x00"}, "control character"),
        ({"place": "x" * (MAX_FIELD_CHARS + 1)}, "too long"),
        ({"colour": "red"}, "unknown pitch field"),
    ],
)
def test_a_bad_field_is_refused_with_one_line(reading, says):
    with pytest.raises(InputError) as e:
        validate_start("Tea for nurses", None, "builder", 1, reading)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_a_field_keeps_no_markup_and_an_empty_one_keeps_the_reading():
    s = validate_start(
        "Tea for nurses", None, "builder", 1, {"customer": "[red]ward\n sisters[/red]", "place": ""}
    )
    assert (s.customer, s.place) == ("ward sisters", "")
    r = confirmed(read_pitch("Tea for nurses"), customer=s.customer, place="Leeds")
    assert (r.customer, r.place, r.who) == ("ward sisters", "Leeds", "ward sisters in Leeds")
    assert confirmed(read_pitch("Tea for nurses")) == read_pitch("Tea for nurses")


def test_the_reading_as_data_says_no_customer_as_null():
    assert shown(read_pitch("Pop-up saunas on beaches"))["customer"] is None
    assert shown(read_pitch("Tool library for Walthamstow"))["place"] == "Walthamstow"


def test_confirmed_fields_found_the_venture_and_replay_exactly(new_session):
    s = new_session(
        pitch="Kebab van for the night shift",
        seed=5,
        reading={"customer": "warehouse pickers", "problem": "cold sandwiches at 3am"},
    )
    assert s.inputs[0]["customer"] == "warehouse pickers"  # recorded with the start
    started = next(e for e in s.events() if e.type == "RUN_STARTED")
    assert started.payload["problem"] == "cold sandwiches at 3am"
    play(s, Plan(path="AAAAAAAA"))
    text = " ".join(str(e.payload.get("artifact", "")) for e in s.events())
    assert "warehouse pickers" in text.lower() and "cold sandwiches at 3am" in text
    assert verify(s.conn, s.state.run_id).ok


def test_an_older_start_without_fields_founds_as_before(new_session):
    s = new_session(pitch="Kebab van for the night shift", seed=5)
    assert s.state.founder.customer == read_pitch("Kebab van for the night shift").customer
    assert (s.state.founder.offering, s.state.founder.problem) == ("", "")


def test_the_pitch_is_read_on_the_readers_own_tokens():
    """One tokenizer for the pitch and the player's words: a figure with a thousands comma is
    one token ("1,500 meals" was cut to "1"), a possessive keeps its apostrophe."""
    from engine.language.pitch import read_pitch

    assert read_pitch("1,500 meals a week for care homes in Hackney").offering == "1,500 meals"
    assert read_pitch("Piano lessons online for adults").offering == "piano lessons"  # not where
    assert (
        read_pitch("I want to sell handmade candles to gift shops").offering == "handmade candles"
    )
    assert read_pitch("A shop selling vinyl to collectors").offering == "shop selling vinyl"
    # what a participle after the offering says is sold (pitch_words.json service_nouns)
    assert read_pitch("Flowers delivered same day").offering == "flower delivery"
    assert read_pitch("Solar chargers you can hire at festivals").offering == "solar charger hire"
    # the offering is never a pronoun ("IT" is no "it")
    assert read_pitch("We help small charities apply for grants").offering == "grants"
    assert read_pitch("IT support for schools").offering == "IT support"
    # the offering is never the customer a problem-first pitch opens with
    r = read_pitch("Teachers spend hours marking essays, so we built an AI marking assistant")
    assert (r.customer, r.offering) == ("teachers", "AI marking assistant")
    assert (
        read_pitch("Kids' birthday party entertainers").offering
        == "kids' birthday party entertainers"
    )
