"""A second blind set (tests/data/directions_blind.jsonl): 157 rejection reasons, standup
replies and own answers at a fork in the corpus schema (shared/corpus/README.md), for 14
ventures none of the other sets uses, written the way hurried players type and labelled by the
corpus rules, and committed before the reader ever ran on them (commit 19bed28). The reader's
first run on them, the only honest figure on unseen phrasings, is in the commit that added this
test: read 74.1 %, silent 15.7, spurious 13.4, inverted 4, asked 5.9 (of labels); of the rows
labelled ask the reader asked 66.7 %, of the chatter rows 50.0 %; 103 of 157 rows right.
After that run three labels were corrected by the corpus rules, not by what the reader said: b054
and b070 ("London first, Manchester can wait") set two places against each other, and on an axis
of one value only the kept one is labelled (rule 3); b118 ("A but a week later") has its base in
the fork, so the week is computed, week 7 (rule 10).

Scored with the reading bench's own rules (bench/reading.py: read_input, score_record) in a child
process, exactly as tests/engine/test_directions_fresh.py scores the fresh set. A row the reader
still misses is listed below with why, and fails the test the day it reads right, so the list
only shrinks; the aggregate floors below only rise."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.direction_sets import assert_floors, judge, right, row_params, rows

ROWS = rows("directions_blind")

# Rows the reader still misses: id -> why.
MISSES: dict[str, str] = {
    "b017": "'fleet managers buy this': the buyer named as subject of 'buy' is unread",
    "b020": "'its for new arrivals' is read as a scope, not the people",
    "b023": "'too much <quoted word>' is no cue to leave the word out; the reader asks",
    "b035": "'it says we're X. we're not': a false statement quoted back is no claim cue",
    "b036": "'too formal' is read as 'warm' instead of not formal",
    "b042": "'site managers order these': the buyer named as subject of 'order' is unread",
    "b045": "'gentle' is no tone word (warm)",
    "b048": "'Bolt and Ola drivers need it too' after a question: the reader asks",
    "b050": "news ('going well! got 3 …') is asked about",
    "b051": "'lets try the WI and church halls for talks': 'try' places no channel",
    "b057": "a question ('should we do X too?') binds X instead of asking",
    "b065": "a question ('should we do X too?') is not asked about",
    "b074": "a question ('go for europe too?') binds a place instead of asking",
    "b076": "'Kit Cave. no wait, Bolt Bin is better': the first name is kept",
    "b077": "'big distribution centres first' is read as a scope, not the people",
    "b095": "'we could do X but lets not' leaves nothing out; 'standard stuff only' is cut to 'standard'",
    "b096": "'X would be great people to get onside' places no channel",
    "b102": "'kids' for 'their adult children' binds the player's word, not the option",
    "b106": "'workshops' binds option B as a channel; 'and honey later' leaves out 'and honey' too",
    "b113": "'£35 for a 6-inch cake': the unit read as '6-inch' (near)",
    "b119": "'tyre fitters AND leasing firms' (both options in own words): the reader asks",
    "b127": "'HR' for 'Sell to HR directors' is not matched to the option; the reader asks",
    "b137": "'ours' picks nothing; 'dont want X owning the customer' is left out as an exclusion",
    "b139": "'all of them' binds nothing of option B; 'deliveroo riders too' keeps 'too'",
    "b154": "'dont call them cheap' leaves nothing out",
    "b155": "'lose the space' leaves out 'space' as an exclusion",
    "b157": "'10k' for 'Keep burn under £10k a month' reads £10,000 and a spurious price",
}

# Aggregates reached on this set (they only rise; inversions only fall).
READ_FLOOR, SILENT_CEILING, SPURIOUS_CEILING, INVERTED_CEILING = 85.7, 8.8, 7.2, 0


@pytest.fixture(scope="module")
def judged() -> list[dict[str, Any]]:
    return judge(ROWS)


def test_the_set_is_varied_and_every_miss_listed_is_one_of_its_rows() -> None:
    assert len(ROWS) >= 120
    assert len({(r["text"], r["pitch"]) for r in ROWS}) == len(ROWS)
    axes = {d["axis"] for r in ROWS for d in r["expect"]}
    assert len(axes) == 11  # every axis
    for axis in ("audience", "channel", "exclusion"):
        assert sum(d["axis"] == axis for r in ROWS for d in r["expect"]) >= 25
    assert {r["source"] for r in ROWS} == {"rejection", "standup", "own"}
    assert all(r["source"] == "own" or "fork" not in r for r in ROWS)
    assert sum(r["text"] == r["text"].lower() for r in ROWS) >= 100
    assert sum(not r["expect"] and not r["ask"] for r in ROWS) >= 5  # chatter
    ids = {r["id"] for r in ROWS}
    assert set(MISSES) <= ids


@pytest.mark.parametrize("k", row_params(ROWS, MISSES))
def test_the_row_reads_as_labelled(judged: list[dict[str, Any]], k: int) -> None:
    row, j = ROWS[k], judged[k]
    assert right(row, j), (row["expect"], row["ask"], j)


def test_the_set_reads_above_its_floors(judged: list[dict[str, Any]]) -> None:
    assert_floors(judged, READ_FLOOR, SILENT_CEILING, SPURIOUS_CEILING, INVERTED_CEILING)
