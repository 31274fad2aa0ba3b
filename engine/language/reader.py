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
from dataclasses import dataclass, field

from engine.language.utterance import Clause, Token, Utterance, parse
from engine.language.vocab import Vocab, vocab

SINGLE = ("price", "place", "name", "timeline")  # axes that hold one value (number: per key)
_QUOTES = "'\"‘’“”"
_ARTICLES = ("the", "a", "an", "our", "any", "every", "all", "some", "this", "that", "my")
_PRICE_CUES = frozenset(
    "charge charging charged price priced pricing cost costs try pay paying sell at make it "
    "fee subscription go with".split()
)
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


def _figures(low: list[str], v: Vocab) -> list[_Fig]:
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
        if num or (wordnum is not None and t != "a"):
            amount, cur, is_money = num if num else (float(wordnum or 0), None, False)
            j = k + 1
            if j < n and low[j] == "%":
                out.append(_Fig(amount, k, j + 1, percent=True))
                k = j + 1
                continue
            c = v.match(v.money, low, j) if j < n else None
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


def _value_run(cl: Clause, k: int, v: Vocab, limit: int = 8) -> list[Token]:
    """The tokens of a value starting at k: to a terminator, a quote's end, or `limit` words."""
    toks = cl.tokens
    if k < len(toks) and toks[k].text in _QUOTES:  # a quoted value runs to its closing quote
        out = []
        for t in toks[k + 1 :]:
            if t.text in _QUOTES:
                return out
            out.append(t)
        return out
    out = []
    term = v.lists["terminators"]
    for t in toks[k:]:
        if t.low in term and out:
            break
        if not t.is_word and t.text not in ("-", "&", "'", "’", "+", "/") and out:
            break
        if t.low in ("in", "on", "at", "to", "from", "with") and len(out) >= 2:
            break
        out.append(t)
        if len(out) >= limit:
            break
    return out


def _is_people(toks: list[Token], v: Vocab) -> bool:
    people = v.lists["people"]
    return any(t.low in people or t.lemma in people for t in toks)


def _is_channel(value: str, v: Vocab) -> bool:
    low = value.lower()
    return any(
        low == c or low.startswith(c + " ") or low.endswith(" " + c) for c in v.lists["channels"]
    )


def _claimish(toks: list[Token], v: Vocab) -> bool:
    cw = v.lists["claim_words"]
    return len(toks) >= 3 or any(t.low in cw for t in toks)


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
        figs = _figures(low, v)
        key_cue = None
        for k in range(len(low)):
            c = v.match(v.number_keys, low, k)
            if c:
                key_cue = c
                break
        for f in figs:
            if any(x in self.used for x in range(f.i, f.j)):
                continue
            before = low[f.i - 1] if f.i > 0 else ""
            after = low[f.j] if f.j < len(low) else ""
            if before in ("week", "wk", "weeks", "month", "day", "v", "year") or before in (
                "+",
                "/",
            ):
                continue
            if after in ("week", "weeks", "wk", "wks") and before in ("in", "") and not f.money:
                continue  # "in 6 weeks" is a week, read below
            op = self._op(f)
            if f.percent:
                if key_cue and key_cue.row["key"] == "churn" or cx.churn:
                    val = f"{_fmt(f.amount)}%"
                    self.add(
                        "number", True, f.i, f.j, val, amount=f.amount, op=op or "max", key="churn"
                    )
                continue
            if (
                key_cue
                and key_cue.row["key"] in ("burn", "cac", "mrr")
                and (f.money or f.amount >= 1000 or key_cue.row["key"] == "cac")
            ):
                key = key_cue.row["key"]
                cur = f.currency or cx.currency
                self.add(
                    "number",
                    True,
                    f.i,
                    f.j,
                    f"{cur or ''}{_fmt(f.amount)}",
                    amount=f.amount,
                    op=op or key_cue.row["op"],
                    key=key,
                    currency=cur,
                )
                continue
            if after in ("hours", "hrs", "hour", "hr"):
                self.add(
                    "number",
                    True,
                    f.i,
                    f.j + 1,
                    f"{_fmt(f.amount)} hours a week",
                    amount=f.amount,
                    op=op or "max",
                    key="hours",
                )
                continue
            if (
                key_cue
                and key_cue.row["key"] == "hours"
                and not f.money
                and after not in ("week", "weeks")
            ):
                self.add(
                    "number",
                    True,
                    f.i,
                    f.j,
                    f"{_fmt(f.amount)} hours a week",
                    amount=f.amount,
                    op=op or "max",
                    key="hours",
                )
                continue
            if f.money or self._price_context(f):
                self.price(f, op)
                continue
            noun = self.cl.tokens[f.j] if f.j < len(self.cl.tokens) else None
            if (
                noun is not None
                and noun.is_word
                and noun.low not in _NOT_PEOPLE_PLURALS
                and noun.low.endswith("s")
                and not noun.low.endswith("'s")
                and (any(t in _TARGET_CUES for t in low) or cx.source == "own")
            ):
                tgt = any(
                    t
                    in (
                        "need",
                        "aim",
                        "hit",
                        "reach",
                        "goal",
                        "want",
                        "wants",
                        "get",
                        "by",
                        "placed",
                    )
                    for t in low
                )
                self.add(
                    "number",
                    True,
                    f.i,
                    f.j + 1,
                    f"{_fmt(f.amount)} {noun.text}",
                    amount=f.amount,
                    op=op or ("min" if tgt else "eq"),
                    key="customers",
                )

    def _op(self, f: _Fig) -> str | None:
        v, low = self.v, self.low
        for k in range(max(0, f.i - 4), f.i):
            c = v.match(v.ops, low, k)
            if c and c.row["where"] == "before" and k + len(c.words) >= f.i - 1:
                return str(c.row["op"])
        for k in range(f.j, min(len(low), f.j + 6)):
            c = v.match(v.ops, low, k)
            if c and c.row["where"] == "after":
                return str(c.row["op"])
        return None

    def _price_context(self, f: _Fig) -> bool:
        low, cx = self.low, self.cx
        after = low[f.j] if f.j < len(low) else ""
        if after in _NOT_PEOPLE_PLURALS or after in ("week", "weeks", "people", "minutes"):
            return False
        if self.v.match(self.v.period, low, f.j) and after not in ("a",) or after in ("per", "/"):
            return True
        if f.j < len(low) and low[f.j] == "a" and f.j + 1 < len(low) and low[f.j + 1].isalpha():
            return True  # "20 a plant"
        if any(t in _PRICE_CUES for t in low[max(0, f.i - 4) : f.i]):
            return True
        if cx.source == "own" and any(t in ("$", "£", "€") for t in cx.fork_low):
            return len(low) <= 4 or low[f.i - 1 : f.i] in (["but"], ["neither"])
        return len(low) <= 3 and cx.currency is not None and cx.source != "own"

    def price(self, f: _Fig, op: str | None) -> None:
        v, low, cx = self.v, self.low, self.cx
        cur = f.currency or cx.currency
        j = f.j
        period, unit = None, None
        while j < len(low):
            c = v.match(v.period, low, j)
            if c:
                if c.row["period"] in ("month", "year"):
                    period = c.row["period"]
                elif period is None:
                    period, unit = "unit", c.row.get("unit") or unit
                j += len(c.words)
                continue
            if (
                low[j] in ("a", "per", "/", "an")
                and j + 1 < len(low)
                and self.cl.tokens[j + 1].is_word
            ):
                noun_toks = [self.cl.tokens[j + 1]]
                j2 = j + 2
                if j2 + 1 < len(low) and low[j2] == "per" and low[j2 + 1] in ("weekend", "night"):
                    noun_toks.append(self.cl.tokens[j2])
                    noun_toks.append(self.cl.tokens[j2 + 1])
                    j2 += 2
                word = noun_toks[0].low
                if word in ("head",):
                    period, unit = "unit", "ticket"
                elif word not in _ARTICLES and not word.isdigit() and word not in ("lot", "bit"):
                    if period is None:
                        unit = " ".join(t.low for t in noun_toks)
                        period = "unit"
                    elif period == "unit" and unit is None:
                        unit = " ".join(t.low for t in noun_toks)
                j = j2
                continue
            if (
                cx.source == "option"
                and self.cl.tokens[j].is_word
                and low[j] not in v.lists["terminators"]
                and low[j] not in ("with", "and", "for", "no", "flat", "plus")
            ):
                unit, period = self.cl.tokens[j].lemma, "unit"
                j += 1
            break
        if period == "unit" and unit and unit.endswith(("month", "year")):
            period = "month" if unit.endswith("month") else "year"
        # "$8 a user a month", "£12 per van per month": the user/van is the unit of a monthly price
        if period is None:
            period, unit = cx.period, cx.unit if cx.period == "unit" else None
            if period is None:
                period, unit = "unit", None
        if period == "unit" and unit is None:
            unit = cx.unit
        neg = any(t in _NEG or t in ("nobody", "nobody's") for t in low[: f.i]) and op is None
        if any(t in ("more",) for t in low[max(0, f.i - 2) : f.i]) and any(
            t in ("nobody", "nobody's", "never", "no", "not", "won't") for t in low[: f.i]
        ):
            op, neg = "max", False
        if low[max(0, f.i - 1) : f.i] == ["not"] or low[max(0, f.i - 2) : f.i] == ["but", "not"]:
            neg = True
        if any(t in ("who", "nobody", "nobody's") for t in low[: f.i]) and op is None:
            neg = True
        value = f"{cur or ''}{_fmt(f.amount)} a {unit or period}"
        self.add(
            "price",
            not neg,
            f.i,
            j,
            value,
            amount=f.amount,
            op=op or "eq",
            period=period,
            unit=unit if period == "unit" else None,
            currency=cur,
        )

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
                or low[max(0, i - 1) : i] in (["not"], ["than"])
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
                do = False
            self.add("tone", do, k, k + len(c.words), str(c.row["value"]))
            k += len(c.words)

    def frames(self) -> None:
        v, low, cl, cx = self.v, self.low, self.cl, self.cx
        k = 0
        while k < len(low):
            if k in self.used:
                k += 1
                continue
            c = v.match(v.frames, low, k)
            if c is None:
                k += 1
                continue
            j = k + len(c.words)
            run = _value_run(cl, j, v)
            if not run or all(t.is_word is False for t in run):
                k += 1
                continue
            if any(self.cl.tokens.index(t) in self.used for t in run if t in self.cl.tokens):
                k += 1
                continue
            axis, do = str(c.row["axis"]), bool(c.row["do"])
            tidy = _tidy_value(cx.utt, run)
            if tidy is None:
                k += 1
                continue
            value, a, b = tidy
            quoted = j < len(cl.tokens) and cl.tokens[j].text in _QUOTES
            vt = [t for t in run if t.is_word]
            if c.row.get("people") and not _is_people(vt, v):
                if c.words == ("for",) and low[j + len(run) : j + len(run) + 1] == ["only"]:
                    axis = "scope" if not _capitalised(vt) else "place"
                else:
                    k += 1
                    continue
            if axis == "exclusion":
                if any(v.match(v.tone, [t.low for t in vt], 0) for _ in (0,)) and len(vt) <= 2:
                    k += 1
                    continue
                if any(_number(t.low, v) for t in vt[:1]) or vt[0].low in ("$", "£", "€"):
                    k += 1
                    continue
                if c.words in (("no",), ("not",), ("never",)) and vt[0].low in (
                    "one",
                    "one's",
                    "later",
                    "more",
                    "need",
                    "way",
                    "idea",
                    "question",
                    "wait",
                    "longer",
                    "rush",
                    "pressure",
                    "thanks",
                    "problem",
                    "later",
                    "worries",
                    "i",
                ):
                    k += 1
                    continue
                if (
                    quoted
                    and _claimish(vt, v)
                    and not (
                        j + len(run) + 2 <= len(low)
                        and low[j + len(run) + 1] in v.lists["word_nouns"]
                    )
                    and c.words != ("avoid", "the", "word")
                ):
                    axis = "claim"
                if (
                    c.words in (("not",), ("no",), ("never",))
                    and _capitalised(vt)
                    and (any(x in low for x in ("in", "start", "launch", "launching", "city")))
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
            if axis == "name":
                value = _name_value(cl, j, run) or value
            if axis == "place" and not quoted:
                caps = _cap_run(run)
                if caps:
                    value = caps
            weak = c.words in (("no",), ("not",), ("never",), ("just",), ("only",), ("for",))
            r = Read(axis=axis, do=do, value=value, start=a, end=b, weak=weak)
            self.out.append(r)
            self.used.update(range(k, j + len(run)))
            k = j + len(run)

    def postfix(self) -> None:
        """ "Soho first", "bars only", "X are our channel", "X. That's the product"."""
        low, cl, v = self.low, self.cl, self.v
        if self.out:
            return
        for k, t in enumerate(low):
            if t in ("only", "first") and k > 0 and not self.used & set(range(k)):
                run = [x for x in cl.tokens[:k] if x.is_word or x.text in ("-",)]
                tidy = _tidy_value(self.cx.utt, run)
                if not tidy or len(run) > 6:
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

    def read(self) -> list[Read]:
        self.figures()
        self.weeks()
        self.tone()
        self.frames()
        self.postfix()
        return self.out


def _cap_run(run: list[Token]) -> str | None:
    toks = [t for t in run if t.is_word]
    while toks and toks[0].low in _ARTICLES:
        toks = toks[1:]
    out: list[Token] = []
    for t in toks:
        if t.is_cap or (out and t.low in ("of", "upon")):
            out.append(t)
        else:
            break
    return " ".join(t.text for t in out) or None


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
    if not words or len(words) > 4 or any(t.low in _VERBISH for t in words):
        return []
    if any(t.low in cx.v.lists["chatter"] for t in words):
        return []
    tidy = _tidy_value(cx.utt, words)
    if tidy is None:
        return []
    value, a, b = tidy
    refused = {r.axis for r in prior + found if not r.do}
    if "place" in refused and _capitalised(words):
        return [Read("place", True, value, a, b)]
    if ("name" in refused or any(r.axis == "name" for r in prior)) and words[0].is_cap:
        return [Read("name", True, value, a, b)]
    if _is_people(words, cx.v) and cx.source != "option":
        return [Read("audience", True, value, a, b, weak=True)]
    if len(words) == 1 and re.match(r"^[A-Z][a-z]+[A-Z]\w+$", words[0].text):
        return [Read("name", True, value, a, b)]
    return []


def _option_bare(cx: _Ctx, text: str, utt: Utterance) -> list[Read]:
    """An option's words that no cue places ("Bristol", "Delivery riders", "Formal"): a person
    word is an audience, a channel word a channel, a capitalised short phrase a place or name."""
    toks = [t for t in utt.tokens if t.is_word]
    if not toks or len(toks) > 6:
        return []
    tidy = _tidy_value(utt, toks)
    if not tidy:
        return []
    value, a, b = tidy
    if _is_people(toks, cx.v):
        return [Read("audience", True, value, a, b)]
    if _is_channel(value, cx.v):
        return [Read("channel", True, value, a, b)]
    return [Read("scope", True, value, a, b, weak=True)]


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
    utt = parse(text, new_clause_words=_CLAUSE_VERBS)
    cx = _Ctx(utt, v, source, fork)
    cx.unit, cx.period = unit, period
    out = Reading(text=utt.text, clipped=utt.clipped)
    found: list[Read] = []
    for cl in utt.clauses:
        got = _ClauseReader(cx, cl).read()
        if not got:
            got = _bare(cx, cl, [], found)
        found.extend(got)
        words = utt.span(cl.start, cl.end)
        if got:
            out.parts.append(Part("direction", cl.start, cl.end, words))
        else:
            out.parts.append(_other_part(cx, cl, words))
    out.directions = _settle(found)
    if source == "own" and fork:
        _own(cx, out, fork, unit)
    _ask(cx, out)
    return out


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
    if low and low[0] in _CLAUSE_VERBS | {"be", "more", "less", "too", "it", "should"}:
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
    (a change of mind, a contrast); a refused value goes when another is named; weak readings
    give way to a stronger one on the same words; duplicates go."""
    out: list[Read] = []
    positives = {r.axis for r in found if r.do and r.axis in SINGLE}
    # a price named per month and per year (or per two different units) are two tiers
    for r in found:
        if r.axis in SINGLE and not r.do and r.axis in positives:
            continue
        if r.axis == "timeline" and r.weak and not r.do:
            continue
        if (
            r.axis == "exclusion"
            and r.weak
            and any(x.axis == "place" and x is not r for x in found)
            and r.value[:1].isupper()
        ):
            continue
        out.append(r)
    keep: list[Read] = []
    for idx, r in enumerate(out):
        later = out[idx + 1 :]
        if (
            r.axis in ("place", "name", "timeline")
            and r.do
            and any(x.axis == r.axis and x.do and (x.key == r.key) for x in later)
        ):
            continue
        if r.axis == "number" and any(x.axis == "number" and x.key == r.key for x in later):
            continue
        if (
            r.axis == "price"
            and r.do
            and any(
                x.axis == "price" and x.do and x.period == r.period and x.unit == r.unit
                for x in later
            )
        ):
            continue
        if any((x.axis, x.value.lower(), x.do) == (r.axis, r.value.lower(), r.do) for x in keep):
            continue
        keep.append(r)
    return keep


# ---------------------------------------------------------------- own answers at a fork

_FIRST = ("a", "first", "1st", "1", "former", "option a", "left")
_SECOND = ("b", "second", "2nd", "2", "latter", "option b", "right")


def _pick(cx: _Ctx, fork: Mapping[str, str]) -> str | None:
    """Which option the words pick: "A"/"B", "both", or None (neither, or no fit)."""
    utt = cx.utt
    keys = list(fork)
    pick: str | None = None
    low = [t.low for t in utt.tokens]
    text = [t.text for t in utt.tokens]
    if "neither" in low or "none" in low:
        pick = None
        if "neither" in low and any(x in low for x in ("actually", "wait")):
            pass
        else:
            return None
    if "both" in low and not any(x in low for x in ("mostly", "bad", "say", "fine")):
        return "both"
    opt_words = {
        k: {t.lemma for t in parse(fork[k]).tokens if t.is_word and len(t.low) > 2} for k in keys
    }
    opt_nums = {k: {t.low for t in parse(fork[k]).tokens if _NUM.match(t.low)} for k in keys}
    scores = {k: 0.0 for k in keys}
    for idx, t in enumerate(utt.tokens):
        neg = any(x in _NEG or x in ("rather",) for x in low[max(0, idx - 3) : idx])
        w = 1.0 if not neg else -1.0
        if (
            t.text in ("A", "B")
            or (t.low in ("a", "b") and (idx == 0 or low[idx - 1] in ("go", "option")))
            and (
                idx + 1 >= len(low)
                or not low[idx + 1].isalpha()
                or low[idx + 1] in ("but", "and", "for", "obviously", "lol", "then")
            )
        ):
            if (
                t.low == "a"
                and idx + 1 < len(low)
                and low[idx + 1] in ("bit", "week", "grand", "fiver", "tenner")
            ):
                continue
            k = keys[0] if t.low == "a" else keys[1]
            scores = {x: 0.0 for x in keys}
            scores[k] = 5.0 * w
            continue
        if t.low in ("first", "1st", "former") or (
            t.low == "one" and low[idx - 1 : idx] == ["first"]
        ):
            scores = {x: 0.0 for x in keys}
            scores[keys[0]] = 5.0 * w
            continue
        if t.low in ("second", "2nd", "latter"):
            scores = {x: 0.0 for x in keys}
            scores[keys[1]] = 5.0 * w
            continue
        if t.low in ("actually", "wait") and any(s != 0 for s in scores.values()):
            scores = {x: 0.0 for x in keys}
            continue
        if t.low in ("cheap", "cheaper", "cheapest", "less", "fewer", "lower", "smaller"):
            k = _by_figure(fork, low=True)
            if k:
                scores[k] += 3 * w
            continue
        if t.low in ("dearer", "expensive", "more", "higher", "bigger"):
            k = _by_figure(fork, low=False)
            if k and t.low != "more":
                scores[k] += 3 * w
            continue
        if not t.is_word:
            continue
        for k in keys:
            if _NUM.match(t.low) and t.low in opt_nums[k]:
                scores[k] += 2 * w
            elif (
                len(t.low) >= 3
                and not _NUM.match(t.low)
                and any(
                    ow == t.lemma
                    or (len(t.lemma) >= 4 and ow.startswith(t.lemma[:4]))
                    or (len(ow) >= 4 and t.lemma.startswith(ow[:4]))
                    for ow in opt_words[k]
                )
                and t.low not in ("the", "and", "but", "one", "ones", "with", "for", "not")
            ):
                scores[k] += w
    best = max(scores.values())
    if best <= 0:
        return None
    winners = [k for k, s in scores.items() if s == best]
    return winners[0] if len(winners) == 1 else None
    _ = text
    return pick


def _by_figure(fork: Mapping[str, str], *, low: bool) -> str | None:
    nums: dict[str, float] = {}
    for k, t in fork.items():
        m = re.search(r"(\d+(?:\.\d+)?)", t.replace(",", ""))
        if m:
            nums[k] = float(m.group(1))
    if len(nums) < 2:
        return None
    return (min if low else max)(nums, key=lambda k: nums[k])


def option_directions(text: str, *, unit: str | None = None) -> list[Read]:
    """What a fork option's own words bind, read the same way ("Delivery riders, $399 kit")."""
    r = read_text(text, source="option", unit=unit)
    if r.directions:
        bare = [p for p in r.parts if p.kind != "direction"]
        extra: list[Read] = []
        for p in bare:
            extra += _option_bare(
                _Ctx(parse(p.words), vocab(), "option", None), p.words, parse(p.words)
            )
        return r.directions + extra
    cx = _Ctx(parse(text), vocab(), "option", None)
    return _option_bare(cx, text, cx.utt)


def _own(cx: _Ctx, out: Reading, fork: Mapping[str, str], unit: str | None) -> None:
    pick = _pick(cx, fork)
    out.option = pick
    keys = [k for k in fork] if pick == "both" else [pick] if pick else []
    content: dict[str, Read] = {}
    headlines = {k: _headline(t) for k, t in fork.items()}
    if all(headlines.values()) and pick in fork:
        other = next(k for k in fork if k != pick)
        h = headlines[other] or ""
        content["claim:" + h.lower()] = Read("claim", False, h, 0, 0)
        keys = []
    for k in keys:
        for d in option_directions(fork[k], unit=unit):
            content.setdefault(_slot(d) if pick != "both" else _slot(d) + k, d)
    for d in out.directions:
        content[_slot(d)] = d
    out.directions = list(content.values())


def _headline(text: str) -> str | None:
    m = re.match(r"^\s*headline:\s*['‘\"“](.+?)['’\"”]?\s*$", text, re.IGNORECASE)
    return m.group(1).strip() if m else None


def _slot(d: Read) -> str:
    if d.axis in ("exclusion", "claim", "audience", "channel", "tone"):
        return f"{d.axis}:{d.value.lower()}"
    if d.axis == "number":
        return f"number:{d.key}"
    if d.axis == "price":
        return "price"
    return d.axis


def _ask(cx: _Ctx, out: Reading) -> None:
    """Whether a careful reader asks: money with no currency, a price or name refused with no
    replacement, a date with no week, a request that names nothing, "both" where both can't be,
    a bare "neither"."""
    ds = out.directions
    low = cx.low
    why = ""
    if any(d.axis == "price" and d.do and d.amount is not None and not d.currency for d in ds):
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
            any(d.axis in ("place", "name") for d in option_directions(t)) for t in cx.fork.values()
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
    out.asked, out.ask_why = bool(why), why


def _chatter(cx: _Ctx) -> bool:
    text = " ".join(cx.low)
    return any(c in text for c in cx.v.lists["chatter"]) and cx.source != "rejection"
