"""What changed since the last attempt, one line per field: a sentence cut from the end of a
field reads as taken out, never as an empty quote (played: "Who it is for: “… Also for
interviews.” → “… ”")."""

from __future__ import annotations

from engine.views.render import changes

BEFORE = {"audience": "Builders who lose time to stale coffee in a busy week. Also for interviews."}
AFTER = {"audience": "Builders who lose time to stale coffee in a busy week."}


def test_a_sentence_cut_from_the_end_reads_as_taken_out():
    (line,) = changes(BEFORE, AFTER)
    assert line.endswith("− “Also for interviews.”"), line
    assert "“… ”" not in line


def test_a_sentence_added_at_the_end_reads_as_added():
    (line,) = changes(AFTER, BEFORE)
    assert line.endswith("+ “Also for interviews.”"), line
