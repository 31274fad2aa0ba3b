"""Figures in a clause as people write them: "£20", "12 bucks", "a fiver", "1.2k", "10p", "two
grand", a percentage; which currency a message names (engine.language.reader.vocab holds the words)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.language.reader.vocab import Vocab
from worldforge_savedb.records import Record


@dataclass(eq=False, repr=False)
class Fig(Record):
    """A figure in a clause: money (with its currency) or a bare number, and where it sits."""

    amount: float
    i: int  # token index in the clause where the figure's words start
    j: int  # one past its last token
    currency: str | None = None
    money: bool = False
    percent: bool = False


NUM = re.compile(r"^(\d+(?:,\d{3})*(?:\.\d+)?)([a-z]*)$")


def number_of(tok: str, v: Vocab) -> tuple[float, str | None, bool] | None:
    """A token's figure: (amount, currency a suffix names, is money); "1.5k" → 1500."""
    m = NUM.match(tok)
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


def word_number(low: list[str], k: int, v: Vocab) -> float | None:
    c = v.match(v.numbers, low, k)
    return float(c.row["n"]) if c else None


def figures_of(low: list[str], v: Vocab, keyed: bool = False) -> list[Fig]:
    out: list[Fig] = []
    k, n = 0, len(low)
    while k < n:
        t = low[k]
        if t in ("$", "£", "€") and k + 1 < n and (num := number_of(low[k + 1], v)):
            amount, _cur, _m = num
            j = k + 2
            if j < n and (c := v.match(v.money, low, j)) and c.row.get("times"):
                amount *= float(c.row["times"])  # "$2 grand"? rare, but kept exact
                j += len(c.words)
            out.append(Fig(amount, k, j, t, money=True))
            k = j
            continue
        num = number_of(t, v)
        wc = None if num else v.match(v.numbers, low, k)
        wordnum, w = (float(wc.row["n"]), len(wc.words)) if wc else (None, 1)  # "thirty five"
        if (
            wordnum is not None
            and not keyed
            and not (
                k + w < n
                and (
                    low[k + w]
                    in ("weeks", "week", "hours", "%", "percent", "grand", "quid", "bucks")
                    or low[k + w] in ("dollars", "pounds", "euros", "k")
                )
            )
        ):
            wordnum = None  # "the cheap one", "one room": no figure
        if num or (wordnum is not None and t != "a"):
            amount, cur, is_money = num or (float(wordnum or 0), None, False)
            j = k + w
            if j < n and low[j] == "%":
                out.append(Fig(amount, k, j + 1, percent=True))
                k = j + 1
                continue
            c = v.match(v.money, low, j) if j < n else None
            if c and low[j + len(c.words) : j + len(c.words) + 1] == ["of"]:
                c = None  # "5 pounds of beans": a weight
            if c and not c.row.get("suffix"):
                amount *= float(c.row.get("times", 1))
                out.append(Fig(amount, k, j + len(c.words), c.row["currency"], money=True))
                k = j + len(c.words)
                continue
            out.append(Fig(amount, k, j, cur, money=is_money))
            k = j
            continue
        if t == "a" and k + 1 < n:
            c = v.match(v.money_nouns, low, k + 1)
            if c:
                out.append(Fig(float(c.row["amount"]), k, k + 2, c.row["currency"], money=True))
                k += 2
                continue
            if low[k + 1] == "grand":
                out.append(Fig(1000.0, k, k + 2, "£", money=True))
                k += 2
                continue
        if (c := v.match(v.money_nouns, low, k)) is not None:
            out.append(Fig(float(c.row["amount"]), k, k + 1, c.row["currency"], money=True))
        k += 1
    return out


def currency_in(low: list[str], v: Vocab, *, counts: bool = True) -> str | None:
    """The currency the words name ("£", "quid", "a fiver"); `counts=False` passes over a word
    that counts money more than it names a currency ("50 grand")."""
    for k, t in enumerate(low):
        if t in ("$", "£", "€"):
            return t
        c = v.match(v.money, low, k)
        if c and not counts and c.row.get("times"):
            continue
        if c and c.row.get("currency") and not c.row.get("suffix"):
            return str(c.row["currency"])
        if v.match(v.money_nouns, low, k):
            return "£"
        m = NUM.match(t)
        if m and m.group(2) == "p":
            return "£"
    return None


def fmt(n: float) -> str:
    if n >= 1000 and n % 1000 == 0:
        return f"{n:,.0f}"
    return f"{n:,.2f}".rstrip("0").rstrip(".") if n % 1 else f"{n:,.0f}"
