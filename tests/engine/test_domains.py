"""The worlds and trades a pitch is read into are data (engine/language/domains.json), checked at
load: a row without words, an example that holds none of them or a world without its fallback
customer is refused, naming the row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.language import domains
from engine.language.domains import TRADES, WORLDS
from engine.language.wordlists import WordsError


def test_every_world_and_trade_loads_with_its_words():
    assert WORLDS["meals"][1] == "busy households" and "meal" in WORLDS["meals"][0]
    assert "nurses" in TRADES["nursing"]


@pytest.mark.parametrize(
    ("section", "row", "says"),
    [
        ("trades", {"words": ["nurses"], "example": "for doctors"}, "holds none of its words"),
        ("trades", {"words": ["Nurses"], "example": "for Nurses"}, "lower-case"),
        ("worlds", {"words": ["meal"], "example": "meal kits"}, "no customer"),
    ],
)
def test_a_bad_row_is_refused_at_load_naming_it(tmp_path: Path, monkeypatch, section, row, says):
    data = json.loads(domains.DOMAINS_FILE.read_text(encoding="utf-8"))
    data[section]["broken"] = row
    bad = tmp_path / "domains.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(domains, "DOMAINS_FILE", bad)
    with pytest.raises(WordsError, match=rf"{section}\.broken: .*{says}"):
        domains.load()


def test_each_worlds_example_pitch_is_read_as_that_world():
    """ "solar kits for allotments", the energy world's example, was read as meals ("kits"): a
    word another world also tells by must not outweigh the world's own."""
    from engine.language.pitch import read_pitch

    rows = json.loads(domains.DOMAINS_FILE.read_text(encoding="utf-8"))["worlds"]
    read = {name: read_pitch(row["example"]).world for name, row in rows.items()}
    assert read == {name: name for name in rows}
