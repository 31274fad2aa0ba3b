"""An own answer at a fork: which option the words pick, what the option's own words bind (read
the same way as the player's), and the player's words over it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from engine.language.reader.figures import NUM, currency_in, fmt
from engine.language.reader.reads import (
    CANT,
    CLAUSE_VERBS,
    NEG,
    REASON_STARTS,
    SUBJECTS,
    VERBISH,
    Ctx,
    Read,
    Reading,
    noun_phrase,
    settle,
    tidy_value,
)
from engine.language.reader.utterance import Clause, parse
from engine.language.reader.vocab import vocab

_FIRST_PERSON = vocab().lists["first_person"]
_PICK_AFTER = vocab().lists["pick_after"]


def _pick(cx: Ctx, fork: Mapping[str, str]) -> str | None:
    """Which option the words pick: "A"/"B", "both", or None (neither, or no fit). A letter or
    an ordinal picks outright (the last one after a change of mind); otherwise the option whose
    words (or figures) the answer names most, a named option under a negation or a deferral
    ("shops can come later") counting against it."""
    low = [t.low for t in cx.utt.tokens]
    if "neither" in low or low[:2] == ["none", "of"]:
        return None
    if "both" in low and not any(x in low for x in ("mostly", "bad", "say", "fine", "first")):
        return "both"
    return _Picker(cx, fork).pick() or _not_yet(cx, fork)


def _not_yet(cx: Ctx, fork: Mapping[str, str]) -> str | None:
    """ "not yet", "hold off": the one option that stays as things are ("Stay Bristol-only")."""
    low = " ".join(cx.low)
    if not any(x in low for x in ("not yet", "hold off", "not now")):
        return None
    staying = [
        k
        for k, text in fork.items()
        if any(t.low in cx.v.lists["staying"] for t in parse(text).tokens)
    ]
    return staying[0] if len(staying) == 1 else None


def outright(text: str, fork: Mapping[str, str]) -> str | None:
    """The option a letter or an ordinal picks outright ("B obviously", "the second one but …"),
    after a change of mind the last; None when the words only lean towards one, or say neither."""
    v = vocab()
    cx = Ctx(
        parse(text, new_clause_words=CLAUSE_VERBS | v.lists["verbs"]),
        v,
        "own",
        fork,
        read_option=lambda _text, _unit: [],
    )
    if "neither" in cx.low:
        return None
    picker = _Picker(cx, fork)
    picker.pick()
    return picker.outright


class _Picker:
    """The tally an own answer's words give each option (see `_pick`)."""

    def __init__(self, cx: Ctx, fork: Mapping[str, str]):
        self.fork, self.keys = fork, list(fork)
        self.low = [t.low for t in cx.utt.tokens]
        opt = {k: parse(fork[k]).tokens for k in self.keys}
        self.words = {k: {t.lemma for t in opt[k] if t.is_word and len(t.low) > 2} for k in opt}
        self.nums = {k: {t.low for t in opt[k] if NUM.match(t.low)} for k in opt}
        self.scores = dict.fromkeys(self.keys, 0.0)
        self.v = cx.v
        self.outright: str | None = None
        self.changed = False
        v = cx.v
        against = {
            cl.i
            for cl in cx.utt.clauses
            if any(d in " ".join(cl.low) for d in v.lists["deferrals"])
            or any(
                re.search(r"\b" + re.escape(r) + r"\b", " ".join(cl.low))
                for r in v.lists["rejections"]
            )
        }
        self.against = {x for cl in cx.utt.clauses if cl.i in against for x in range(cl.i, cl.j)}
        # a reason after the answer ("forums. the agents want a cut") names, it does not pick
        self.reasons = {
            x
            for cl in cx.utt.clauses[1:]
            if cl.low
            and (cl.low[0] in REASON_STARTS or cl.low[0] in SUBJECTS)
            and cl.low[0] not in _FIRST_PERSON  # "I think Everton", "we go with B": the answer
            for x in range(cl.i, cl.j)
        }
        # a statement after the answer ("dinners. lunchboxes are a different business") is a
        # reason too: it names, it does not pick; on a tie it sets aside what only it names
        self.statements = {
            x for cl in cx.utt.clauses[1:] if _statement(cl, cx) for x in range(cl.i, cl.j)
        }
        self.aside = dict.fromkeys(self.keys, 0.0)
        self.tokens = cx.utt.tokens

    def pick(self) -> str | None:
        for idx in range(len(self.tokens)):
            if self._change_of_mind(idx):  # start the tally again
                self.changed, self.outright = True, None
                self.scores = dict.fromkeys(self.keys, 0.0)
                self.aside = dict.fromkeys(self.keys, 0.0)
            elif idx in self.statements and any(sc > 0 for sc in self.scores.values()):
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
        named = [k for k in self.keys if any(_alike(t.lemma, ow) for ow in self.words[k])]
        if len(named) == 1:
            self.aside[named[0]] += 1

    def _change_of_mind(self, idx: int) -> bool:
        """ "actually", "no wait", "wait," (never the verb: "buyers won't wait for vans")."""
        low = self.low
        if low[idx] == "actually":
            return True
        if low[idx] != "wait":
            return False
        nxt = self.tokens[idx + 1] if idx + 1 < len(low) else None
        return low[idx - 1 : idx] in (["no"], ["oh"], ["hmm"]) or nxt is None or not nxt.is_word

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
            t.low in ("a", "b") and (idx == 0 or low[idx - 1] in ("go", "option", "no"))
        )
        if not letter or (nxt and nxt[0].isalpha() and nxt not in _PICK_AFTER):
            return False
        self._choose(self.keys[0] if t.low == "a" else self.keys[1])
        return True

    def _ordinal(self, idx: int) -> bool:
        """ "the first one", "the second", "the latter" near the start picks outright."""
        t, low = self.tokens[idx], self.low
        nxt = low[idx + 1] if idx + 1 < len(low) else ""
        if t.low not in ("first", "1st", "former", "second", "2nd", "latter") or idx >= 4:
            return False
        if (
            t.low == "first"
            and low[idx - 1 : idx] != ["the"]
            and (idx > 0 or nxt not in ("one", "option", ""))
        ):
            return False  # "beta first" orders the work; "first", "the first one" pick
        if self.outright is not None and not self.changed:
            return False
        self._choose(self.keys[0] if t.low in ("first", "1st", "former") else self.keys[1])
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
                self.scores[k] += 3 * w
            return
        if not t.is_word or t.low in ("the", "and", "but", "one", "ones", "with", "for", "not"):
            return
        for k in self.keys:
            if NUM.match(t.low):
                self.scores[k] += 2 * w if t.low in self.nums[k] else 0
            elif len(t.low) >= 3 and any(_alike(t.lemma, ow) for ow in self.words[k]):
                self.scores[k] += w
                if self.changed and w > 0:  # "Frozen Assets. Actually no, Clear Cut."
                    self._choose(k)


def _statement(cl: Clause, cx: Ctx) -> bool:
    """A clause that says something of its opening noun phrase ("lunchboxes are a different
    business", "Teams users don't buy things"): the phrase, then a verb."""
    phrase = noun_phrase(cl.tokens, cx.v)
    words = [t for t in cl.tokens if t.is_word]
    at = words.index(phrase[-1]) + 1 if phrase else len(words)
    if at >= len(words):
        return False
    nxt, lists = words[at].low, cx.v.lists
    return (
        nxt in VERBISH
        or nxt in lists["verbs"]
        or nxt in lists["finite"]  # "lunchboxes are …", "the agents want a cut"
        or nxt in lists["happens"]  # "tablets break too easy"
        or nxt.endswith("n't")
    )


def _alike(word: str, other: str) -> bool:
    """The same word, or one the other begins like ("meds" / "medication", "FB" aside)."""
    return (
        other == word
        or (len(word) >= 4 and other.startswith(word[:4]))
        or (len(other) >= 4 and len(word) >= 4 and word.startswith(other[:4]))
    )


def _by_figure(fork: Mapping[str, str], *, low: bool) -> str | None:
    nums: dict[str, float] = {}
    for k, t in fork.items():
        m = re.search(r"(\d+(?:\.\d+)?)", t.replace(",", ""))
        if m:
            nums[k] = float(m.group(1))
    if len(nums) < 2:
        return None
    return (min if low else max)(nums, key=lambda k: nums[k])


def own_answer(cx: Ctx, out: Reading, fork: Mapping[str, str], unit: str | None) -> None:
    """An own answer: the picked option's content, then the player's words over it (on each
    axis the player names, the player's value replaces the option's); an option the words
    dismiss or put off ("shops can come later") is left out."""
    pick = _pick(cx, fork)
    out.option = pick
    keys = list(fork) if pick == "both" else [pick] if pick else []
    opts = {k: cx.read_option(t, unit) for k, t in fork.items()}
    _same_kind(opts)
    fork_text = " ".join(fork.values()).lower()
    out.parts = [  # "bristol", "the shops one": a reference to an option, not an unplaced thing
        replace(p, kind="commentary", reason="", teach_back="")
        if p.reason == "unplaced"
        and (_overlaps(p.words, fork_text) or any(k in p.words.split() for k in fork))
        else p
        for p in out.parts
    ]
    content: list[Read] = []
    headlines = {k: _headline(t) for k, t in fork.items()}
    own: list[Read] = []
    for d in out.directions:
        if pick and d.axis == "price" and d.amount is None and not d.unit:
            continue  # "the cheaper one": the words that picked the option, not a move of it
        if (
            d.weak
            and d.axis in ("audience", "scope", "place", "name", "channel")
            and _overlaps(d.value, fork_text)
        ):
            continue  # "riders", "the shops one", "Frozen Assets": a reference to an option
        if d.axis == "price" and d.weak:
            src = next((c for k in keys for c in opts[k] if c.axis == "price" and c.amount), None)
            src = src or next((c for cs in opts.values() for c in cs if c.axis == "price"), None)
            if src is not None:
                d.period, d.unit = src.period, src.unit
                d.currency = d.currency or src.currency
                d.value = f"{d.currency or ''}{fmt(d.amount or 0)} a {d.unit or d.period}"
                d.weak = False
        own.append(d)
    if all(headlines.values()) and pick in fork:
        other = next(k for k in fork if k != pick)
        if not any(d.axis in ("claim", "exclusion") for d in own):
            content.append(Read("claim", False, headlines[other] or "", 0, 0, option=other))
        own = [replace(d, axis="claim") if d.axis == "exclusion" else d for d in own]
        keys = []
    picked_text = " ".join(fork[k] for k in keys).lower()
    mid = _between(cx, opts)
    if mid is not None:
        own.append(mid)
    for k in keys:
        content += [replace(d, option=k, start=0, end=0) for d in opts[k]]
    for k, named in _dismissed(cx, fork):
        if k in keys:
            continue  # the option the words pick is never the one they leave out
        for c in opts[k]:
            if c.axis in ("channel", "scope", "audience") and c.do:
                value = named if named and named.lower() not in picked_text else c.value
                own.append(Read("exclusion", False, value, 0, 0, option=k))
    if pick is None:
        own = _on_fork_axis(cx, own, opts)
    _currency_said(cx, own, content)
    # a bound the player sets ("don't ever go below $150") limits the option's price, it does
    # not replace it: the option's figure stays beside it
    own_axes = {d.axis for d in own if d.do and not (d.axis == "price" and d.op != "eq")}
    excluded = {d.value.lower() for d in own if d.axis == "exclusion"}
    merged = [
        c
        for c in content
        if c.axis not in own_axes
        and c.value.lower() not in excluded
        and not (c.axis == "number" and any(d.axis == "number" for d in own))
        and not any(_breaks(c, d) for d in own)
    ]
    out.directions = settle(merged + own)


def _on_fork_axis(cx: Ctx, own: list[Read], opts: Mapping[str, list[Read]]) -> list[Read]:
    """Neither option picked, both on one axis: the player's own capitalised words are on it,
    and with nothing else said, the noun phrase after "neither" is the answer."""
    fork_axis = {d.axis for ds in opts.values() for d in ds if d.do}
    if len(fork_axis) != 1:
        return own
    axis = next(iter(fork_axis))
    own = [
        replace(d, axis=axis)
        if d.weak and d.axis in ("scope", "audience") and d.value[:1].isupper()
        else d
        for d in own
    ]
    return own if any(d.do for d in own) else own + _instead(cx, axis)


def _instead(cx: Ctx, axis: str) -> list[Read]:
    """ "neither. Odd Sock Club", "neither, the office manager buys this": the noun phrase said
    after "neither" is the player's own answer, on the axis both options are on."""
    clauses = cx.utt.clauses
    at = next((n for n, cl in enumerate(clauses) if "neither" in cl.low), None)
    if at is None:
        return []
    rest = [t for t in clauses[at].tokens if t.low != "neither"]
    for toks in (rest, *(cl.tokens for cl in clauses[at + 1 : at + 2])):
        phrase = noun_phrase(toks, cx.v)
        if phrase:
            tidy = tidy_value(cx.utt, phrase)
            if tidy:
                return [Read(axis, True, tidy[0], tidy[1], tidy[2])]
    return []


def _breaks(option: Read, bound: Read) -> bool:
    """The option's price is outside the player's bound ("the fitted one, but we can't go over
    600" of a $649 option): the bound replaces it."""
    if option.axis != "price" or bound.axis != "price" or option.amount is None:
        return False
    if bound.amount is None or bound.op == "eq":
        return False
    over = option.amount > bound.amount
    return over if bound.op == "max" else option.amount < bound.amount


def _currency_said(cx: Ctx, own: list[Read], content: list[Read]) -> None:
    """ "A, but in euros": a currency the answer names with no figure of its own re-prices the
    option in it (the figure kept, never converted)."""
    if any(d.axis == "price" for d in own):
        return
    said = currency_in([t.low for t in cx.utt.tokens], cx.v)
    for c in content:
        if c.axis == "price" and c.amount and said and said != c.currency:
            c.currency = said
            c.value = f"{said}{fmt(c.amount)} a {c.unit or c.period}"


def _same_kind(opts: Mapping[str, list[Read]]) -> None:
    """Two options are the same kind of thing: beside a channel ("Instagram ads"), "Gift shops"
    is a channel too, not the people the work speaks to."""
    firsts = {k: next((d for d in ds if d.do), None) for k, ds in opts.items()}
    if any(d is not None and d.axis == "channel" for d in firsts.values()):
        for d in firsts.values():
            if d is not None and d.axis in ("audience", "scope") and d.start == 0:
                d.axis = "channel"


def _dismissed(cx: Ctx, fork: Mapping[str, str]) -> list[tuple[str, str]]:
    """The options a clause names and dismisses or defers ("Google ads … is a bloodbath",
    "shops can come later", "B in month 3"), each with the words of it the clause names."""
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
            named = [
                t.text
                for t in cl.tokens
                if t.is_word and len(t.low) > 2 and _overlaps(t.low, opt.lower())
            ]
            if named or k in [t.text for t in cl.tokens[:1]]:
                out.append((k, " ".join(named[:2])))
    return out


def _overlaps(value: str, text: str) -> bool:
    words = re.findall(r"\w+", text)
    return any(
        len(w) >= 3 and any(x == w or (len(w) >= 4 and x.startswith(w[:4])) for x in words)
        for w in re.findall(r"\w+", value.lower())
        if w not in ("the", "one", "ones", "and", "more", "per", "with", "for")
    )


def _between(cx: Ctx, opts: Mapping[str, list[Read]]) -> Read | None:
    """ "split the difference" of two priced options: the price halfway between."""
    low = cx.low
    if not any(cx.v.match(cx.v.between, low, k) for k in range(len(low))):
        return None
    prices = [d for ds in opts.values() for d in ds if d.axis == "price" and d.amount]
    if len(prices) != 2:
        return None
    p, q = prices
    mid = round((p.amount or 0) / 2 + (q.amount or 0) / 2, 2)
    return Read(
        "price",
        True,
        f"{p.currency or ''}{fmt(mid)} a {p.unit or p.period}",
        0,
        len(cx.utt.text),
        amount=mid,
        period=p.period,
        unit=p.unit,
        currency=p.currency,
    )


def _headline(text: str) -> str | None:
    m = re.match(r"^\s*headline:\s*['‘\"“](.+?)['’\"”]?\s*$", text, re.IGNORECASE)
    return m.group(1).strip() if m else None
