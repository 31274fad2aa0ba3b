"""The worlds a pitch can be about (rules as data, `domains.json` beside this module): what the
offering is about and what the customer's trade is. `engine.language.pitch` reads a pitch into
one of each; the word banks in `engine.writing.worlds` and `engine.writing.trades` are keyed by
the same names, so a meal-kit company for nurses writes about meals and night shifts, never
about patient records.

Each row holds its telling words (whole words, lower case; a few in other languages and scripts),
an example that holds one of them, and, for offering worlds, the customer to fall back to when the
pitch names none; a row that breaks this is refused at load, naming it.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.language.wordlists import WordsError, checked_words

DOMAINS_FILE = Path(__file__).with_name("domains.json")


def load() -> tuple[dict[str, tuple[tuple[str, ...], str]], dict[str, tuple[str, ...]]]:
    """The worlds and the trades, read from DOMAINS_FILE and checked row by row."""
    data = json.loads(DOMAINS_FILE.read_text(encoding="utf-8"))
    worlds: dict[str, tuple[tuple[str, ...], str]] = {}
    for name, row in data["worlds"].items():
        words = checked_words(f"domains.json worlds.{name}", row)
        customer = row.get("customer") if isinstance(row, dict) else None
        if not isinstance(customer, str) or not customer:
            raise WordsError(f"domains.json worlds.{name}: no customer to fall back to")
        worlds[name] = (words, customer)
    trades = {
        name: checked_words(f"domains.json trades.{name}", row)
        for name, row in data["trades"].items()
    }
    return worlds, trades


# offering world -> (telling words, the customer when the pitch names none);
# customer trade -> telling words (the customer's own words, the setting's words)
WORLDS, TRADES = load()
