"""The direction reader: one parse of a player's words (engine.language.utterance) read into typed
directions, clause by clause, with the vocabulary as data (engine.language.vocab).

Each clause is a direction (or several), commentary (chatter, a reason, a question), or unread
with a typed reason and a teach-back in the player's own words. Each direction keeps the span of
words it was read from. The grammar, written once:

- money as people write it ("£20", "12 bucks", "a fiver", "1.2k", "$19.99/mo", "£8 a user a
  month", "10p a word", "$129 once"), a bare figure taking the currency named elsewhere in the
  message or in the fork's options; the currency is kept, never converted;
- a bound before or after a figure ("under", "tops", "at least", "never more");
- a number key (churn, burn, CAC, MRR, breakeven, hours) in the clause turns a figure into that
  target; a week is the launch unless it dates a target;
- cues that introduce a value per axis ("call it", "start in", "through", "aim at", "drop");
  a value runs to a terminator; a negated segment is an exclusion, a negated place or name stays
  on its axis with do=false, a quoted claim is a claim;
- contrast and changes of mind: on an axis that holds one value (price, place, name, week, a
  number) the last value said wins and a rejected one ("not week 20", "Week 30??") binds nothing;
- an own answer at a fork picks an option (its letter, "the second one", words of it, "the
  cheaper one", "both", "neither"), binds the option's words read the same way, and the player's
  own words override it slot by slot.

Never the opposite: a value under a negation is never bound as a thing to do.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache

from engine.language.directions import GENERIC_CLAIM
from engine.language.utterance import Clause, Token, Utterance, parse
from engine.language.vocab import Cue, Vocab, vocab

_KEY_OPS = {"burn": "max", "cac": "max", "mrr": "min"}
_CANT = frozenset(("can't", "cannot", "won't", "shouldn't", "cant"))
SINGLE = ("price", "place", "name", "timeline")  # axes that hold one value (number: per key)
_QUOTES = "'\"‘’“”"
_ARTICLES = ("the", "a", "an", "our", "any", "every", "all", "some", "this", "that", "my")
_PRICE_CUES = frozenset(
    "charge charging charged price priced pricing try pay paying fee lean prefer".split()
)
_PRICE_BIGRAMS = frozenset(("make it", "go with", "sell at", "sell for", "set it", "go for"))
_TARGET_CUES = frozenset(
    "need needs aim aiming hit reach goal target want wants get plan thrilled presell pre-sell "
    "sell sold placed by".split()
)
_NOT_PEOPLE_PLURALS = frozenset(
    "hours hrs weeks wks months days years minutes mins % x times bucks quid dollars pounds "
    "euros grand k percent seats".split()
)
_NEG = frozenset(("not", "no", "never", "don't", "dont", "without", "nothing", "nobody"))
_CALENDAR = frozenset(
    "christmas xmas easter halloween spring summer autumn winter january february march april may "
    "june july august september october november december sat saturday sunday monday new year "
    "term".split()
)
_REASON_STARTS = frozenset(
    "because cause cos since as they they're it it's its that that's this we we're our i i'm "
    "i've he she there there's nobody everyone people who why what how the these those".split()
)


@dataclass
class Read:
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


@dataclass
class Part:
    """What one clause is: direction(s), commentary, or unread (with why, in the player's words)."""

    kind: str  # "direction", "commentary", "unread"
    start: int
    end: int
    words: str
    reason: str = ""  # for unread: "no_axis", "no_currency", "no_week", "vague"
    teach_back: str = ""


@dataclass
class Reading:
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


# ---------------------------------------------------------------- figures


@dataclass
class _Fig:
    """A figure in a clause: money (with its currency) or a bare number, and where it sits."""

    amount: float
    i: int  # token index in the clause where the figure's words start
    j: int  # one past its last token
    currency: str | None = None
    money: bool = False
    percent: bool = False


_NUM = re.compile(r"^(\d+(?:,\d{3})*(?:\.\d+)?)([a-z]*)$")


def _number(tok: str, v: Vocab) -> tuple[float, str | None, bool] | None:
    """A token's figure: (amount, currency a suffix names, is money); "1.5k" → 1500."""
    m = _NUM.match(tok)
    if not m:
        return None
    n = float(m.group(1).replace(",", ""))
    suffix = m.group(2)
    if not suffix:
        return n, None, False
    for c in v.money:
        if c.row.get("suffix") and c.row["cue"] == suffix:
            return (
                n * float(c.row.get("times", 1)),
                c.row.get("currency"),
                bool(c.row.get("currency")),
            )
    if suffix in ("st", "nd", "rd", "th", "s"):
        return None
    return None


def _word_number(low: list[str], k: int, v: Vocab) -> float | None:
    c = v.match(v.numbers, low, k)
    return float(c.row["n"]) if c else None


def _figures(low: list[str], v: Vocab, keyed: bool = False) -> list[_Fig]:
    out: list[_Fig] = []
    k, n = 0, len(low)
    while k < n:
        t = low[k]
        if t in ("$", "£", "€") and k + 1 < n and (num := _number(low[k + 1], v)):
            amount, _cur, _m = num
            j = k + 2
            if j < n and (c := v.match(v.money, low, j)) and c.row.get("times"):
                amount *= float(c.row["times"])  # "$2 grand"? rare, but kept exact
                j += len(c.words)
            out.append(_Fig(amount, k, j, t, money=True))
            k = j
            continue
        num = _number(t, v)
        wordnum = None if num else _word_number(low, k, v)
        if wordnum is not None and not keyed and not (
            k + 1 < n
            and (
                low[k + 1] in ("weeks", "week", "hours", "%", "percent", "grand", "quid", "bucks")
                or low[k + 1] in ("dollars", "pounds", "euros", "k")
            )
        ):
            wordnum = None  # "the cheap one", "one room": no figure
        if num or (wordnum is not None and t != "a"):
            amount, cur, is_money = num if num else (float(wordnum or 0), None, False)
            j = k + 1
            if j < n and low[j] == "%":
                out.append(_Fig(amount, k, j + 1, percent=True))
                k = j + 1
                continue
            c = v.match(v.money, low, j) if j < n else None
            if c and low[j + len(c.words) : j + len(c.words) + 1] == ["of"]:
                c = None  # "5 pounds of beans": a weight
            if c and not c.row.get("suffix"):
                amount *= float(c.row.get("times", 1))
                out.append(_Fig(amount, k, j + len(c.words), c.row["currency"], money=True))
                k = j + len(c.words)
                continue
            out.append(_Fig(amount, k, j, cur, money=is_money))
            k = j
            continue
        if t == "a" and k + 1 < n:
            c = v.match(v.money_nouns, low, k + 1)
            if c:
                out.append(_Fig(float(c.row["amount"]), k, k + 2, c.row["currency"], money=True))
                k += 2
                continue
            if low[k + 1] == "grand":
                out.append(_Fig(1000.0, k, k + 2, "£", money=True))
                k += 2
                continue
        if (c := v.match(v.money_nouns, low, k)) is not None:
            out.append(_Fig(float(c.row["amount"]), k, k + 1, c.row["currency"], money=True))
        k += 1
    return out


# ---------------------------------------------------------------- the reader


class _Ctx:
    """What the whole message (and the fork) says that one clause's reading needs."""

    def __init__(self, utt: Utterance, v: Vocab, source: str, fork: Mapping[str, str] | None):
        self.utt, self.v, self.source = utt, v, source
        self.fork = fork or {}
        all_low = [t.low for t in utt.tokens]
        self.low = all_low
        self.currency = _currency_in(all_low, v)
        fork_low = [t.low for text in self.fork.values() for t in parse(text).tokens]
        self.fork_low = fork_low
        if self.currency is None:
            self.currency = _currency_in(fork_low, v)
        self.churn = "churn" in all_low or "churn" in fork_low
        self.unit: str | None = None
        self.period: str | None = None
        self.last_key: str | None = None
        self.has_price = (
            any(t in _PRICE_CUES for t in all_low)
            or self.currency is not None
            or any(" ".join(all_low[x : x + 2]) in _PRICE_BIGRAMS for x in range(len(all_low)))
        )
        self._kind: Read | None | bool = False

    def fork_kind(self) -> Read | None:
        """The first figure the fork's options give (its axis, key, period), for bare figures."""
        if self._kind is False:
            self._kind = next(
                (d for t in self.fork.values() for d in option_directions(t)
                 if d.amount is not None and d.axis in ("price", "number", "timeline")),
                None,
            )
        return self._kind if isinstance(self._kind, Read) else None


def _currency_in(low: list[str], v: Vocab) -> str | None:
    for k, t in enumerate(low):
        if t in ("$", "£", "€"):
            return t
        c = v.match(v.money, low, k)
        if c and c.row.get("currency") and not c.row.get("suffix"):
            return str(c.row["currency"])
        if v.match(v.money_nouns, low, k):
            return "£"
        m = _NUM.match(t)
        if m and m.group(2) == "p":
            return "£"
    return None


def _span(cl: Clause, i: int, j: int) -> tuple[int, int]:
    j = max(i + 1, min(j, len(cl.tokens)))
    return cl.tokens[i].start, cl.tokens[j - 1].end


def _tidy_value(utt: Utterance, toks: list[Token]) -> tuple[str, int, int] | None:
    """The value's words as written, articles and trailing filler off; its span."""
    while toks and (toks[0].low in _ARTICLES or toks[0].text in _QUOTES or toks[0].low in ("of",)):
        toks = toks[1:]
    while toks and (toks[-1].text in _QUOTES or not toks[-1].is_word or toks[-1].low in _ARTICLES):
        toks = toks[:-1]
    if not toks:
        return None
    a, b = toks[0].start, toks[-1].end
    return utt.span(a, b), a, b


def _value_run(
    cl: Clause, k: int, v: Vocab, limit: int = 8, people: bool = False
) -> list[Token]:
    """The tokens of a value starting at k: to a terminator, a quote's end, or `limit` words.
    `people`: an audience keeps its who-clause and a lowercase place it is in ("solo groomers
    who work from a van", "nurses on night shifts in care homes")."""
    toks = cl.tokens
    while k < len(toks) and toks[k].low in v.lists["adverbs"]:
        k += 1
    if k < len(toks) and toks[k].text in _QUOTES:  # a quoted value runs to its closing quote
        out = []
        for t in toks[k + 1 :]:
            if t.text in _QUOTES:
                return out
            out.append(t)
        return out
    out = []
    term = v.lists["terminators"]
    low = [t.low for t in toks]
    if people:
        limit = 12
    relative = False
    for idx in range(k, len(toks)):
        t = toks[idx]
        nxt = toks[idx + 1] if idx + 1 < len(toks) else None
        if relative:  # inside "who …": to the clause's end or a strong break
            if not t.is_word or t.low in _STRONG_BREAKS or len(out) >= limit:
                break
            out.append(t)
            continue
        if people and out and t.low in ("in", "on", "at", "with", "from") and nxt is not None and (
            nxt.is_cap or (nxt.low == "the" and idx + 2 < len(toks) and toks[idx + 2].is_cap)
        ):
            break  # "exporters in the West Midlands": the place is its own direction
        if people and out and (
            t.low in ("who", "that")
            or (
                t.low in ("in", "on", "at", "with", "from")
                and nxt is not None
                and not nxt.is_cap
                and not (nxt.low == "the" and idx + 2 < len(toks) and toks[idx + 2].is_cap)
            )
        ):
            out.append(t)
            relative = t.low in ("who", "that")
            continue
        if any(x.low not in _ARTICLES for x in out) and any(
            " ".join(low[idx : idx + n]) in term for n in (4, 3, 2, 1) if idx + n <= len(low)
        ):
            break
        if not t.is_word and t.text not in ("-", "&", "'", "’", "+", "/") and out:
            break
        if t.low in ("in", "on", "at", "to", "from", "with") and len(out) >= 2:
            break
        if t.low in ("and", "or") and idx + 1 < len(low) and low[idx + 1] in (
            "the", "we", "it", "our", "they", "i", "you", "then", "that", "this"
        ):
            break
        out.append(t)
        if len(out) >= limit:
            break
    return out


def _is_people(toks: list[Token], v: Vocab) -> bool:
    """A person word ("nurses"), or a plural that names doers ("groomers", "physiotherapists",
    "coordinators"), unless it is a known thing ("sensors")."""
    people, not_people = v.lists["people"], v.lists["not_people"]
    return any(
        t.low in people
        or t.lemma in people
        or (
            t.low.endswith(tuple(s + "s" if not s.endswith("s") else s for s in ("er", "ist", "ian", "or")))
            and t.low not in not_people
            and len(t.low) > 5
        )
        for t in toks
        if t.is_word
    )


def _is_channel(value: str, v: Vocab) -> bool:
    low = value.lower()
    return any(
        low == c or low.startswith(c + " ") or low.endswith(" " + c) for c in v.lists["channels"]
    )


def _claimish(toks: list[Token], v: Vocab) -> bool:
    cw = v.lists["claim_words"]
    return len(toks) >= 3 or any(t.low in cw or t.lemma in cw for t in toks)


def _capitalised(toks: list[Token]) -> bool:
    return bool(toks) and all(t.is_cap or t.low in ("of", "the", "upon", "on") for t in toks)


class _ClauseReader:
    def __init__(self, cx: _Ctx, cl: Clause):
        self.cx, self.cl, self.v = cx, cl, cx.v
        self.low = cl.low
        self.out: list[Read] = []
        self.used: set[int] = set()

    def add(self, axis: str, do: bool, i: int, j: int, value: str, **kw: object) -> Read:
        a, b = _span(self.cl, i, j)
        r = Read(axis=axis, do=do, value=value, start=a, end=b, **kw)  # type: ignore[arg-type]
        self.out.append(r)
        self.used.update(range(i, j))
        return r

    # figures: prices, number targets, weeks
    def figures(self) -> None:
        v, low, cx = self.v, self.low, self.cx
        lem = [t.lemma for t in self.cl.tokens]
        figs = _figures(low, v, keyed=any(v.match(v.number_keys, lem, k) for k in range(len(lem))))
        key_cue = next(
            (c for k in range(len(lem)) if (c := v.match(v.number_keys, lem, k)) is not None),
            None,
        )
        key = str(key_cue.row["key"]) if key_cue else None
        if key:
            cx.last_key = key
        rejected = self._rejected()
        for f in figs:
            if any(x in self.used for x in range(f.i, f.j)):
                continue
            before = low[f.i - 1] if f.i > 0 else ""
            after = low[f.j] if f.j < len(low) else ""
            if before in ("week", "wk", "weeks", "month", "day", "v", "year", "+", "/", "top"):
                continue
            if before == ":" and f.i >= 2 and _NUM.match(low[f.i - 2]):
                continue  # "3:15"
            if after in (":", "x", "-", "+", "am", "pm", "out", "minutes", "mins"):
                continue
            if (
                not f.money
                and 1900 <= f.amount <= 2100
                and f.amount % 1 == 0
                and "," not in low[f.i]
            ):
                continue  # a year ("a 2009 forum")
            if after in ("week", "weeks", "wk", "wks") and not f.money:
                continue  # "in 6 weeks", "six weeks": a week, read below
            op = self._op(f)
            fkey = self._near_key(f) if key_cue else None
            rejected = self._rejected_fig(f)
            if fkey is None and not f.money and cx.last_key and (op or len(low) <= 3):
                fkey = cx.last_key  # "this assumes I work 70 hours a week. cap it at 40"
            if fkey is None and f.money and cx.last_key in ("burn", "mrr", "cac") and (
                f.amount >= 1000 or op
            ) and not self._unit_after(f):
                fkey = cx.last_key  # "burn's too high. £12k a month max"
            if f.percent:
                if fkey == "churn" or (fkey is None and cx.churn):
                    r = self.add("number", True, f.i, f.j, f"{_fmt(f.amount)}%",
                                 amount=f.amount, op=op or "max", key="churn")
                    r.weak = r.refused = rejected
                continue
            if fkey in ("burn", "cac", "mrr") and (f.money or f.amount >= 1000 or fkey == "cac"):
                cur = f.currency or cx.currency
                r = self.add("number", True, f.i, f.j, f"{cur or ''}{_fmt(f.amount)}",
                             amount=f.amount, op=op or _KEY_OPS[fkey], key=fkey, currency=cur)
                r.weak = r.refused = rejected
                continue
            if after in ("hours", "hrs", "hour", "hr") or (fkey == "hours" and not f.money):
                n = 1 if after in ("hours", "hrs", "hour", "hr") else 0
                r = self.add("number", True, f.i, f.j + n, f"{_fmt(f.amount)} hours a week",
                             amount=f.amount, op=op or "max", key="hours")
                r.weak = r.refused = rejected
                continue
            if fkey == "churn" and not f.money:
                r = self.add("number", True, f.i, f.j, f"{_fmt(f.amount)}%", amount=f.amount,
                             op=op or "max", key="churn")
                r.weak = r.refused = rejected
                continue
            if f.money or self._price_context(f):
                self.price(f, op, rejected)
                continue
            noun_at = next(
                (x for x in range(f.j, min(len(low), f.j + 3))
                 if self.cl.tokens[x].is_word
                 and (low[x].endswith("s") or low[x] in ("people", "staff"))
                 and low[x] not in _NOT_PEOPLE_PLURALS and not low[x].endswith("'s")),
                None,
            )
            if noun_at is not None and (
                any(t in _TARGET_CUES for t in low) or cx.source in ("own", "option")
                or before in ("just", "only") or rejected
            ):
                tgt = any(t in ("need", "aim", "hit", "reach", "goal", "want", "wants", "get",
                                "by", "placed", "funder") for t in low)
                r = self.add("number", True, f.i, noun_at + 1,
                             f"{_fmt(f.amount)} {self.cl.tokens[noun_at].text}",
                             amount=f.amount, op=op or ("min" if tgt else "eq"), key="customers")
                r.weak = r.refused = rejected
                cx.last_key = "customers"
                continue
            kind = cx.fork_kind()
            if kind is not None and cx.source == "own" and not f.money:
                self._as_kind(kind, f, op, rejected)
                continue
            if cx.last_key == "customers" and len(low) <= 6:
                self.add("number", True, f.i, f.j, _fmt(f.amount), amount=f.amount,
                         op=op or "eq", key="customers")

    def _as_kind(self, kind: Read, f: _Fig, op: str | None, rejected: bool) -> None:
        """A bare figure in an own answer, in the terms the fork's options give their figure."""
        n = _fmt(f.amount)
        if kind.axis == "timeline":
            r = self.add("timeline", True, f.i, f.j, f"week {n}", amount=f.amount)
        elif kind.axis == "price":
            cur = kind.currency
            r = self.add("price", True, f.i, f.j, f"{cur or ''}{n} a {kind.unit or kind.period}",
                         amount=f.amount, op=op or "eq", period=kind.period, unit=kind.unit,
                         currency=cur)
        else:
            value = {"churn": f"{n}%", "hours": f"{n} hours a week"}.get(kind.key or "", n)
            if kind.key in ("burn", "mrr", "cac"):
                value = f"{kind.currency or ''}{n}"
            r = self.add("number", True, f.i, f.j, value, amount=f.amount,
                         op=op or kind.op, key=kind.key, currency=kind.currency)
            if kind.key == "customers" and any(t in ("need", "want", "hit") for t in self.low):
                r.op = op or "min"
        if rejected or self.low[max(0, f.i - 1) : f.i] == ["not"]:
            r.weak, r.do = True, False

    def free(self) -> None:
        """"free", "always free", "$0": a price of nothing."""
        words = [t.low for t in self.cl.tokens if t.is_word]
        if "free" in words and set(words) <= {"free", "always", "it's", "its", "it", "is",
                                              "keep", "make", "totally", "completely", "stays"}:
            k = self.low.index("free")
            self.add("price", True, k, k + 1, "free", amount=0.0, period="unit")

    def _near_key(self, f: _Fig) -> str | None:
        """The number key whose word sits nearest before the figure ("keep churn under 3% and
        the burn under $30,000": the $30,000 is the burn), or just after it ("£90 CAC"); None
        when no key word is near ("a £90 CAC on a £40 sensor": the £40 is a price)."""
        v = self.v
        lem = [t.lemma for t in self.cl.tokens]
        spots = [(k, c) for k in range(len(lem)) if (c := v.match(v.number_keys, lem, k))]
        before = [(f.i - k, c) for k, c in spots if f.i - 6 <= k < f.i]
        if before:
            return str(min(before, key=lambda x: x[0])[1].row["key"])
        after = [c for k, c in spots if f.j <= k <= f.j + 2]
        return str(after[0].row["key"]) if after else None

    def _rejected_fig(self, f: _Fig) -> bool:
        """The figure is dismissed: "not $50k", "$80k … is silly", "who is paying $15"."""
        low = self.low
        if low[max(0, f.i - 1) : f.i] == ["not"]:
            return True
        text_after = " ".join(low[f.j :])
        text_before = " ".join(low[: f.i])
        if any(
            re.search(r"\b" + re.escape(w) + r"\b", text_after) for w in self.v.lists["rejections"]
        ) and not any(t in ("make", "try", "cut", "get") for t in low[: f.i]):
            return True
        if any(t in ("who", "who's", "nobody") for t in low[: f.i]) and "more" not in low[: f.i]:
            return True
        if re.search(r"\b(?:in what world|why)\b", text_before + " " + text_after):
            return True
        return f.j < len(low) and low[f.j] in ("?", "??") or any(
            self.cl.tokens[x].text in ("?",) for x in range(f.j, min(len(low), f.j + 1))
        )

    def _rejected(self) -> bool:
        """The clause dismisses the figure it names ("is a fantasy", "is robbery", "too")."""
        text = " ".join(self.low)
        return any(
            re.search(r"\b" + re.escape(w) + r"\b", text) for w in self.v.lists["rejections"]
        ) or any(t in ("??", "?!") for t in self.low) or (
            self.cl.question and any(t in ("who", "why", "nobody") for t in self.low)
        )

    def _unit_after(self, f: _Fig) -> bool:
        low = self.low
        return f.j + 1 < len(low) and low[f.j] in ("a", "per") and low[f.j + 1] not in (
            "month", "year", "mo", "week"
        )

    def _op(self, f: _Fig) -> str | None:
        v, low = self.v, self.low
        for k in range(max(0, f.i - 4), f.i):
            c = v.match(v.ops, low, k)
            if c and c.row["where"] == "before" and k + len(c.words) >= f.i - 1:
                if c.row["op"] == "max" and c.words[-1] in ("below", "under") and any(
                    t in _NEG or t in _CANT or t == "ever" for t in low[max(0, k - 3) : k]
                ):
                    return "min"  # "don't ever go below $150"
                return str(c.row["op"])
        for k in range(f.j, min(len(low), f.j + 6)):
            c = v.match(v.ops, low, k)
            if c and c.row["where"] == "after":
                return str(c.row["op"])
        return None

    def _price_context(self, f: _Fig) -> bool:
        low, cx, v = self.low, self.cx, self.v
        after = low[f.j] if f.j < len(low) else ""
        if after in _NOT_PEOPLE_PLURALS or after in ("week", "weeks", "people", "minutes", "of"):
            return False
        if v.match(v.period, low, f.j) and after != "a" or after in ("per", "/"):
            return True
        if after == "a" and f.j + 1 < len(low) and low[f.j + 1].isalpha() and low[
            f.j + 1
        ] not in ("lot", "bit", "day", "week", "month", "year", "cohort"):
            return True  # "20 a plant"
        window = low[max(0, f.i - 3) : f.i]
        if any(t in _PRICE_CUES for t in window) or any(
            " ".join(window[x : x + 2]) in _PRICE_BIGRAMS for x in range(len(window) - 1)
        ):
            return True
        if cx.source in ("own", "option") and any(t in ("$", "£", "€") for t in cx.fork_low):
            return len(low) <= 4 or low[f.i - 1 : f.i] in (["but"], ["neither"])
        return f.i == 0 and len(low) <= 4 and cx.has_price

    def price(self, f: _Fig, op: str | None, rejected: bool) -> None:
        v, low, cx = self.v, self.low, self.cx
        cur = f.currency or cx.currency
        j = f.j
        period, unit = None, None
        for k in range(max(0, f.i - 3), f.i):
            c = v.match(v.period_before, low, k)
            if c:
                period = str(c.row["period"])
        while j < len(low):
            c = v.match(v.period, low, j)
            if c:
                if c.row["period"] in ("month", "year", "week"):
                    period = c.row["period"]
                elif period is None or period == "unit":
                    period, unit = "unit", c.row.get("unit") or unit
                j += len(c.words)
                continue
            toks = self.cl.tokens
            if low[j] == "for" and j + 2 < len(low) and low[j + 1] in ("a", "an", "one"):
                j += 1  # "35 for a plant"
                continue
            if low[j] in ("a", "per", "/", "an") and j + 1 < len(low) and toks[j + 1].is_word:
                noun_toks = [toks[j + 1]]
                j2 = j + 2
                if j2 + 1 < len(low) and low[j2] == "per" and low[j2 + 1] in ("weekend", "night"):
                    noun_toks += [toks[j2], toks[j2 + 1]]
                    j2 += 2
                word = noun_toks[0].low
                if word in ("head",):
                    period, unit = "unit", "ticket"
                elif word not in _ARTICLES and not word.isdigit() and word not in (
                    "lot", "bit", "day", "week"
                ):
                    if period in (None, "unit") and unit is None:
                        unit = " ".join(t.lemma if len(noun_toks) == 1 else t.low
                                        for t in noun_toks)
                        period = period or "unit"
                j = j2
                continue
            if (
                cx.source == "option"
                and toks[j].is_word
                and low[j] not in v.lists["terminators"]
                and low[j] not in ("with", "and", "for", "no", "flat", "plus")
                and not low[j].endswith(("ed", "ly", "y"))
            ):
                unit, period = toks[j].lemma, "unit"
                j += 1
            break
        if period is None and unit is not None:
            period = "unit"
        if unit is None and f.i >= 2 and low[f.i - 1] == "at" and self.cl.tokens[
            f.i - 2
        ].low.endswith("s"):
            unit, period = self.cl.tokens[f.i - 2].lemma, "unit"  # "Tickets at £25 each"
        defaulted = period is None
        if period is None:
            period, unit = "unit", None
        if period == "unit" and unit is None:
            unit = cx.unit
        before = low[: f.i]
        near = low[max(0, f.i - 4) : f.i]
        neg = any(t in _NEG or t in _CANT for t in near) and op is None and "yet" not in near
        if low[max(0, f.i - 2) : f.i] in (["more", "than"],) and any(
            t in ("nobody", "nobody's", "never", "no", "not", "won't", "one's") for t in before
        ):
            op, neg = "max", False
        if low[max(0, f.i - 1) : f.i] == ["not"] or low[max(0, f.i - 2) : f.i] == [
            "anything", "but"
        ]:
            neg = True
        if rejected and op is None:
            neg = True
        amount = f.amount
        value = "free" if amount == 0 else f"{cur or ''}{_fmt(amount)} a {unit or period}"
        r = self.add("price", not neg, f.i, j, value, amount=amount, op=op or "eq",
                     period=period, unit=unit if period == "unit" else None,
                     currency=None if amount == 0 else cur)
        r.weak = defaulted

    def weeks(self) -> None:
        low, cl = self.low, self.cl
        for k, t in enumerate(low):
            if k in self.used:
                continue
            n: float | None = None
            i, j = k, k + 1
            if t in ("week", "wk") and k + 1 < len(low):
                num = _number(low[k + 1], self.v)
                n = num[0] if num else _word_number(low, k + 1, self.v)
                j = k + 2
            elif t in ("weeks", "wks") and k > 0:
                num = _number(low[k - 1], self.v)
                n = num[0] if num else _word_number(low, k - 1, self.v)
                i = k - 1
                if low[max(0, k - 2) : k - 1] not in (["in"], []) and not (
                    k + 1 < len(low) and low[k + 1] in ("from", "out")
                ):
                    n = None
            elif t == "month" and low[k - 1 : k] == ["a"] and low[k - 2 : k - 1] == ["in"]:
                n, i = 4.0, k - 1
            if n is None:
                continue
            reject = (
                "too" in low
                or low[max(0, i - 1) : i] == ["not"]
                or ("why" in low)
                or (cl.question and len(low) <= 3 and j >= len(low) and not self.cx.source == "own")
                or ("before" in low[:i] and "can't" in low or "cant" in low[:i])
            )
            key = None
            if any(x in low for x in ("break", "breakeven", "profitable")):
                key = "breakeven"
            elif any(f.key in ("customers", "mrr") for f in self.out) or "by" in low[i - 1 : i]:
                if any(f.axis == "number" for f in self.out):
                    continue  # "40 by week 12" dates a target
            if key:
                self.add(
                    "number", True, i, j, f"week {_fmt(n)}", amount=n, op="max", key="breakeven"
                )
                continue
            r = self.add("timeline", True, i, j, f"week {_fmt(n)}", amount=n)
            if low[max(0, i - 2) : i] and (
                low[i - 1] in ("by", "before", "within") or low[max(0, i - 3) : i] == [
                    "no", "later", "than"
                ]
            ):
                r.op = "max"
            if low[max(0, i - 1) : i] in (["is"], ["'s"], ["that's"], ["it's"]) and not any(
                x in low for x in ("launch", "ship", "live", "start", "open")
            ):
                r.weak = True  # "the Frankfurt trade fair is week 10": a date, not the launch
            if reject:
                r.weak = True
                r.do = False  # a rejected week: dropped when another week is named
        for k in range(len(low)):
            c = self.v.match(self.v.weeks_relative, low, k)
            if c and k not in self.used:
                self.add("timeline", True, k, k + len(c.words), str(c.row["value"]))
        if "month" in low and any(x in low for x in ("break", "breakeven", "profitable")):
            k = low.index("month")
            if k + 1 < len(low) and (num := _number(low[k + 1], self.v)):
                self.add(
                    "number",
                    True,
                    k,
                    k + 2,
                    f"month {_fmt(num[0])}",
                    amount=num[0],
                    op="max",
                    key="breakeven",
                )

    def tone(self) -> None:
        v, low = self.v, self.low
        k = 0
        inq = False
        while k < len(low):
            if self.cl.tokens[k].text in _QUOTES:
                inq = not inq
            c = None if inq or k in self.used else v.match(v.tone, low, k)
            if c is None:
                k += 1
                continue
            do = bool(c.row["do"])
            if low[k - 1 : k] in (["not"], ["less"], ["no"]) and do:
                do = False
            if low[k - 1 : k] == ["too"] and do and c.row["value"] in ("formal", "bold"):
                k += len(c.words)  # "too formal": a complaint (below) names the fix
                continue
            self.add("tone", do, k, k + len(c.words), str(c.row["value"]))
            k += len(c.words)

    def frames(self) -> None:
        v, low, cl, cx = self.v, self.low, self.cl, self.cx
        k = 0
        while k < len(low):
            nxt = None
            if k not in self.used:
                for c in v.candidates(v.frames, low, k):
                    nxt = self._frame(c, k)
                    if nxt is not None:
                        break
            k = nxt if nxt is not None else k + 1

    def _frame(self, c: Cue, k: int) -> int | None:
        """Read the value one cue at k introduces; the index after it, or None (no value)."""
        v, low, cl, cx = self.v, self.low, self.cl, self.cx
        j = k + len(c.words)
        run = _value_run(cl, j, v, people=c.row["axis"] in ("audience", "scope"))
        if c.row.get("until"):  # "keep restaurants out of it": the value sits before the word
            end = next((x for x in range(j, len(low)) if low[x] == c.row["until"]), None)
            if end is None or end == j:
                return None
            run = cl.tokens[j:end]
        used_at = next((x for x, t in enumerate(run) if cl.tokens.index(t) in self.used), None)
        if used_at is not None:
            run = run[:used_at]  # "mention a weekly summary email and break even by month 9"
            while run and run[-1].low in ("and", "or", "&"):
                run = run[:-1]
        vt = [t for t in run if t.is_word]
        if not vt:
            return None
        nxt_low = vt[1].low if len(vt) > 1 else ""
        if vt[0].low in v.lists["pronouns"] or (
            (
                vt[0].low in v.lists["verbs"]
                or (vt[0].low in _CLAUSE_VERBS and nxt_low in ("in", "it", "at", "the", "to", "with"))
            )
            and not c.row.get("until")
        ):
            return None
        if c.row["do"] is False and low[k - 1 : k] in (["who"], ["that"], ["which"]):
            return None  # "retirees who never learned": a description, not a direction
        if vt[0].low in ("in", "on", "at", "for", "to", "of", "with", "by", "from", "now"):
            return None
        tidy = _tidy_value(cx.utt, run)
        if tidy is None:
            return None
        value, a, b = tidy
        axis, do = str(c.row["axis"]), bool(c.row["do"])
        quoted = any(t.text in _QUOTES for t in cl.tokens[j : j + 1])
        lead = low[k - 1] if k > 0 else ""
        if k > 0 and c.words[0] in _IMPERATIVE_CUES and lead not in v.lists["imperative_lead"]:
            return None  # "shops lose money", "we drop in": a statement, not an order
        if c.words in (("not",), ("no",), ("never",)) and any(
            t in _SUBJECTS or t in v.lists["verbs"] for t in low[:k]
        ):
            return None  # "we're not a certified agency", "they have no budget": a reason
        if c.words == ("for",) and k > 0 and lead not in ("it's", "only", "just", "is", "mainly",
                                                          "mostly", "its", "all"):
            return None
        at = cl.tokens.index(vt[0])
        if vt[0].low in v.lists["axis_words"] or (
            vt[0].low != "a" and _word_number(low, at, v) is not None
        ):
            return None
        head = vt[1] if vt[0].low == "the" and len(vt) > 1 else vt[0]
        if c.row.get("caps") and (not head.is_cap or quoted or head.low in _CALENDAR):
            return None
        if c.row.get("people") and not _is_people(vt, v):
            if c.words == ("for",) and low[j + len(run) : j + len(run) + 1] == ["only"]:
                axis = "scope" if not _capitalised(vt) else "place"
            else:
                return None
        if axis == "exclusion":
            if v.match(v.tone, [t.low for t in vt], 0) and len(vt) <= 2:
                return None
            if _number(vt[0].low, v) or vt[0].low in ("$", "£", "€"):
                return None
            if vt[0].low in _NOT_VALUES:
                return None
            quote = _quoted(cl, j, j + len(run) + 2)
            nouns = v.lists["word_nouns"]
            after = low[j + len(run) : j + len(run) + 1]
            if quote and _claimish(quote, v) and c.words != ("avoid", "the", "word"):
                axis = "claim"
                qt = _tidy_value(cx.utt, quote)
                if qt and after and after[0] in nouns:
                    value, a, b = qt  # "drop the 'guaranteed' line": the claim is the quote
            elif (
                not quoted
                and len(vt) == 1
                and (vt[0].low in v.lists["claim_nouns"] or vt[0].lemma in v.lists["claim_nouns"])
            ):
                axis = "claim"  # "No guarantees"
            elif (
                c.words in (("not",), ("no",), ("never",))
                and _capitalised(vt)
                and not quote
                and any(x in low for x in ("in", "start", "launch", "launching", "city"))
            ):
                axis = "place"
        if axis == "claim" and not quoted and len(vt) == 1 and not _claimish(vt, v):
            axis = "exclusion"
        if axis == "scope":
            if _is_people(vt, v):
                axis = "audience"
            elif _is_channel(value, v):
                axis = "channel"
            elif _capitalised(vt) and len(vt) <= 3 and c.words in (("only",), ("just",)):
                axis = "place"
        if axis == "scope" and c.words == ("name",) and _capitalised(vt):
            axis = "place" if _is_place(vt, v) else "name"
        if axis == "name":
            value = _name_value(cl, j, run) or value
        if axis == "place" and not quoted:
            place = _cap_run(run, v)
            if place is None or any(t.low in _CALENDAR for t in vt):
                return None  # "launch in March", "start in week 2": no place
            last = place.split()[-1]
            tail = [t for t in vt[[t.text for t in vt].index(last) + 1 :]]
            if any(t.low not in v.lists["terminators"] for t in tail):
                return None  # "start in Slack communities" names a channel, not a place
            value = place
        if axis == "scope" and run and run[0].low in ("the", "our", "a", "an", "my") and len(vt) > 1:
            value, a = cx.utt.span(run[0].start, b), run[0].start  # "the app": the CEO's article
        weak = c.words in (("no",), ("not",), ("never",), ("just",), ("only",), ("for",))
        items = _list_items(cx.utt, run, axis, v) if axis in _LISTED else [(value, a, b)]
        for part, pa, pb in items:
            self.out.append(Read(axis=axis, do=do, value=part, start=pa, end=pb, weak=weak))
        else_end = j + len(run)
        if c.row.get("until"):
            else_end += 1
        self.used.update(range(k, else_end))
        return else_end

    def postfix(self) -> None:
        """ "Soho first", "bars only", "X are our channel", "X. That's the product"."""
        low, cl, v = self.low, self.cl, self.v
        if self.out:
            return
        for k, t in enumerate(low):
            if t in ("only", "first") and k > 0 and not self.used & set(range(k)):
                run = [x for x in cl.tokens[:k] if x.is_word or x.text in ("-",)]
                tidy = _tidy_value(self.cx.utt, run)
                nxt = low[k + 1] if k + 1 < len(low) else ""
                if (
                    not tidy
                    or len(run) > 6
                    or nxt in v.lists["verbs"]
                    or any(x.low in _SUBJECTS or x.low in _REASON_STARTS or x.low in v.lists["verbs"]
                           for x in run)
                ):
                    return
                if run[0].is_cap and _is_place(run[:1], v):
                    value, a, b = run[0].text, run[0].start, run[0].end
                    self.out.append(Read("place", True, value, a, b, weak=True))
                    self.used.update(range(k + 1))
                    return
                value, a, b = tidy
                if _is_people(run, v):
                    axis = "audience"
                elif _is_channel(value, v):
                    axis = "channel"
                elif _capitalised(run) and len(run) <= 3:
                    axis = "place"
                else:
                    axis = "scope"
                self.out.append(Read(axis=axis, do=True, value=value, start=a, end=b, weak=True))
                self.used.update(range(k + 1))
                return
        if len(low) >= 4 and low[-3:] in (["are", "our", "channel"], ["is", "our", "channel"]):
            tidy = _tidy_value(self.cx.utt, cl.tokens[:-3])
            if tidy:
                self.out.append(Read("channel", True, tidy[0], tidy[1], tidy[2]))
        for tail, axis in (
            ("as the name", "name"),
            ("is the route in", "channel"),
            ("are the route in", "channel"),
        ):
            words = tail.split()
            n = len(words)
            for k in range(1, len(low) - n + 1):
                if low[k : k + n] == words:
                    tidy = _tidy_value(self.cx.utt, cl.tokens[:k])
                    if tidy:
                        self.out.append(Read(axis, True, tidy[0], tidy[1], tidy[2]))
                    return

    def relative(self) -> None:
        """"it costs too much", "churn target too high", "launch sooner", "half that": a move
        with no figure of its own, on the price, a number or the week the clause names (the
        session resolves it against the work; the reading asks when no ratio is given)."""
        v, low = self.v, self.low
        if any(r.amount is not None or r.axis in ("price", "timeline") for r in self.out):
            return
        lem = [t.lemma for t in self.cl.tokens]
        move = next(
            ((k, c) for k in range(len(low)) if (c := v.match(v.relative, low, k)) is not None),
            None,
        )
        key = next(
            (str(kc.row["key"]) for x in range(len(lem))
             if (kc := v.match(v.number_keys, lem, x)) is not None),
            None,
        )
        if key is None and any(t in ("break", "breakeven", "break-even") for t in low):
            key = "breakeven"
        priced = self._names_price()
        if move is None:
            if priced and any(self._has(w) for w in v.lists["price_missing"]):
                self.add("price", True, 0, len(low), "state the price")  # "Where is the price?"
            return
        k, c = move
        way, times = str(c.row["way"]), c.row.get("times")
        i, j = k, k + len(c.words)
        if key and key != "hours" or (key == "hours" and way in ("down", "up")):
            if way in ("earlier", "later"):
                way = "down" if way == "earlier" else "up"
            if c.row.get("flip_costs") and key in ("churn", "burn", "cac"):
                way = "up"  # an optimistic churn is one set too low
            r = self.add("number", True, i, j, f"{way} {key}", key=key, op="eq")
            r.unit = str(times) if times else None
            return
        if c.row.get("price") or priced or (times and (self.cx.has_price or "it" in low)):
            if way not in ("down", "up"):
                return
            value = {0.5: "half the price", 2.0: "double the price"}.get(
                float(times) if times else 0.0, f"{'lower' if way == 'down' else 'higher'} price"
            )
            r = self.add("price", True, i, j, value, op="eq")
            r.unit = str(times) if times else None  # the ratio, for the session to resolve
            return
        if way in ("earlier", "later") and any(self._has(w) for w in v.lists["time_words"]):
            self.add("timeline", True, i, j, f"{way} launch")

    def _has(self, phrase: str) -> bool:
        words = phrase.split()
        n = len(words)
        return any(self.low[k : k + n] == words for k in range(len(self.low) - n + 1))

    def _names_price(self) -> bool:
        """The clause is about the customer's price ("too expensive"), not the company's costs
        ("cut costs", "reduce our costs")."""
        v, low = self.v, self.low
        for k, t in enumerate(low):
            if t in ("cost", "costs") and k and low[k - 1] in v.lists["our_costs"]:
                return False
        return any(self._has(w) for w in v.lists["price_words"])

    def complaints(self) -> None:
        """"Too broad", "Full of buzzwords", "Wrong audience": a complaint that names its axis
        and the usual fix (one core job, a plain tone, the venture's own customer)."""
        v, low = self.v, self.low
        for k in range(len(low)):
            c = v.match(v.complaints, low, k)
            if c is None:
                continue
            axis = str(c.row["axis"])
            if any(r.axis == axis for r in self.out):
                continue
            r = self.add(axis, axis != "claim", k, k + len(c.words), str(c.row["value"]))
            r.weak = axis == "audience"  # "the customer": whoever the venture serves
        for k in range(len(low)):
            c = v.match(v.include, low, k)
            if c is None or self.out or (c.words == ("add",) and k > 0):
                continue
            run = _value_run(self.cl, k + len(c.words), v)
            tidy = _tidy_value(self.cx.utt, run) if run else None
            if tidy:
                axis = "channel" if _is_channel(tidy[0], v) else "scope"
                self.out.append(Read(axis, True, tidy[0], tidy[1], tidy[2]))
            return

    def overclaims(self) -> None:
        """"That line is misleading", "no proof": the work claims what it cannot prove."""
        v, low = self.v, self.low
        for k in range(len(low)):
            c = v.match(v.overclaim, low, k)
            if c is not None and not any(r.axis == "claim" for r in self.out):
                self.add("claim", False, k, k + len(c.words), GENERIC_CLAIM)
                return

    def read(self) -> list[Read]:
        self.free()
        self.figures()
        self.weeks()
        self.tone()
        self.frames()
        self.postfix()
        self.relative()
        self.overclaims()
        self.complaints()
        return self.out


_STRONG_BREAKS = frozenset(
    "because but so and honestly tbh lol i obviously especially please pls since".split()
)
_LISTED = ("audience", "channel", "exclusion")  # axes whose value can list several things
_IMPERATIVE_CUES = frozenset(
    "drop lose remove cut ditch skip forget leave get stay avoid keep focus centre center "
    "start call rename name sell distribute partner put target aim pitch speak talk write "
    "go launch tour expand".split()
)
_SUBJECTS = frozenset(
    "we we're we'll i i'm it it's its they they're you he she there there's this that "
    "that's".split()
)
_NOT_VALUES = frozenset(
    "one one's later more need way idea question wait longer rush pressure thanks problem "
    "worries i we it's its doubt chance matter offence offense rubbish yet per".split()
)


def _quoted(cl: Clause, i: int, j: int) -> list[Token]:
    """The words between the first pair of quotes in tokens i..j (none: [])."""
    toks = cl.tokens[i:j]
    marks = [x for x, t in enumerate(toks) if t.text in _QUOTES]
    if len(marks) < 2:
        return []
    return [t for t in toks[marks[0] + 1 : marks[1]] if t.is_word]


def _list_items(
    utt: Utterance, run: list[Token], axis: str, v: Vocab
) -> list[tuple[str, int, int]]:
    """A value that lists several people, channels or things to leave out ("library
    noticeboards and Nextdoor") as its items; one item otherwise ("wine and spirits
    wholesalers" stays one: a one-word lowercase left side is a modifier)."""
    whole = _tidy_value(utt, run)
    if whole is None:
        return []
    if axis not in ("audience", "channel", "exclusion"):
        return [whole]
    cut = next((x for x, t in enumerate(run) if t.low in ("and", "or", "&")), None)
    if cut is None or cut == 0 or cut == len(run) - 1:
        return [whole]
    left, right = run[:cut], run[cut + 1 :]
    lw = [t for t in left if t.is_word]
    if not (len(lw) >= 2 or left[0].is_cap or right[0].is_cap or _is_people(lw, v)):
        return [whole]
    out = [x for x in (_tidy_value(utt, left), _tidy_value(utt, right)) if x]
    return out or [whole]


def _cap_run(run: list[Token], v: Vocab) -> str | None:
    """The place in a run of words: its last capitalised run, with a "the" or a compass word
    before it kept ("the Northern Quarter", "north Leeds")."""
    toks = [t for t in run if t.is_word]
    runs: list[list[Token]] = [[]]
    for t in toks:
        if t.is_cap or (runs[-1] and t.low in ("of", "upon")):
            runs[-1].append(t)
        elif runs[-1]:
            runs.append([])
    best = [r for r in runs if r]
    if not best:
        return None
    place = best[-1]
    at = toks.index(place[0])
    if at > 0 and (toks[at - 1].low == "the" or toks[at - 1].low in v.lists["place_leads"]):
        place = [toks[at - 1], *place]
    return " ".join(t.text for t in place)


def _name_value(cl: Clause, j: int, run: list[Token]) -> str | None:
    if j < len(cl.tokens) and cl.tokens[j].text in _QUOTES:
        return " ".join(t.text for t in run) or None
    toks = [t for t in run if t.is_word]
    while toks and toks[0].low in ("the",) and len(toks) > 1 and toks[1].is_cap:
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


def _fmt(n: float) -> str:
    if n >= 1000 and n % 1000 == 0:
        return f"{n:,.0f}"
    return f"{n:,.2f}".rstrip("0").rstrip(".") if n % 1 else f"{n:,.0f}"


# ---------------------------------------------------------------- bare clauses and own answers

_VERBISH = frozenset(
    "is are was be make keep go do don't can should need needs want let's lets it's that's "
    "we're i'm have has get try use put".split()
)


def _bare(cx: _Ctx, cl: Clause, found: list[Read], prior: list[Read]) -> list[Read]:
    """A clause of a bare noun phrase ("Kirkby", "QueueCumber.", "electricians"): its axis from
    a neighbour it answers (a place refused before it), a person word, or a made-up name."""
    toks = [t for t in cl.tokens if t.is_word or t.text in _QUOTES]
    words = [t for t in toks if t.is_word]
    if not words or len(words) > 4 or any(
        t.low in _VERBISH or t.low in cx.v.lists["verbs"] or t.low in _CLAUSE_VERBS for t in words
    ):
        return []
    if any(t.low in cx.v.lists["chatter"] for t in words):
        return []
    tidy = _tidy_value(cx.utt, words)
    if tidy is None:
        return []
    value, a, b = tidy
    if words[0].low in _REASON_STARTS or words[0].low in _SUBJECTS or words[0].low in (
        "and", "then", "later", "after"
    ):
        return []
    refused = {r.axis for r in prior + found if not r.do}
    if _is_channel(value, cx.v):
        return [Read("channel", True, value, a, b, weak=True)]
    if ("place" in refused or _is_place(words, cx.v)) and _capitalised(words):
        return [Read("place", True, value, a, b)]
    if "name" in refused and words[0].is_cap:
        return [Read("name", True, value, a, b)]
    if _is_people(words, cx.v) and cx.source != "option":
        return [Read("audience", True, value, a, b, weak=True)]
    if len(words) == 1 and re.match(r"^[A-Z][a-z]+[A-Z]\w+$", words[0].text):
        return [Read("name", True, value, a, b)]
    return []


def read_text(
    text: str,
    *,
    source: str,
    fork: Mapping[str, str] | None = None,
    unit: str | None = None,
    period: str | None = None,
) -> Reading:
    """Read one input into directions, each clause accounted for (see the module docstring).
    `unit` / `period`: what one unit is and the price's period when the words name none (the
    price in force); `fork`: the options an own answer answers."""
    v = vocab()
    utt = parse(text, new_clause_words=_CLAUSE_VERBS | v.lists["verbs"])
    cx = _Ctx(utt, v, source, fork)
    cx.unit, cx.period = unit, period
    out = Reading(text=utt.text, clipped=utt.clipped)
    found: list[Read] = []
    per: list[list[Read]] = []
    for n, cl in enumerate(utt.clauses):
        got = _pointer(cx, utt.clauses, n, per) or _quote_dismissed(cx, utt.clauses, n)
        got = got or _ClauseReader(cx, cl).read()
        if not got:
            got = _bare(cx, cl, [], found)
        per.append(got)
        found.extend(got)
    _contrast(cx, utt.clauses, per)
    found = [r for got in per for r in got]
    for cl, got in zip(utt.clauses, per, strict=True):
        words = utt.span(cl.start, cl.end)
        if got:
            out.parts.append(Part("direction", cl.start, cl.end, words))
        else:
            out.parts.append(_other_part(cx, cl, words))
    out.directions = _settle(found)
    named = [r for r in found if r.axis == "price" and r.do and r.amount is not None]
    if len(named) > 1 and sum(1 for d in out.directions if d.axis == "price") == 1:
        out.notes.append("two prices named: the later one wins")
    refused = [r for r in found if r.refused and r.axis == "number"]
    if refused and not any(
        d.axis == "number" and d.key == r.key for r in refused for d in out.directions
    ):
        out.ask_why = "refused_figure"  # "$80k is silly. half that": which figure, then?
    if source == "own" and fork:
        _own(cx, out, fork, unit)
    _ask(cx, out)
    return out


def _pointer(cx: _Ctx, clauses: list[Clause], n: int, per: list[list[Read]]) -> list[Read]:
    """"Best Man Standing. that's the brand", "Fright Fare as the name": the words before the
    pointer (in this clause, or the clause before when that read nothing) on its axis."""
    v, cl = cx.v, clauses[n]
    low = cl.low
    for k in range(len(low)):
        c = v.match(v.pointers, low, k)
        if c is None or c.row["axis"] == "number":
            continue
        toks = [t for t in cl.tokens[:k] if t.is_word or t.text in _QUOTES]
        if not toks and n > 0 and not per[n - 1]:
            toks = [t for t in clauses[n - 1].tokens if t.is_word or t.text in _QUOTES]
        words = [t for t in toks if t.is_word]
        if not words or len(words) > 8:
            return []
        tidy = _tidy_value(cx.utt, words)
        if tidy is None:
            return []
        return [Read(str(c.row["axis"]), True, tidy[0], tidy[1], tidy[2])]
    return []


def _quote_dismissed(cx: _Ctx, clauses: list[Clause], n: int) -> list[Read]:
    """"'guaranteed crystal clear' - no.", "'weatherproof' yes, 'waterproof' no": a quoted
    phrase the same or next clause dismisses (or keeps) is a claim (a word: an exclusion)."""
    v, cl = cx.v, clauses[n]
    toks = cl.tokens
    if not toks or toks[0].text not in _QUOTES:
        return []
    quote = _quoted(cl, 0, len(toks))
    if not quote:
        return []
    end = next((x for x in range(1, len(toks)) if toks[x].text in _QUOTES), len(toks))
    rest = cl.low[end + 1 :]
    nxt = clauses[n + 1].low if n + 1 < len(clauses) else []
    do = None
    for low in (rest, nxt if len(nxt) <= 4 else []):
        for k in range(len(low)):
            c = v.match(v.dismissals, low, k)
            if c:
                do = bool(c.row["do"])
                break
        if do is not None:
            break
    if do is None:
        return []
    tidy = _tidy_value(cx.utt, quote)
    if tidy is None:
        return []
    axis = "claim" if _claimish(quote, v) or do else "exclusion"
    if do and quote[0].is_cap and not _claimish(quote, v):
        axis = "name"  # "How about 'Leaf Me Alone'? no wait. 'Fernando'. yes Fernando"
    return [Read(axis, do, tidy[0], tidy[1], tidy[2])]


def _contrast(cx: _Ctx, clauses: list[Clause], per: list[list[Read]]) -> None:
    """"couples not parents", "facilities managers. NOT the community managers", "Not
    Liverpool city centre, Kirkby": the bare words set against a thing to leave out take the
    axis that thing's kind gives (people: audience; a place refused: place)."""
    v = cx.v
    for n, cl in enumerate(clauses):
        got = per[n]
        for r in list(got):
            if r.axis not in ("exclusion", "place") or r.do or not r.weak:
                continue
            neg_at = next(
                (t.start for t in cl.tokens if t.low in ("not", "no", "never", "rather", "instead")),
                r.start,
            )
            head = [t for t in cl.tokens if t.end <= neg_at and t.is_word]
            if head and (head[0].low in _REASON_STARTS or head[0].low in _SUBJECTS):
                head = []
            target: list[Token] = []
            if head and not any(
                x.start <= head[-1].start < x.end or x.start < head[-1].end <= x.end for x in got
                if x is not r
            ) and len(head) <= 6 and not any(
                t.low in v.lists["verbs"] or t.low in _CLAUSE_VERBS for t in head
            ):
                target = head
            else:
                for m in (n - 1, n + 1):
                    if 0 <= m < len(clauses) and not per[m]:
                        words = [t for t in clauses[m].tokens if t.is_word]
                        if 0 < len(words) <= 6 and not any(
                            t.low in v.lists["verbs"] or t.low in _CLAUSE_VERBS
                            or t.low in _REASON_STARTS for t in words
                        ):
                            target = words
                            break
            if not target:
                continue
            tidy = _tidy_value(cx.utt, target)
            if tidy is None:
                continue
            if r.axis == "place" or (r.value[:1].isupper() and _capitalised(target)):
                axis = "place"
            elif _is_people(target, v):
                axis = "audience"
            elif _is_channel(tidy[0], v):
                axis = "channel"
            else:
                continue
            if axis == "place" and r.axis == "exclusion":
                r.axis = "place"
            home = per[n] if target is head else per[n - 1 if n > 0 and target[0].start < cl.start else n + 1]
            home.append(Read(axis, True, tidy[0], tidy[1], tidy[2]))


_CLAUSE_VERBS = frozenset(
    "add aim avoid call change charge cut delay drop explain fix focus get give go hire hold "
    "include keep launch lead leave lose lower make mention move name offer open partner plan "
    "price push put raise reduce remove rename run say sell set ship show sign skip speak start "
    "stop talk target tell try use wait write ditch forget centre center pitch".split()
)


def _other_part(cx: _Ctx, cl: Clause, words: str) -> Part:
    """A clause with no direction: commentary (chatter, a reason, a question) or unread."""
    low = cl.low
    lists = cx.v.lists
    if (
        cl.question
        or any(
            " ".join(low[k : k + len(c.split())]) == c
            for c in lists["chatter"]
            for k in range(len(low))
        )
        or (low and low[0] in _REASON_STARTS and low[0] not in ("the",))
        or sum(1 for t in cl.tokens if t.is_word and len(t.text) > 2) < 2
    ):
        return Part("commentary", cl.start, cl.end, words)
    if any(t in _CALENDAR for t in low):
        return Part(
            "unread",
            cl.start,
            cl.end,
            words,
            "no_week",
            f"“{words}” names no game week: say a week, e.g. “launch week 8”.",
        )
    if any(_NUM.match(t) for t in low) and not cx.currency:
        return Part(
            "unread",
            cl.start,
            cl.end,
            words,
            "no_currency",
            f"“{words}”: which currency? e.g. “£{_first_num(low)} a month”.",
        )
    if low and (
        low[0] in _CLAUSE_VERBS or low[0] in lists["verbs"] or low[0] in ("be", "more", "less")
    ) and low[0] not in _VERBISH - {"make", "keep", "go", "do", "get", "try", "use", "put"}:
        return Part(
            "unread",
            cl.start,
            cl.end,
            words,
            "vague",
            f"“{words}” asks for a change I cannot place on price, audience, channel, "
            "scope, place, launch week, a claim, the tone, a number or the name.",
        )
    return Part("commentary", cl.start, cl.end, words)


def _first_num(low: list[str]) -> str:
    return next((t for t in low if _NUM.match(t)), "20")


def _settle(found: list[Read]) -> list[Read]:
    """The message's directions: on an axis that holds one value the last positive one wins
    (a change of mind, a contrast); a refused value goes when another is named; a price that
    names no period takes the period of a price said beside it ("$35 a box. Actually no, $32");
    weak readings give way to a stronger one; duplicates go."""
    explicit = [r for r in found if r.axis == "price" and not r.weak and r.amount]
    for r in found:
        if r.axis == "price" and r.weak and explicit:
            src = explicit[-1]
            r.period, r.unit = src.period, src.unit
            r.currency = (r.currency or src.currency) if r.amount else None
            if r.amount:
                r.value = f"{r.currency or ''}{_fmt(r.amount)} a {r.unit or r.period}"
    found = [r for r in found if not (r.refused and r.axis in ("number",))]
    positives = {r.axis for r in found if r.do and r.axis in SINGLE}
    keys = {r.key for r in found if r.axis == "number" and not r.weak}
    out: list[Read] = []
    for r in found:
        if r.axis in SINGLE and not r.do and r.axis in positives:
            continue
        if r.axis == "timeline" and r.weak and (not r.do or any(
            x.axis == "timeline" and not x.weak for x in found
        )):
            continue
        if r.axis == "number" and r.weak and r.key in keys:
            continue  # "1000 subscribers in year one is a fantasy. 300"
        if r.axis == "price" and r.do and r.weak and any(
            x.axis == "price" and x.do and x is not r and x.amount == r.amount for x in found
        ):
            continue
        if r.axis == "exclusion" and r.weak and r.value[:1].isupper() and any(
            x.axis == "place" and x is not r for x in found
        ):
            continue
        out.append(r)
    keep: list[Read] = []
    for idx, r in enumerate(out):
        later = out[idx + 1 :]
        if r.axis in ("place", "name", "timeline") and r.do and any(
            x.axis == r.axis and x.do for x in later
        ):
            continue
        if r.axis == "number" and any(x.axis == "number" and x.key == r.key for x in later):
            continue
        if r.axis == "price" and any(
            x.axis == "price" and x.do == r.do and x.period == r.period and x.unit == r.unit
            for x in later
        ):
            continue
        if r.axis == "price" and not r.do and any(x.axis == "price" and x.do for x in out):
            continue
        if any(
            (x.axis, x.value.lower(), x.do) == (r.axis, r.value.lower(), r.do) for x in keep
        ):
            continue
        keep.append(r)
    return keep


# ---------------------------------------------------------------- own answers at a fork

_PICK_AFTER = frozenset(("but", "and", "for", "obviously", "lol", "then", "please", "definitely"))


def _pick(cx: _Ctx, fork: Mapping[str, str]) -> str | None:
    """Which option the words pick: "A"/"B", "both", or None (neither, or no fit). A letter or
    an ordinal picks outright (the last one after a change of mind); otherwise the option whose
    words (or figures) the answer names most, a named option under a negation or a deferral
    ("shops can come later") counting against it."""
    utt = cx.utt
    keys = list(fork)
    low = [t.low for t in utt.tokens]
    v = cx.v
    if "neither" in low or low[:2] == ["none", "of"]:
        return None
    if "both" in low and not any(x in low for x in ("mostly", "bad", "say", "fine", "first")):
        return "both"
    opt = {k: parse(fork[k]).tokens for k in keys}
    opt_words = {k: {t.lemma for t in opt[k] if t.is_word and len(t.low) > 2} for k in keys}
    opt_nums = {k: {t.low for t in opt[k] if _NUM.match(t.low)} for k in keys}
    scores = {k: 0.0 for k in keys}
    outright: str | None = None
    deferred = {
        cl.i for cl in utt.clauses
        if any(" ".join(cl.low).find(d) >= 0 for d in v.lists["deferrals"])
        or any(
            re.search(r"\b" + re.escape(r) + r"\b", " ".join(cl.low))
            for r in v.lists["rejections"]
        )
    }
    clause_of = {}
    for cl in utt.clauses:
        for x in range(cl.i, cl.j):
            clause_of[x] = cl.i
    changed = False
    for idx, t in enumerate(utt.tokens):
        prev = low[max(0, idx - 3) : idx]
        neg = any(x in _NEG or x in ("rather",) for x in prev) and not (
            "no" in prev and low[idx - 1 : idx] == [","]
        )
        neg = neg or clause_of.get(idx) in deferred
        w = -1.0 if neg else 1.0
        nxt = low[idx + 1] if idx + 1 < len(low) else ""
        if t.low in ("actually", "wait"):
            changed = True
            outright = None
            scores = {x: 0.0 for x in keys}
            continue
        letter = t.text in ("A", "B") or (
            t.low in ("a", "b") and (idx == 0 or low[idx - 1] in ("go", "option", "no"))
        )
        if letter and (not nxt or not nxt[0].isalpha() or nxt in _PICK_AFTER):
            if outright is None or changed:
                outright = keys[0] if t.low == "a" else keys[1]
                changed = False
            continue
        if t.low in ("first", "1st", "former", "second", "2nd", "latter") and (
            outright is None or changed
        ) and idx < 4 and (
            low[idx - 1 : idx] == ["the"] or nxt in ("one", "option", "") or t.low != "first"
        ):
            outright = keys[0] if t.low in ("first", "1st", "former") else keys[1]
            changed = False
            continue
        if t.low in ("cheap", "cheaper", "cheapest", "less", "fewer", "lower", "smaller"):
            k = _by_figure(fork, low=True)
            if k:
                scores[k] += 3 * w
            continue
        if t.low in ("dearer", "expensive", "higher", "bigger"):
            k = _by_figure(fork, low=False)
            if k:
                scores[k] += 3 * w
            continue
        if not t.is_word or t.low in ("the", "and", "but", "one", "ones", "with", "for", "not"):
            continue
        for k in keys:
            if _NUM.match(t.low):
                if t.low in opt_nums[k]:
                    scores[k] += 2 * w
            elif len(t.low) >= 3 and any(
                ow == t.lemma
                or (len(t.lemma) >= 4 and ow.startswith(t.lemma[:4]))
                or (len(ow) >= 4 and len(t.lemma) >= 4 and t.lemma.startswith(ow[:4]))
                for ow in opt_words[k]
            ):
                scores[k] += w
                if changed and w > 0:  # "Frozen Assets. Actually no, Clear Cut."
                    outright, changed = k, False
    if outright:
        return outright
    best = max(scores.values())
    if best <= 0:
        return None
    winners = [k for k, sc in scores.items() if sc == best]
    return winners[0] if len(winners) == 1 else None


def _by_figure(fork: Mapping[str, str], *, low: bool) -> str | None:
    nums: dict[str, float] = {}
    for k, t in fork.items():
        m = re.search(r"(\d+(?:\.\d+)?)", t.replace(",", ""))
        if m:
            nums[k] = float(m.group(1))
    if len(nums) < 2:
        return None
    return (min if low else max)(nums, key=lambda k: nums[k])


@lru_cache(maxsize=512)
def _option_cached(text: str, unit: str | None) -> tuple[Read, ...]:
    words = [t for t in parse(text).tokens if t.is_word]
    if words and len(words) <= 4 and _capitalised(words) and words[0].low not in (
        _CLAUSE_VERBS | {"tour", "park", "sell", "launch", "ship", "expand", "accept", "write"}
    ):
        return tuple(_option_bare(text))  # "Clear Cut Ice", "Peak District": a name or a place
    r = read_text(text, source="option", unit=unit)
    out = list(r.directions)
    for p in r.parts:
        if p.kind != "direction":
            out += _option_bare(p.words)
    return tuple(out)


def option_directions(text: str, *, unit: str | None = None) -> list[Read]:
    """What a fork option's own words bind, read the same way ("Delivery riders, $399 kit")."""
    return [replace(d) for d in _option_cached(text, unit)]


def _option_bare(text: str) -> list[Read]:
    """An option's words that no cue places ("Bristol", "Delivery riders", "Formal"): a person
    word is an audience, a channel word a channel, a known place a place, a capitalised made-up
    phrase a name, anything else the scope."""
    utt = parse(text)
    v = vocab()
    toks = [t for t in utt.tokens if t.is_word]
    if not toks or len(toks) > 6:
        return []
    tidy = _tidy_value(utt, toks)
    if not tidy:
        return []
    value, a, b = tidy
    if _is_place(toks, v):
        return [Read("place", True, value, a, b)]
    if _is_channel(value, v):
        return [Read("channel", True, value, a, b)]
    if _is_people(toks, v):
        return [Read("audience", True, value, a, b)]
    if _capitalised(toks) and len(toks) <= 3 and not any(t.low in v.lists["verbs"] for t in toks):
        return [Read("name", True, value, a, b, weak=True)]
    return [Read("scope", True, value, a, b, weak=True)]


def _is_place(toks: list[Token], v: Vocab) -> bool:
    low = [t.low for t in toks]
    return any(v.match(v.places, low, k) for k in range(len(low)) if toks[k].is_cap or True)


def _own(cx: _Ctx, out: Reading, fork: Mapping[str, str], unit: str | None) -> None:
    """An own answer: the picked option's content, then the player's words over it (on each
    axis the player names, the player's value replaces the option's); an option the words
    dismiss or put off ("shops can come later") is left out."""
    pick = _pick(cx, fork)
    out.option = pick
    keys = list(fork) if pick == "both" else [pick] if pick else []
    opts = {k: option_directions(t, unit=unit) for k, t in fork.items()}
    fork_text = " ".join(fork.values()).lower()
    content: list[Read] = []
    headlines = {k: _headline(t) for k, t in fork.items()}
    own: list[Read] = []
    for d in out.directions:
        if d.weak and d.axis in ("audience", "scope", "place", "name", "channel") and _overlaps(
            d.value, fork_text
        ):
            continue  # "riders", "the shops one", "Frozen Assets": a reference to an option
        if d.axis == "price" and d.weak:
            src = next((c for k in keys for c in opts[k] if c.axis == "price" and c.amount), None)
            src = src or next((c for cs in opts.values() for c in cs if c.axis == "price"), None)
            if src is not None:
                d.period, d.unit = src.period, src.unit
                d.currency = d.currency or src.currency
                d.value = f"{d.currency or ''}{_fmt(d.amount or 0)} a {d.unit or d.period}"
                d.weak = False
        own.append(d)
    if all(headlines.values()) and pick in fork:
        other = next(k for k in fork if k != pick)
        if not any(d.axis in ("claim", "exclusion") for d in own):
            content.append(Read("claim", False, headlines[other] or "", 0, 0))
        own = [replace(d, axis="claim") if d.axis == "exclusion" else d for d in own]
        keys = []
    mid = _between(cx, opts)
    if mid is not None:
        own.append(mid)
    for k in keys:
        content += opts[k]
    for k in _dismissed(cx, fork):
        for c in opts[k]:
            if c.axis in ("channel", "scope", "audience") and c.do:
                own.append(Read("exclusion", False, c.value, c.start, c.end))
    fork_axis = {d.axis for ds in opts.values() for d in ds if d.do}
    if pick is None and len(fork_axis) == 1:
        axis = next(iter(fork_axis))
        own = [
            replace(d, axis=axis)
            if d.weak and d.axis in ("scope", "audience") and d.value[:1].isupper() else d
            for d in own
        ]
    own_axes = {d.axis for d in own if d.do}
    excluded = {d.value.lower() for d in own if d.axis == "exclusion"}
    merged = [
        c
        for c in content
        if c.axis not in own_axes
        and c.value.lower() not in excluded
        and not (c.axis == "number" and any(d.axis == "number" for d in own))
    ]
    out.directions = _settle(merged + own)


def _dismissed(cx: _Ctx, fork: Mapping[str, str]) -> list[str]:
    """The options a clause names and dismisses or defers ("Google ads … is a bloodbath",
    "shops can come later", "B in month 3")."""
    out = []
    v = cx.v
    for cl in cx.utt.clauses:
        text = " ".join(cl.low)
        if not (
            any(d in text for d in v.lists["deferrals"])
            or any(re.search(r"\b" + re.escape(r) + r"\b", text) for r in v.lists["rejections"])
        ):
            continue
        for k, opt in fork.items():
            if _overlaps(" ".join(t.low for t in cl.tokens if t.is_word and len(t.low) > 3), opt.lower()) or (
                k in [t.text for t in cl.tokens[:1]]
            ):
                out.append(k)
    return out


def _overlaps(value: str, text: str) -> bool:
    words = re.findall(r"\w+", text)
    return any(
        len(w) >= 3 and any(x == w or (len(w) >= 4 and x.startswith(w[:4])) for x in words)
        for w in re.findall(r"\w+", value.lower())
        if w not in ("the", "one", "ones", "and", "more", "per", "with", "for")
    )


def _between(cx: _Ctx, opts: Mapping[str, list[Read]]) -> Read | None:
    """"split the difference" of two priced options: the price halfway between."""
    low = cx.low
    if not any(cx.v.match(cx.v.between, low, k) for k in range(len(low))):
        return None
    prices = [d for ds in opts.values() for d in ds if d.axis == "price" and d.amount]
    if len(prices) != 2:
        return None
    p, q = prices
    mid = round((p.amount or 0) / 2 + (q.amount or 0) / 2, 2)
    return Read("price", True, f"{p.currency or ''}{_fmt(mid)} a {p.unit or p.period}", 0,
                len(cx.utt.text), amount=mid, period=p.period, unit=p.unit, currency=p.currency)


def _headline(text: str) -> str | None:
    m = re.match(r"^\s*headline:\s*['‘\"“](.+?)['’\"”]?\s*$", text, re.IGNORECASE)
    return m.group(1).strip() if m else None


def _ask(cx: _Ctx, out: Reading) -> None:
    """Whether a careful reader asks: money with no currency, a price or name refused with no
    replacement, a date with no week, a request that names nothing, "both" where both can't be,
    a bare "neither"."""
    ds = out.directions
    low = cx.low
    why = ""
    money_words = {"dollars", "bucks", "quid", "pounds", "euros", "$", "£", "€"}
    if any(
        t in money_words and low[k + 1 : k + 2] != ["of"] for k, t in enumerate(low)
    ) and not any(
        d.axis in ("price", "number") and d.amount is not None for d in ds
    ):
        why = "price_amount"  # "twelve-ish dollars": money the reader cannot read
    elif any(d.axis == "price" and d.do and d.amount is not None and not d.currency for d in ds):
        why = "no_currency"
    elif any(d.axis == "price" and not d.do for d in ds) and not any(
        d.axis == "price" and d.do for d in ds
    ):
        why = "price_refused"
    elif any(d.axis == "name" and not d.do for d in ds) and not any(
        d.axis == "name" and d.do for d in ds
    ):
        why = "name_refused"
    elif any(p.reason == "no_week" for p in out.parts) and not any(
        d.axis == "timeline" for d in ds
    ):
        why = "no_week"
    elif (
        cx.source == "own"
        and out.option == "both"
        and cx.fork
        and all(
            any(d.axis in ("place",) for d in option_directions(t)) for t in cx.fork.values()
        )
    ):
        why = "both_cannot"
    elif cx.source == "own" and not ds and out.option is None and "neither" in low:
        why = "neither"
    elif (
        not ds
        and (
            cx.source == "rejection"
            or any(p.reason == "vague" for p in out.parts)
            or any(
                " ".join(low[k : k + 3]).startswith(("make it", "can we make"))
                for k in range(len(low))
            )
        )
        and not _chatter(cx)
    ):
        why = "names_nothing"
    why = why or out.ask_why
    out.asked, out.ask_why = bool(why), why


def _chatter(cx: _Ctx) -> bool:
    text = " ".join(cx.low)
    return any(c in text for c in cx.v.lists["chatter"]) and cx.source != "rejection"
