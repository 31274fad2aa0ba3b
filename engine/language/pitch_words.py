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
from typing import Any, Literal

WORDS_FILE = Path(__file__).with_name("pitch_words.json")


@dataclass(frozen=True)
class Payer:
    """One row of who pays for what a pitch names: "wedding" (an occasion) -> "engaged couples"."""

    words: tuple[str, ...]
    kind: str
    payer: str
    compound: bool  # a German compound's first part ("Hochzeitsfotografie")


@dataclass(frozen=True)
class Vocab:
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


def _load(raw: dict[str, Any]) -> Vocab:
    """Validate the file (pydantic: known sections and kinds, lower-case words, an example on
    every row; a bad row fails loudly naming it) and index it."""
    from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

    class Row(BaseModel):
        model_config = ConfigDict(extra="forbid", populate_by_name=True)
        words: tuple[str, ...] = ()
        example: str = Field(min_length=3)

        @field_validator("words")
        @classmethod
        def _lower(cls, ws: tuple[str, ...]) -> tuple[str, ...]:
            bad = [w for w in ws if w != w.lower() or not w.strip()]
            if bad:
                raise ValueError(f"words are lower case and not empty: {bad}")
            return ws

    class Language(Row):
        lang: str
        for_: list[str] = Field(alias="for")
        between: list[str]
        articles: list[str]
        tells: list[str]

    class People(Row):
        suffixes: tuple[str, ...] = ()

    class Prep(Row):
        rank: int = Field(ge=1, le=2)

    class PayerRow(BaseModel):
        model_config = ConfigDict(extra="forbid")
        words: str = Field(pattern=r"^[^A-Z\s]+(?: [^A-Z\s]+)*$")  # lower case, single spaces
        kind: Literal["minor", "occasion", "place", "owned"]
        payer: str = Field(min_length=2)
        lang: str = "en"
        compound: bool = False
        example: str = Field(min_length=3)

    shapes: dict[str, Any] = {
        "languages": list[Language],
        "people": list[People],
        "place_preps": list[Prep],
        "payers": list[PayerRow],
    }
    missing = _SECTIONS - raw.keys()
    if missing:
        raise ValueError(f"{WORDS_FILE.name} lacks {sorted(missing)}")
    f: dict[str, Any] = {
        k: TypeAdapter(shapes.get(k, list[Row])).validate_python(rows)
        for k, rows in raw.items()
        if not k.startswith("_")
    }
    sets = {k: frozenset(w for row in rows for w in row.words) for k, rows in f.items()}
    langs = f["languages"]
    articles = {lg.lang: frozenset(lg.articles) for lg in langs}
    articles["*"] = frozenset().union(*articles.values())
    return Vocab(
        sets=sets,
        fors=frozenset(w for lg in langs for w in lg.for_),
        between=frozenset(w for lg in langs for w in lg.between),
        articles=articles,
        tells={lg.lang: frozenset(lg.tells) for lg in langs},
        leads=tuple(sorted((tuple(w.split()) for w in sets["leads"]), key=len, reverse=True)),
        suffixes=tuple(sorted({x for row in f["people"] for x in row.suffixes}, key=len)[::-1]),
        place_preps={tuple(w.split()): row.rank for row in f["place_preps"] for w in row.words},
        payers=tuple(
            Payer(tuple(r.words.split()), r.kind, r.payer, r.compound) for r in f["payers"]
        ),
    )


# fmt: off
_SECTIONS = frozenset([
    "languages", "people", "place_preps", "payers", "leads", "cue_verbs", "object_verbs",
    "not_cues", "clause_ends", "settings", "where_after", "place_heads", "modals", "pronouns",
    "possessives", "vague", "things", "not_owner", "owned_modifiers", "made", "venues", "brands",
    "nominative",
])
# fmt: on


@functools.cache
def vocab() -> Vocab:
    """The vocabulary, read and validated on first use."""
    return _load(json.loads(WORDS_FILE.read_text(encoding="utf-8")))
