"""Which fork option an own answer picks: the one picker, on the one parse, that the game's
confirm and receipt and the direction reader both take. In order: "neither" picks none; "both"
takes both; a letter or an ordinal picks outright (after a change of mind the last); then the
option whose rule keywords, own words, or the everyday words of the idea they name the answer
says most, one named under a negation ("do not ship") or put off ("then go full time") counting
against it; then the option whose words or figures ("the cheaper one") it names most; "not yet"
picks the option that waits. A tie picks none. The words are data (vocab/options.json)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.language.reader.figures import NUM
from engine.language.reader.reads import (
    CANT,
    NEG,
    NEW_CLAUSE_WORDS,
    REASON_STARTS,
    SUBJECTS,
    VERBISH,
    noun_phrase,
)
from engine.language.reader.utterance import Clause, Token, Utterance, lows, parse, tokenize
from engine.language.reader.vocab import Vocab, vocab
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import STOPWORDS

Rows = tuple[tuple[str, ...], ...]  # phrases, each as the reader's lowercase tokens
# The phrase lists of vocab/options.json (its _doc says what each holds); each must be there.
_ROWS = [
    "negations",
    "then",
    "later",
    "both",
    "both_not",
    "neither",
    "not_yet",
    "now",
    "corrections",
    "niche_cues",
    "niche_ends",
    "option_later",
]
_VOCAB = Path(__file__).resolve().parent / "vocab" / "options.json"
_STOPS = frozenset(",.;:!?")


@dataclass(frozen=True, eq=False, repr=False)
class Interpretation(FrozenRecord):
    """How an own answer is read, shown to the player before it commits."""

    rule_id: str
    option: str | None = None  # "A", "B" or None (no option fits)
    matched_by: str = "custom"  # keywords, negation, later, not-yet, both, custom
    niche: str | None = None  # the picker's guess, for its tally; a decision binds its reading's
    dropped: str | None = None  # what the reading leaves out (engine.game.said.read_own_answer)
    says: str = ""


@dataclass(frozen=True, eq=False, repr=False)
class _Words(FrozenRecord):
    """The word lists an own answer at a fork is read with."""

    concepts: dict[str, Rows]
    rows: dict[str, Rows]  # the phrase lists (negations, then, later, both, …) by name
    generic: frozenset[str]
    ordinals: dict[str, int]  # "second": 1, the option's place
    letter_cues: frozenset[str]
    everyday: frozenset[tuple[str, ...]]


def phrase(text: str) -> tuple[str, ...]:
    """A phrase's words as the reader tokenizes them (lowercase, punctuation kept as tokens)."""
    return tuple(lows(text))


def _phrases(rows: Iterable[str]) -> Rows:
    return tuple(p for p in (phrase(r) for r in rows) if p)


@cache
def _words() -> _Words:
    data = json.loads(_VOCAB.read_text(encoding="utf-8"))
    concepts = {k: _phrases(v) for k, v in data["concepts"].items()}
    return _Words(
        concepts=concepts,
        rows={name: _phrases(data[name]) for name in _ROWS},
        generic=frozenset(data["generic"]),
        ordinals={x: n for n, row in enumerate(data["ordinals"]) for x in row},
        letter_cues=frozenset(data["letter_cues"]),
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
    return parse(text, new_clause_words=NEW_CLAUSE_WORDS)


def _restarts(tokens: list[Token]) -> set[int]:
    """Where the answer starts again after a change of mind: after "actually", "no wait", "oh
    wait", a bare "wait," (never the verb: "buyers won't wait for vans"), or a correction said
    with a stop after it ("ship, scratch that, polish")."""
    low = [t.low for t in tokens]
    out = set()
    for k, word in enumerate(low):
        nxt = tokens[k + 1] if k + 1 < len(low) else None
        if word == "actually" or (
            word == "wait"
            and (low[k - 1 : k] in (["no"], ["oh"], ["hmm"]) or not nxt or not nxt.is_word)
        ):
            out.add(k + 1)
        for p in _words().rows["corrections"]:
            end = k + len(p)
            if _at(low, p, k) and end < len(low) and not tokens[end].is_word:
                out.add(end + 1)
    return out


# A fork option as the picker reads it: its key ("A"), its rule id, its text, its rule's keywords
# (the reader, which knows no rules, gives "" and ()).
Choice = tuple[str, str, str, tuple[str, ...]]


def read_own_answer(text: str, options: Sequence[Choice], context: str = "") -> Interpretation:
    """Read free text against the fork's options (see the module docstring); `context`: the
    fork's question, whose own words pick no option."""
    return pick(_one_parse(text), options, context)


def pick(utt: Utterance, options: Sequence[Choice], context: str = "") -> Interpretation:
    """The one reading of which option an own answer picks (see the module docstring)."""
    w = _words()
    fork = {key: otext for key, _, otext, _ in options}
    rule_of = {key: rid for key, rid, _, _ in options}
    low = [t.low for t in utt.tokens]
    restarts = _restarts(utt.tokens)
    start = max(restarts, default=0)
    niche = _niche(utt.tokens[start:])

    def chose(key: str | None, how: str) -> Interpretation:
        rid = rule_of[key] if key else ""
        return Interpretation(rule_id=rid, option=key, matched_by=how, niche=niche)

    if any(_has(low, p) for p in w.rows["neither"]) or low[:2] == ["none", "of"]:
        return chose(None, "custom")
    if any(_has(low, p) for p in w.rows["both"]) and not (
        "both" in low and any(_has(low, p) for p in w.rows["both_not"])
    ):
        return chose(None, "both")
    # Words the question itself says (the customer, the rival) pick no option: "focus on ward
    # nurses" named the customer, and read as the option whose text happened to name nurses.
    # An everyday word for an option's idea still names it when the question says it too.
    shared: set[tuple[str, ...]] = {(x,) for x in _content(context) if x not in STOPWORDS}
    shared -= w.everyday
    picker = _Picker(utt, vocab(), fork, {x for (x,) in shared}, restarts)
    tally = picker.pick()
    if picker.outright:
        return chose(picker.outright, "keywords")
    key, how = _scored(utt, options, shared, niche, picker.reasons | picker.statements, start)
    if key is not None:
        return chose(key, how)
    if tally is not None:
        return chose(tally, "keywords")
    return chose(_staying(utt, fork), "not-yet") if _not_yet(low) else chose(None, "custom")


def _not_yet(low: list[str]) -> bool:
    return any(_has(low, p) for p in _words().rows["not_yet"])


def _staying(utt: Utterance, fork: Mapping[str, str]) -> str | None:
    """ "not yet", "hold off" with no option named: the one option that stays as things are
    ("Stay Bristol-only")."""
    staying = vocab().lists["staying"]
    keys = [k for k, text in fork.items() if any(t.low in staying for t in parse(text).tokens)]
    return keys[0] if len(keys) == 1 else None


def _scored(
    utt: Utterance,
    options: Sequence[Choice],
    shared: set[tuple[str, ...]],
    niche: str | None,
    aside: set[int],
    start: int,
) -> tuple[str | None, str]:
    """The option the answer's words of the options' ideas name most (see the module
    docstring), and how: keywords, negation, later or not-yet; None on a tie or no fit.
    `shared`: the question's own words; `aside`: the tokens of reasons after the answer;
    `start`: where the answer starts after its last change of mind."""
    w = _words()
    low = [t.low for t in utt.tokens[start:] if t.is_word]
    scores = {key: 0.0 for key, _, _, _ in options}
    named = {
        key: {p for p in _concept_words(kw, otext) if p not in shared or p in _phrases(kw)}
        for key, _, otext, kw in options
    }
    negated_any = put_off_any = False
    for clause, later in _now_and_later(utt, start, aside):
        for key in scores:
            said = [p for p in named[key] if _has(clause, p)]
            negated = bool(said) and _apart(clause, said, w.rows["negations"])
            if said and (negated or later or _apart(clause, said, w.rows["later"])):
                negated_any = negated_any or negated
                put_off_any = put_off_any or not negated
                scores[key] -= len(said)
                for other in scores:
                    if other != key:
                        scores[other] += len(said) * 0.9
            else:
                scores[key] += len(said)
    not_yet = _not_yet(low)
    if not_yet and all(v <= 0 for v in scores.values()):
        for key, _, otext, kw in options:
            if any(_has(_content(otext), p) for p in w.rows["now"]) or any(
                p in w.rows["now"] for p in _phrases(kw)
            ):
                scores[key] -= 1
                for other in scores:
                    if other != key:
                        scores[other] += 1
    if niche and all(v <= 0 for v in scores.values()):  # "just nurses on night shift"
        for key in scores:
            scores[key] += ("niche",) in named[key]
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] <= 0 or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None, "custom"
    how = (
        "not-yet"
        if not_yet
        else "negation"
        if negated_any
        else "later"
        if put_off_any
        else "keywords"
    )
    return ranked[0][0], how


def _apart(clause: list[str], said: list[tuple[str, ...]], rows: Rows) -> bool:
    """Whether the clause says one of `rows` (a negation, a word of later) that is not itself
    the option's words it names: "do not ship", "go full time later" count against their
    option; "hold off" and "wait" name polishing ("hold off on the launch" does not negate it)."""
    return any(
        not any(_inside(n, p) or _inside(p, n) for p in said) for n in rows if _has(clause, n)
    )


def _now_and_later(utt: Utterance, start: int, aside: set[int]) -> list[tuple[list[str], bool]]:
    """The answer's clauses as the one parse cut them (from `start`, in lowercase words; a reason
    after the answer, at a token of `aside`, left out), each marked later when a word of
    sequence opens it ("…, then go full time") and cut where one starts what comes later inside
    it: what follows such a word is not what the answer does now."""
    out: list[tuple[list[str], bool]] = []
    then = _words().rows["then"]
    end = start
    for cl in utt.clauses:
        if cl.j <= start:
            continue
        gap = [t.low for t in utt.tokens[end : max(cl.i, start)] if t.is_word]
        end = cl.j
        clause = [t.low for t in utt.tokens[max(cl.i, start) : cl.j] if t.is_word]
        if cl.i in aside:
            continue  # "dinners. lunchboxes are a different business": names, does not pick
        opened = any(_has(gap, p) or _at(clause, p, 0) for p in then)
        cut = next((k for k in range(1, len(clause)) for p in then if _at(clause, p, k)), None)
        if cut is None:
            out.append((clause, opened))
        else:
            out += [(clause[:cut], opened), (clause[cut:], True)]
    return out


def _inside(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return " ".join(a) in " ".join(b)


def _niche(tokens: list[Token]) -> str | None:
    """The customer niche the answer narrows to ("focus on night nurses"), which tips the tally
    toward an option about a niche; none when the words name an option's idea."""
    niche = _after(tokens, _words().rows["niche_cues"], 5)
    return None if niche and _is_option_word(niche) else niche


def _after(tokens: list[Token], cues: Rows, limit: int) -> str | None:
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
            if any(_at(low, c, j) for c in _words().rows["niche_ends"]):
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


class _Picker:
    """The tally an own answer's words give each option, and the option a letter or an ordinal
    picks outright (see the module docstring)."""

    def __init__(
        self, utt: Utterance, v: Vocab, fork: Mapping[str, str], asked: set[str], restarts: set[int]
    ):
        self.fork, self.keys, self.asked = fork, list(fork), asked
        self.low = [t.low for t in utt.tokens]
        opt = {k: parse(fork[k]).tokens for k in self.keys}
        # an option's own words of what it does now ("before", "with" name no option: "co-ops
        # before raising"; nor does what it puts off: "sell" is not "a showcase before selling")
        self.words = {
            k: {
                t.lemma
                for t in _till_later(opt[k])
                if t.is_word and len(t.low) > 2 and t.low not in STOPWORDS
            }
            for k in opt
        }
        self.nums = {k: {t.low for t in opt[k] if NUM.match(t.low)} for k in opt}
        self.scores = dict.fromkeys(self.keys, 0.0)
        self.v = v
        self.outright: str | None = None
        self.changed = False
        against = {cl.i for cl in utt.clauses if dismisses(cl.low, v)}
        self.against = {x for cl in utt.clauses if cl.i in against for x in range(cl.i, cl.j)}
        # a reason after the answer ("forums. the agents want a cut") names, it does not pick
        self.reasons = {
            x
            for cl in utt.clauses[1:]
            if cl.low
            and (cl.low[0] in REASON_STARTS or cl.low[0] in SUBJECTS)
            and cl.low[0]
            not in v.lists["first_person"]  # "I think Everton", "we go with B": the answer
            for x in range(cl.i, cl.j)
        }
        # a statement after the answer ("dinners. lunchboxes are a different business") is a
        # reason too: it names, it does not pick; on a tie it sets aside what only it names
        self.statements = {
            x for cl in utt.clauses[1:] if _statement(cl, v) for x in range(cl.i, cl.j)
        }
        self.aside = dict.fromkeys(self.keys, 0.0)
        self.tokens = utt.tokens
        self.restarts, self.begin = restarts, 0

    def pick(self) -> str | None:
        for idx in range(len(self.tokens) + 1):
            if idx in self.restarts:  # start the tally again
                self.changed, self.outright, self.begin = True, None, idx
                self.scores = dict.fromkeys(self.keys, 0.0)
                self.aside = dict.fromkeys(self.keys, 0.0)
            if idx == len(self.tokens):
                break
            if idx in self.statements and any(sc > 0 for sc in self.scores.values()):
                self._set_aside(idx)
            elif not self._letter(idx) and not self._ordinal(idx):
                self._words(idx, self._weight(idx))
        if self.outright:
            return self.outright
        best = max(self.scores.values())
        winners = [k for k, sc in self.scores.items() if sc == best]
        if best > 0 and len(winners) > 1:  # a tie: the option a reason alone names is set aside
            least = min(self.aside[k] for k in winners)
            winners = [k for k in winners if self.aside[k] == least]
        against = [k for k, sc in self.scores.items() if sc < 0]
        if best == 0 and len(self.keys) == 2 and len(against) == 1:
            return winners[0]  # "I'd rather not do Glastonbury": of two, the one not refused
        return winners[0] if best > 0 and len(winners) == 1 else None

    def _set_aside(self, idx: int) -> None:
        """A word of one option only, said in a reason after the answer."""
        t = self.tokens[idx]
        if not t.is_word or len(t.low) < 3 or NUM.match(t.low):
            return
        named = [k for k in self.keys if any(alike(t.lemma, ow) for ow in self.words[k])]
        if len(named) == 1:
            self.aside[named[0]] += 1

    def _weight(self, idx: int) -> float:
        """-1 for words under a negation or in a clause that dismisses or defers, else 1."""
        prev = self.low[max(0, idx - 3) : idx]
        neg = any(x in NEG or x in CANT or x == "rather" for x in prev) and not (
            "no" in prev and self.low[idx - 1 : idx] == [","]
        )
        if neg or idx in self.against or ">" in self.low[:idx]:
            return -1.0  # "10 good ones > 50 meh ones": what comes after ">" is set aside
        return 0.0 if idx in self.reasons else 1.0

    def _choose(self, key: str) -> None:
        if self.outright is None or self.changed:
            self.outright, self.changed = key, False

    def _letter(self, idx: int) -> bool:
        """ "A", "B, and …", "go b": a letter picks outright."""
        t, low = self.tokens[idx], self.low
        nxt = low[idx + 1] if idx + 1 < len(low) else ""
        letter = t.text in ("A", "B") or (
            t.low in ("a", "b") and (idx == 0 or low[idx - 1] in _words().letter_cues)
        )
        if not letter or (nxt and nxt[0].isalpha() and nxt not in self.v.lists["pick_after"]):
            return False
        self._pick_or_refuse(self.keys[0] if t.low == "a" else self.keys[1], idx)
        return True

    def _pick_or_refuse(self, key: str, idx: int) -> None:
        """A letter or an ordinal picks its option, or refuses it under a negation ("not A",
        "anything but the first one", "no to A": of two, the other is picked at the end)."""
        before = self.tokens[max(0, idx - 3) : idx]
        while before and any(not t.is_word for t in before):  # within its own clause
            before = before[1:]
        said = [t.low for t in before]
        if any(x in NEG or x in CANT for x in said) or said[-2:] == ["anything", "but"]:
            self.scores[key] -= 1
        else:
            self._choose(key)

    def _ordinal(self, idx: int) -> bool:
        """ "the first one", "the second", "the latter" near the start picks outright; "the
        other" picks the option the words have not named ("rota is boring, the other")."""
        t, low = self.tokens[idx], self.low
        nxt = low[idx + 1] if idx + 1 < len(low) else ""
        if t.low == "other" and low[idx - 1 : idx] == ["the"] and nxt in ("one", "option", ""):
            named = [k for k in self.keys if self.scores[k] != 0]
            if len(self.keys) == 2 and len(named) == 1:
                self.scores[named[0]] = 0.0
                self._choose(next(k for k in self.keys if k != named[0]))
                self.changed = True
                return True
        at = idx - self.begin  # near the start of the answer, after a change of mind
        place = _words().ordinals.get(t.low)
        if place is None or place >= len(self.keys) or at >= 4:
            return False
        if (
            t.low == "first"
            and low[idx - 1 : idx] != ["the"]
            and (at > 0 or nxt not in ("one", "option", ""))
        ):
            return False  # "beta first" orders the work; "first", "the first one" pick
        if self.outright is not None and not self.changed:
            return False
        self._pick_or_refuse(self.keys[place], idx)
        return True

    def _words(self, idx: int, w: float) -> None:
        """An option's own words or figures, or "the cheaper one", count for it."""
        t = self.tokens[idx]
        lists = self.v.lists
        nxt = self.low[idx + 1 : idx + 2]
        one = nxt in (["one"], ["ones"], ["option"])  # "the early one"; a bare "sooner" is a move
        cheap = t.low in lists["figure_low"] or (one and t.low in lists["time_low"])
        if cheap or t.low in lists["figure_high"] or (one and t.low in lists["time_high"]):
            k = _by_figure(self.fork, low=cheap)
            if k:
                self.scores[k] += 3 * (w or 1)  # "the cheaper one" picks, in a reason too
            return
        if not t.is_word or t.low in ("the", "and", "but", "one", "ones", "with", "for", "not"):
            return
        if t.low in self.asked:
            return  # a word the question says (the customer) names no option
        for k in self.keys:
            if NUM.match(t.low):
                self.scores[k] += 2 * w if t.low in self.nums[k] else 0
            elif len(t.low) >= 3 and any(alike(t.lemma, ow) for ow in self.words[k]):
                self.scores[k] += w
                if self.changed and w > 0:  # "Frozen Assets. Actually no, Clear Cut."
                    self._choose(k)


def _till_later(tokens: list[Token]) -> list[Token]:
    """An option's words up to the first word of what it puts off (vocab/options.json
    option_later): "one showcase piece before selling" does not do the selling now."""
    low = [t.low for t in tokens]
    later = _words().rows["option_later"]
    cut = next((k for k in range(len(low)) for p in later if _at(low, p, k)), len(low))
    return tokens[:cut]


def dismisses(low: list[str], v: Vocab) -> bool:
    """Whether a clause dismisses or defers what it names ("Google ads is a bloodbath", "shops
    can come later"): a word of vocab/words.json rejections or deferrals."""
    text = " ".join(low)
    return any(d in text for d in v.lists["deferrals"]) or any(
        re.search(r"\b" + re.escape(r) + r"\b", text) for r in v.lists["rejections"]
    )


def _statement(cl: Clause, v: Vocab) -> bool:
    """A clause that says something of its opening noun phrase ("lunchboxes are a different
    business", "Teams users don't buy things"): the phrase, then a verb."""
    phrase = noun_phrase(cl.tokens, v)
    words = [t for t in cl.tokens if t.is_word]
    at = words.index(phrase[-1]) + 1 if phrase else len(words)
    if at >= len(words):
        return False
    nxt, lists = words[at].low, v.lists
    return (
        nxt in VERBISH
        or nxt in lists["verbs"]
        or nxt in lists["finite"]  # "lunchboxes are …", "the agents want a cut"
        or nxt in lists["happens"]  # "tablets break too easy"
        or nxt.endswith("n't")
    )


def alike(word: str, other: str) -> bool:
    """The same word, or one the other begins like ("meds" / "medication", "FB" aside)."""
    return other == word or (len(word) >= 4 and other.startswith(word[:4]))


def _by_figure(fork: Mapping[str, str], *, low: bool) -> str | None:
    nums: dict[str, float] = {}
    for k, t in fork.items():
        m = re.search(r"(\d+(?:\.\d+)?)", t.replace(",", ""))
        if m:
            nums[k] = float(m.group(1))
    if len(nums) < 2:
        return None
    return (min if low else max)(nums, key=lambda k: nums[k])
