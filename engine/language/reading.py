"""Reading what the CEO means: a rejection reason (what it is about, which way a number should
move), an own answer at a fork (which option, negation, "focus on X, drop Y", "not yet", "both")
and a standup reply (standing orders such as a hiring freeze).

Everything here is data plus whole-word matching: the readings are shown to the player before they
bind, and the labelled sets in tests/data/ check them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.language.grammar import join_prose
from worldforge_savedb.records import FrozenRecord, Record
from worldforge_textkit import STOPWORDS, has_phrase, words
from worldforge_textkit.patterns import Pattern

# Asking for plainer words: a tone for the reading and a plain tone for the directions (one list).
PLAIN_WORDING = ("plainer", "clearer", "readable", "hard to read", "easier to read")

# Words that say the work over-claims: one list for the rejection reading (its "claims" topic) and
# the typed directions (engine.language.steering reads them into a claim to avoid), so what the
# reading line says the redo will cut is what the redo is bound to cut.
OVER_CLAIM_WORDS: tuple[str, ...] = (
    "claim",
    "claims",
    "overclaim",
    "overclaims",
    "over-claim",
    "over-claims",
    "unproven",
    "no proof",
    "promise",
    "promises",
    "guarantee",
    "guaranteed",
    "guarantees",
    "hype",
    "exaggerate",
    "exaggerated",
    "exaggerates",
    "overpromise",
    "overpromises",
    "too good to be true",
    "can't back",
    "cannot back",
    "prove it",
    "lies",
    "misleading",
    "bold",
)
# What a rejection can be about: topic -> phrases that name it (whole words, any case).
TOPICS: dict[str, tuple[str, ...]] = {
    "price": (
        "price",
        "prices",
        "pricing",
        "priced",
        "cost",
        "costs",
        "expensive",
        "cheap",
        "cheaper",
        "fee",
        "fees",
        "tier",
        "tiers",
        "paywall",
        "how much",
        "per month",
        "subscription",
        "discount",
        "afford",
        "affordable",
        "pay",
    ),
    "audience": (
        "audience",
        "customer",
        "customers",
        "who is this for",
        "who it is for",
        "segment",
        "persona",
        "target audience",
        "target customer",
        "targeting",
        "buyer",
        "buyers",
        "users",
        "user",
        "wrong people",
        "demographic",
        "for whom",
        "speaks to",
        "speak to",
        "aimed at",
        "written for",
        "write for",
        "aim at",
    ),
    "claims": OVER_CLAIM_WORDS,
    "tone": (
        "tone",
        "jargon",
        "voice",
        "salesy",
        "pushy",
        "formal",
        "casual",
        "buzzwords",
        "buzzword",
        "fluff",
        "wordy",
        "corporate",
        "cheesy",
        "stiff",
        "robotic",
        "cringe",
        "marketing speak",
        "plain english",
        "plain words",
        "friendlier",
        "warmer",
        "verbose",
        "plain language",
        *PLAIN_WORDING,
    ),
    "scope": (
        "scope",
        "too broad",
        "too much",
        "too many",
        "narrow",
        "features",
        "feature",
        "smaller",
        "simpler",
        "bloated",
        "cut",
        "trim",
        "fewer",
        "sprawling",
        "unfocused",
        "focus",
        "kitchen sink",
    ),
    "timeline": (
        "timeline",
        "deadline",
        "schedule",
        "late",
        "sooner",
        "faster",
        "slower",
        "breakeven",
        "break-even",
        "break even",
        "when",
        "too slow",
        "months",
        "weeks",
        "rushed",
        "date",
        "dates",
    ),
    "channel": (
        "channel",
        "channels",
        "outbound",
        "ads",
        "advertising",
        "linkedin",
        "referrals",
        "referral",
        "partners",
        "partnerships",
        "community",
        "communities",
        "seo",
        "events",
        "cold email",
        "newsletter",
        "word of mouth",
        "social media",
        "instagram",
        "tiktok",
        "conferences",
        "distribution",
    ),
    "decision": (
        "ignores the decision",
        "ignored the decision",
        "ignores my decision",
        "not what we decided",
        "we decided",
        "we chose",
        "off-plan",
        "off plan",
        "drift",
        "drifted",
        "contradicts",
        "against the decision",
        "ignores what i chose",
    ),
    "include": (
        "mention",
        "include",
        "add",
        "cover",
        "talk about",
        "name",
        "spell out",
        "show",
        "missing",
        "lacks",
        "forgot",
        "forgets",
        "no mention",
    ),
}
# Numbers a reason can name, by the artifact field they live in.
NUMBERS: dict[str, tuple[str, ...]] = {
    "churn": ("churn", "churn target", "churn rate", "retention target"),
    "burn": ("burn", "spend", "spending", "costs too high", "burn rate", "headcount cost"),
    "cac": ("cac", "acquisition cost", "cost per customer", "cost to acquire"),
    "mrr": (
        "mrr",
        "revenue",
        "revenue target",
        "revenue targets",
        "targets",
        "forecast",
        "projections",
        "growth",
        "sales target",
    ),
    "breakeven": ("breakeven", "break-even", "break even", "profitability"),
    "price": ("price", "pricing", "fee"),
    "hours": ("hours", "time per week", "weekly hours", "effort"),
}
# Which way a reason moves a number or a price: one pair of lists, read here and by steering
# (DOWN is tried first).
UP = (
    "too low",
    "too small",
    "too few",
    "too cautious",
    "too timid",
    "too conservative",
    "higher",
    "raise",
    "increase",
    "more",
    "more ambitious",
    "aim higher",
    "underpriced",
    "too cheap",
    "pricier",
    "sandbagged",
    "not ambitious",
    "bigger",
    "push it up",
    "push up",
)
DOWN = (
    "too high",
    "too big",
    "too many",
    "too much",
    "too optimistic",
    "too aggressive",
    "lower",
    "cheaper",
    "affordable",
    "reduce",
    "cut",
    "smaller",
    "unrealistic",
    "too rosy",
    "overpriced",
    "too expensive",
    "bring down",
    "less",
    "fantasy",
    "inflated",
    "too ambitious",
    "shrink",
    "trim",
)
SOONER = (
    "too late",
    "too slow",
    "sooner",
    "earlier",
    "faster",
    "too far out",
    "too long",
    "pull in",
    "pull forward",
)
LATER = (
    "too soon",
    "too early",
    "rushed",
    "unrealistic date",
    "later",
    "more time",
    "too fast",
    "too tight",
)
# Phrases with no handle the workers can act on.
VAGUE = (
    "meh",
    "no",
    "redo",
    "again",
    "bad",
    "not good",
    "i don't like it",
    "do better",
    "try again",
    "nope",
    "hmm",
    "not great",
    "weak",
    "boring",
    "make it better",
    "wrong",
)

_SUBJECT = Pattern(
    r"\b(?:focus on|focus it on|focused on|narrow (?:it )?to|only|just|aim at|aim it at|target|"
    r"speak to|talk to|write for|for|mention|include|add|cover|name|about|spell out|show|"
    r"forgets|forgot|lacks|is missing|misses)\s+"
    r"(?:the\s+|a\s+|an\s+|our\s+)?([^,.;:!?]+)",
    re.IGNORECASE,
)
_DROP = Pattern(
    r"\b(?:drop|not|without|exclude|excluding|skip|leave out|cut|stop|no more|"
    r"forget|remove|except)\s+(?:the\s+|a\s+|an\s+|our\s+)?([^,.;:!?]+)",
    re.IGNORECASE,
)


@dataclass(eq=False, repr=False)
class Reading(Record):
    """What a rejection reason (or standup reply) asks the workers to change."""

    topics: list[str] = field(default_factory=list)
    number: str | None = None  # which number: churn, burn, cac, mrr, breakeven, price, hours
    direction: str | None = None  # up, down, sooner, later
    subject: str | None = None  # the words to add or narrow to ("night nurses")
    dropped: str | None = None  # the words to leave out ("clinics")
    actionable: bool = True
    says: str = ""  # one plain line: what the workers will change


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


def read_reason(reason: str) -> Reading:
    """Read a rejection reason for what it is about and which way a number should move: the
    topics and number it names, the direction, the number folded into its topic, the subject and
    what to drop, then the topics in reading order."""
    text = words(reason)
    topics = [t for t, phrases in TOPICS.items() if _any(text, phrases)]
    if "tone" in topics and "scope" in topics and not _scope_beyond_tone(text):
        topics.remove("scope")  # "too much jargon", "cut the buzzwords": the words, not the scope
    number = next((n for n, phrases in NUMBERS.items() if _any(text, phrases)), None)
    direction = _direction(text, topics, number)
    topics, number, direction = _fold_number(topics, number, direction)
    subject, dropped = _subject_and_dropped(reason)
    topics = _ordered(topics, text, subject)
    actionable = bool(topics)
    if not actionable and not _any(text, VAGUE) and subject:
        topics, actionable = ["include"], True
    r = Reading(
        topics=topics,
        number=number if "number" in topics else None,
        direction=direction,
        subject=subject,
        dropped=dropped,
        actionable=actionable,
    )
    r.says = reading_line(r)
    return r


# Scope words that only say "less of something": about scope unless what follows is a tone word.
_QUANTITY = ("too much", "too many", "cut", "trim", "fewer", "less")


def _scope_beyond_tone(text: list[str]) -> bool:
    """True when a scope cue in the reason is about the work's scope, not its wording: any scope
    cue that is not a quantity word, or a quantity word not followed by a tone word."""
    tone = set(TOPICS["tone"])
    for phrase in TOPICS["scope"]:
        cue = words(phrase)
        n = len(cue)
        for i in range(len(text) - n + 1):
            if text[i : i + n] != cue:
                continue
            if phrase not in _QUANTITY:
                return True
            after = [w for w in text[i + n : i + n + 3] if w not in STOPWORDS]
            if not after or after[0] not in tone:
                return True
    return False


def _direction(text: list[str], topics: list[str], number: str | None) -> str | None:
    """Which way the reason moves things: an explicit verb first, then what the words imply."""
    explicit = _explicit_direction(text)
    if explicit and number not in (None, "breakeven"):
        return explicit
    if _any(text, OPTIMISTIC) and number in ("churn", "burn", "cac"):
        return "up"  # an optimistic churn, burn or cost is one set too low
    if _any(text, SOONER) and (number in (None, "breakeven") or "timeline" in topics):
        return "sooner"
    if _any(text, LATER) and (number in (None, "breakeven") or "timeline" in topics):
        return "later"
    if _any(text, DOWN):
        return "down"
    if _any(text, UP):
        return "up"
    return None


def _fold_number(
    topics: list[str], number: str | None, direction: str | None
) -> tuple[list[str], str | None, str | None]:
    """A price is its own topic; a breakeven month is a timeline (up is later); another number
    moved one way leads the topics."""
    if number == "breakeven" and direction in ("up", "down"):
        direction = "later" if direction == "up" else "sooner"
    if number == "price":
        number = None  # a price is its own topic, moved by direction
        topics = ["price"] + [t for t in topics if t != "price"]
    if number == "breakeven":
        topics = ["timeline"] + [t for t in topics if t not in ("timeline", "number")]
        number = None
    elif number and direction:
        topics = ["number"] + [t for t in topics if t not in ("price", "scope", "timeline")]
    return topics, number, direction


def _subject_and_dropped(reason: str) -> tuple[str | None, str | None]:
    """What the reason asks to speak of, and what it asks to drop (a subject inside it is none)."""
    m = _SUBJECT.search(reason)
    subject = _tidy(m.group(1)) if m else None
    d = _DROP.search(reason)
    dropped = _tidy(d.group(1), 4) if d else None
    if dropped and subject and dropped.lower() in subject.lower():
        subject = None
    return subject, dropped


_TOPIC_ORDER = (
    "number",
    "decision",
    "price",
    "claims",
    "audience",
    "channel",
    "timeline",
    "tone",
    "scope",
    "include",
)


def _ordered(topics: list[str], text: list[str], subject: str | None) -> list[str]:
    """The topics in reading order; "include" leads only when the reason starts with it."""
    topics = list(topics)
    if "include" in topics and len(topics) > 1 and not subject:
        topics.remove("include")
    if topics and topics[0] == "include" and len(topics) > 1 and not _leads_with_include(text):
        topics.append(topics.pop(0))
    topics.sort(key=lambda t: _TOPIC_ORDER.index(t) if t in _TOPIC_ORDER else len(_TOPIC_ORDER))
    if "include" in topics and subject and _leads_with_include(text):
        topics = ["include"] + [t for t in topics if t != "include"]
    if "audience" in topics and subject and "scope" in topics:
        topics.remove("scope")
    return topics


OPTIMISTIC = ("too optimistic", "too rosy", "unrealistic", "fantasy", "wishful")
_RAISE = (
    "raise it",
    "raise the",
    "increase it",
    "increase the",
    "push it up",
    "higher",
    "aim higher",
    "be more ambitious",
    "more ambitious",
)
_LOWER = (
    "lower it",
    "lower the",
    "reduce it",
    "reduce the",
    "bring it down",
    "bring down",
    "cut it",
    "cut the",
    "lower",
    "reduce",
)


def _explicit_direction(text: list[str]) -> str | None:
    """An explicit verb ("raise it", "lower the …") outranks an evaluative phrase."""
    if _any(text, _RAISE):
        return "up"
    if _any(text, _LOWER):
        return "down"
    return None


def _leads_with_include(text: list[str]) -> bool:
    return bool(text) and text[0] in ("mention", "include", "add", "cover", "name", "show")


NUMBER_NAMES = {
    "churn": "the churn target",
    "burn": "the monthly burn",
    "cac": "the acquisition cost per channel",
    "mrr": "the revenue targets",
    "breakeven": "the breakeven month",
    "hours": "the weekly hours per channel",
}
TOPIC_LINES = {
    "price": "state a concrete price",
    "audience": "speak to the named customer, not everyone",
    "claims": "cut the claims the company cannot prove yet",
    "tone": "rewrite it in plain words",
    "scope": "narrow the scope",
    "timeline": "move the timeline",
    "channel": "change the channels",
    "decision": "follow the standing decision",
    "include": "add what was missing",
}


def reading_line(r: Reading) -> str:
    """One plain line on what the workers will change (or that they cannot tell)."""
    if not r.actionable:
        return (
            "The workers cannot tell what to change from that; name the part (price, "
            "audience, claims, tone, scope, timeline, channel or a number)."
        )
    parts = []
    for t in r.topics[:3]:
        if t == "number" and r.number:
            way = {"up": "raise", "down": "lower"}.get(r.direction or "", "revise")
            parts.append(f"{way} {NUMBER_NAMES.get(r.number, r.number)}")
        elif t == "price" and r.direction in ("up", "down"):
            parts.append(("raise" if r.direction == "up" else "lower") + " the price")
        elif t in ("timeline", "number") and r.direction in ("sooner", "later"):
            parts.append(f"move the dates {r.direction}")
        elif t == "audience" and r.subject:
            parts.append(f"speak to {r.subject}")
        elif t in ("include", "scope") and r.subject:
            parts.append(("centre the work on " if t == "scope" else "add ") + r.subject)
        else:
            parts.append(TOPIC_LINES[t])
    if r.dropped:
        parts.append(f"leave out {r.dropped}")
    return "The redo will " + join_prose(parts) + "."


# ------------------------------------------------------------------ own answers at a fork
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
