"""One clause read into directions (engine.language.reader reads the message): its figures
(prices, number targets, weeks), tone words, the cues that introduce a value per axis, a bare
"X only", a relative move ("too expensive") and a complaint ("too broad")."""

from __future__ import annotations

import re

from engine.language.composition import COMPETITOR_AFTER
from engine.language.directions import GENERIC_CLAIM
from engine.language.reader.figures import NUM, Fig, figures_of, fmt, number_of, word_number
from engine.language.reader.reads import (
    ARTICLES,
    CALENDAR,
    CANT,
    CLAUSE_VERBS,
    IMPERATIVE_CUES,
    KEY_OPS,
    LISTED,
    NEG,
    NOT_PEOPLE_PLURALS,
    NOT_VALUES,
    PRICE_BIGRAMS,
    PRICE_CUES,
    QUOTES,
    REASON_STARTS,
    SUBJECTS,
    TARGET_CUES,
    Ctx,
    Read,
    cap_run,
    capitalised_words,
    claimish,
    head_words,
    is_channel,
    is_people,
    is_place,
    list_items,
    name_value,
    noun_phrase,
    opening_phrase,
    place_said,
    quoted_spans,
    role_before,
    span_of,
    tidy_value,
    value_run,
)
from engine.language.reader.utterance import Clause, Token, tokenize, verb_stems
from engine.language.reader.vocab import Cue, cue_words, vocab

_FIGURE_FOLLOWERS = vocab().lists["figure_followers"]
_ASKING = (["can"], ["could"], ["shall"], ["should"], ["must"], ["let"], ["will"])
_NEG_LEADS = vocab().lists["neg_leads"]
_SCOPE_ENDS = vocab().lists["scope_ends"]
_NEG_SCOPE = vocab().lists["neg_scope"]
_REACH_CUES = vocab().lists["reach_cues"]
_NEGATING = (("not",), ("no",), ("never",))
# A clause about others ("they bring 20 weddings each") reports a fact, it sets no target.
_THIRD_PERSON = vocab().lists["third_person"]


def _doer(word: str) -> bool:
    """A word for one person by what they do ("officer", "coordinator", "pharmacist")."""
    return len(word) > 5 and word.endswith(("er", "or", "ist", "ian"))


# Words that set a figure against the one the player wants ("$45 rather than $30").
_SET_AGAINST = (["rather", "than"], ["instead", "of"], ["not", "at"])
# A count of weeks said as a move ("two weeks earlier"): no launch week of its own.
_MOVES = {"earlier": "earlier", "sooner": "earlier", "later": "later", "ahead": "earlier"}
# A week said of something else happening (its verb), unless the clause names our launch.
_HAPPENS = vocab().lists["happens"]
_LAUNCH_WORDS = vocab().lists["launch_words"]
_OUR_SIDE = vocab().lists["our_side"]
# Verbs that take a thing out: under a negation they keep it ("never drop X").
_REMOVALS = vocab().lists["removals"]
_WEAK_CUES = frozenset(tuple(c.split()) for c in vocab().lists["weak_cues"])
_NP_PREPOSITIONS = vocab().lists["np_prepositions"]
_BOUND_WORDS = frozenset(w for c in vocab().ops for w in c.words)  # "under", "lower", "than" …
_RIVAL_DOES = tuple(cue_words(c) for c in COMPETITOR_AFTER)
_REFUSED = {"axis": "exclusion", "do": False}
_BY_KIND = {"axis": "scope", "do": True, "kind": "only"}  # the value's kind, or no reading
_APPROX = frozenset(("about", "around", "roughly", "like", "maybe", "some", "up", "to"))
# Any word that dismisses a figure ("is a fantasy", "robbery"), as one pattern (vocab rejections).
_REJECTING = re.compile(
    r"\b(?:"
    + "|".join(re.escape(w) for w in sorted(vocab().lists["rejections"], key=len, reverse=True))
    + r")\b"
)
_OBJECTS = vocab().lists["objects"]
_CLAIM_SUBJECTS = vocab().lists["claim_subjects"]


def _claims(c: Cue) -> bool:
    return c.row["axis"] == "claim" and not c.row["do"]


_OBJECT_ENDS = vocab().lists["object_ends"]
_FOR_LEADS = vocab().lists["for_leads"]


_AFFIRMING = sorted((cue_words(p) for p in vocab().lists["affirming"]), key=len, reverse=True)
_AFFIRMING_FIRST = frozenset(p[0] for p in _AFFIRMING)


def _affirmed(low: list[str]) -> tuple[list[str], list[int]]:
    """ "why not nurses?", "no harm in trying tiktok", "don't forget the nurses": a phrase with a
    negation in it that affirms what follows (words.json affirming) negates nothing. The clause
    is read with the phrase as "please" (so "why not start in leeds" reads as "please start in
    leeds"); the indexes where what it affirms starts."""
    out, at, k = list(low), [], 0
    while k < len(low):
        p = None
        if low[k] in _AFFIRMING_FIRST:
            p = next((p for p in _AFFIRMING if tuple(low[k : k + len(p)]) == p), None)
        if p is None:
            k += 1
            continue
        out[k : k + len(p)] = ["please"] * len(p)
        k += len(p)
        at.append(k)
    return out, at


class ClauseReader:
    def __init__(self, cx: Ctx, cl: Clause):
        self.cx, self.cl, self.v = cx, cl, cx.v
        self.low, self.affirmed_at = _affirmed(cl.low)
        self.out: list[Read] = []
        self.used: set[int] = set()
        self.at = {id(t): x for x, t in enumerate(cl.tokens)}  # a token's index, by identity

    def add(self, axis: str, do: bool, i: int, j: int, value: str, **kw: object) -> Read:
        a, b = span_of(self.cl, i, j)
        r = Read(axis=axis, do=do, value=value, start=a, end=b, **kw)  # type: ignore[arg-type]
        self.out.append(r)
        self.used.update(range(i, j))
        return r

    # figures: prices, number targets, weeks
    def figures(self) -> None:
        v, low, cx = self.v, self.low, self.cx
        lem = [t.lemma for t in self.cl.tokens]
        key_cue = next(
            (c for k in range(len(lem)) if (c := v.match(v.number_keys, lem, k)) is not None),
            None,
        )
        if key_cue:
            cx.last_key = str(key_cue.row["key"])
        quoted = self._quoted_at()
        figs = figures_of(low, v, keyed=key_cue is not None)
        claim = self._claim_at() if figs else len(low)
        for f in figs:
            if any(x in self.used for x in range(f.i, f.j)) or not self._is_figure(f):
                continue
            if f.i > claim:
                continue
            if f.i in quoted and len(quoted) >= 3:
                continue  # "dont say 'saves 5 hours a week'": the figure is the quote's words
            if f.money and low[f.j : f.j + 1] and low[f.j] in v.lists["differences"]:
                self.used.update(range(f.i, f.j))  # "£10 cheaper", "a fiver off": a move by
                continue  # a figure, never the price; the money left unread is asked about
            if f.money and self._held(f):
                self.used.update(range(f.i, f.j))  # "we have £5k in the bank": our books
                self.cx.held = True
                continue
            op = self._op(f)
            rejected = self._rejected_fig(f)
            key = self._figure_key(f, op, near=key_cue is not None)
            if key is None and self._earned(f):
                key = "mrr"  # "no new hires til we make 30k a month": what we take, not a price
            if self._number(f, key, op, rejected):
                continue
            if f.money or self._price_context(f):
                self.price(f, op, rejected)
            elif not self._customers(f, op, rejected):
                self._bare_figure(f, op, rejected)

    def _held(self, f: Fig) -> bool:
        """Money we have, raised or spent ("we have £5k in the bank", "we've got about 20k"): a
        verb of holding (words.json holding_verbs) right before the figure, after our subject."""
        low = self.low
        k = f.i - 1
        while k > 0 and low[k] in _APPROX | {"only", "just", "nearly", "almost", "over"}:
            k -= 1
        first = self.v.lists["first_person"] | {"i've", "we've", "ive", "weve"}
        return k > 0 and low[k] in self.v.lists["holding_verbs"] and low[k - 1] in first

    def _is_figure(self, f: Fig) -> bool:
        """A figure the player means as one: not a week's, a year's or a clock's number."""
        low = self.low
        before = low[f.i - 1] if f.i > 0 else ""
        after = low[f.j] if f.j < len(low) else ""
        return not (
            before in ("week", "wk", "weeks", "month", "day", "v", "year", "+", "/", "top")
            or (before == ":" and f.i >= 2 and NUM.match(low[f.i - 2]) is not None)  # "3:15"
            or after in (":", "x", "-", "+", "am", "pm", "out", "minutes", "mins")
            or (
                not f.money
                and 1900 <= f.amount <= 2100
                and f.amount % 1 == 0
                and "," not in low[f.i]  # a year ("a 2009 forum")
            )
            or (after in ("week", "weeks", "wk", "wks") and not f.money)  # a week: read below
        )

    def _figure_key(self, f: Fig, op: str | None, *, near: bool) -> str | None:
        """Which number target a figure sets: the key word by it, or the one said just before
        ("this assumes I work 70 hours a week. cap it at 40"; "burn's too high. £12k max")."""
        cx = self.cx
        key = self._near_key(f) if near else None
        if key is None and not f.money and cx.last_key and (op or len(self.low) <= 3):
            key = cx.last_key
        if (
            key is None
            and f.money
            and cx.last_key in ("burn", "mrr", "cac")
            and (f.amount >= 1000 or op or cx.last_key == "cac")
            and not self._unit_after(f)
        ):
            key = cx.last_key
        if key in ("cac", "burn", "mrr") and self._noun_after(f):
            return None  # "a £90 CAC on a £40 sensor": the £40 is what the sensor costs
        return key

    def _number(self, f: Fig, key: str | None, op: str | None, rejected: bool) -> bool:
        """A churn, burn, CAC, MRR or hours target from the figure; whether it was one."""
        cx, low = self.cx, self.low
        after = low[f.j] if f.j < len(low) else ""
        n, j = fmt(f.amount), f.j
        if f.percent or (key == "churn" and not f.money):
            if not (key == "churn" or (key is None and cx.churn)):
                return f.percent  # "15% commission": no target to hold
            value, key, op = f"{n}%", "churn", op or "max"
        elif key in ("burn", "cac", "mrr") and (f.money or f.amount >= 1000 or key == "cac"):
            cur = f.currency or cx.currency
            r = self.add(
                "number",
                True,
                f.i,
                j,
                f"{cur or ''}{n}",
                amount=f.amount,
                op=op or KEY_OPS[key],
                key=key,
                currency=cur,
            )
            r.weak = r.refused = rejected
            cx.last_key = key
            return True
        elif after in ("hours", "hrs", "hour", "hr") or (key == "hours" and not f.money):
            j += 1 if after in ("hours", "hrs", "hour", "hr") else 0
            value, key, op = f"{n} hours a week", "hours", op or "max"
        else:
            return False
        r = self.add("number", True, f.i, j, value, amount=f.amount, op=op, key=key)
        r.weak = r.refused = rejected
        cx.last_key = key  # "… 70 hours a week. cap it at 40": the 40 is hours too
        return True

    def _customers(self, f: Fig, op: str | None, rejected: bool) -> bool:
        """ "we need 30 paying sites", "just 5 clinics": a customer target; whether it was one."""
        low, cx = self.low, self.cx
        before = low[f.i - 1] if f.i > 0 else ""
        corrected = False
        noun_at = next(
            (
                x
                for x in range(f.j, min(len(low), f.j + 3))
                if self.cl.tokens[x].is_word
                and (low[x].endswith("s") or low[x] in ("people", "staff"))
                and low[x] not in NOT_PEOPLE_PLURALS
                and low[x] not in self.v.lists["pronouns"]  # "50 meh ones": no customers
                and not low[x].endswith("'s")
            ),
            None,
        )
        if noun_at is None or not (
            any(t in TARGET_CUES for t in low)
            or (cx.source in ("own", "option") and low[0] not in _THIRD_PERSON)
            or before in ("just", "only")
            or rejected
            or (corrected := self._corrected(noun_at))
        ):
            return False
        reached = any(t in _REACH_CUES for t in low)
        r = self.add(
            "number",
            True,
            f.i,
            noun_at + 1,
            f"{fmt(f.amount)} {self.cl.tokens[noun_at].text}",
            amount=f.amount,
            op=op or ("min" if reached else "eq"),
            key="customers",
        )
        r.weak = r.refused = rejected
        cx.last_key = "customers"
        if corrected:
            self.used.update(range(noun_at + 1, len(low)))  # "… not 400": the figure set aside
        return True

    def _corrected(self, at: int) -> bool:
        """ "40 customers not 400": a count set against another, a target corrected."""
        after = self.low[at + 1 :]
        return after[:1] == ["not"] and any(number_of(w, self.v) for w in after[1:3])

    def _bare_figure(self, f: Fig, op: str | None, rejected: bool) -> None:
        """A figure with nothing by it: in the fork's terms in an own answer, else a corrected
        customer count ("1000 subscribers is a fantasy. 300")."""
        kind = self.cx.fork_kind()
        if kind is not None and self.cx.source == "own" and not f.money:
            self._as_kind(kind, f, op, rejected)
        elif self.cx.last_key == "customers" and len(self.low) <= 6:
            self.add(
                "number",
                True,
                f.i,
                f.j,
                fmt(f.amount),
                amount=f.amount,
                op=op or "eq",
                key="customers",
            )

    def _as_kind(self, kind: Read, f: Fig, op: str | None, rejected: bool) -> None:
        """A bare figure in an own answer, in the terms the fork's options give their figure."""
        n = fmt(f.amount)
        if kind.axis == "timeline":
            r = self.add("timeline", True, f.i, f.j, f"week {n}", amount=f.amount)
        elif kind.axis == "price":
            cur = kind.currency
            r = self.add(
                "price",
                True,
                f.i,
                f.j,
                f"{cur or ''}{n} a {kind.unit or kind.period}",
                amount=f.amount,
                op=op or "eq",
                period=kind.period,
                unit=kind.unit,
                currency=cur,
            )
        else:
            value = {"churn": f"{n}%", "hours": f"{n} hours a week"}.get(kind.key or "", n)
            if kind.key in ("burn", "mrr", "cac"):
                value = f"{kind.currency or ''}{n}"
            r = self.add(
                "number",
                True,
                f.i,
                f.j,
                value,
                amount=f.amount,
                op=op or kind.op,
                key=kind.key,
                currency=kind.currency,
            )
            if kind.key == "customers" and any(t in ("need", "want", "hit") for t in self.low):
                r.op = op or "min"
        if rejected or self.low[max(0, f.i - 1) : f.i] == ["not"]:
            r.weak, r.do = True, False

    def free(self) -> None:
        """ "free", "always free", "$0": a price of nothing."""
        words = [t.low for t in self.cl.tokens if t.is_word]
        words = words[: words.index("for")] if "for" in words else words  # "free for families"
        if "free" in words and set(words) <= self.v.lists["free_words"]:
            k = self.low.index("free")
            self.add("price", True, k, k + 1, "free", amount=0.0, period="unit")

    def _near_key(self, f: Fig) -> str | None:
        """The number key whose word sits nearest before the figure ("keep churn under 3% and
        the burn under $30,000": the $30,000 is the burn), or just after it ("£90 CAC"); None
        when no key word is near ("a £90 CAC on a £40 sensor": the £40 is a price). A key word
        right after the figure ("£40 to get a landlord") is the nearest of all."""
        v = self.v
        lem = [t.lemma for t in self.cl.tokens]
        spots = [(k, c) for k in range(len(lem)) if (c := v.match(v.number_keys, lem, k))]
        right_after = [c for k, c in spots if k == f.j]
        if right_after:  # "spend more than £40 to get a landlord": what the £40 buys is the key
            return str(right_after[0].row["key"])
        before = [(f.i - k, c) for k, c in spots if f.i - 6 <= k < f.i]
        if before:
            return str(min(before, key=lambda x: x[0])[1].row["key"])
        after = [c for k, c in spots if f.j <= k <= f.j + 2]
        return str(after[0].row["key"]) if after else None

    def _rejected_fig(self, f: Fig) -> bool:
        """The figure is dismissed: "not $50k", "$80k … is silly", "who is paying $15"."""
        low = self.low
        if low[max(0, f.i - 1) : f.i] == ["not"] or low[max(0, f.i - 2) : f.i] in _SET_AGAINST:
            return True  # "$45 rather than $30": the $30 is the one set aside
        if ">" in low[: f.i]:
            return True  # "10 good ones > 50 meh ones": the one after ">" is the one set aside
        if self.cl.question and f.i <= 1 and f.j >= len(low) and self.cx.source != "own":
            return True  # "£149??": the figure alone, questioned
        text_after = " ".join(low[f.j :])
        text_before = " ".join(low[: f.i])
        if _REJECTING.search(text_after) and not any(
            t in ("make", "try", "cut", "get") for t in low[: f.i]
        ):
            return True
        said = list(_REJECTING.finditer(text_before))  # "the price is too high at 20 quid"
        if said and set(text_before[said[-1].end() :].split()) <= {"at", "for"}:
            return True
        if any(t in ("who", "who's", "nobody") for t in low[: f.i]) and "more" not in low[: f.i]:
            return True
        if re.search(r"\b(?:in what world|why)\b", text_before + " " + text_after):
            return True
        return (f.j < len(low) and low[f.j] in ("?", "??", "isn't")) or any(
            self.cl.tokens[x].text == "?" for x in range(f.j, min(len(low), f.j + 1))
        )

    def _noun_after(self, f: Fig) -> bool:
        """A figure said of a thing ("£40 sensor"), not of a target."""
        toks = self.cl.tokens
        if f.j >= len(toks) or not toks[f.j].is_word:
            return False
        word = toks[f.j].low
        return word not in self.v.lists["terminators"] and word not in _FIGURE_FOLLOWERS

    def _unit_after(self, f: Fig) -> bool:
        low = self.low
        return (
            f.j + 1 < len(low)
            and low[f.j] in ("a", "per")
            and low[f.j + 1] not in ("month", "year", "mo", "week")
        )

    def _op(self, f: Fig) -> str | None:
        low = self.low
        for k in range(max(0, f.i - 4), f.i):
            c = self._op_at(k, "before")
            if c and k + len(c.words) >= f.i - 1:
                if (
                    c.row["op"] == "max"
                    and {"below", "under", "less", "lower", "cheaper"} & set(c.words)
                    and any(t in NEG or t in CANT or t == "ever" for t in low[max(0, k - 3) : k])
                ):
                    return "min"  # "don't ever go below $150", "don't charge less than $20"
                return str(c.row["op"])
        for k in range(f.j, min(len(low), f.j + 6)):
            c = self._op_at(k, "after")
            if c:
                return str(c.row["op"])
        return None

    def _op_at(self, k: int, where: str) -> Cue | None:
        """The bound said at k on that side of a figure ("max $40", "$40 max"): the longest."""
        return next(
            (c for c in self.v.candidates(self.v.ops, self.low, k) if c.row["where"] == where),
            None,
        )

    def _earned(self, f: Fig) -> bool:
        """A figure we make, hit or reach ("til we make 30k a month", "once we hit 30k"): what
        the venture takes in, a revenue target, never the price (words.json earning_verbs)."""
        before = self.low[max(0, f.i - 4) : f.i]
        return "we" in before and any(w in self.v.lists["earning_verbs"] for w in before)

    def _price_context(self, f: Fig) -> bool:
        low, cx, v = self.low, self.cx, self.v
        after = low[f.j] if f.j < len(low) else ""
        if after in NOT_PEOPLE_PLURALS or after in ("week", "weeks", "people", "minutes", "of"):
            return False
        if self._throughput(f):
            return False  # "we can refurb about 50 a month": a count of work, not a price
        if v.match(v.period, low, f.j) or after in ("per", "/"):
            return True
        if (
            after == "a"
            and f.j + 1 < len(low)
            and low[f.j + 1].isalpha()
            and low[f.j + 1] not in ("lot", "bit", "day", "week", "month", "year", "cohort")
        ):
            return True  # "20 a plant"
        window = low[max(0, f.i - 3) : f.i]
        if any(t in PRICE_CUES for t in window) or any(
            " ".join(window[x : x + 2]) in PRICE_BIGRAMS for x in range(len(window) - 1)
        ):
            return True
        if cx.source in ("own", "option") and any(t in ("$", "£", "€") for t in cx.fork_low):
            return len(low) <= 4 or low[f.i - 1 : f.i] in (["but"], ["neither"])
        return f.i == 0 and len(low) <= 4 and cx.has_price

    def _throughput(self, f: Fig) -> bool:
        """A figure with no money said, after a subject and a verb that sets no price ("we
        refurb 50 a month", "they deliver 200 a week"): how much is done, not what it costs."""
        low, lists = self.low, self.v.lists
        if f.currency is not None or self.cx.currency is not None:
            return False
        before = [w for w in low[: f.i] if w not in lists["adverbs"] and w not in _APPROX]
        modal = lists["finite"] | lists["cant"] | lists["our_side"]
        if len(before) < 2 or not (
            before[0] in lists["subjects"] and all(w in modal for w in before[1:-1])
        ):
            return False  # only "we [can] VERB 50 a month"
        verb = before[-1]
        return verb.isalpha() and verb not in (
            PRICE_CUES | modal | lists["prepositions"] | lists["proposing_verbs"]
        )

    def price(self, f: Fig, op: str | None, rejected: bool) -> None:
        """A price: the figure, its currency (or the message's), its period or unit, its bound,
        and whether the words refuse it ("not $699", "who is paying $15")."""
        cur = f.currency or self.cx.currency
        period, unit, j = self._period_after(f)
        defaulted = period is None
        if period is None:  # none said: a unit's, or a month's for an app (words.json subscribed)
            period, unit = "month" if self.cx.unit in self.v.lists["subscribed"] else "unit", None
        if period == "unit" and unit is None:
            unit = self.cx.unit
        op, neg = self._price_bound(f, op, rejected)
        amount = f.amount
        value = "free" if amount == 0 else f"{cur or ''}{fmt(amount)} a {unit or period}"
        r = self.add(
            "price",
            not neg,
            f.i,
            j,
            value,
            amount=amount,
            op=op or "eq",
            period=period,
            unit=unit if period == "unit" else None,
            currency=None if amount == 0 else cur,
        )
        r.weak = defaulted

    def _period_after(self, f: Fig) -> tuple[str | None, str | None, int]:
        """The period or unit said with a price ("a month", "/user/mo", "per charger per
        weekend", "each", "Tickets at £25"), and where the price's words end."""
        v, low, toks = self.v, self.low, self.cl.tokens
        period: str | None = None
        unit: str | None = None
        for k in range(max(0, f.i - 3), f.i):
            c = v.match(v.period_before, low, k)
            if c:
                period = str(c.row["period"])  # "the annual $1,990"
        j = f.j
        while j < len(low):
            c = v.match(v.period, low, j)
            if c:
                if c.row["period"] in ("month", "year", "week"):
                    period = str(c.row["period"])
                elif period in (None, "unit"):
                    period, unit = "unit", c.row.get("unit") or unit
                j += len(c.words)
            elif low[j] == "for" and j + 2 < len(low) and low[j + 1] in ("a", "an", "one"):
                j += 1  # "35 for a plant"
            elif low[j] == "flat":
                j += 1  # "$49 flat per team per month"
            elif low[j] in ("a", "per", "/", "an") and j + 1 < len(low) and toks[j + 1].is_word:
                said, j = self._unit_at(j)
                if said == "head":
                    period, unit = "unit", "ticket"
                elif said and period in (None, "unit") and unit is None:
                    period, unit = period or "unit", said
            else:
                if unit is None and self._option_unit(j):  # an option's "$499 kit"
                    period, unit = "unit", toks[j].lemma
                    j += 1
                break
        if (
            unit is None
            and f.i >= 2
            and low[f.i - 1] == "at"
            and low[f.i - 2].endswith("s")
            and len(low[f.i - 2]) > 3
            and low[f.i - 2] not in v.lists["verbs"]
        ):
            period, unit = "unit", toks[f.i - 2].lemma  # "Tickets at £25 each"
        if period is None and unit is not None:
            period = "unit"
        return period, unit, j

    def _unit_at(self, j: int) -> tuple[str | None, int]:
        """The unit after "a" / "per" at j ("a box", "per charger per weekend"), and the index
        after it; None when the word is no unit ("a lot", "a day")."""
        low, toks = self.low, self.cl.tokens
        nouns = [toks[j + 1]]
        j2 = j + 2
        if j2 + 1 < len(low) and low[j2] == "per" and low[j2 + 1] in ("weekend", "night"):
            nouns += [toks[j2], toks[j2 + 1]]
            j2 += 2
        word = nouns[0].low
        if word in ARTICLES or word.isdigit() or word in ("lot", "bit", "day", "week"):
            return None, j2
        return " ".join(t.lemma if len(nouns) == 1 else t.low for t in nouns), j2

    def _option_unit(self, j: int) -> bool:
        """In an option's words, the noun right after a price is its unit ("$499 kit")."""
        t = self.cl.tokens[j]
        return (
            self.cx.source == "option"
            and t.is_word
            and t.low not in self.v.lists["terminators"]
            and t.low not in ("with", "and", "for", "no", "flat", "plus")
            and not t.low.endswith(("ed", "ly", "y"))
        )

    def _price_bound(self, f: Fig, op: str | None, rejected: bool) -> tuple[str | None, bool]:
        """The price's bound and whether it is refused: "nobody pays more than £89" is a
        ceiling, "not $699" and "who is paying $15" refuse the figure."""
        low = self.low
        before, near = low[: f.i], low[max(0, f.i - 4) : f.i]
        neg = any(t in NEG or t in CANT for t in near) and op is None and "yet" not in near
        if low[max(0, f.i - 2) : f.i] == ["more", "than"] and any(
            t in ("nobody", "nobody's", "never", "no", "not", "won't", "one's") for t in before
        ):
            return "max", False
        if low[max(0, f.i - 1) : f.i] == ["not"] or low[max(0, f.i - 2) : f.i] == [
            "anything",
            "but",
        ]:
            neg = True
        return op, neg or (rejected and op is None)

    def _claim_at(self) -> int:
        """Where the first claim cue starts ("don't promise 24 hour delivery"): a figure or a week
        after it is the claim's words, not a target or a launch week."""
        v, low = self.v, self.low
        return next(
            (k for k in range(len(low)) if (c := v.match(v.frames, low, k)) and _claims(c)),
            len(low),
        )

    def weeks(self) -> None:
        """Launch weeks ("week 6", "in six weeks", "in a month"), a breakeven week or month, and
        a relative week ("a week earlier"); a week the words reject binds nothing, and one a
        claim holds is its words ("we cant promise results in 4 weeks")."""
        low = self.low
        claim = self._claim_at()
        for k in range(len(low)):
            at = None if k in self.used else self._week_at(k)
            if at is None:
                continue
            n, i, j = at
            if i > claim:
                continue
            fact = self._dated_fact(i)
            if fact and not any(x in self.cx.low for x in _LAUNCH_WORDS):
                self.used.update(range(i, j))
                continue  # "exams start week 5": a date the words report, not the launch
            if any(x in low for x in ("break", "breakeven", "profitable")):
                self.add(
                    "number", True, i, j, f"week {fmt(n)}", amount=n, op="max", key="breakeven"
                )
                continue
            at_char = self.cl.tokens[i].start  # "40 by week 12" dates the 40; "Launch week 6
            dated = low[i - 1 : i] == ["by"] or any(  # with 20 laptops" launches in week 6
                f.key in ("customers", "mrr") and f.end <= at_char for f in self.out
            )
            if dated and any(f.axis == "number" for f in self.out):
                continue  # "40 by week 12" dates a target
            r = self.add("timeline", True, i, j, f"week {fmt(n)}", amount=n)
            r.op = self._week_bound(i)
            if low[max(0, i - 1) : i] in (["is"], ["'s"], ["that's"], ["it's"]) and not any(
                x in low for x in ("launch", "ship", "live", "start", "open")
            ):
                r.weak = True  # "the Frankfurt trade fair is week 10": a date, not the launch
            if fact:
                r.weak = True  # a reported date binds only when no launch week is named
            if self._week_rejected(i, j):
                r.weak, r.do = True, False  # dropped when another week is named
        for k in range(len(low)):
            c = self.v.match(self.v.weeks_relative, low, k)
            if c and k not in self.used:
                self.add("timeline", True, k, k + len(c.words), str(c.row["value"]))
            elif k not in self.used and (moved := self._weeks_moved(k)) is not None:
                self.add("timeline", True, k, k + 3, moved)
        self._breakeven_month()

    def _week_bound(self, i: int) -> str:
        """The bound a launch week is said with: "by / before / within week 8" and "no later
        than week 8" are its latest ("max"); "after / from week 8", "no earlier than week 8"
        and a negated latest ("not before week 8", "not till week 6") its earliest."""
        low = self.low
        lead, three = low[i - 1 : i], low[max(0, i - 3) : i]
        if three in (["no", "earlier", "than"], ["no", "sooner", "than"]) or lead in (
            ["after"],
            ["from"],
        ):
            return "min"
        if three == ["no", "later", "than"]:
            return "max"
        if lead in (["by"], ["before"], ["within"], ["until"], ["till"], ["til"]):
            negated = any(w in NEG or w in CANT for w in low[max(0, i - 4) : i - 1])
            return "min" if negated else "max"
        return "eq"

    def _weeks_moved(self, k: int) -> str | None:
        """ "3 weeks earlier", "four weeks later": a move of the launch by a count of weeks."""
        low = self.low
        if k + 2 >= len(low) or low[k + 1] not in ("weeks", "week", "wks", "wk"):
            return None
        way = _MOVES.get(low[k + 2])
        num = number_of(low[k], self.v)
        n = num[0] if num else word_number(low, k, self.v)
        if way is None or n is None:
            return None
        return f"{fmt(n)} week{'s' if n != 1 else ''} {way}"

    def _dated_fact(self, i: int) -> bool:
        """The clause reports when something else happens ("exams start week 5", "the fair is
        in week 9"): a subject of its own, a verb of happening before the week, no launch word."""
        low = self.low
        if not low or any(x in low for x in _LAUNCH_WORDS):
            return False
        first = low[0]
        if first in CLAUSE_VERBS or first in self.v.lists["imperative_lead"] or first in _OUR_SIDE:
            return False
        return any(t in _HAPPENS for t in low[1:i])

    def _week_at(self, k: int) -> tuple[float, int, int] | None:
        """The week said at k ("week 6", "wk 3", "in 6 weeks", "in a month"): (week, i, j)."""
        low, v = self.low, self.v
        t = low[k]
        if t in ("week", "wk") and k + 1 < len(low):
            num = number_of(low[k + 1], v)
            n = num[0] if num else word_number(low, k + 1, v)
            return (n, k, k + 2) if n is not None else None
        if t in ("weeks", "wks", "week", "wk") and low[k + 1 : k + 2] and low[k + 1] in _MOVES:
            return None  # "two weeks earlier": a move (read below), not week 2
        if t in ("weeks", "wks") and k > 0:
            lead_ok = low[max(0, k - 2) : k - 1] in (["in"], []) or low[k + 1 : k + 2] in (
                ["from"],
                ["out"],
            )
            num = number_of(low[k - 1], v)
            n = num[0] if num else word_number(low, k - 1, v)
            return (n, k - 1, k + 1) if n is not None and lead_ok else None
        if t == "month" and low[k - 1 : k] == ["a"] and low[k - 2 : k - 1] == ["in"]:
            return 4.0, k - 1, k + 1
        return None

    def _week_rejected(self, i: int, j: int) -> bool:
        """ "week 20 is too late", "not week 20", "Week 30??", "why does this take 12 weeks?"."""
        low = self.low
        return (
            "too" in low
            or low[max(0, i - 1) : i] == ["not"]
            or low[max(0, i - 2) : i] in _SET_AGAINST
            or "why" in low
            or (self.cl.question and len(low) <= 3 and j >= len(low) and self.cx.source != "own")
            or ("before" in low[:i] and "can't" in low)
            or "cant" in low[:i]
        )

    def _breakeven_month(self) -> None:
        """ "break even by month 10" (any "month N" of a clause about breaking even)."""
        low = self.low
        if not any(x in low for x in ("break", "breakeven", "profitable")):
            return
        for k in [x for x, t in enumerate(low) if t == "month"]:
            if k + 1 < len(low) and (num := number_of(low[k + 1], self.v)):
                self.add(
                    "number",
                    True,
                    k,
                    k + 2,
                    f"month {fmt(num[0])}",
                    amount=num[0],
                    op="max",
                    key="breakeven",
                )
                return

    def tone(self) -> None:
        v, low = self.v, self.low
        k = 0
        inq = False
        while k < len(low):
            if self.cl.tokens[k].text in QUOTES:
                inq = not inq
            c = None if inq or k in self.used else v.match(v.tone, low, k)
            if c is None:
                k += 1
                continue
            do = bool(c.row["do"])
            lists = self.v.lists
            after = self.cl.tokens[k + 1] if k + 1 < len(low) else None
            if (
                len(c.words) == 1
                and after
                and after.is_word
                and after.low not in lists["tone_followers"]
            ):
                k += 1  # "the warm network", "dry cleaning": it describes a thing
                continue
            before = [w for w in low[max(0, k - 3) : k] if w not in lists["intensifiers"]]
            while before and before[-1] in lists["tone_verbs"]:
                before = before[:-1]  # "don't go formal", "never sound corporate"
            if do and (
                before[-1:] in (["less"], ["no"])
                or (before[-1:] and (before[-1] in NEG or before[-1] in CANT))
                or before[-2:] == ["anything", "but"]
            ):
                do = False  # "not so formal", "dont go formal", "anything but formal"
            if low[k - 1 : k] == ["too"] and do and c.row["value"] in ("formal", "bold"):
                k += len(c.words)  # "too formal": a complaint (below) names the fix
                continue
            if self._said_of_an_option(k):
                k += len(c.words)  # "rota is boring": of the option, not the work's tone
                continue
            self.add("tone", do, k, k + len(c.words), str(c.row["value"]))
            k += len(c.words)

    def _said_of_an_option(self, k: int) -> bool:
        """An own answer's "<option words> is/are <word at k>": said of the option named."""
        fork, low = self.cx.fork, self.low
        if not fork or k < 2 or low[k - 1] not in ("is", "are", "'s", "sounds", "seems"):
            return False
        said = {w for w in low[: k - 1] if len(w) > 2}
        return any(said & set(text.lower().split()) for text in fork.values())

    def frames(self) -> None:
        v, low = self.v, self.low
        k = 0
        text = " ".join(low)
        if any(re.search(r"\b" + re.escape(d) + r"\b", text) for d in v.lists["describing"]):
            return  # "this reads like it's for kids": the work as it reads now, not what to do
        verbs = [  # a cue's verb in any form: "we are not targeting students", "aimed at nurses"
            w
            if v.starts(v.frames, w)
            else next((s for s in verb_stems(w) if v.starts(v.frames, s)), w)
            for w in low
        ]
        while k < len(low):
            nxt = None
            if k not in self.used:
                cues = v.candidates(v.frames, low, k) or (
                    v.candidates(v.frames, [*low[:k], verbs[k], *low[k + 1 :]], k)
                    if verbs[k] != low[k]
                    else []
                )
                role = role_before(v, low, k)
                rest = self._refused(k) + ([role] if role else []) + self._reach(k)
                for c in self._asked_why(k) + cues + self._object_cues(k) + rest:
                    nxt = self._frame(c, k)
                    if nxt is not None:
                        break
            k = nxt if nxt is not None else k + 1

    def _refused(self, k: int) -> list[Cue]:
        """A refusing word before a verb of doing or offering leaves its object out ("we're not
        doing D2C", "we don't offer a free tier", "we won't sell to schools"), and so before a
        verb of wanting with an object ("we don't want the Facebook ads"; "we don't want to …"
        is read by its own verb), one rule over word lists (vocab/words.json refusing,
        doing_verbs, wanting_verbs) instead of a row per pair."""
        low, lists = self.low, self.v.lists
        wanting = k + 2 < len(low) and low[k + 1] in lists["wanting_verbs"] and low[k + 2] != "to"
        if (
            k + 2 >= len(low)
            or low[k] not in lists["refusing"]
            or (low[k + 1] not in lists["doing_verbs"] and not wanting)
        ):
            return []
        to = 1 if low[k + 2] == "to" else 0  # "sell to schools": the people
        return [Cue(tuple(low[k : k + 2 + to]), _REFUSED)]

    def _asked_why(self, k: int) -> list[Cue]:
        """Asking why we do a thing leaves it out: "why are we doing Google ads for this??", "why
        r we selling to tenants" (words.json doing_verbs; "we" just before the verb)."""
        low, lists = self.low, self.v.lists
        if not (low[:1] == ["why"] and k >= 2 and low[k - 1] == "we"):
            return []
        if k + 1 >= len(low) or low[k] not in lists["doing_verbs"]:
            return []
        to = 1 if low[k + 1] == "to" else 0  # "selling to tenants": the people
        return [Cue(tuple(low[k : k + 1 + to]), _REFUSED)]

    def _reach(self, k: int) -> list[Cue]:
        """A verb, its object, then a preposition of reach: "list it on Etsy", "market it to
        teachers", "get them into bookshops". Whatever the verb, the value after the preposition
        binds by its own kind (a known channel, people, a known place) or not at all: one rule
        over positions (vocab/words.json objects, reach_prepositions), no row per verb."""
        low, lists = self.low, self.v.lists
        if k < 2 or low[k] not in lists["reach_prepositions"] or low[k - 1] not in lists["objects"]:
            return []
        return [Cue((low[k],), _BY_KIND)]

    def _object_cues(self, k: int) -> list[Cue]:
        """A verb's object sits inside any cue that goes verb, preposition or verb, pronoun: "sell
        it at", "pitch them to", "sell the van at" read as "sell at", "pitch to"; "call the van
        Sharp Sally" as "call it Sharp Sally" (one rule, no row per object)."""
        low, cl = self.low, self.cl
        n = 1 if k + 1 < len(low) and low[k + 1] in _OBJECTS else 0
        if not n and k + 1 < len(low) and low[k + 1] in ("the", "our", "this", "my"):
            n = next(  # an article and one or two lowercase words: "the van", "our new app"
                (
                    m
                    for m in (2, 3)
                    if k + 1 + m < len(low)
                    and all(t.is_word and not t.is_cap for t in cl.tokens[k + 2 : k + 1 + m])
                    and (cl.tokens[k + 1 + m].is_cap or low[k + 1 + m] in _OBJECT_ENDS)
                ),
                0,
            )
        if not n or k + n + 1 >= len(low):
            return []
        obj = tuple(low[k + 1 : k + 1 + n])
        out = [  # verb, object, preposition
            Cue((c.words[0], *obj, *c.words[1:]), c.row)
            for c in self.v.candidates(self.v.frames, low[: k + 1] + low[k + 1 + n :], k)
            if len(c.words) > 1 and c.words[1] not in _OBJECTS
        ]
        if n > 1:  # verb, noun object, then the value: "call the van Sharp Sally"
            view = [*low[: k + 1], "it", *low[k + 1 + n :]]
            out += [
                Cue((c.words[0], *obj, *c.words[2:]), c.row)
                for c in self.v.candidates(self.v.frames, view, k)
                if c.words[1:2] == ("it",)
            ]
        return out

    def _frame(self, c: Cue, k: int) -> int | None:
        """Read the value one cue at k introduces; the index after it, or None (no value)."""
        run = self._frame_run(c, k)
        if run is None:
            return None
        j, said_of = k + len(c.words), False
        while c.row["axis"] == "claim" and len(run) > 1 and run[0].low in _CLAIM_SUBJECTS:
            run, j, said_of = run[1:], j + 1, True  # "don't claim it cures back pain"
        vt = [t for t in run if t.is_word]
        if (
            [t.low for t in vt] in (["them"], ["that"], ["this"], ["those"])
            and c.row["axis"] in ("audience", "scope")
            and c.row["do"]
            and self.low[0] in CLAUSE_VERBS | self.v.lists["verbs"]  # an order: "write it for them"
        ):
            return self._antecedent(c, j + len(run))
        tidy = tidy_value(self.cx.utt, run)
        if tidy is None or not self._frame_allowed(c, k, vt) or not self._set_against(c):
            return None
        axis = self._frame_axis(c, j, run, vt)
        if axis is None:
            return None
        axis = "claim" if said_of and axis == "exclusion" else axis  # "…that it's vegan"
        got = self._frame_value(c, axis, j, run, vt, tidy)
        if got is None:
            return None
        axis, (value, a, b) = got
        weak = c.words in _WEAK_CUES
        do = bool(c.row["do"])
        lead = self.low[k - 1] if k > 0 else ""
        if c.words == ("no",) and self.low[k - 2 : k] == [vt[0].low, "or"]:
            return j + len(run)  # "camera or no camera": either way, nothing to leave out
        if not do and axis in ("exclusion", "claim") and self._kept(c, lead, j, vt):
            end = j + len(run) + len(str(c.row.get("until", "")).split())
            self.used.update(range(k, end))  # a double negative keeps what it names: no binding
            return end
        if do and self._negated(k) and axis != "exclusion":
            # "don't use Fernando", "we won't go through pharmacies", "no need to try Reddit":
            # the cue under a negation refuses its value
            do = False
            axis = axis if axis in ("name", "place", "tone", "price") else "exclusion"
        if axis == "exclusion" and c.row is not _REFUSED and c.words not in _NEGATING:
            run = self._swap(
                run
            )  # "drop Instagram for Pinterest" ("not building X for Y": Y gains)
        items = list_items(self.cx.utt, run, axis, self.v) if axis in LISTED else [(value, a, b)]
        for part, pa, pb in items:
            own = axis  # "use the union newsletter and local clinics": each item its own kind
            if c.row.get("kind") not in (None, "known") and do and len(items) > 1:
                own = self._value_kind([t for t in run if pa <= t.start < pb]) or axis
            self.out.append(Read(axis=own, do=do, value=part, start=pa, end=pb, weak=weak))
        end = j + len(run) + len(str(c.row.get("until", "")).split())
        self.used.update(range(k, end))
        return end

    def _set_against(self, c: Cue) -> bool:
        """A cue that needs a contrast ("we're a listings board, not a logistics company", "we're
        a reminders app now") has one in its clause or the next; alone ("we're a charity, we
        can't charge $50") it tells a fact, a reason (frames.json contrast)."""
        if not c.row.get("contrast"):
            return True
        clauses = self.cx.utt.clauses
        at = next((n for n, x in enumerate(clauses) if x is self.cl), 0)
        nxt = clauses[at + 1].low[:2] if at + 1 < len(clauses) else []
        lists = self.v.lists
        said = f" {' '.join(self.low)} "
        return any(f" {w} " in said for w in lists["change_now"] | lists["set_against"]) or any(
            " ".join(nxt).startswith(w) for w in lists["set_against"]
        )

    def _negated(self, k: int) -> bool:
        """Whether a negation's scope covers the cue at k: a refusing word before it in the
        clause ("don't", "we won't", "please never", "no need to … pilot at … in Croydon"),
        unless a word between ends its scope ("not sure so start in Leeds") or makes it additive
        ("don't just use Instagram")."""
        before = self.low[:k]
        at = max(
            (
                x
                for x, w in enumerate(before)
                if w in _NEG_SCOPE or before[x : x + 2] == ["no", "need"]
            ),
            default=None,
        )
        return at is not None and not _SCOPE_ENDS & set(before[at:])

    def _antecedent(self, c: Cue, end: int) -> int | None:
        """ "Grandparents buying a present. Write it for them.", "the IT setup checklist is the
        bit they want. centre it on that": the pronoun stands for the noun phrase the clause
        before opens with (after "it's"); the direction points at those words."""
        clauses = self.cx.utt.clauses
        at = next((n for n, x in enumerate(clauses) if x is self.cl), 0)
        if at == 0:
            return None
        tidy = opening_phrase(self.cx.utt, clauses[at - 1], self.v)
        if tidy is None:
            return None
        axis = str(c.row["axis"])
        if axis == "scope":
            phrase = [t for t in self.cx.utt.tokens if tidy[1] <= t.start < tidy[2]]
            axis = self._scope_axis(c, phrase)
        self.out.append(Read(axis, True, tidy[0], tidy[1], tidy[2]))
        self.used.update(range(end))
        return end

    def _kept(self, c: Cue, lead: str, j: int, vt: list[Token]) -> bool:
        """A removal under a negation keeps its thing ("don't drop the students", "I'd never
        leave out parents"), and "not only X" / "not just X" adds to X: nothing to leave out."""
        if lead in _NEG_LEADS and lead not in ("do", "stop"):
            return True
        if c.words in _NEGATING and vt[0].low in _REMOVALS:
            return True
        said = self.low[j] if j < len(self.low) else ""  # the word right after the cue
        return c.words in _NEGATING and said in ("only", "just", "exclude", "excluding")

    def _swap(self, run: list[Token]) -> list[Token]:
        """ "drop Instagram for Pinterest": the thing after "for" is what replaces the thing
        left out (a channel, people or a place of its own); the run keeps what goes."""
        at = next((x for x, t in enumerate(run) if t.low in ("for", "in favour of")), None)
        if at is None or at == 0 or at == len(run) - 1:
            return run
        after = [t for t in run[at + 1 :] if t.is_word]
        tidy = tidy_value(self.cx.utt, after) if after else None
        if tidy is None:
            return run
        value = tidy[0]
        if is_channel(value, self.v):
            axis = "channel"
        elif is_people(after, self.v):
            axis = "audience"
        else:
            return run
        self.out.append(Read(axis, True, value, tidy[1], tidy[2]))
        return run[:at]

    def _frame_run(self, c: Cue, k: int) -> list[Token] | None:
        """The words a cue introduces, cut before anything already read."""
        v, low, cl = self.v, self.low, self.cl
        j = k + len(c.words)
        run = value_run(cl, j, v, people=c.row["axis"] in ("audience", "scope"))
        if c.row.get("until"):  # "keep restaurants out of it": the value sits before the words
            u = str(c.row["until"]).split()
            end = next((x for x in range(j, len(low)) if low[x : x + len(u)] == u), None)
            if end is None or end == j:
                return None
            run = cl.tokens[j:end]
        used_at = next((x for x, t in enumerate(run) if self.at[id(t)] in self.used), None)
        if used_at is not None:
            run = run[:used_at]  # "mention a weekly summary email and break even by month 9"
            while run and run[-1].low in ("and", "or", "&"):
                run = run[:-1]
        return run if any(t.is_word for t in run) else None

    def _frame_allowed(self, c: Cue, k: int, vt: list[Token]) -> bool:
        """Whether the cue introduces a value here: an order, not a statement or a description,
        and a thing, not a pronoun, a verb, a figure or the name of an axis."""
        v, low = self.v, self.low
        nxt = vt[1].low if len(vt) > 1 else ""
        first = vt[0].low
        verb = first in v.lists["verbs"] or (
            first in CLAUSE_VERBS and (nxt in ("in", "it", "at", "the", "to", "with") or not nxt)
        )  # "just charge £20": the verb alone, its figure read already
        back = k - 1  # the lead, past adverbs and a progressive "be" ("we should be selling to")
        while back > 0 and (low[back] in v.lists["adverbs"] or low[back] in ("be", "really")):
            back -= 1
        lead = low[back] if k > 0 else ""
        at = self.at[id(vt[0])]
        return not (
            first in v.lists["pronouns"]
            or (verb and not c.row.get("until"))
            or (c.row["do"] is False and lead in ("who", "that", "which"))  # "who never learned"
            or (c.row["axis"] == "scope" and lead in ("is", "are") and self._named_before(back))
            or first in ("in", "on", "at", "for", "to", "of", "with", "by", "from", "now")
            or first in v.lists["when_words"]  # "not before week 8": a bound, no thing
            or (len(vt) == 1 and first in v.lists["finite"])  # "council just pays": a statement
            or (  # "we should be talking to head teachers": the verb's own cue reads them
                c.row.get("people")
                and first.endswith("ing")
                and nxt in ("to", "with", "for", "at", "on", "about")
            )
            or (  # "or we lose money", "if we drop the price": what would happen, no order
                k > 1
                and low[k - 1] in SUBJECTS
                and low[k - 2] in v.lists["subordinators"] | v.lists["consequences"]
            )
            or all(t.low in _BOUND_WORDS for t in vt)  # "never below $20": the bound's words
            or (
                k > 0
                and c.row is not _REFUSED  # "why are we doing X??": X refused, see _asked_why
                and c.words[0] in IMPERATIVE_CUES
                and lead not in v.lists["imperative_lead"]
                # "we sell to nurses": our strategy ("why are we selling to tenants??" is not)
                and (lead not in v.lists["first_person"] or self.cl.question)
                and not (lead == "we" and low[k - 2 : k - 1] in _ASKING)  # "can we get on …"
                and lead not in _NEG_LEADS
            )
            or (
                c.words in _NEGATING
                and any(
                    t in SUBJECTS or t in v.lists["verbs"]
                    for t in low[max(self._its(vt), self._decided()) : k]
                )
                and k - 1 not in self.used  # "go after nurses not doctors": set against a value
            )
            or (c.words == ("for",) and k > 0 and lead not in _FOR_LEADS)
            or first in v.lists["axis_words"]
            or " ".join(t.low for t in vt if t.low not in ARTICLES) in v.lists["wrong_people"]
            or (first in ARTICLES and nxt in v.lists["axis_words"])  # "the price (a bit)"
            or (  # "our customers are in Ohio": where others are, a fact ("we are in Leeds": ours)
                c.words == ("in",)
                and lead in ("is", "are", "was", "were")
                and low[k - 2 : k - 1] not in (["we"], ["i"])
            )
            or (first != "a" and word_number(low, at, v) is not None)
        )

    def _decided(self) -> int:
        """How many words open the clause by telling a decision already made ("i said", "i told
        you", "we agreed"): what follows is read as said ("i said no interviews": none)."""
        low, lists = self.low, self.v.lists
        if len(low) < 3 or low[0] not in ("i", "we") or low[1] not in lists["deciding"]:
            return 0
        return 2 + (low[2] in ("you", "u", "that", "them", "ya"))

    def _its(self, vt: list[Token]) -> int:
        """1 when the clause opens "its" and the value is people, a channel or a place ("its
        parents not students"): "its" is no subject then ("its not cheap enough" still is)."""
        return int(self.low[:1] == ["its"] and self._value_kind(vt) is not None)

    def _frame_axis(self, c: Cue, j: int, run: list[Token], vt: list[Token]) -> str | None:
        """The axis the cue gives, or the one the value's kind corrects it to."""
        v, low, cl = self.v, self.low, self.cl
        axis = str(c.row["axis"])
        quoted = any(t.text in QUOTES for t in cl.tokens[j : j + 1])
        head = vt[1] if vt[0].low == "the" and len(vt) > 1 else vt[0]
        if c.row.get("kind") == "known" and not quoted:
            known = (
                self._value_kind(vt) is not None
                or any(t.is_cap for t in vt)
                or _doer(head_words(vt)[-1].low)  # "via the council's inclusion officer"
            )
            return axis if known else None  # "through the door" names no channel
        if c.row.get("kind") and not quoted:
            kind = self._value_kind(vt)
            if kind is not None or c.row["kind"] == "only":
                return kind  # "use newsletters", "go LinkedIn": the value says which axis
        if c.row.get("caps") and (
            quoted or head.low in CALENDAR or not (head.is_cap or place_said(vt, v))
        ):  # a capitalised name, or a whole known place in lowercase ("in leeds")
            return None
        if axis == "name" and (
            " ".join(t.low for t in vt) in v.lists["business_kinds"] or vt[0].low in ("a", "an")
        ):
            return None  # "we're B2B", "don't call it an app": what kind of thing, no name
        head_word = head_words(vt)[-1]  # "target office parks", "sell to hospices": the buyers
        plural = c.row.get("people") == "plural" and head_word.lemma != head_word.low
        if c.row.get("people") and not plural and not is_people(vt, v):
            if c.words != ("for",) or low[j + len(run) : j + len(run) + 1] != ["only"]:
                return None
            axis = "place" if capitalised_words(vt) else "scope"
        if axis == "exclusion":
            return self._exclusion_axis(c, j, run, vt)
        if axis == "claim" and not quoted and len(vt) == 1 and not claimish(vt, v):
            return "claim" if number_of(vt[0].low, v) else "exclusion"  # "don't promise 500"
        if axis == "scope":
            return self._scope_axis(c, vt)
        return axis

    def _named_before(self, k: int) -> bool:
        """ "Rota is just a word", "insta is just portfolios": a name or a channel described."""
        c = self.v.match(self.v.expansions, self.low, k - 1) if k > 0 else None  # "insta"
        word = str(c.row["value"]) if c else self.low[k - 1] if k > 0 else ""
        return k > 0 and (self.cl.tokens[k - 1].is_cap or is_channel(word, self.v))

    def _value_kind(self, vt: list[Token]) -> str | None:
        """The axis a value's own words give: a known channel, people, or a known place."""
        v = self.v
        if is_channel(" ".join(t.text for t in vt), v):
            return "channel"
        if is_people(vt, v):
            return "audience"
        if place_said(vt, v):
            return "place"
        return None

    def _exclusion_axis(self, c: Cue, j: int, run: list[Token], vt: list[Token]) -> str | None:
        """A thing to leave out, a claim ("drop the 'guaranteed' line", "No guarantees"), or a
        refused place ("not in London"); None for a tone, a figure or a non-thing."""
        v, low, cl = self.v, self.low, self.cl
        if v.match(v.tone, [t.low for t in vt], 0) and len(vt) <= 2:
            return None
        if number_of(vt[0].low, v) or vt[0].low in ("$", "£", "€") or vt[0].low in NOT_VALUES:
            return None
        if vt[-1].low in v.lists["pronouns"] and not any(t.text in QUOTES for t in vt):
            return None  # "without changing anything": a pronoun's head is no thing to leave out
        quote = quoted_spans(cl, j, j + len(run) + 2)
        claim_nouns = v.lists["claim_nouns"]
        if (  # "the 'number one' claim": quoted words named as a claim are one
            quote
            and c.words != ("avoid", "the", "word")
            and (claimish(quote, v) or vt[-1].low in claim_nouns)
        ):
            return "claim"
        quoted = any(t.text in QUOTES for t in cl.tokens[j : j + 1])
        if not quoted and len(vt) == 1 and (vt[0].low in claim_nouns or vt[0].lemma in claim_nouns):
            return "claim"  # "No guarantees"
        if (
            (c.words in _NEGATING or "in" in c.words)  # "not in London" ("not in shops": out)
            and (capitalised_words(vt) or place_said(vt, v))
            and not quote
            and any(x in low for x in ("in", "start", "launch", "launching", "city"))
        ):
            return "place"
        return "exclusion"

    def _scope_axis(self, c: Cue, vt: list[Token]) -> str:
        """What "just X" / "focus on X" centres on: people, a channel, a place or the scope;
        what the work is told to mention is a thing it says ("mention a weekly summary email")."""
        if c.words[:1] == ("mention",):
            return "scope"
        kind = self._value_kind(vt)  # a known channel first: "the Telegram groups" reach people
        if kind in ("channel", "audience"):
            return kind
        v = self.v
        if len(vt) <= 3 and c.words in (("only",), ("just",)) and place_said(vt, v):
            return "place"
        if c.words == ("name",) and capitalised_words(vt):
            return "place" if is_place(vt, v) else "name"
        return "scope"

    def _frame_value(
        self,
        c: Cue,
        axis: str,
        j: int,
        run: list[Token],
        vt: list[Token],
        tidy: tuple[str, int, int],
    ) -> tuple[str, tuple[str, int, int]] | None:
        """The value as the axis keeps it: a claim's quote, a name as spelled, a place's
        capitalised words, a scope with the CEO's article."""
        v, cl, cx = self.v, self.cl, self.cx
        value, a, b = tidy
        quoted = any(t.text in QUOTES for t in cl.tokens[j : j + 1])
        if axis == "claim" and not quoted:
            quote = quoted_spans(cl, j, j + len(run) + 2)
            after = self.low[j + len(run) : j + len(run) + 1]
            qt = tidy_value(cx.utt, quote) if quote else None
            nouns = v.lists["word_nouns"] | v.lists["claim_nouns"]
            if qt and ((after and after[0] in nouns) or (run and run[-1].low in nouns)):
                return axis, qt  # "drop the 'guaranteed' line": the claim is the quote
        if axis == "name":
            return axis, (name_value(cl, j, run) or value, a, b)
        if axis == "competitor":  # "undercut Gousto on the first box": the name only
            rival = cap_run(run, v)
            return (axis, (rival, a, a + len(rival))) if rival and not is_place(vt, v) else None
        if axis == "place" and not quoted:
            place = cap_run(run, v)
            if place is None or any(t.low in CALENDAR for t in vt):
                return None  # "launch in March", "start in week 2": no place
            last = place.split()[-1].lower()
            tail = vt[[t.low for t in vt].index(last) + 1 :]
            said = " ".join(t.low for t in tail)
            if tail and not any(
                said == x or said.startswith(x + " ") for x in v.lists["terminators"]
            ):
                return None  # "start in Slack communities" names a channel, not a place
            return axis, (place, a, b)
        if axis == "scope" and run[0].low in ("the", "our", "a", "an", "my") and len(vt) > 1:
            return axis, (cx.utt.span(run[0].start, b), run[0].start, b)  # "the app", as said
        return axis, (value, a, b)

    def postfix(self) -> None:
        """ "Soho first", "bars only", "product labels and nothing else": the noun phrase a tail
        (vocab/words.json only_tails) centres the work on, on the axis its words give."""
        low, cl, v = self.low, self.cl, self.v
        if self.out:
            return
        tails = [tuple(x.split()) for x in v.lists["only_tails"]]
        for k in range(1, len(low)):
            tail = next((x for x in tails if tuple(low[k : k + len(x)]) == x), None)
            if tail is not None and not self.used & set(range(k)):
                run = [x for x in cl.tokens[:k] if x.is_word or x.text == "-"]
                tidy = tidy_value(self.cx.utt, run)
                nxt = low[k + len(tail)] if k + len(tail) < len(low) else ""
                if (
                    not tidy
                    or len(run) > 6
                    or any(NUM.match(x.low) for x in run)  # "18+ only"
                    or any(word_number([x.low], 0, v) is not None for x in run)  # "ten … first"
                    or nxt in v.lists["verbs"]
                    or any(
                        x.low in SUBJECTS or x.low in REASON_STARTS or x.low in v.lists["verbs"]
                        for x in run
                    )
                ):
                    return
                if run[0].is_cap and is_place(run[:1], v):
                    value, a, b = run[0].text, run[0].start, run[0].end
                    self.out.append(Read("place", True, value, a, b, weak=True))
                    self.used.update(range(k + len(tail)))
                    return
                value, a, b = tidy
                if is_people(run, v):
                    axis = "audience"
                elif is_channel(value, v):
                    axis = "channel"
                elif len(run) <= 3 and place_said(run, v):
                    axis = "place"
                else:
                    axis = "scope"
                self.out.append(Read(axis=axis, do=True, value=value, start=a, end=b, weak=True))
                self.used.update(range(k + len(tail)))
                return

    def relative(self) -> None:
        """ "it costs too much", "churn target too high", "launch sooner", "half that": a move
        with no figure of its own, on the price, a number or the week the clause names (the
        session resolves it against the work; the reading asks when no ratio is given)."""
        v, low = self.v, self.low
        if any(r.amount is not None or r.axis in ("price", "timeline") for r in self.out):
            return
        if low[:1] and low[0] in v.lists["subordinators"] and low[1:2] in (["we"], ["i"]):
            return  # "if we drop the price we die": what would happen, no move
        lem = [t.lemma for t in self.cl.tokens]
        quoted = self._quoted_at()
        move = next(
            (
                (k, c)
                for k in range(len(low))
                if k not in quoted and (c := v.match(v.relative, low, k)) is not None
            ),
            None,
        )
        key = next(
            (
                str(kc.row["key"])
                for x in range(len(lem))
                if (kc := v.match(v.number_keys, lem, x)) is not None
            ),
            None,
        )
        if key is None and any(t in ("break", "breakeven", "break-even") for t in low):
            key = "breakeven"
        priced = self._names_price()
        if move is None:
            ordered_out = low[:1] in (["no"], ["dont"], ["don't"], ["never"]) and not (
                self.cl.question or any(w in low for w in ("missing", "where", "forgot"))
            )  # "no prices in the email", "dont put the price in": an order, not a complaint
            if priced and not ordered_out and any(self._has(w) for w in v.lists["price_missing"]):
                self.add("price", True, 0, len(low), "state the price")  # "Where is the price?"
            return
        k, c = move
        if (
            low[k - 1 : k] in (["is"], ["are"], ["'s"], ["was"])
            and len(c.words) == 1
            and c.words[0].endswith("er")
        ):
            return  # "Aldi is cheaper": a comparison, not a move ("burn is too high" is one)
        if low[k + len(c.words) : k + len(c.words) + 1] == ["about"]:
            return  # "less about price, more about trust": what the work dwells on, no move
        way, times = str(c.row["way"]), c.row.get("times")
        i, j = k, k + len(c.words)
        if (key and key != "hours") or (key == "hours" and way in ("down", "up")):
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

    def _quoted_at(self) -> set[int]:
        """The token indexes inside quotes ("no 'never too late' cliché" asks for no week)."""
        inside, out = False, set()
        for k, t in enumerate(self.cl.tokens):
            if t.text in QUOTES:
                inside = not inside
            elif inside:
                out.add(k)
        return out

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
        """ "Too broad", "Full of buzzwords", "Wrong audience": a complaint that names its axis
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
            run = value_run(self.cl, k + len(c.words), v)
            tidy = tidy_value(self.cx.utt, run) if run else None
            if tidy:
                axis = "channel" if is_channel(tidy[0], v) else "scope"
                self.out.append(Read(axis, True, tidy[0], tidy[1], tidy[2]))
            return

    def overclaims(self) -> None:
        """ "That line is misleading", "no proof": the work claims what it cannot prove."""
        v, low = self.v, self.low
        for k in range(len(low)):
            c = v.match(v.overclaim, low, k)
            if c is not None and not any(r.axis == "claim" for r in self.out):
                self.add("claim", False, k, k + len(c.words), GENERIC_CLAIM)
                return

    def rival(self) -> None:
        """A proper name as the subject of what a competitor does ("Gousto charges £30",
        "Petal Express already sells to florists", "Rover ignores groomers"): the competitor's
        own slot, never the audience or the venture's place."""
        toks, low, v = self.cl.tokens, self.low, self.v
        k = 0
        while k < len(toks) and toks[k].is_word and (toks[k].is_cap or (k and low[k] == "&")):
            k += 1
        m = k
        while m < len(low) and low[m] in v.lists["adverbs"] | {"already", "still"}:
            m += 1
        does = next((c for c in _RIVAL_DOES if tuple(low[m : m + len(c)]) == c), None)
        if (
            k == 0
            or does is None
            or low[0] in SUBJECTS
            or low[0] in v.lists["pronouns"]
            or is_place(toks[:k], v)
            or low[m + len(does) : m + len(does) + 1] in (["are"], ["is"])  # "Shipping charges are"
        ):
            return
        self.add("competitor", True, 0, k, " ".join(t.text for t in toks[:k]))

    def replaced(self) -> None:
        """ "swap facebook for nextdoor", "replace the free trial with a money back guarantee":
        the first thing is left out, the second named on the axis its own kind gives, else the
        first thing's, else the scope (words.json replacing). "drop X for now" swaps nothing."""
        toks, low, v = self.cl.tokens, self.low, self.v
        k = 0
        while k < len(low) and low[k] in v.lists["fillers"]:
            k += 1
        c = v.match(v.replacing, low, k)
        j = k + len(c.words) if c else 0
        at = next((x for x in range(j + 1, len(low)) if c and low[x] in c.row["joins"]), None)
        if c is None or at is None:
            return
        old_toks, new_toks = toks[j:at], toks[at + 1 :]
        old, new = tidy_value(self.cx.utt, old_toks), tidy_value(self.cx.utt, new_toks)
        for_now = (" ".join(low[at : at + n]) for n in (2, 3, 4))  # "for now", "for a while"
        if (
            old is None
            or new is None
            or new_toks[0].low in v.lists["when_words"] | NOT_VALUES
            or any(w in v.lists["terminators"] for w in for_now)
            or low[j + (low[j] in ARTICLES)] in v.lists["axis_words"]  # "change the price to 20"
            or any(number_of(t.low, v) for t in new_toks)
        ):
            return
        axis = self._value_kind(new_toks) or self._value_kind(old_toks) or "scope"
        self.out.append(Read("exclusion", False, old[0], old[1], old[2]))
        self.out.append(Read(axis, True, new[0], new[1], new[2]))
        self.used.update(range(k, len(low)))

    def dismissed(self) -> None:
        """ "payroll is someone else's problem", "resale is scalping", "supermarkets can wait":
        the thing a clause dismisses or defers, named as its subject, is left out (a known
        place is refused on its own axis)."""
        v = self.v
        words = [t for t in self.cl.tokens if t.is_word]
        while words[1:] and words[0].low in v.lists["fillers"] | v.lists["adding"]:
            words = words[1:]  # "maybe students later", "and honey later"
        np = noun_phrase(words, v, limit=4)
        cut = next((x for x, t in enumerate(np) if x and t.low in _NP_PREPOSITIONS), len(np))
        rest = [t.low for t in self.cl.tokens[self.at[id(np[-1])] + 1 :] if t.is_word] if np else []
        np = np[:cut]  # "Google ads for 'translation' is a bloodbath": the ads
        if (
            self.out
            or not np
            or any(t.low in v.lists["axis_words"] for t in np)
            or (self.cx.fork and not self._in_an_option(np))  # a reason for the pick
        ):
            return
        while rest[:1] and rest[0] in ("is", "are", "gets", "just", "really", "honestly"):
            rest = rest[1:]
        said = " ".join(rest)
        tidy = tidy_value(self.cx.utt, np)
        if tidy is None or not any(
            said == d or said.startswith(d + " ") for d in v.lists["dismissed_by"]
        ):
            return
        place = place_said(np, v)
        self.out.append(Read("place" if place else "exclusion", False, *tidy))

    def _in_an_option(self, np: list[Token]) -> bool:
        """Whether a fork option's words name the thing ("resale" in "… plus resale")."""
        said = {t.lemma for t in np}
        return any(
            said & {t.lemma for t in tokenize(o.lower())} for o in (self.cx.fork or {}).values()
        )

    def affirmed(self) -> None:
        """What an affirming phrase points at, when no cue after it read it ("why not nurses?",
        "nothing wrong with students"): the value's own kind (people, a channel, a place), or
        nothing (a suggestion the reader cannot place is never guessed)."""
        for at in self.affirmed_at:
            if self.out or at >= len(self.low):
                return
            k = at
            while k < len(self.low) - 1 and (
                self.low[k] in ("trying", "try", "using", "use", "just", "doing", "do", "we")
                or self.low[k] in self.v.lists["prepositions"]
            ):
                k += 1  # "no harm in trying tiktok", "why aren't we on tiktok": tiktok
            run = value_run(self.cl, k, self.v, people=True)
            vt = [t for t in run if t.is_word]
            kind = self._value_kind(vt) if vt else None
            tidy = tidy_value(self.cx.utt, run) if kind else None
            if kind and tidy:
                self.add(kind, True, k, k + len(run), tidy[0]).weak = True

    def read(self) -> list[Read]:
        self.rival()
        self.replaced()
        self.free()
        self.figures()
        self.weeks()
        self.tone()
        self.frames()
        self.postfix()
        self.relative()
        self.overclaims()
        self.complaints()
        self.dismissed()
        self.affirmed()
        return self.out
