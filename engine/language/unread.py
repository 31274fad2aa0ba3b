"""The parts of a reason the reader placed nothing from ("price it at $12 a week, start with law
firms and hire a barista": the barista binds nothing), so a front end can say so before the
reason binds instead of dropping them without a word.

A reason divides at punctuation and at "and", "then", "also" or "but" before a verb. A part is
unread when, read alone, it names no direction and nothing unclear, and the whole reads the same
without it. Questions ("Who is this for?") and parts of fewer than two content words ("flat",
"please") are commentary, never reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.language.steering import Read
from textkit import content_words
from textkit.patterns import Pattern

# Verbs a CEO starts a new instruction with after "and" ("… and hire a barista").
_VERBS = (
    r"add|aim|avoid|begin|bring|build|call|change|charge|cut|delay|drop|explain|fix|focus|"
    r"get|give|go|hire|hold|include|keep|launch|lead|leave|lower|make|mention|move|name|"
    r"offer|open|partner|plan|price|push|put|raise|reduce|remove|run|say|sell|set|ship|show|"
    r"sign|skip|speak|start|stop|talk|target|try|use|wait|write"
)
# Punctuation that ends a part: followed by a space or the end ("$30,000" and "$12.50" hold).
_BREAK = Pattern(r"(?<=[,;.!?])\s+")
_LEAD = Pattern(r"^(?:and|then|also|but|so|plus)\s+", re.IGNORECASE)  # "…, and bake a cake"
_AND_VERB = Pattern(r"\s+(?:and|then|also|but)\s+(?=(?:" + _VERBS + r")\b)", re.IGNORECASE)


def parts(text: str) -> list[str]:
    """The reason's parts, each with its own closing punctuation ("Who is this for?")."""
    out: list[str] = []
    for run in _BREAK.split(text.strip()):
        out.extend(_LEAD.sub("", p.strip()) for p in _AND_VERB.split(run) if p.strip(" ,;"))
    return out


def placed(read: Read) -> set[object]:
    """What a reading places: its directions, and what it asks about (a question is an answer)."""
    return {(d.axis, d.value.lower(), d.do, d.amount, d.op) for d in read.directions} | set(
        read.unclear
    )


def unread_parts(text: str, places: Callable[[str], set[object]]) -> list[str]:
    """The parts of `text` that `places` (what the command binds, read the way it reads) finds
    nothing in, as the player wrote them, without their closing punctuation."""
    pieces = parts(text)
    if len(pieces) < 2:
        return []  # a reason of one part that places nothing is asked about, not confirmed
    whole = places(text)
    out = []
    for i, piece in enumerate(pieces):
        said = piece.rstrip(",;.!? ")
        if piece.endswith("?") or len(content_words(said)) < 2 or places(said):
            continue
        if places(" ".join(pieces[:i] + pieces[i + 1 :])) != whole:
            continue  # it placed something beside its neighbours
        out.append(said)
    return out
