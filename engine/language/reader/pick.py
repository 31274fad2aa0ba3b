"""Which fork option an own answer picks, on the one parse (engine.language.reader.utterance):
the option whose rule keywords, own words, or the everyday words of the idea they name the
answer says most; a clause naming an option under a negation counts against it ("do not ship"
reads as the other option), and so does one that puts it off ("then go full time" keeps the other
now); "not yet" picks the option that waits; "both" or a tie picks none
(the caller's own-answer rule); a change of mind ("ship, no wait, polish") is read from where it
starts. The words are data (vocab/options.json)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.language.reader.reads import CLAUSE_VERBS
from engine.language.reader.utterance import Token, Utterance, parse, tokenize
from engine.language.reader.vocab import vocab
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import STOPWORDS

_VOCAB = Path(__file__).resolve().parent / "vocab" / "options.json"
_STOPS = frozenset(",.;:!?")
# Words that end a niche or a left-out phrase ("focus on nurses and then …", "nurses not doctors").
_CUTS = (
    ("and", "then"),
    ("but",),
    ("then",),
    ("so",),
    ("because",),
    ("instead",),
    ("rather",),
    ("not",),
    ("drop",),
    ("while",),
    ("please",),
    ("in", "everything"),
    ("everywhere",),
    ("in", "all"),
)


@dataclass(frozen=True, eq=False, repr=False)
class Interpretation(FrozenRecord):
    """How an own answer is read, shown to the player before it commits."""

    rule_id: str
    option: str | None = None  # "A", "B" or None (no option fits)
    matched_by: str = "custom"  # keywords, negation, later, not-yet, both, custom
    niche: str | None = None
    dropped: str | None = None
    says: str = ""


@dataclass(frozen=True, eq=False, repr=False)
class _Words(FrozenRecord):
    """The word lists an own answer at a fork is read with."""

    concepts: dict[str, tuple[tuple[str, ...], ...]]
    negations: tuple[tuple[str, ...], ...]
    then: tuple[tuple[str, ...], ...]
    later: tuple[tuple[str, ...], ...]
    both: tuple[tuple[str, ...], ...]
    now: tuple[tuple[str, ...], ...]
    generic: frozenset[str]
    corrections: tuple[tuple[str, ...], ...]
    niche_cues: tuple[tuple[str, ...], ...]
    drop_cues: tuple[tuple[str, ...], ...]
    action_verbs: frozenset[str]
    everyday: frozenset[tuple[str, ...]]


def phrase(text: str) -> tuple[str, ...]:
    """A phrase's words as the reader tokenizes them (lowercase, punctuation kept as tokens)."""
    return tuple(t.low for t in tokenize(text))


def _phrases(rows: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    return tuple(p for p in (phrase(r) for r in rows) if p)


@cache
def _words() -> _Words:
    data = json.loads(_VOCAB.read_text(encoding="utf-8"))
    concepts = {k: _phrases(v) for k, v in data["concepts"].items()}
    return _Words(
        concepts=concepts,
        negations=_phrases(data["negations"]),
        then=_phrases(data["then"]),
        later=_phrases(data["later"]),
        both=_phrases(data["both"]),
        now=_phrases(data["now"]),
        generic=frozenset(data["generic"]),
        corrections=_phrases(data["corrections"]),
        niche_cues=_phrases(data["niche_cues"]),
        drop_cues=_phrases(data["drop_cues"]),
        action_verbs=frozenset(data["action_verbs"]),
        everyday=frozenset(p for ps in concepts.values() for p in ps),
    )


def _at(low: list[str], p: tuple[str, ...], k: int) -> bool:
    return tuple(low[k : k + len(p)]) == p


def _has(low: list[str], p: tuple[str, ...]) -> bool:
    """Whole words: `p` occurs in `low` as a run of tokens."""
    return bool(p) and any(_at(low, p, k) for k in range(len(low) - len(p) + 1))


def _content(text: str) -> list[str]:
    return [t.low for t in tokenize(text) if t.is_word]


def _concept_words(keywords: tuple[str, ...], option_text: str) -> set[tuple[str, ...]]:
    """The phrases that point at one option: its rule's keywords, its text's content words and the
    everyday words of any concept those keywords name."""
    w = _words()
    kws = _phrases(keywords)
    out = set(kws)
    out |= {(x,) for x in _content(option_text) if len(x) > 3 and x not in STOPWORDS | w.generic}
    for concept, everyday in w.concepts.items():
        named = any(_has(list(phrase(concept)), k) or k in everyday for k in kws)
        if named or (concept,) in out:
            out |= set(everyday)
    return out


def _one_parse(text: str) -> Utterance:
    """The answer's one parse: the same the direction reader makes of it (and shares)."""
    return parse(text, new_clause_words=CLAUSE_VERBS | vocab().lists["verbs"])


def _start(tokens: list[Token]) -> int:
    """Where the answer starts after the last change of mind said with a stop after it ("ship,
    no wait, polish")."""
    w = _words()
    low = [t.low for t in tokens]
    start = 0
    for k in range(len(low)):
        for p in w.corrections:
            end = k + len(p)
            if _at(low, p, k) and end < len(low) and not tokens[end].is_word:
                start = end + 1
    return start


def _windows(utt: Utterance, start: int) -> list[list[str]]:
    """The answer's clauses as the one parse cut them (from `start`), in lowercase words."""
    return [
        [t.low for t in utt.tokens[max(cl.i, start) : cl.j] if t.is_word]
        for cl in utt.clauses
        if cl.j > start
    ]


def read_own_answer(
    text: str,
    options: list[tuple[str, str, str, tuple[str, ...]]],
    context: str = "",
) -> Interpretation:
    """Read free text against the fork's options: [(key, rule id, text, rule keywords)] (see the
    module docstring)."""
    w = _words()
    utt = _one_parse(text)
    start = _start(utt.tokens)
    tokens = utt.tokens[start:]
    low = [t.low for t in tokens if t.is_word]
    scores = {key: 0.0 for key, _, _, _ in options}
    rule_of = {key: rid for key, rid, _, _ in options}
    # Words the question itself says (the customer, the rival) pick no option: "focus on ward
    # nurses" named the customer, and read as the option whose text happened to name nurses.
    # An everyday word for an option's idea still names it when the question says it too.
    shared = {(x,) for x in _content(context) if x not in STOPWORDS} - w.everyday
    named = {
        key: {p for p in _concept_words(kw, otext) if p not in shared or p in _phrases(kw)}
        for key, _, otext, kw in options
    }
    negated_any = put_off_any = False
    for clause, later in _now_and_later(utt, start):
        for key in scores:
            said = [p for p in named[key] if _has(clause, p)]
            negated = bool(said) and _negated_apart(clause, said)
            if said and (negated or later or _put_off(clause, said)):
                negated_any = negated_any or negated
                put_off_any = put_off_any or not negated
                scores[key] -= len(said)
                for other in scores:
                    if other != key:
                        scores[other] += len(said) * 0.9
            else:
                scores[key] += len(said)
    not_yet = _has(low, ("not", "yet")) or _has(low, ("hold", "off"))
    if not_yet and all(v <= 0 for v in scores.values()):
        for key, _, otext, kw in options:
            if any(_has(_content(otext), p) for p in w.now) or any(
                p in w.now for p in _phrases(kw)
            ):
                scores[key] -= 1
                for other in scores:
                    if other != key:
                        scores[other] += 1
    niche, dropped = _niche(tokens)
    if niche and all(v <= 0 for v in scores.values()):  # "just nurses on night shift"
        for key in scores:
            scores[key] += ("niche",) in named[key]
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    both = any(_has(low, p) for p in w.both)
    if (
        both
        or not ranked
        or ranked[0][1] <= 0
        or (len(ranked) > 1 and ranked[0][1] == ranked[1][1])
    ):
        how = "both" if both else "custom"
        return Interpretation(rule_id="", option=None, matched_by=how, niche=niche, dropped=dropped)
    key = ranked[0][0]
    how = (
        "not-yet"
        if not_yet
        else "negation"
        if negated_any
        else "later"
        if put_off_any
        else "keywords"
    )
    return Interpretation(
        rule_id=rule_of[key], option=key, matched_by=how, niche=niche, dropped=dropped
    )


def _negated_apart(clause: list[str], said: list[tuple[str, ...]]) -> bool:
    """Whether the clause negates what it names of an option: a negation that is not itself the
    option's words ("hold off" names waiting to polish; "hold off on the launch" does not negate
    the polish it names)."""
    return any(
        not any(_inside(n, p) or _inside(p, n) for p in said)
        for n in _words().negations
        if _has(clause, n)
    )


def _now_and_later(utt: Utterance, start: int) -> list[tuple[list[str], bool]]:
    """The answer's clauses (as `_windows` cuts them), each marked later when a word of sequence
    opens it ("…, then go full time") and cut where one starts what comes later inside it: what
    follows such a word is not what the answer does now."""
    out: list[tuple[list[str], bool]] = []
    then = _words().then
    end = start
    for cl in utt.clauses:
        if cl.j <= start:
            continue
        gap = [t.low for t in utt.tokens[end : max(cl.i, start)] if t.is_word]
        end = cl.j
        clause = [t.low for t in utt.tokens[max(cl.i, start) : cl.j] if t.is_word]
        opened = any(_has(gap, p) or _at(clause, p, 0) for p in then)
        cut = next((k for k in range(1, len(clause)) for p in then if _at(clause, p, k)), None)
        if cut is None:
            out.append((clause, opened))
        else:
            out += [(clause[:cut], opened), (clause[cut:], True)]
    return out


def _put_off(clause: list[str], said: list[tuple[str, ...]]) -> bool:
    """Whether the clause puts off what it names of an option ("go full time later"): what
    comes later is not what the answer does now. A word of later that is the option's own
    ("wait" names polishing) puts nothing off."""
    return any(
        not any(_inside(n, p) or _inside(p, n) for p in said)
        for n in _words().later
        if _has(clause, n)
    )


def _inside(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return " ".join(a) in " ".join(b)


def _niche(tokens: list[Token]) -> tuple[str | None, str | None]:
    """The customer niche the answer narrows to ("focus on night nurses") and the one it leaves
    out ("drop agencies"); neither when the words name an option's idea or an action."""
    w = _words()
    niche = _after(tokens, w.niche_cues, 5)
    dropped = _after(tokens, w.drop_cues, 4)
    if niche and _is_option_word(niche):
        niche = None
    if dropped and (_is_option_word(dropped) or _content(dropped)[:1][0] in w.action_verbs):
        dropped = None  # "do not chase the big hospitals" drops an action, not a customer
    return niche, dropped


def _after(tokens: list[Token], cues: tuple[tuple[str, ...], ...], limit: int) -> str | None:
    """The words after the first cue (the longest at that place) up to a stop or a connective:
    at most `limit` words, a trailing stopword off."""
    low = [t.low for t in tokens]
    for k in range(len(low)):
        hits = [c for c in cues if _at(low, c, k) and k + len(c) < len(low)]
        if not hits:
            continue
        j = k + max(len(c) for c in hits)
        if not tokens[j].is_word:
            continue  # the cue must be followed by words ("only." names nothing)
        if low[j] in ("the", "our"):
            j += 1
        out: list[Token] = []
        while j < len(low) and tokens[j].text not in _STOPS and len(out) < limit:
            if any(_at(low, c, j) for c in _CUTS):
                break
            out.append(tokens[j])
            j += 1
        while out and out[-1].low in STOPWORDS:
            out.pop()
        said = " ".join(t.text for t in out if t.text not in "'\"“”‘’").strip()
        return said or None
    return None


def _is_option_word(said: str) -> bool:
    """'focus on shipping' names an option, not a customer niche."""
    low = _content(said)
    return (
        not low
        or any(_has(low, p) for p in _words().everyday)
        or low[0] in ("it", "this", "that", "yet", "one", "quality", "speed", "growth")
    )
