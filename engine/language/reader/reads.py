"""What a reading holds (`Read`, `Part`, `Reading`), the words the grammar knows by heart, the
context one message gives its clauses (`Ctx`), and the helpers that cut a value out of a clause.
Shared by engine.language.reader.clause (one clause), engine.language.reader.fork (an own answer) and
engine.language.reader (the message)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.language.reader.figures import currency_in, fmt
from engine.language.reader.utterance import Clause, Token, Utterance, lemma, parse, tokenize
from engine.language.reader.vocab import Cue, Vocab, vocab
from worldforge_savedb.records import Record

KEY_OPS = {"burn": "max", "cac": "max", "mrr": "min"}
CANT = vocab().lists["cant"]
SINGLE = ("price", "place", "name", "timeline")  # axes that hold one value (number: per key)
QUOTES = "'\"‘’“”"
ARTICLES = vocab().lists["articles"]
PRICE_CUES = vocab().lists["price_cues"]
PRICE_BIGRAMS = vocab().lists["price_bigrams"]
TARGET_CUES = vocab().lists["target_cues"]
NOT_PEOPLE_PLURALS = vocab().lists["not_people_plurals"]
NEG = vocab().lists["negations"]
CALENDAR = vocab().lists["calendar"]
REASON_STARTS = vocab().lists["reason_starts"]


@dataclass(eq=False, repr=False)
class Read(Record):
    """One direction as read (the engine's Direction is built from it)."""

    axis: str
    do: bool
    value: str
    start: int
    end: int
    amount: float | None = None
    op: str = "eq"
    period: str | None = None
    unit: str | None = None
    key: str | None = None
    currency: str | None = None
    weak: bool = False  # read from a bare cue ("no X", "just X"): a stronger reading replaces it
    refused: bool = False  # a figure the words dismiss ("$80k is silly"): never bound
    option: str = ""  # "A" / "B": read from the fork option the answer picked, not its words


@dataclass(eq=False, repr=False)
class Part(Record):
    """What one clause is: direction(s), commentary, or unread (with why, in the player's words)."""

    kind: str  # "direction", "commentary", "unread"
    start: int
    end: int
    words: str
    reason: str = ""  # for unread: words.json teach_backs names each ("vague", "no_value" …)
    teach_back: str = ""


@dataclass(eq=False, repr=False)
class Reading(Record):
    """The reading of one input: its directions, each clause's part, and whether to ask."""

    text: str
    directions: list[Read] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    asked: bool = False
    ask_why: str = ""
    option: str | None = None  # for an own answer: "A", "B", "both", or None
    clipped: bool = False
    notes: list[str] = field(default_factory=list)  # how it chose ("the later one wins")

    @property
    def unread(self) -> list[str]:
        return [p.words for p in self.parts if p.kind == "unread"]

    def summary(self) -> str:
        """The reading on one line a diff shows plainly: each direction (its figure, bound,
        period or key) with the words it was read from, then what is asked or unread."""
        shown = []
        for d in self.directions:
            figure = ""
            if d.amount is not None:
                extra = " ".join(x for x in (d.op, d.period, d.unit, d.key) if x)
                figure = f" [{d.amount:g} {extra}]"
            words = f"option {d.option}" if d.option else self.text[d.start : d.end]
            shown.append(f"{'+' if d.do else '-'}{d.axis}:{d.value}{figure} <{words}>")
        tail = [f"asked:{self.ask_why}"] if self.asked else []
        tail += [f"unread:{u}" for u in self.unread]
        return " | ".join(shown + tail) or "(nothing)"


CLAUSE_VERBS = vocab().lists["clause_verbs"]
# Words that begin a new instruction after "and" ("… and swap facebook for nextdoor"): the one
# set every parse of the player's words is made with.
NEW_CLAUSE_WORDS = CLAUSE_VERBS | vocab().lists["verbs"] | {c.words[0] for c in vocab().replacing}

VERBISH = vocab().lists["verbish"]


class Ctx:
    """What the whole message (and the fork) says that one clause's reading needs."""

    def __init__(
        self,
        utt: Utterance,
        v: Vocab,
        source: str,
        fork: Mapping[str, str] | None,
        *,
        read_option: Callable[[str, str | None], list[Read]],
    ):
        self.utt, self.v, self.source = utt, v, source
        # a fork option's own words, read as the player's are (given by the reader: the options
        # read the same way, without this module importing the reader)
        self.read_option = read_option
        self.fork = fork or {}
        all_low = [t.low for t in utt.tokens]
        self.low = all_low
        self.currency = currency_in(all_low, v)
        fork_low = [t.low for text in self.fork.values() for t in parse(text).tokens]
        self.fork_low = fork_low
        if self.currency is None:
            self.currency = currency_in(fork_low, v)
        self.churn = "churn" in all_low or "churn" in fork_low
        self.unit: str | None = None
        self.period: str | None = None
        self.last_key: str | None = None
        self.held = False  # money we have or spent was said ("we have £5k"): no price to ask
        self.has_price = (
            any(t in PRICE_CUES for t in all_low)
            or self.currency is not None
            or any(" ".join(all_low[x : x + 2]) in PRICE_BIGRAMS for x in range(len(all_low)))
        )
        self._kind: Read | bool | None = False

    def fork_kind(self) -> Read | None:
        """The first figure the fork's options give (its axis, key, period), for bare figures."""
        if self._kind is False:
            self._kind = next(
                (
                    d
                    for t in self.fork.values()
                    for d in self.read_option(t, None)
                    if d.amount is not None and d.axis in ("price", "number", "timeline")
                ),
                None,
            )
        return self._kind if isinstance(self._kind, Read) else None


def span_of(cl: Clause, i: int, j: int) -> tuple[int, int]:
    j = max(i + 1, min(j, len(cl.tokens)))
    return cl.tokens[i].start, cl.tokens[j - 1].end


_BEFORE_STUFF = vocab().lists["before_stuff"]


_NO_VALUE = vocab().lists["adverbs"] | vocab().lists["fillers"] | {"maybe", "perhaps", "sure"}


def tidy_value(utt: Utterance, toks: list[Token]) -> tuple[str, int, int] | None:
    """The value's words as written, articles and trailing filler off ("the delivery bit":
    a vague head, rows in words.json, names its modifier); its span."""
    while toks and (
        toks[0].low in ARTICLES
        or toks[0].text in QUOTES
        or toks[0].low in ("of", "both", "either")
        or (toks[0].low in vocab().lists["lead_off"] and len(toks) > 1)
        or (toks[0].low in vocab().lists["fillers"] and len(toks) > 1)  # "So: adults only"
        or (not toks[0].is_word and toks[0].text not in "$£€" and len(toks) > 1)
    ):  # "use both the union newsletter and …": the things, not "both"; "go via X": X
        toks = toks[1:]
    while toks and (
        toks[-1].text in QUOTES
        or not toks[-1].is_word
        or toks[-1].low in ARTICLES
        or (toks[-1].low in vocab().lists["fillers"] and len(toks) > 1)  # "nurses tbh"
        or (toks[-1].low in vocab().lists["also_words"] and len(toks) > 1)  # "flyers too"
    ):
        toks = toks[:-1]
    words = [t for t in toks if t.is_word]
    if (
        len(words) >= 2
        and toks[-1].low in vocab().lists["vague_heads"]
        and not toks[-1].is_cap  # "Library of Things": a name
        and toks[-2].is_word
        and toks[-2].low not in _BEFORE_STUFF  # "a garage full of stuff": the stuff is the thing
        and not any(t.text in QUOTES for t in toks)
    ):
        toks = toks[:-1]  # "forget the delivery bit": delivery
        while toks and not toks[-1].is_word:
            toks = toks[:-1]
    if not toks or all(t.low in _NO_VALUE for t in toks if t.is_word):
        return None  # "maybe? not sure": a hedge is no value
    if toks[-1].low == "ones":
        return None  # "only small ones", "aim at the younger ones": which, then?
    if (
        toks[0].low in vocab().lists["indefinites"]
        and not toks[0].is_cap
        and not any(t.low in vocab().lists["prepositions"] | {"who", "that"} for t in toks[1:])
    ):
        return None  # "call it something catchier", "whoever will have us": which, then?
    a, b = toks[0].start, toks[-1].end
    if a > 0 and utt.text[a - 1] in QUOTES and sum(t.text in QUOTES for t in toks) % 2:
        a -= 1  # "the 'lost sock' jokes": the quote it closes opens the value too
    return utt.span(a, b), a, b


def value_run(cl: Clause, k: int, v: Vocab, limit: int = 8, people: bool = False) -> list[Token]:
    """The tokens of a value starting at k: to a terminator, a quote's end, or `limit` words.
    `people`: an audience keeps its who-clause and a lowercase place it is in ("solo groomers
    who work from a van", "nurses on night shifts in care homes")."""
    toks = cl.tokens
    while k < len(toks) and toks[k].low in v.lists["adverbs"]:
        k += 1
    if k < len(toks) and toks[k].text in QUOTES:  # a quoted value runs to its closing quote
        end = next((x for x in range(k + 1, len(toks)) if toks[x].text in QUOTES), len(toks))
        return toks[k + 1 : end]
    out: list[Token] = []
    limit = 12 if people else limit
    relative = False
    for idx in range(k, len(toks)):
        t = toks[idx]
        if relative:  # inside "who …": to the clause's end or a strong break
            if not t.is_word or t.low in _STRONG_BREAKS or len(out) >= limit:
                break
            out.append(t)
            continue
        said = [x.low for x in toks[idx : idx + 4]]
        if out and any(" ".join(said[:n]) in v.lists["terminators"] for n in (4, 3, 2)):
            break  # "Chromebooks from now on", "nurses in the headline": what follows is no part
        step = _people_step(toks, idx) if people and out else None
        if step == "stop":
            break  # "exporters in the West Midlands": the place is its own direction
        if step == "keep":
            out.append(t)
            relative = t.low in ("who", "that")
            continue
        if _ends_value(toks, idx, out, v):
            break
        out.append(t)
        if len(out) >= limit:
            break
    return out


def _people_step(toks: list[Token], idx: int) -> str | None:
    """For a run of people: "keep" a who-clause or a lowercase place ("in care homes"), "stop"
    before a named place ("in the West Midlands"), None to read on as usual."""
    t = toks[idx]
    if t.low in ("who", "that"):
        return "keep"
    if t.low not in ("in", "on", "at", "with", "from") or idx + 1 >= len(toks):
        return None
    nxt = toks[idx + 1]
    named = nxt.is_cap or (nxt.low == "the" and idx + 2 < len(toks) and toks[idx + 2].is_cap)
    return "stop" if named else "keep"


def _ends_value(toks: list[Token], idx: int, out: list[Token], v: Vocab) -> bool:
    """Whether the value ends before token idx: a terminator after a word, punctuation, a
    preposition after two words, or "and we" / "and the … is" (a new clause)."""
    t = toks[idx]
    last = max((n for n, x in enumerate(out) if x.text in QUOTES), default=None)
    at = idx - len(out) + (last or 0)
    if last is not None and t.text not in QUOTES and (at == 0 or toks[at - 1].end < toks[at].start):
        return False  # inside a quote: "lose the 'best in class' line" runs to its close
    low = [x.low for x in toks]
    said = [" ".join(low[idx : idx + n]) for n in (4, 3, 2, 1) if idx + n <= len(low)]
    if any(x.low not in ARTICLES for x in out) and any(w in v.lists["terminators"] for w in said):
        first_of = low[idx] == "first" and idx + 1 < len(toks) and toks[idx + 1].is_word
        return not (first_of and low[idx + 1] not in v.lists["terminators"])  # "free first class"
    if not t.is_word and t.text not in ("-", "&", "'", "’", "+", "/", "%") and out:
        return True
    if t.low in ("in", "on", "at", "to", "from", "with") and len(out) >= 2:
        to_figure = idx + 1 < len(low) and low[idx + 1].isdigit()  # "with 10 to 30 staff"
        return not (t.low == "to" and out[-1].low.isdigit() and to_figure)
    if t.low not in ("and", "or") or idx + 1 >= len(low):
        return False
    if low[idx + 1] in ("the", "our"):  # "and the price is wrong" opens a clause, "and the
        return any(x in v.lists["finite"] for x in low[idx + 2 :])  # hashtags" adds a thing
    return low[idx + 1] in ("we", "it", "they", "i", "you", "then", "that", "this")


_HEAD_ENDS = vocab().lists["head_ends"]


def head_words(toks: list[Token]) -> list[Token]:
    """The words of a noun phrase's head: before its first preposition or relative ("events at
    schools" → "events", "parents of teens" → "parents") or a name that opens a clause ("the
    flower sellers Petal Express ignores" → "flower sellers"), its last word and the one before."""
    out: list[Token] = []
    before_a_name = vocab().lists["before_a_name"]
    for t in toks:
        if out and t.low in _HEAD_ENDS:
            break
        if out and t.is_cap and not out[-1].is_cap and out[-1].low not in before_a_name:
            break  # a name after a noun opens a clause: "the sellers Petal Express ignores"
        if t.is_word:
            out.append(t)
    return out[-2:]


# Words that open a clause pointing at its noun phrase ("it's the practice manager").
POINTING = vocab().lists["pointing"]
NP_ENDS = vocab().lists["np_ends"]


def noun_phrase(toks: list[Token], v: Vocab, limit: int = 6) -> list[Token]:
    """The noun phrase a clause opens with ("the office manager buys this" → "office manager",
    "Manchester has more firms" → "Manchester"): articles off, to the first verb; none when it
    runs past `limit` words, holds a figure or opens with a pronoun or a reason."""
    words = [t for t in toks if t.is_word]
    while words and words[0].low in ARTICLES:
        words = words[1:]
    out: list[Token] = []
    for t in words:
        if out and t.low.endswith("ing") and len(t.low) > 5:
            out.append(t)  # "grandparents buying a present": the participle describes them
            continue
        if (
            t.low in NP_ENDS
            or (out and (t.low in v.lists["finite"] or t.low in v.lists["happens"]))
            or t.low.startswith(("who'", "that'"))  # "who'll", "that's"
            or t.low in VERBISH
            or t.low in v.lists["verbs"]
            or t.low in CLAUSE_VERBS
            or t.low.endswith("n't")
        ):
            break
        out.append(t)
    first = "" if not out or out[0].text.isupper() else out[0].low  # "IT" is no "it"
    if (
        not out
        or len(out) > limit
        or first in v.lists["pronouns"]
        or first in REASON_STARTS
        or first in SUBJECTS
        or first.split("'")[0] in SUBJECTS  # "I'll", "we'd"
        or first in ("both", "either", "neither", "none", "all", "any")
        or any(t.low in NOT_VALUES or t.low in v.lists["adverbs"] for t in out)
        or any(t.low[:1].isdigit() for t in out)
    ):
        return []
    return out


def opening_phrase(utt: Utterance, cl: Clause, v: Vocab) -> tuple[str, int, int] | None:
    """The noun phrase a clause opens with after "it's" / "who's" ("it's the practice manager"
    → "practice manager"), as written, with its span; None when it opens with none."""
    toks = [t for t in cl.tokens if t.is_word]
    while toks and toks[0].low in POINTING and not toks[0].text.isupper():
        toks = toks[1:]
    phrase = noun_phrase(toks, v)
    return tidy_value(utt, phrase) if phrase else None


def is_people(toks: list[Token], v: Vocab) -> bool:
    """A person word ("nurses"), or a plural that names doers ("groomers", "physiotherapists",
    "coordinators"), unless it is a known thing ("sensors"); read on the phrase's head ("swap
    events at schools" names events, not schools)."""
    people, not_people = v.lists["people"], v.lists["not_people"]
    toks = head_words(toks)
    return any(
        t.low in people
        or t.lemma in people
        or (
            t.low.endswith(
                tuple(s + "s" if not s.endswith("s") else s for s in ("er", "ist", "ian", "or"))
            )
            and t.low not in not_people
            and len(t.low) > 5
        )
        for t in toks
        if t.is_word
    )


def is_channel(value: str, v: Vocab) -> bool:
    """A known channel, said as the list has it or in the singular ("farm fairs": "fair"),
    after any article ("the Telegram groups of the community")."""
    low = value.lower()
    while low.split(" ", 1)[0] in ARTICLES and " " in low:
        low = low.split(" ", 1)[1]
    said = " ".join(lemma(w) for w in low.split())
    return any(
        x == c or x.startswith(c + " ") or x.endswith(" " + c)
        for x in {low, said}
        for c in v.lists["channels"]
    )


def claimish(toks: list[Token], v: Vocab) -> bool:
    cw = v.lists["claim_words"]
    return len(toks) >= 3 or any(t.low in cw or t.lemma in cw for t in toks)


def capitalised_words(toks: list[Token]) -> bool:
    return bool(toks) and all(t.is_cap or t.low in ("of", "the", "upon", "on") for t in toks)


_STRONG_BREAKS = vocab().lists["strong_breaks"]
LISTED = ("audience", "channel", "exclusion")  # axes whose value can list several things
IMPERATIVE_CUES = vocab().lists["imperative_cues"]
SUBJECTS = vocab().lists["subjects"]
NOT_VALUES = vocab().lists["not_values"]


def _role_axis(v: Vocab, word: str) -> str | None:
    """The axis a role noun names ("customers": audience, "channel": channel), if it is one."""
    for axis in ("audience", "channel"):
        if word in v.lists["roles_" + axis]:
            return axis
    return None


def _copula(v: Vocab, low: list[str], n: int) -> tuple[int, bool] | None:
    """The copula at n, as (its length, whether negated): "is", "are not", "isn't", a modal and
    "be" ("should be", "must not be", "needs to be"), or a colon ("customers: nurses")."""
    lists = v.lists
    if n >= len(low):
        return None
    if low[n] in lists["copulas_not"]:
        return 1, True
    if low[n] in lists["copulas"] or low[n] == ":":
        neg = low[n + 1 : n + 2] == ["not"]
        return 1 + neg, neg
    modals = (tuple(m.split()) for m in lists["modal_be"])
    modal = next((m for m in modals if tuple(low[n : n + len(m)]) == m), None)
    if modal is None:
        return None
    m = n + len(modal)
    neg = low[n].endswith("n't") or low[m : m + 1] == ["not"]
    m += low[m : m + 1] == ["not"]
    return (m + 1 - n, neg) if low[m : m + 1] == ["be"] else None


def _role_at(v: Vocab, low: list[str], n: int) -> tuple[str, int] | None:
    """The role noun at n, as (its axis, its length): "customers", "target market"."""
    axis = _role_axis(v, low[n]) if n < len(low) else None
    if axis is None:
        return None
    return axis, 1 + (n + 1 < len(low) and _role_axis(v, low[n + 1]) is not None)


def role_after(v: Vocab, low: list[str], k: int) -> Cue | None:
    """A role said of the noun phrase before it, at k: "landlords are our customers", "LinkedIn
    is our channel", "tenants aren't the customer" (left out), "nurses should be the audience":
    a copula (a modal and "be" too), a determiner, a role noun (words.json copulas,
    copulas_not, modal_be, role_determiners, roles_*)."""
    cop = _copula(v, low, k)
    if cop is None or low[k] == ":":
        return None
    n, neg = k + cop[0], cop[1]
    if not (n + 1 < len(low) and low[n] in v.lists["role_determiners"]):
        return None
    role = _role_at(v, low, n + 1)
    if role is None:
        return None
    return Cue(
        tuple(low[k : n + 1 + role[1]]), {"axis": "exclusion" if neg else role[0], "do": not neg}
    )


def role_before(v: Vocab, low: list[str], k: int) -> Cue | None:
    """A role that names the noun phrase after it, at k: "the customers are care home managers",
    "our buyer is the 60+ birdwatcher", "the customer isn't the patient" (left out), "the buyer
    should be the practice manager", "the target market is gyms", "customers: dog owners" (a
    role with no determiner opens the clause)."""
    lists = v.lists
    at = k + 1 if k < len(low) and low[k] in lists["role_determiners"] else k
    if at == k and k != 0:
        return None
    role = _role_at(v, low, at)
    if role is None:
        return None
    cop = _copula(v, low, at + role[1])
    if cop is None:
        return None
    n = at + role[1] + cop[0]
    if n >= len(low):
        return None
    return Cue(tuple(low[k:n]), {"axis": "exclusion" if cop[1] else role[0], "do": not cop[1]})


def quoted_spans(cl: Clause, i: int, j: int) -> list[Token]:
    """The words between the first pair of quotes in tokens i..j (none: [])."""
    toks = cl.tokens[i:j]
    marks = [x for x, t in enumerate(toks) if t.text in QUOTES]
    if len(marks) < 2:
        return []
    return [t for t in toks[marks[0] + 1 : marks[1]] if t.is_word]


def list_items(utt: Utterance, run: list[Token], axis: str, v: Vocab) -> list[tuple[str, int, int]]:
    """A value that lists several people, channels or things to leave out ("library
    noticeboards and Nextdoor") as its items; one item otherwise ("wine and spirits
    wholesalers" stays one: a one-word lowercase left side is a modifier)."""
    whole = tidy_value(utt, run)
    if whole is None:
        return []
    if axis not in ("audience", "channel", "exclusion"):
        return [whole]
    cut = next((x for x, t in enumerate(run) if t.low in ("and", "or", "&")), None)
    if cut is None or cut == 0 or cut == len(run) - 1:
        return [whole]
    left, right = run[:cut], run[cut + 1 :]
    lw = [t for t in left if t.is_word]
    said = [" ".join(t.low for t in side if t.is_word) for side in (left, right)]
    if any(t.low == "with" for t in lw[1:]):
        return [whole]  # "big firms with showers and bike racks": the list is the preposition's
    if not (
        len(lw) >= 2
        or left[0].is_cap
        or right[0].is_cap
        or is_people(lw, v)
        or all(is_channel(x, v) for x in said)  # "reddit and tiktok": two channels
    ):
        return [whole]
    bare = [t for t in lw if t.low not in ARTICLES]
    rw = [t for t in right if t.is_word]
    if (
        len(bare) == 1
        and bare[0].lemma == bare[0].low
        and len(rw) >= 2
        and not bare[0].is_cap
        and rw[0].low not in ARTICLES  # "the emoji and the hashtags": two things
    ):
        return [whole]  # "the wine and spirits wholesalers": a singular word shares the head
    out = [x for x in (tidy_value(utt, left), tidy_value(utt, right)) if x]
    return out or [whole]


def cap_run(run: list[Token], v: Vocab) -> str | None:
    """The place in a run of words: its last capitalised run, with a "the" or a compass word
    before it kept ("the Northern Quarter", "north Leeds")."""
    toks = [t for t in run if t.is_word]
    runs: list[list[Token]] = [[]]
    for t in toks:
        if t.is_cap or (runs[-1] and t.low in ("of", "upon")):
            runs[-1].append(t)
        elif runs[-1]:
            runs.append([])
    best = [r for r in runs if r] or [lower_place(toks, v)]  # "start in leeds"
    if not best[-1]:
        return None
    place = best[-1]
    at = toks.index(place[0])
    if at > 0 and (toks[at - 1].low == "the" or toks[at - 1].low in v.lists["place_leads"]):
        place = [toks[at - 1], *place]
    return " ".join(t.text for t in place)


def name_value(cl: Clause, j: int, run: list[Token]) -> str | None:
    if j < len(cl.tokens) and cl.tokens[j].text in QUOTES:
        return " ".join(t.text for t in run) or None
    toks = [t for t in run if t.is_word]
    while toks and toks[0].low == "the" and len(toks) > 1 and toks[1].is_cap:
        break
    out: list[Token] = []
    for t in toks:
        if t.is_cap or (out and t.low in ("of", "the", "and", "&")) or (not out and t.low == "the"):
            out.append(t)
        elif not out:
            out.append(t)
            break
        else:
            break
    while out and out[-1].low in ("of", "the", "and"):
        out.pop()
    return " ".join(t.text for t in out) or None


def is_place(toks: list[Token], v: Vocab) -> bool:
    """A known place among the words, a hyphenated word's parts too ("Bristol-only")."""
    low = [part for t in toks for part in t.low.split("-")]
    return any(v.match(v.places, low, k) for k in range(len(low)))


def lower_place(toks: list[Token], v: Vocab) -> list[Token]:
    """A known place typed in lowercase ("start in leeds", "glasgow west end only"): its words,
    the longest row at the first place it starts; none for a place that is also a common word
    in lowercase ("us", "bath", "derby": words.json places_cased_only)."""
    low = [t.low for t in toks]
    for k in range(len(low)):
        c = v.match(v.places, low, k)
        if c is not None and " ".join(c.words) not in v.lists["places_cased_only"]:
            return toks[k : k + len(c.words)]
    return []


def place_said(toks: list[Token], v: Vocab) -> bool:
    """A known place said as one: capitalised, or in lowercase a whole known place by itself
    ("only leeds", "not london")."""
    if capitalised_words(toks):
        return is_place(toks, v)
    words = [t for t in toks if t.low != "the"]
    return bool(words) and len(lower_place(words, v)) == len(words)


_EXPANDED = ("place", "audience", "channel", "scope", "exclusion")


def expanded(r: Read) -> Read:
    """A value with each short form players write spelled out ("NYC" → "New York City", "web
    dev" → "web development"; vocab/words.json expansions), and a known place typed in lowercase
    as it is spelled ("leeds" → "Leeds"); a name is kept as spelled."""
    v = vocab()
    if r.axis not in _EXPANDED:
        return r
    toks = tokenize(r.value)
    low = [t.low for t in toks]
    out, k, at = "", 0, 0
    while k < len(toks):
        c = v.match(v.expansions, low, k)
        if c is None:
            k += 1
            continue
        end = k + len(c.words)
        out += r.value[at : toks[k].start] + str(c.row["value"])
        at, k = toks[end - 1].end, end
    r.value = out + r.value[at:] if out else r.value
    whole = v.match(v.places, low, 0) if r.value.islower() else None
    said = " ".join(whole.words) if whole is not None else ""
    if (
        whole is not None
        and len(whole.words) == len(low)
        and said not in v.lists["places_cased_only"]
    ):
        r.value = str(whole.row["cue"])  # "start in leeds": the place as it is spelled, Leeds
    return r


def settle(found: list[Read]) -> list[Read]:
    """The message's directions: on an axis that holds one value the last positive one wins
    (a change of mind, a contrast); a refused value goes when another is named; a price that
    names no period takes the period of a price said beside it ("$35 a box. Actually no, $32");
    weak readings give way to a stronger one; duplicates go."""
    _carry_period(found)
    found = [r for r in found if not (r.refused and r.axis == "number")]
    out = [r for r in found if not _gives_way(r, found)]
    keep: list[Read] = []
    for idx, r in enumerate(out):
        if _replaced_later(r, out[idx + 1 :]) or any(
            (x.axis, x.value.lower(), x.do) == (r.axis, r.value.lower(), r.do) for x in keep
        ):
            continue
        if r.axis == "price" and not r.do and any(x.axis == "price" and x.do for x in out):
            continue
        keep.append(r)
    return keep


def _carry_period(found: list[Read]) -> None:
    """A price said with no period or unit takes those of the last price said with them."""
    explicit = [r for r in found if r.axis == "price" and not r.weak and r.amount]
    if not explicit:
        return
    src = explicit[-1]
    for r in found:
        if r.axis == "price" and r.weak:
            r.period, r.unit = src.period, src.unit
            r.currency = (r.currency or src.currency) if r.amount else None
            if r.amount:
                r.value = f"{r.currency or ''}{fmt(r.amount)} a {r.unit or r.period}"


def _gives_way(r: Read, found: list[Read]) -> bool:
    """A refused one-valued reading beside a named one, a rejected or dated week beside a
    launch week, a weak figure beside a firm one, "not Soho" beside "start in Shoreditch", "the
    wrong people" beside the people named."""
    others = [x for x in found if x is not r]
    if r.axis in SINGLE and not r.do and any(x.axis == r.axis and x.do for x in found):
        return True
    if r.axis == "audience" and not r.value:  # "wrong people, aim at nurses": the nurses
        return any(x.axis == "audience" and x.do and x.value for x in others)
    if r.axis == "timeline" and r.weak:
        return not r.do or any(x.axis == "timeline" and not x.weak for x in found)
    if r.axis == "number" and r.weak:
        return any(x.axis == "number" and x.key == r.key and not x.weak for x in found)
    if r.axis == "price" and r.do and not r.weak:  # "$29.99 vs $34.99? i lean 29.99"
        return any(x.axis == "price" and x.weak and x.do and x.amount == r.amount for x in others)
    if (
        r.axis == "exclusion"
        and r.weak
        and " " not in r.value
        and r.value.islower()
        and any(x.axis == "tone" and _beside(x, r) for x in others)
        and not is_people(parse(r.value).tokens, vocab())
    ):
        return True  # "formal but not stuffy": a shade of the tone, nothing to leave out
    return (  # "forget Clifton, go Southville", "not the whole UK": the place named replaces it
        r.axis == "exclusion"
        and any(x.axis == "place" and x.do for x in others)
        and ((r.weak and r.value[:1].isupper()) or is_place(parse(r.value).tokens, vocab()))
    )


def _beside(x: Read, r: Read) -> bool:
    """Two readings said next to each other ("formal but not stuffy"), not in sentences apart
    ("…, not the riders. and cut the jargon": the riders are no shade of a plain tone)."""
    return max(x.start, r.start) - min(x.end, r.end) <= 15


def _replaced_later(r: Read, later: list[Read]) -> bool:
    """A one-valued reading a later one on the same slot replaces (the last said wins)."""
    if r.axis in ("place", "name", "timeline") and r.do:
        return any(x.axis == r.axis and x.do for x in later)
    if r.axis == "number":
        return any(x.axis == "number" and x.key == r.key for x in later)
    if r.axis == "price":  # a bound beside a figure ("$199, never below $150") replaces none
        return any(
            x.axis == "price"
            and x.do == r.do
            and x.period == r.period
            and x.unit == r.unit
            and x.op == r.op
            for x in later
        )
    return False
