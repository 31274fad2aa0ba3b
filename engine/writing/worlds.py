"""Word banks of the offering's world: what a company that sells meal kits, solar power or tenant
screening talks about. The banks are data, in `worlds.json` beside this module, read once on first
use. Keyed like engine.language.domains.WORLDS; the customer's side (who they are, where they
gather, when they are busy) is engine.writing.trades.

Fields: `pain` (the problem, a noun phrase: "lose time to {pain}"), `outcome` (the promise, a noun
phrase: "want {outcome}"), `tools` (what the product plugs into), `features` (landing-page lines)
and `things` (what the company handles, plural: "menus", "delivery windows"). A `{moment}` slot is
filled from the trade ("after a night shift"), so the two worlds meet in one phrase.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

WORDS_FILE = Path(__file__).with_name("worlds.json")


@cache
def world_banks() -> dict[str, dict[str, tuple[str, ...]]]:
    """Every offering world's bank, by world ("general" for a pitch that fits none)."""
    data = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
    return {world: {k: tuple(v) for k, v in bank.items()} for world, bank in data.items()}


def world_words(world: str) -> dict[str, tuple[str, ...]]:
    """The bank of one offering world (the general one when the pitch fits none)."""
    banks = world_banks()
    return banks.get(world, banks["general"])
