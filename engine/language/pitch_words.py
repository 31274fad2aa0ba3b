"""The vocabulary a pitch is read with (`pitch_words.json` beside this module), validated at load.

Sections: per-language cue words ("for", "between"), articles and telling function words; word
lists (clause ends, settings, pronouns, possessives, modals, vague words, things, venues, brands
…); people words and suffixes; place prepositions ranked market over origin; and payer rows (an
occasion, a buying place, an owned thing or a minor, with who pays for it). Every row carries an
example, which the tests read back through `engine.language.pitch.read_pitch`.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from worldforge_savedb.records import FrozenRecord, Record

WORDS_FILE = Path(__file__).with_name("pitch_words.json")


@dataclass(frozen=True, eq=False, repr=False)
class Payer(FrozenRecord):
    """One row of who pays for what a pitch names: "wedding" (an occasion) -> "engaged couples"."""

    words: tuple[str, ...]
    kind: str
    payer: str
    compound: bool  # a German compound's first part ("Hochzeitsfotografie")


@dataclass(frozen=True, eq=False, repr=False)
class Vocab(Record):
    """The pitch vocabulary, indexed (`vocab()`): word lists by section, per-language cues."""

    sets: dict[str, frozenset[str]]
    fors: frozenset[str]
    between: frozenset[str]
    articles: dict[str, frozenset[str]]  # per language, and "*" for every language's
    tells: dict[str, frozenset[str]]
    leads: tuple[tuple[str, ...], ...]  # longest first
    suffixes: tuple[str, ...]
    place_preps: dict[tuple[str, ...], int]
    payers: tuple[Payer, ...]
    nouns: dict[str, str]  # words after the offering -> what is sold ("delivered" -> "delivery")
    verb_nouns: dict[str, str]  # a helped verb -> its deed ("collect" rent -> rent "collection")


# Each section's keys beyond "words" and "example": name -> (type, required). Unknown keys fail.
# fmt: off
_KEYS: dict[str, dict[str, tuple[type, bool]]] = {
    "languages": {"lang": (str, True), "for": (list, True), "between": (list, True),
                  "articles": (list, True), "tells": (list, True)},
    "people": {"suffixes": (list, False)},
    "place_preps": {"rank": (int, True)},
    "service_nouns": {"noun": (str, True)},
    "verb_nouns": {"noun": (str, True)},
    "payers": {"kind": (str, True), "payer": (str, True), "lang": (str, False),
               "compound": (bool, False)},
}
# fmt: on
_KINDS = frozenset(["minor", "occasion", "place", "owned"])


def _check(section: str, row: object) -> None:
    """One row: a dict of known keys and types, lower-case words, an example (no pydantic: the
    headless game reads pitches and imports none)."""
    where = f"{WORDS_FILE.name} {section}: {str(row)[:80]}"
    keys = _KEYS.get(section, {})
    if not isinstance(row, dict) or set(row) - {"words", "example", *keys}:
        raise ValueError(f"{where}: unknown keys")
    if not isinstance(row.get("example"), str) or len(row["example"].strip()) < 3:
        raise ValueError(f"{where}: every row has an example")
    ws = row.get("words", [])
    ws = [ws] if section == "payers" else ws
    if not isinstance(ws, list) or any(
        not isinstance(w, str) or w != " ".join(w.split()) or w != w.lower() or not w for w in ws
    ):
        raise ValueError(f"{where}: words are lower case, single-spaced, not empty")
    for key, (kind, required) in keys.items():
        if (required and key not in row) or (key in row and not isinstance(row[key], kind)):
            raise ValueError(f"{where}: {key!r} must be a {kind.__name__}")
    if section == "payers" and (row["kind"] not in _KINDS or len(row["payer"]) < 2):
        raise ValueError(f"{where}: kind is one of {sorted(_KINDS)}, with a payer")


def _load(raw: dict[str, Any]) -> Vocab:
    """Validate every row (see `_check`; a bad row fails loudly naming it) and index them."""
    missing = _SECTIONS - raw.keys()
    if missing:
        raise ValueError(f"{WORDS_FILE.name} lacks {sorted(missing)}")
    f = {k: rows for k, rows in raw.items() if not k.startswith("_")}
    for section, rows in f.items():
        for row in rows:
            _check(section, row)
    sets = {k: frozenset(w for row in rows for w in row.get("words", ())) for k, rows in f.items()}
    langs = f["languages"]
    articles = {lg["lang"]: frozenset(lg["articles"]) for lg in langs}
    articles["*"] = frozenset().union(*articles.values())
    return Vocab(
        sets=sets,
        fors=frozenset(w for lg in langs for w in lg["for"]),
        between=frozenset(w for lg in langs for w in lg["between"]),
        articles=articles,
        tells={lg["lang"]: frozenset(lg["tells"]) for lg in langs},
        leads=tuple(sorted((tuple(w.split()) for w in sets["leads"]), key=len, reverse=True)),
        suffixes=tuple(
            sorted({x for r in f["people"] for x in r.get("suffixes", ())}, key=len)[::-1]
        ),
        place_preps={tuple(w.split()): r["rank"] for r in f["place_preps"] for w in r["words"]},
        payers=tuple(
            Payer(tuple(r["words"].split()), r["kind"], r["payer"], bool(r.get("compound")))
            for r in f["payers"]
        ),
        nouns={w: r["noun"] for r in f["service_nouns"] for w in r["words"]},
        verb_nouns={w: r["noun"] for r in f["verb_nouns"] for w in r["words"]},
    )


# fmt: off
_SECTIONS = frozenset([
    "languages", "people", "place_preps", "payers", "leads", "cue_verbs", "object_verbs",
    "not_cues", "clause_ends", "settings", "where_after", "place_heads", "modals", "pronouns",
    "possessives", "vague", "things", "not_owner", "owned_modifiers", "made", "venues", "brands",
    "nominative", "sell_verbs", "service_nouns", "paid_by", "aim_cues", "pays_for",
    "offering_after", "participles", "role_modifiers", "copulas", "buyers",
    "not_owned_after", "claims", "verb_nouns", "tools", "owned_services",
])
# fmt: on


@functools.cache
def vocab() -> Vocab:
    """The vocabulary, read and validated on first use."""
    return _load(json.loads(WORDS_FILE.read_text(encoding="utf-8")))
