"""The currency a venture keeps its books in, defaulted from its pitch: the money the pitch names
("charge 40 quid a visit", "£40", "a fiver") decides, else the place it names (a UK city is kept
in pounds, a euro-area one in euros: engine/language/currency_places.json), else US dollars. The
player may choose another on the new-venture form or with `simulate --currency`."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from engine.errors import InputError
from engine.language.reader.figures import currency_in
from engine.language.reader.utterance import lows
from engine.language.reader.vocab import vocab
from worldforge_textkit.numbers import BY_SYMBOL, CURRENCIES

_PLACES = Path(__file__).with_name("currency_places.json")


@functools.cache
def _place_rows() -> tuple[tuple[tuple[str, ...], str], ...]:
    """(place words, currency code), longest first; a bad row is refused at load."""
    rows = json.loads(_PLACES.read_text(encoding="utf-8"))["rows"]
    out = []
    for row in rows:
        code = row.get("currency")
        if code not in CURRENCIES or not row.get("place") or not row.get("example"):
            raise ValueError(f"currency_places.json: bad row {row!r}")
        words = tuple(lows(row["place"]))
        if not _at(words, lows(row["example"])):
            raise ValueError(f"currency_places.json: {row['place']!r} not in its example")
        out.append((words, str(code)))
    return tuple(sorted(out, key=lambda r: -len(r[0])))


def _at(words: tuple[str, ...], low: list[str]) -> bool:
    n = len(words)
    return any(tuple(low[k : k + n]) == words for k in range(len(low) - n + 1))


def pitch_currency(pitch: str) -> str:
    """The books' currency code for a pitch: its money's, else its place's, else "USD"."""
    low = lows(pitch)
    said = currency_in(low, vocab(), counts=False)
    if said in BY_SYMBOL:
        return BY_SYMBOL[said].code
    for words, code in _place_rows():
        if _at(words, low):
            return code
    return "USD"


def currency_code(value: str) -> str:
    """A currency the player chose ("gbp", "£", "pounds") as its code; one line if unknown."""
    v = value.strip()
    for c in CURRENCIES.values():
        if v.upper() == c.code or v == c.symbol or v.lower() == c.name:
            return c.code
    names = ", ".join(CURRENCIES)
    raise InputError(f"unknown currency {v[:20]!r} (choose {names})")
