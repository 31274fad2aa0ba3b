"""Reading an own answer at a fork: which option it picks (its rule's keywords and the everyday
words of the idea they name), a negation that counts against the option it names, "not yet",
"both", a change of mind read from where it starts, and a customer niche ("focus on X, drop Y").

The words an own answer binds are read by the one parse (engine.language.reader); this module
only says which option the words pick. Everything here is data plus whole-word matching.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import STOPWORDS, has_phrase, words
from worldforge_textkit.patterns import Pattern


def _any(text: list[str], phrases: tuple[str, ...]) -> bool:
    return any(has_phrase(text, p) for p in phrases)


def _tidy(fragment: str, limit: int = 6) -> str | None:
    """The first few words of a captured phrase, stopping at a connective ("X and drop Y")."""
    cut = re.split(
        r"\s+(?:and then|but|then|so|because|instead|rather|not|drop|while|"
        r"please|in everything|everywhere|in all)\b",
        fragment.strip(),
        maxsplit=1,
    )[0]
    toks = cut.split()[:limit]
    while toks and toks[-1].lower() in STOPWORDS:
        toks.pop()
    return " ".join(toks).strip(" '\"“”‘’") or None


NEGATIONS = (
    "not",
    "don't",
    "dont",
    "do not",
    "no",
    "never",
    "without",
    "stop",
    "avoid",
    "skip",
    "against",
    "drop",
    "instead of",
    "rather than",
    "less",
    "nothing",
    "forget",
    "won't",
    "can't",
    "cannot",
    "hold off",
    "hold off on",
    "not yet",
    "delay",
    "postpone",
    "no more",
    "ditch",
    "refuse",
    "reject",
    "resist",
)
BOTH = (
    "both",
    "a bit of each",
    "mix of both",
    "a mix",
    "blend",
    "half and half",
    "each of them",
    "a little of both",
    "combine",
    "combination",
    "hybrid of",
)
NOW_WORDS = (
    "now",
    "this week",
    "today",
    "ship",
    "launch",
    "fast",
    "quick",
    "quickly",
    "immediately",
    "raise",
    "blitzscale",
    "go live",
)
# Everyday words for the ideas the options' keywords name (matched against the options' own
# keywords and text, never against rule ids).
CONCEPTS: dict[str, tuple[str, ...]] = {
    "depth": (
        "focus",
        "focused",
        "go deep",
        "deeper",
        "narrow",
        "one segment",
        "specialise",
        "specialize",
        "niche",
        "beachhead",
        "double down",
        "concentrate",
        "own one",
        "just serve",
        "only serve",
    ),
    "breadth": (
        "broad",
        "broaden",
        "wide",
        "wider",
        "expand",
        "many segments",
        "adjacent",
        "several",
        "everyone",
        "diversify",
        "more segments",
        "reach",
        "whole market",
        "mass market",
        "go wide",
    ),
    "ship": (
        "ship",
        "launch",
        "release",
        "go live",
        "put it out",
        "get it out",
        "mvp",
        "now",
        "rush",
        "rushed",
    ),
    "polish": (
        "polish",
        "refine",
        "finish",
        "quality",
        "perfect",
        "wait",
        "more time",
        "hold off",
        "get it right",
        "more weeks",
        "extra weeks",
    ),
    "adoption": (
        "cheap",
        "cheaper",
        "low price",
        "free",
        "freemium",
        "volume",
        "grassroots",
        "mass",
        "adoption",
        "community",
        "lower price",
        "lower the price",
        "price it low",
        "charge less",
    ),
    "premium": (
        "premium",
        "high price",
        "higher price",
        "price high",
        "raise the price",
        "raise prices",
        "charge more",
        "pricier",
        "price on value",
    ),
    "runway": (
        "enterprise",
        "big accounts",
        "bigger accounts",
        "large accounts",
        "runway",
        "fewer",
        "upmarket",
        "big customers",
        "contracts",
        "high price",
        "price high",
        "charge more",
        "need cash",
    ),
    "automate": (
        "automate",
        "automation",
        "automated",
        "bots",
        "bot",
        "self-serve",
        "self serve",
        "ai support",
        "chatbot",
        "margin",
    ),
    "human_loop": (
        "human",
        "humans",
        "people",
        "person",
        "staff",
        "steward",
        "personal",
        "human touch",
        "in the loop",
        "real people",
    ),
    "shareholder": (
        "investors",
        "vc",
        "venture capital",
        "raise",
        "funding",
        "shareholder",
        "blitzscale",
        "board",
        "equity round",
        "series a",
    ),
    "cooperative": (
        "cooperative",
        "co-op",
        "coop",
        "worker-owned",
        "worker owned",
        "mutual aid",
        "members",
        "community-owned",
        "collective",
        "workers own",
        "employee-owned",
        "employee owned",
        "the team owns",
        "give the team a stake",
    ),
}


# Words too common in option texts to point at one option.
GENERIC = frozenset(
    (
        "before",
        "after",
        "first",
        "anything",
        "something",
        "everything",
        "people",
        "already",
        "every",
        "their",
        "there",
        "three",
        "weeks",
        "months",
        "today",
        "again",
        "still",
        "while",
        "where",
        "which",
        "would",
        "could",
        "should",
        "start",
        "keep",
        "more",
        "less",
        "than",
        "what",
        "know",
        "only",
        "next",
        "price",  # "a low price" and "price high" name opposite sides
    )
)


@dataclass(frozen=True, eq=False, repr=False)
class Interpretation(FrozenRecord):
    """How an own answer is read, shown to the player before it commits."""

    rule_id: str
    option: str | None = None  # "A", "B" or None (no option fits)
    matched_by: str = "custom"  # keywords, negation, not-yet, both, custom
    niche: str | None = None
    dropped: str | None = None
    says: str = ""


_EVERYDAY = frozenset(w for everyday in CONCEPTS.values() for w in everyday)


def _concept_words(keywords: tuple[str, ...], option_text: str) -> set[str]:
    """The phrases that point at one option: its rule's keywords, its text's content words and the
    everyday words of any concept those keywords name."""
    phrases = set(keywords)
    phrases |= {w for w in words(option_text) if len(w) > 3 and w not in STOPWORDS | GENERIC}
    for concept, everyday in CONCEPTS.items():
        if any(has_phrase(concept, k) or k in everyday for k in keywords) or concept in phrases:
            phrases |= set(everyday)
    return phrases


def _clauses(text: str) -> list[str]:
    parts = re.split(r"[,;:.!?]|\bbut\b|\bthen\b|\bwhile\b|\band\b|—|–", text, flags=re.IGNORECASE)
    return [p.strip() for p in parts if p.strip()]


def _negated_apart(clause: list[str], phrases: set[str]) -> bool:
    """Whether the clause negates what it names of an option: a negation that is not itself the
    option's words ("hold off" names waiting to polish; "hold off on the launch" does not
    negate the polish it names)."""
    said = [p for p in phrases if has_phrase(clause, p)]
    return any(not any(n in p or p in n for p in said) for n in NEGATIONS if has_phrase(clause, n))


def _only_hits(clause: list[str], phrases: set[str]) -> int:
    return sum(1 for p in phrases if has_phrase(clause, p))


# A change of mind mid-answer: what follows it is the answer.
_CORRECTION = Pattern(
    r"\b(?:no,?\s+wait|scratch that|on second thoughts?)\s*[,.;:!—–-]", re.IGNORECASE
)


def read_own_answer(
    text: str,
    options: list[tuple[str, str, str, tuple[str, ...]]],
    context: str = "",
) -> Interpretation:
    """Read free text against the fork's options: [(key, rule id, text, rule keywords)].

    Whole words only; a negated clause counts against the option it names ("do not ship" reads as
    the other option); "both" or a tie gives no option and no rule id (the caller's own-answer
    rule); a correction ("ship, no wait, polish") is read from where it starts."""
    text = _CORRECTION.split(text)[-1]
    toks = words(text)
    scores = {key: 0.0 for key, _, _, _ in options}
    rule_of = {key: rid for key, rid, _, _ in options}
    # Words the question itself says (the customer, the rival) pick no option: "focus on ward
    # nurses" named the customer, and read as the option whose text happened to name nurses.
    # An everyday word for an option's idea still names it when the question says it too ("Do we
    # launch it?" / "we can't launch something this rough").
    shared = {w for w in words(context) if w not in STOPWORDS} - _EVERYDAY
    vocab = {
        key: {p for p in _concept_words(kw, otext) if p not in shared or p in kw}
        for key, _, otext, kw in options
    }
    negated_any = False
    for clause in _clauses(text):
        ct = words(clause)
        for key in scores:
            hits = _only_hits(ct, vocab[key])
            if hits and _negated_apart(ct, vocab[key]):
                negated_any = True
                scores[key] -= hits
                for other in scores:
                    if other != key:
                        scores[other] += hits * 0.9
            else:
                scores[key] += hits
    not_yet = has_phrase(toks, "not yet") or has_phrase(toks, "hold off")
    if not_yet and all(v <= 0 for v in scores.values()):
        for key, _, otext, kw in options:
            if any(has_phrase(otext, w) for w in NOW_WORDS) or any(k in NOW_WORDS for k in kw):
                scores[key] -= 1
                for other in scores:
                    if other != key:
                        scores[other] += 1
    niche, dropped = _niche(text)
    if niche and all(v <= 0 for v in scores.values()):  # "just nurses on night shift"
        for key in scores:
            scores[key] += "niche" in vocab[key]
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    both = _any(toks, BOTH)
    if (
        both
        or not ranked
        or ranked[0][1] <= 0
        or (len(ranked) > 1 and ranked[0][1] == ranked[1][1])
    ):
        how = "both" if both else "custom"
        return Interpretation(rule_id="", option=None, matched_by=how, niche=niche, dropped=dropped)
    key = ranked[0][0]
    how = "not-yet" if not_yet else "negation" if negated_any else "keywords"
    return Interpretation(
        rule_id=rule_of[key], option=key, matched_by=how, niche=niche, dropped=dropped
    )


ACTION_VERBS = [
    [v]
    for v in (
        "chase",
        "go",
        "do",
        "ship",
        "launch",
        "build",
        "hire",
        "raise",
        "sell",
        "take",
        "spend",
        "wait",
        "rush",
        "grow",
        "make",
        "push",
    )
]


def _niche(text: str) -> tuple[str | None, str | None]:
    m = re.search(
        r"\b(?:focus(?: only)? on|concentrate on|double down on|narrow to|stick to|"
        r"(?:just |only )?serve(?: only)?|only|just)\s+(?:the\s+|our\s+)?([^,.;:!?]+)",
        text,
        re.IGNORECASE,
    )
    niche = _tidy(m.group(1), 5) if m else None
    d = re.search(
        r"\b(?:drop|not|without|exclude|skip|leave out|forget|stop serving|no more)\s+"
        r"(?:the\s+|our\s+)?([^,.;:!?]+)",
        text,
        re.IGNORECASE,
    )
    dropped = _tidy(d.group(1), 4) if d else None
    if niche and _is_option_word(niche):
        niche = None
    if dropped and (_is_option_word(dropped) or words(dropped)[:1] in ACTION_VERBS):
        dropped = None  # "do not chase the big hospitals" drops an action, not a customer
    return niche, dropped


def _is_option_word(phrase: str) -> bool:
    """'focus on shipping' names an option, not a customer niche."""
    toks = words(phrase)
    return (
        not toks
        or any(has_phrase(toks, w) for ws in CONCEPTS.values() for w in ws)
        or toks[0] in ("it", "this", "that", "yet", "one", "quality", "speed", "growth")
    )
