"""One check for a data row of words (engine/language/*.json): its words are lower-case text and
its example holds one of them as a whole word, so a row reads as what it means. A row that breaks
this is refused at load, naming where it is."""

from __future__ import annotations

import re


class WordsError(ValueError):
    """A row of words that breaks the schema (raised at load, naming the row)."""


def checked_words(where: str, row: object) -> tuple[str, ...]:
    """A row's words (`{"words": [...], "example": "..."}`), checked: present, lower case, and
    one of them in the row's example."""
    if not isinstance(row, dict):
        raise WordsError(f"{where}: not a row")
    words, example = row.get("words"), row.get("example")
    if not (
        isinstance(words, list)
        and words
        and all(isinstance(w, str) and w and w == w.lower() for w in words)
    ):
        raise WordsError(f"{where}: words are not lower-case words")
    said = set(re.findall(r"[\w'-]+", example.lower())) if isinstance(example, str) else set()
    if not said & set(words):
        raise WordsError(f"{where}: example holds none of its words")
    return tuple(words)
