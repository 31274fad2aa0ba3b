"""An own answer at a fork: the option the words pick (the one picker, engine.language.reader.pick,
the game's confirm takes too), what the option's own words bind (read the same way as the
player's), and the player's words over it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from engine.language.reader.figures import currency_in, fmt, word_number
from engine.language.reader.pick import alike, dismisses
from engine.language.reader.pick import pick as pick_option
from engine.language.reader.reads import (
    Ctx,
    Read,
    Reading,
    noun_phrase,
    settle,
    tidy_value,
)
from engine.language.reader.utterance import JOINS, parse


def own_answer(cx: Ctx, out: Reading, fork: Mapping[str, str], unit: str | None) -> None:
    """An own answer: the picked option's content, then the player's words over it (on each
    axis the player names, the player's value replaces the option's); an option the words
    dismiss or put off ("shops can come later") is left out."""
    got = pick_option(cx.utt, [(k, "", t, ()) for k, t in fork.items()])
    pick = "both" if got.matched_by == "both" else got.option
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
    # "A, not B", "go with B": a letter picks or refuses an option, it is no value
    for d in [d for d in out.directions if d.value not in fork]:
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
    if mid is not None and not any(d.axis == "price" and d.amount for d in own):
        own.append(mid)  # "somewhere in between, like 49": the figure said, not the midpoint
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
    _moved_week(cx, own, content)
    # a bound the player sets ("don't ever go below $150") limits the option's price, it does
    # not replace it: the option's figure stays beside it
    adds = bool({t.low for t in cx.utt.tokens} & cx.v.lists["also_words"]) or _named_beside(
        cx, [fork[k] for k in keys], own
    )  # "B but also mumsnet", "markets and flyers"
    own_axes = {
        d.axis
        for d in own
        if d.do
        and not (d.axis == "price" and d.op != "eq")
        and not (adds and d.axis in ("audience", "channel"))
    }
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


def _named_beside(cx: Ctx, picked: list[str], own: list[Read]) -> bool:
    """Whether the words name the picked option in a list with their own people or channel
    ("markets and flyers", "farmers markets + school newsletter"): a word of the option's in the
    same clause, outside what the words bind themselves, and the player's value no restatement of
    the option's. Then the option's people and channels stay beside the player's."""
    words = {t.lemma for text in picked for t in parse(text).tokens if len(t.low) > 3}
    listed = [d for d in own if d.do and d.axis in ("audience", "channel")]
    if any({t.lemma for t in parse(d.value).tokens} & words for d in listed):
        return False  # "sell to the organisers" for "Sell to festival organisers": the same
    clauses = cx.utt.clauses
    for n, cl in enumerate(clauses):
        if not any(cl.start <= d.start < cl.end for d in listed):
            continue
        before = cx.utt.text[clauses[n - 1].end : cl.start].split() if n else []
        joined = n > 0 and bool(set(cl.low[:1] + before[-1:]) & JOINS)  # "markets, and flyers"
        if joined and clauses[n - 1].low in (["a"], ["b"]):
            return True
        toks = [*clauses[n - 1].tokens, *cl.tokens] if joined else cl.tokens
        if any(
            t.is_word and t.lemma in words and not any(d.start <= t.start < d.end for d in own)
            for t in toks
        ):
            return True
    return False


def _moved_week(cx: Ctx, own: list[Read], content: list[Read]) -> None:
    """ "soft launch, but a week earlier", "B but 2 weeks later": a move of the picked option's
    launch week is that week, moved (the fork gives the base, so the week is known)."""
    base = next((c.amount for c in content if c.axis == "timeline" and c.amount), None)
    for d in own:
        said = d.value.split()
        if base is None or d.axis != "timeline" or d.amount is not None or len(said) != 3:
            continue
        n = word_number(said, 0, cx.v) if not said[0].isdigit() else float(said[0])
        if n is not None and said[2] in ("earlier", "later"):
            d.amount = base + (n if said[2] == "later" else -n)
            d.value = f"week {fmt(d.amount)}"


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
    is a channel too, not the people the work speaks to; beside a scope ("Raise a seed round"),
    "Bootstrap" is a scope, not a name."""
    firsts = {k: next((d for d in ds if d.do), None) for k, ds in opts.items()}
    if any(d is not None and d.axis == "channel" for d in firsts.values()):
        for d in firsts.values():
            if d is not None and d.axis in ("audience", "scope") and d.start == 0:
                d.axis = "channel"
    if any(d is not None and d.axis == "scope" for d in firsts.values()):
        for d in firsts.values():  # "Raise a seed round" / "Bootstrap": a move, no name
            if d is not None and d.axis == "name" and d.weak:
                d.axis = "scope"


def _dismissed(cx: Ctx, fork: Mapping[str, str]) -> list[tuple[str, str]]:
    """The options a clause names and dismisses or defers ("Google ads … is a bloodbath",
    "shops can come later", "B in month 3"), each with the words of it the clause names."""
    out = []
    for cl in cx.utt.clauses:
        if not dismisses(cl.low, cx.v):
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
        len(w) >= 3 and any(alike(w, x) for x in words)
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
