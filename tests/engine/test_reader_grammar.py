"""The reader's grammar generalises: a rule reads phrasings no vocabulary row quotes (a verb's
object pronoun inside a cue, a list's members, a clause that only adds to the one before)."""

from __future__ import annotations

import pytest

from engine.language.reader import read_text


def said(text: str, source: str = "standup") -> list[tuple[str, bool, str]]:
    return [(d.axis, d.do, d.value) for d in read_text(text, source=source).directions]


@pytest.mark.parametrize(
    ("text", "binds"),
    [
        ("sell it at farmers markets", [("channel", True, "farmers markets")]),
        ("sell them at the farmers market", [("channel", True, "farmers market")]),
        ("rename it to Walkies", [("name", True, "Walkies")]),
        ("pitch them to office managers", [("audience", True, "office managers")]),
        ("sell these through the RSPB", [("channel", True, "RSPB")]),
    ],
)
def test_a_verbs_object_pronoun_sits_inside_any_verb_preposition_cue(text, binds):
    assert said(text) == binds


def test_selling_at_a_place_that_is_no_channel_binds_no_channel():
    assert said("sell it at the gate") == []
