"""The direction reader: one parse of a player's words (engine.language.reader.utterance) read into typed
directions, clause by clause, with the vocabulary as data (engine.language.reader.vocab).

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
from dataclasses import replace
from functools import lru_cache

from engine.language.reader.clause import ClauseReader
from engine.language.reader.figures import NUM
from engine.language.reader.fork import own_answer
from engine.language.reader.reads import (
    ARTICLES,
    CALENDAR,
    CLAUSE_VERBS,
    IMPERATIVE_CUES,
    NEG,
    NEW_CLAUSE_WORDS,
    NOT_VALUES,
    NP_ENDS,
    QUOTES,
    REASON_STARTS,
    SUBJECTS,
    VERBISH,
    Ctx,
    Part,
    Read,
    Reading,
    capitalised_words,
    claimish,
    expanded,
    is_channel,
    is_people,
    is_place,
    list_items,
    opening_phrase,
    place_said,
    quoted_spans,
    role_after,
    settle,
    tidy_value,
)
from engine.language.reader.utterance import Clause, Token, parse
from engine.language.reader.vocab import Cue, Vocab, vocab

_NOT_LEADS = vocab().lists["not_leads"]


def _bare(
    cx: Ctx, cl: Clause, found: list[Read], prior: list[Read], changed: bool = False
) -> list[Read]:
    """A clause of a bare noun phrase ("Kirkby", "QueueCumber.", "electricians"): its axis from
    a neighbour it answers (a place refused before it, a name or place said before a change of
    mind: "call it Spark. no wait, Bolt"), a person word, or a made-up name."""
    toks = [t for t in cl.tokens if t.is_word or t.text in QUOTES]
    skip = _change_of_mind(cx, [t.low for t in toks])
    changed, toks = changed or skip > 0, toks[skip:]
    words = [t for t in toks if t.is_word]
    if words[:1] and words[0].low in ("its", "it's"):  # "its not leeds its york": the place
        at = 1 + (words[1:2] != [] and words[1].low == "for")
        if words[at:] and place_said(words[at:], cx.v):
            tidy = tidy_value(cx.utt, words[at:])
            return [Read("place", True, *tidy)] if tidy else []
    wide = 3 * bool(words[1:] and words[0].low in ("its", "it's") and is_people(words[1:], cx.v))
    if wide:  # "its busy mums", "its retired people who have time", "its couples we want"
        words = words[1 + (words[1].low in ARTICLES and len(words) > 2) :]
        ends = (x for x, t in enumerate(words) if x and (t.low in NP_ENDS or t.low in SUBJECTS))
        words = words[: next(ends, len(words))]
    who = next((x for x, t in enumerate(words) if is_people([t], cx.v)), 0)
    if any(t.is_cap or "'" in t.low for t in words[:who]):
        who = 0  # "LinkedIn won't reach farmers": a statement, not the people named
    verbs = [
        t.low in VERBISH or t.low in cx.v.lists["verbs"] or t.low in CLAUSE_VERBS for t in words
    ]
    if (
        not words
        or len(words) > (10 if is_channel(" ".join(t.low for t in words), cx.v) else 4 + wide)
        or words[0].low in cx.v.lists["quantities"]  # "less about students": no thing to do
        or verbs[0]
        or any(verbs[who:])  # a verb before the people it names is theirs: "school run dads"
    ):
        return []
    if _chatty([t.low for t in words], cx.v) or (
        words[0].low in _NEGATIONS and words[1:2] and words[1].low not in ("just", "only")
    ):
        return []  # "not keen on Instagram": never a thing to do ("not just vets": vets too)
    tidy = tidy_value(cx.utt, words)
    if tidy is None:
        return []
    value, a, b = tidy
    if (
        (words[0].low in REASON_STARTS and not (words[0].low in ARTICLES and not any(verbs)))
        or words[0].low in SUBJECTS
        or words[0].low in ("and", "then", "later", "after")
    ):
        return []  # "the agents want a cut": a reason ("the school newsletter": a thing)
    refused = {r.axis for r in prior + found if not r.do}
    said = [r for r in prior + found if r.do and r.axis in ("name", "place")]
    if changed and said and (words[0].is_cap or toks[0].text in QUOTES):
        return [Read(said[-1].axis, True, value, a, b)]  # the change of mind replaces it
    if is_channel(value, cx.v):  # "RSPB shop or garden centres": each its own
        return _bare_channel(cx, words)
    if ("place" in refused and capitalised_words(words)) or place_said(words, cx.v):
        return [Read("place", True, value, a, b)]
    said_name = re.search(r"\bname\b|\bname's\b", cx.utt.text[: cl.start].lower())
    if words[0].is_cap and ("name" in refused or (said_name and all(t.is_cap for t in words))):
        return [Read("name", True, value, a, b)]  # "name's wrong. Tidy Tails"
    if (
        is_people(words, cx.v)
        and cx.source != "option"
        and sum(t.low not in ("and", "or") for t in words) <= 3 + wide  # "brass and wind players"
        and words[0].low not in _NOT_LEADS
        and not (words[0].low.endswith("er") and len(words) > 1)  # "Newer bars": a reason
    ):
        return [
            Read("audience", True, *x, weak=True)
            for x in list_items(cx.utt, words, "audience", cx.v)
        ]
    if len(words) == 1 and re.match(r"^[A-Z][a-z]+[A-Z]\w+$", words[0].text):
        return [Read("name", True, value, a, b)]
    return []


def _bare_channel(cx: Ctx, words: list[Token]) -> list[Read]:
    """A bare phrase that ends in a channel: the channel, each listed one its own; a preposition
    of reach before it ("on Reddit") binds it, a word of distance before it ("off Facebook",
    "lay off Facebook", "zero Facebook") leaves it out, and a leading preposition, verb or
    quantity ("less Facebook", "post on Reddit") or a negation after it ("Facebook no more")
    places nothing (never bound as a thing to do)."""
    lists = cx.v.lists
    if any(t.low in NEG or t.low in _NEGATIONS for t in words[1:]):
        return []  # "instagram no more": never a thing to do
    away = next((n for n, t in enumerate(words[:-1]) if t.low in lists["channel_away"]), None)
    do = away is None
    if away is not None:  # "lay off instagram", "zero instagram"
        words = words[away + 1 :]
    elif words[0].low in lists["channel_reach"]:
        words = words[1:]
    if not words or (
        words[0].low in lists["prepositions"] | lists["channel_away"] | lists["quantities"]
        or words[0].low in lists["verbs"]
        or words[0].low in CLAUSE_VERBS
    ):
        return []
    if not do:
        tidy = tidy_value(cx.utt, words)
        return [Read("exclusion", False, *tidy)] if tidy else []
    return [
        Read("channel", True, *x, weak=True) for x in list_items(cx.utt, words, "channel", cx.v)
    ]


def _change_of_mind(cx: Ctx, low: list[str]) -> int:
    """How many leading words say the player changed their mind ("no wait", "actually")."""
    for n in (3, 2, 1):
        if len(low) >= n and " ".join(low[:n]) in cx.v.lists["changes_of_mind"]:
            return n
    return 0


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
    utt = parse(text, new_clause_words=NEW_CLAUSE_WORDS)
    cx = Ctx(utt, v, source, fork, read_option=_read_option)
    cx.unit, cx.period = unit, period
    out = Reading(text=utt.text, clipped=utt.clipped)
    found: list[Read] = []
    per: list[list[Read]] = []
    for n, cl in enumerate(utt.clauses):
        got = _pointer(cx, utt.clauses, n, per) or _quote_dismissed(cx, utt.clauses, n)
        got = got or _echo_dismissed(cx, utt.clauses, n)
        if not got and _not_ours(cx, cl):
            per.append([])  # "they visit every clinic monthly", "every competitor is at $49"
            continue
        got = got or ClauseReader(cx, cl).read() or _named(cx, cl)
        if not got:
            prev = utt.clauses[n - 1].low if n else []
            changed = bool(prev) and _change_of_mind(cx, prev) == len(prev)
            got = _bare(cx, cl, [], found, changed)
        per.append(got)
        found.extend(got)
    _answered(cx, utt.clauses, per)
    _described(cx, utt.clauses, per)
    _contrast(cx, utt.clauses, per)
    _added(cx, utt.clauses, per)
    _bound_after(cx, utt.clauses, per)
    _period_refused(cx, per)
    _reason_for_refusal(cx, utt.clauses, per)
    found = [r for got in per for r in got]
    said = frozenset(w for r in found for w in r.value.lower().split())
    for cl, got in zip(utt.clauses, per, strict=True):
        words = utt.span(cl.start, cl.end)
        if got or any(cl.start <= r.start < cl.end for r in found):
            out.parts.append(Part("direction", cl.start, cl.end, words))
        else:  # ("Best Man Standing. that's the brand": the pointer's words are a direction's)
            out.parts.append(_other_part(cx, cl, words, said))
    out.directions = [expanded(r) for r in settle(found)]
    named = [r for r in found if r.axis == "price" and r.do and r.amount is not None]
    if len(named) > 1 and sum(1 for d in out.directions if d.axis == "price") == 1:
        out.notes.append("two prices named: the later one wins")
    refused = [r for r in found if r.refused and r.axis == "number"]
    if refused and not any(
        d.axis == "number" and d.key == r.key for r in refused for d in out.directions
    ):
        out.ask_why = "refused_figure"  # "$80k is silly. half that": which figure, then?
    if source == "own" and fork:
        own_answer(cx, out, fork, unit)
    _ask(cx, out)
    return out


def _reason_for_refusal(cx: Ctx, clauses: list[Clause], per: list[list[Read]]) -> None:
    """ "forget london, too pricey", "skip the gyms, too busy": a bare "too …" right after a
    thing left out, in the same sentence, says why it is left out; it moves no price or tone
    of the work's (it read as "lower the price")."""
    for n in range(1, len(clauses)):
        cl, prev = clauses[n], clauses[n - 1]
        between = cx.utt.text[prev.end : cl.start]
        if cl.low[:1] != ["too"] or any(c in between for c in ".!?\n"):
            continue
        if any(not r.do and r.axis in ("exclusion", "place") for r in per[n - 1]):
            per[n] = [r for r in per[n] if r.amount is not None]  # a figure still binds


def _period_refused(cx: Ctx, per: list[list[Read]]) -> None:
    """ "£35 a visit, not monthly": a period refused says how the price is charged, never a
    thing to leave out of the work (it took every "monthly review" out). An exclusion whose
    words are all a period's (words.json period, period_before) binds nothing; with no price
    beside it, the clause is left to the unread rules."""
    v = cx.v
    for got in per:
        for r in list(got):
            low = r.value.lower().split()
            if r.axis != "exclusion" or not low:
                continue
            covered: set[int] = set()
            for k in range(len(low)):
                for rows in (v.period, v.period_before):
                    if (c := v.match(rows, low, k)) is not None:
                        covered.update(range(k, k + len(c.words)))
            if len(covered) == len(low):
                got.remove(r)


def _named(cx: Ctx, cl: Clause) -> list[Read]:
    """A clause that speaks of the name ("the name should be Pawsome", "Pawsome is the name",
    "switch the name to Pawsome", "it should be called Pawsome") names it by its capitalised
    words, wherever they sit: one rule over positions, not a row per wording. Under a negation
    before them ("not Spark as the name") the name is refused."""
    lists = cx.v.lists
    if not any(w in lists["naming_words"] for w in cl.low) or cl.question:
        return []
    lead = (
        ARTICLES | SUBJECTS | lists["pronouns"] | lists["imperative_lead"] | lists["naming_words"]
    )
    lead = lead | lists["verbs"] | CLAUSE_VERBS  # a capital that only opens the sentence
    run: list[Token] = []
    for n, t in enumerate(cl.tokens):
        capital = t.is_cap and t.is_word and not (n == 0 and t.low in lead)
        if capital or (run and t.low in ("of", "&")):
            run.append(t)
        elif run:
            break
    while run and not run[-1].is_cap:
        run.pop()
    if not run or len(run) > 4 or any(t.low in lists["naming_words"] for t in run):
        return []
    before = [t.low for t in cl.tokens if t.end <= run[0].start]
    disliked = any(w in lists["disliking"] for w in cl.low)  # "I hate the name Spark"
    do = not disliked and not any(w in NEG or w in _NEGATIONS or w.endswith("n't") for w in before)
    a, b = run[0].start, run[-1].end
    return [Read("name", do, cx.utt.span(a, b), a, b)]


def _not_ours(cx: Ctx, cl: Clause) -> bool:
    """A clause that says what others do or said, not what the player wants done: a fact about
    others or reported speech. It binds nothing and is never asked about."""
    return _about_others(cx, cl) or _reported(cx, cl) or _narrated(cx, cl)


_SAID_BEFORE = frozenset(  # a word a telling of the past opens with, or its subject
    {p.split()[0] for p in vocab().lists["past_times"]} | {"i", "we", "i've", "we've"}
)


def _narrated(cx: Ctx, cl: Clause) -> bool:
    """A clause that tells what happened before: a time gone by ("last year we charged $40",
    "we used to sell at £25") or the player's own past doing ("i grew up in Leeds", "we tried
    instagram"): a fact, a reason, never a direction. Not one when it says what changes now
    ("we used to charge £25, now £30") or tells a decision ("we renamed to Borrow Box", "i said
    £20": vocab/words.json past_times, past_doings, deciding, change_now)."""
    low, lists = cl.low, cx.v.lists
    if not _SAID_BEFORE & set(low):
        return False
    text = f" {' '.join(low)} "
    if any(f" {w} " in text for w in lists["change_now"]):
        return False
    for p in lists["past_times"]:
        at = text.find(f" {p} ")
        if at >= 0 and not text[:at].endswith((" who", " that", " which")):  # "who used to play"
            return True
    k = next((n for n, w in enumerate(low[:3]) if w in ("i", "we", "i've", "we've")), None)
    if k is None or k + 1 >= len(low):
        return False
    verb = (
        low[k + 2] if low[k + 1] in lists["adverbs"] | {"already", "also", "only"} else low[k + 1]
    )
    return verb not in lists["deciding"] and (
        verb in lists["past_doings"] or (len(verb) > 4 and verb.endswith("ed"))
    )


def _about_others(cx: Ctx, cl: Clause) -> bool:
    """A clause whose subject is other people ("they …", "every competitor …", "most parents
    won't …"): a fact about them, a reason, never a direction of ours."""
    low, lists = cl.low, cx.v.lists
    if any(w in lists["roles_audience"] or w in lists["roles_channel"] for w in low):
        return False  # "they're our customers": a role said of them names who
    return (
        bool(low)
        and (
            low[0] in lists["others"]
            or (  # "my sister pays £12 a month", "my mate runs a cafe": what they do
                low[0] in lists["kin_determiners"]
                and len(low) > 2
                and low[1] not in lists["axis_words"] | lists["not_reporters"]
                and low[2] not in lists["copulas"] | {"'s", "is", "was"}
                and (low[2] in lists["finite"] or (low[2].endswith("s") and len(low[2]) > 3))
            )
            or _others_price(cx, low)
            or (  # "our competitor charges $30", "the rivals are at £10"
                low[0] in lists["role_determiners"] | {"a", "an", "their"}
                and any(w in lists["others"] for w in low[1:3])
            )
            or (  # "every competitor is …", "most parents won't …": a quantified subject, a verb
                low[0] in lists["others_quantifiers"]
                and any(w in lists["finite"] or w.endswith("n't") for w in low[2:4])
            )
        )
    )


def _others_price(cx: Ctx, low: list[str]) -> bool:
    """ "gousto charges £30", "the shops near me sell it for 20 quid", "most gyms charge £40": a
    verb of selling or paying (words.json others_selling) after a subject that is not ours, in
    the third person ("charges") or after a determiner ("the shops … sell"): their figure."""
    lists = cx.v.lists
    k = next((n for n, w in enumerate(low[:5]) if n and w in lists["others_selling"]), None)
    if k is None or not any(NUM.match(w) or w in "$£€" for w in low[k:]):
        return False  # "Petal Express already sells to florists": no figure, the rival's slot
    ours = lists["first_person"] | SUBJECTS | lists["imperative_lead"] | lists["axis_words"]
    ours = ours | lists["verbs"] | CLAUSE_VERBS | {"our", "my", "you", "u", "pls", cx.unit or "-"}
    subject = low[:k]
    if any(w in ours or w.endswith("n't") for w in subject):
        return False
    return low[k].endswith("s") or subject[0] in lists["others_quantifiers"] | {"the", "some"}


def _reported(cx: Ctx, cl: Clause) -> bool:
    """Reported speech: someone else's words ("my mum said to aim at students", "a customer
    told me to drop the app", "my cofounder thinks we should charge $20"): a person (a person
    word, "my / our / a" and a noun, or a name) and a verb of saying or thinking open the
    clause. What they said is commentary; the player's own words bind."""
    lists, toks = cx.v.lists, [t for t in cl.tokens if t.is_word]
    said = " ".join(t.low for t in toks[:4])
    if any(said == h or said.startswith(h + " ") for h in lists["hearsay"]):
        return True  # "i heard gousto charges £30", "apparently nurses hate apps"
    k = next((n for n, t in enumerate(toks[:4]) if t.low in lists["reporting_verbs"]), None)
    if not k:
        return False
    subject = toks[:k]
    first = subject[0].low
    if first in lists["not_reporters"] | lists["imperative_lead"] | lists["neg_leads"]:
        return False
    return (
        first in lists["reporters"]
        or is_people(subject, cx.v)
        or (k == 1 and subject[0].is_cap and first not in lists["pronouns"])
    )


def _answered(cx: Ctx, clauses: list[Clause], per: list[list[Read]]) -> None:
    """ "The volunteers aren't the customer. The food bank coordinators are.": after a refused
    pointer, the noun phrase the next clause opens with (after "it's") is the one meant."""
    for n in range(len(clauses) - 1):
        refused = [r for r in per[n] if r.axis == "exclusion" and not r.weak]
        low = clauses[n].low
        pointed = any(
            (c := _pointed(cx.v, low, k)) is not None and c.row.get("do") is False
            for k in range(len(low))
        )
        if not (refused and pointed) or per[n + 1]:
            continue
        tidy = opening_phrase(cx.utt, clauses[n + 1], cx.v)
        if tidy:
            per[n + 1].append(Read("audience", True, tidy[0], tidy[1], tidy[2]))


_DESCRIBING = vocab().lists["describing_leads"]


def _described(cx: Ctx, clauses: list[Clause], per: list[list[Read]]) -> None:
    """ "It's a fun night out, not a West End show": a "not X" beside a clause that says what
    kind of thing the venture is ("a …", and binds nothing) describes it; it leaves nothing out.
    "its sharpening, not repairs" names what it does instead (no article): the contrast binds,
    the bare words as its scope and the other thing left out."""
    for n in range(1, len(clauses)):
        low, before = clauses[n].low, clauses[n - 1].low
        if not (
            low[:1] == ["not"]
            and before[:1]
            and before[0] in _DESCRIBING
            and not per[n - 1]  # "it's for commuters, not tourists" sets one against the other
            and per[n]
            and all(r.axis == "exclusion" and r.weak for r in per[n])
        ):
            continue
        words = [t for t in clauses[n - 1].tokens[1:] if t.is_word and t.low != "only"]
        if words and words[0].low in cx.v.lists["copulas"]:
            words = words[1:]  # "we are a coop, not a company": what it is, with its article
        tidy = tidy_value(cx.utt, words) if 0 < len(words) <= 4 else None
        if tidy is None or words[0].low in ("a", "an"):
            per[n] = []
            continue
        axis = "audience" if is_people(words, cx.v) else "scope"  # "it's parents, not students"
        per[n - 1].append(Read(axis, True, *tidy))
        per[n][0].weak = False  # set against the scope: it is left out, whatever its kind


_ADDING = vocab().lists["adding"]
_ADDED_ENDS = vocab().lists["added_ends"]
_NEGATIONS = vocab().lists["bare_negations"]
_ADDS_TO = ("audience", "channel", "exclusion", "claim", "scope")


def _added(cx: Ctx, clauses: list[Clause], per: list[list[Read]]) -> None:
    """ "aim at grooms. and maids of honour too", "it's the employers, and the funders",
    "avoid the word 'synergy'. and 'leverage'": a clause that only adds a noun phrase ("and …",
    up to "too") adds it to what the clause before it named, on that axis, do or don't."""
    v = cx.v
    for n in range(1, len(clauses)):
        toks = clauses[n].tokens
        last = next((r for r in reversed(per[n - 1]) if r.axis in _ADDS_TO), None)
        # "aim at pickers, drivers and the night shift": a list's tail runs on the value before
        tail = last is not None and last.end >= clauses[n - 1].end
        tail = tail and "," in cx.utt.text[clauses[n - 1].end : clauses[n].start]
        tail = tail and bool({"and", "or"} & {*clauses[n].low})
        if (per[n] and not (tail and all(r.weak for r in per[n]))) or not per[n - 1]:
            continue
        if toks[0].low not in _ADDING and not tail:
            continue
        words: list[Token] = []
        for t in toks[toks[0].low in _ADDING :]:
            if t.low in _ADDED_ENDS:
                break
            if t.is_word and (words or t.low not in ARTICLES):
                words.append(t)
        if (
            last is None
            or not 0 < len(words) <= (8 if tail else 5)
            or words[0].low in NOT_VALUES | _NEGATIONS
            or any(
                t.low in VERBISH or t.low in v.lists["verbs"] or t.low in CLAUSE_VERBS
                for t in words
            )
            or words[0].low in REASON_STARTS
            or words[0].low in SUBJECTS
            or words[0].low in v.lists["pronouns"]
        ):
            continue
        cut = max((x for x, t in enumerate(words) if t.low in ("and", "or")), default=0)
        items = [words[:cut], words[cut + 1 :]] if tail and cut else [words]
        tidied = [tidy_value(cx.utt, item) for item in items]
        per[n][:] = [Read(last.axis, last.do, *t) for t in tidied if t is not None]


def _bound_after(cx: Ctx, clauses: list[Clause], per: list[list[Read]]) -> None:
    """ "25 quid a laptop, never more": a clause that is only a bound ("never more", "tops",
    "max") bounds the figure of the clause before it."""
    v = cx.v
    for n in range(1, len(clauses)):
        low = clauses[n].low
        c = v.match(v.ops, low, 0)
        if per[n] or c is None or c.row["where"] != "after" or len(c.words) < len(low) - 1:
            continue
        figures = [r for r in per[n - 1] if r.amount is not None and r.op == "eq"]
        if figures:
            figures[-1].op = str(c.row["op"])


def _pointer(cx: Ctx, clauses: list[Clause], n: int, per: list[list[Read]]) -> list[Read]:
    """ "Best Man Standing. that's the brand", "Fright Fare as the name": the words before the
    pointer (in this clause, or the clause before when that read nothing) on its axis."""
    v, cl = cx.v, clauses[n]
    low = cl.low
    for k in range(len(low)):
        c = _pointed(v, low, k)
        if c is None or c.row["axis"] == "number":
            continue
        toks = [t for t in cl.tokens[:k] if t.is_word or t.text in QUOTES]
        if not toks and n > 0 and not per[n - 1]:
            toks = [t for t in clauses[n - 1].tokens if t.is_word or t.text in QUOTES]
        words = _noun_phrase([t for t in toks if t.is_word], v)
        refused = bool(words) and words[0].low in NEG | _NEGATIONS  # "not Spark as the name"
        words = words[1:] if refused else words
        if not words or len(words) > 8:
            return []
        tidy = tidy_value(cx.utt, words)
        if tidy is None:
            return []
        do, axis = bool(c.row.get("do", True)) and not refused, str(c.row["axis"])
        if c.row.get("kind") == "first":  # "gyms are the way to go": by the words' own kind
            if any(t.low[:1].isdigit() for t in words):
                return []  # "£10 is the way to go": a figure is no thing of a kind
            people = "audience" if is_people(words, v) else None
            kind = "channel" if is_channel(tidy[0], v) else people
            axis = kind or ("place" if place_said(words, v) else axis)
        items = list_items(cx.utt, words, axis, v) if axis in ("audience", "channel") else [tidy]
        out = [Read(axis, do, *x) for x in items]  # "plumbers and sparkies are our people"
        after = [t for t in cl.tokens[k + len(c.words) :] if t.is_word]
        if do and after[:1] and after[0].low in NEG and (tail := tidy_value(cx.utt, after[1:6])):
            out.append(Read("exclusion", False, *tail))  # "… are the market, not kids"
        return out
    return []


def _noun_phrase(words: list[Token], v: Vocab) -> list[Token]:
    """The words a pointer points at, without the request that leads to them ("let's go with
    Pawsome as the name": Pawsome): leading words of a request, verbs and prepositions, each
    lowercase unless it opens the clause."""
    lead = v.lists["imperative_lead"] | v.lists["our_side"] | v.lists["verbs"] | CLAUSE_VERBS
    lead = lead | v.lists["prepositions"] | v.lists["staying"]
    n = 0
    while n < len(words) - 1 and words[n].low in lead and (n == 0 or not words[n].is_cap):
        if words[n].is_cap and words[n + 1].is_cap:
            break  # "Go Green as the name": a capitalised run is the name itself
        n += 1
    return words[n:]


def _pointed(v: Vocab, low: list[str], k: int) -> Cue | None:
    """What points back at the words before it, at k: a pointer row ("that's the brand") or a
    role said of them ("are our customers")."""
    return v.match(v.pointers, low, k) or role_after(v, low, k)


def _quote_dismissed(cx: Ctx, clauses: list[Clause], n: int) -> list[Read]:
    """ "'guaranteed crystal clear' - no.", "'weatherproof' yes, 'waterproof' no": a quoted
    phrase the same or next clause dismisses (or keeps) is a claim (a word: an exclusion)."""
    v, cl = cx.v, clauses[n]
    toks = cl.tokens
    if not toks or toks[0].text not in QUOTES:
        return []
    quote = quoted_spans(cl, 0, len(toks))
    if not quote:
        return []
    end = next((x for x in range(1, len(toks)) if toks[x].text in QUOTES), len(toks))
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
    tidy = tidy_value(cx.utt, quote)
    if tidy is None:
        return []
    axis = "claim" if claimish(quote, v) or do else "exclusion"
    if do and quote[0].is_cap and not claimish(quote, v):
        axis = "name"  # "How about 'Leaf Me Alone'? no wait. 'Fernando'. yes Fernando"
    return [Read(axis, do, tidy[0], tidy[1], tidy[2])]


def _echo_dismissed(cx: Ctx, clauses: list[Clause], n: int) -> list[Read]:
    """ "Free tier?? No.", "Instagram? nope", "students, no thanks": a bare noun phrase asked
    back (or said, then refused outright), then refused by a clause that is only a refusal, is
    left out (never bound as a thing to do)."""
    v, cl = cx.v, clauses[n]
    words = [t for t in cl.tokens if t.is_word]
    nxt = clauses[n + 1].low if n + 1 < len(clauses) else []
    if not (0 < len(words) <= 4 and nxt) or any(
        NUM.match(t.low) or t.text in "$£€" for t in cl.tokens
    ):
        return []  # "$20? no": a figure asked back is refused by the figures' own rule
    nxt = [w for w in nxt if w not in v.lists["intensifiers"] | v.lists["adverbs"]] or nxt
    c = v.match(v.dismissals, nxt, 0)
    refused = (c is not None and c.row["do"] is False and len(c.words) == len(nxt)) or (
        len(nxt) <= 2 and nxt[0] in v.lists["refusals"]
    )
    if not cl.question:  # "students, no thanks": a bare "no" after a statement may go on
        last = n + 2 == len(clauses) and len(nxt) == 1  # "tiktok - no": it ends on the refusal
        refused = refused and (" ".join(nxt) in v.lists["outright_refusals"] or last)
    if not refused or any(
        t.low in v.lists["verbs"]
        or t.low in CLAUSE_VERBS
        or t.low in VERBISH
        or t.low in SUBJECTS
        or t.low in v.lists["pronouns"]
        for t in words
    ):
        return []
    tidy = tidy_value(cx.utt, words)
    return [Read("exclusion", False, *tidy)] if tidy else []


def _beside(v: Vocab, clauses: list[Clause], per: list[list[Read]], n: int) -> list[Token]:
    """The bare words of the clause before or after clause n that reads nothing, past a pointing
    word or an article ("not builders, its the electricians"); none when a verb or reason."""
    for m in (n - 1, n + 1):
        if 0 <= m < len(clauses) and not per[m]:
            words = [t for t in clauses[m].tokens if t.is_word]
            while words[1:] and words[0].low in v.lists["pointing"] | ARTICLES:
                words = words[1:]
            if 0 < len(words) <= 6 and not any(
                t.low in v.lists["verbs"] or t.low in CLAUSE_VERBS or t.low in REASON_STARTS
                for t in words
            ):
                return words
    return []


def _contrast(cx: Ctx, clauses: list[Clause], per: list[list[Read]]) -> None:
    """ "couples not parents", "facilities managers. NOT the community managers", "Not
    Liverpool city centre, Kirkby": the bare words set against a thing to leave out take the
    axis that thing's kind gives (people: audience; a place refused: place)."""
    v = cx.v
    for n, cl in enumerate(clauses):
        got = per[n]
        for r in list(got):
            if r.axis not in ("exclusion", "place") or r.do or not r.weak:
                continue
            one = [x for x in (per[n - 1] if n else []) + got if x.axis in ("name", "place")]
            kind = is_people(parse(r.value).tokens, v) or is_channel(r.value, v)
            if one and one[-1].do and one[-1].end <= r.start and r.axis == "exclusion" and not kind:
                r.axis = one[-1].axis  # "call it Bolt Bin not KitCarHub": the name refused
                continue
            neg_at = next(
                (
                    t.start
                    for t in cl.tokens
                    if t.low in ("not", "no", "never", "rather", "instead")
                ),
                r.start,
            )
            head = [
                t
                for t in cl.tokens
                if t.end <= neg_at and t.is_word and t.low not in v.lists["adverbs"]
            ]  # "…, definitely not the DIY crowd": the adverb is no thing set against it
            head = head[head[:1] != [] and head[0].low in ("its", "it's") :]  # "its X not Y"
            if head and (head[0].low in REASON_STARTS or head[0].low in SUBJECTS):
                head = []
            target: list[Token] = []
            if (
                head
                and not any(
                    x.start <= head[-1].start < x.end or x.start < head[-1].end <= x.end
                    for x in got
                    if x is not r
                )
                and len(head) <= 6
                and not any(t.low in v.lists["verbs"] or t.low in CLAUSE_VERBS for t in head)
            ):
                target = head
            else:
                target = _beside(v, clauses, per, n)
            if not target:
                continue
            tidy = tidy_value(cx.utt, target)
            if tidy is None:
                continue
            if (
                r.axis == "place"
                or (
                    r.value[:1].isupper()
                    and capitalised_words(target)
                    and (is_place(target, v) or is_place(parse(r.value).tokens, v))
                )
                or (place_said(target, v) and place_said(parse(r.value).tokens, v))
            ):  # "leeds not york": two known places
                axis = "place"
            elif is_channel(tidy[0], v) and (is_channel(r.value, v) or not is_people(target, v)):
                axis = "channel"  # "whatsapp groups not instagram": set against a channel
            elif is_people(target, v):
                axis = "audience"
            else:
                continue
            if axis == "place" and r.axis == "exclusion":
                r.axis = "place"
            home = (
                per[n]
                if target is head
                else per[n - 1 if n > 0 and target[0].start < cl.start else n + 1]
            )
            home.extend(Read(axis, True, *item) for item in list_items(cx.utt, target, axis, v))


def _unread(cx: Ctx, cl: Clause, words: str, reason: str, figure: str = "", axis: str = "") -> Part:
    """A clause left unread, with its reason and what the reader says of it in the player's
    words (words.json teach_backs)."""
    teach = cx.v.teach_backs[reason].format(words=words, figure=figure, axis=axis)
    return Part("unread", cl.start, cl.end, words, reason, teach)


def _other_part(cx: Ctx, cl: Clause, words: str, said: frozenset[str]) -> Part:
    """A clause with no direction: commentary (chatter, a reason, a question) or unread.
    `said`: the words of the directions read elsewhere in the message (a clause that only
    repeats them, "yes Fernando", places nothing new)."""
    low = cl.low
    lists = cx.v.lists
    if _obliges(low) and not cl.question and not _chatter(cx):
        return _unread(cx, cl, words, "vague")
    if (
        cl.question
        or _chatty(low, cx.v)
        or (low and low[0] in REASON_STARTS and low[0] != "the")
        or _not_ours(cx, cl)
    ):
        return Part("commentary", cl.start, cl.end, words)
    if sum(1 for t in cl.tokens if t.is_word and len(t.text) > 2) < 2:
        if _unplaced(cx, cl, said):
            return _unread(cx, cl, words, "unplaced")
        return Part("commentary", cl.start, cl.end, words)
    ones = "ones" in low and cx.source != "own" and not lists["finite"] & set(low)
    if (ones and low[0] not in ("which", "what", "who")) or (
        low[:1] in (["not"], ["never"], ["no"]) and any(t in lists["pronouns"] for t in low[1:])
    ):
        return _unread(cx, cl, words, "pronoun")  # "never the classical ones": but which?
    if any(t in CALENDAR for t in low) or "new year" in " ".join(low):
        return _unread(cx, cl, words, "no_week")
    if any(_money_like(low, k) for k in range(len(low))) and not cx.currency:
        return _unread(cx, cl, words, "no_currency", _first_num(low))
    if _unplaced(cx, cl, said):
        return _unread(cx, cl, words, "unplaced")
    if (
        low
        and (
            low[0] in CLAUSE_VERBS
            or low[0] in lists["verbs"]
            or low[0] in ("be", "more", "less")
            or (_imperative(low, lists) and cx.source != "own")  # an answer may pick by it
        )
        and low[0] not in VERBISH - {"make", "keep", "go", "do", "get", "try", "use", "put"}
    ):
        axis = _opening_frame(cx, low)  # "call it something catchier": the name, but which?
        if axis is not None:
            return _unread(cx, cl, words, "no_value", axis=cx.v.axis_said[axis])
        return _unread(cx, cl, words, "vague")
    return Part("commentary", cl.start, cl.end, words)


def _imperative(low: list[str], lists: Mapping[str, frozenset[str]]) -> bool:
    """A clause shaped as a request whatever its verb: a bare word, then an object or an
    article ("lean into the nostalgia", "position it as a luxury", "emphasise the warranty")."""
    known = lists["empty_words"] | lists["adverbs"] | lists["pronouns"] | REASON_STARTS
    known = known | lists["negations"] | lists["when_words"] | lists["quantities"]
    return (
        len(low) >= 2
        and low[0] not in lists["subordinators"]
        and low[0].isalpha()
        and low[0] not in known | SUBJECTS | ARTICLES
        and not low[0].endswith(("s", "ed", "ly"))  # "keeps us under …": a statement
        and low[1] in lists["request_objects"]
    )


def _opening_frame(cx: Ctx, low: list[str]) -> str | None:
    """The axis of the cue a clause opens with, when that cue asks for a value ("aim at",
    "call it", "sell through"; not one that leaves a thing out), or None."""
    c = cx.v.match(cx.v.frames, low, 0)
    return str(c.row["axis"]) if c is not None and c.row.get("do", True) else None


def _chatty(low: list[str], v: Vocab) -> bool:
    """Whether the words hold a phrase of chatter ("thanks", "fair enough"), as whole words."""
    return any(
        " ".join(low[k : k + len(c.split())]) == c
        for c in v.lists["chatter"]
        for k in range(len(low))
    )


def _unplaced(cx: Ctx, cl: Clause, said: frozenset[str]) -> bool:
    """A short clause that names something and says nothing about it ("YouTube ads before piano
    covers", "meds", "the 40-50 crowd"): no subject, no verb, no answer word, a word of content.
    No cue placed it, so it is unread (a careful reader says so; it never guesses an axis). Not
    one: a statement ("margins are rubbish", "shipping included", "legally murky"), a comparison
    ("fewer shifts"), an aside ("even for cocktail bars"), a figure ("40 bars in a square mile"),
    a pick among the options ("both groups"), words the grammar itself reads ("never more",
    "in euros") or words already bound elsewhere in the message ("yes Fernando")."""
    v, lists = cx.v, cx.v.lists
    toks = [t for t in cl.tokens if t.is_word]
    words = [t.low for t in toks]
    if not 0 < len(words) <= 6 or cl.question or words[0] in lists["aside_leads"]:
        return False
    stated = (
        lists["finite"]
        | lists["verbs"]
        | lists["pronouns"]
        | lists["picks"]
        | SUBJECTS
        | CLAUSE_VERBS
        | VERBISH
        | REASON_STARTS
    )
    if any(
        w in stated
        or w.endswith(("n't", "'s", "'re", "'ll", "'ve", "'d"))
        or (len(w) > 4 and w.endswith("ed"))  # a participle: "shipping included"
        or any(ch.isdigit() for ch in w)
        for w in words
    ) or (len(words[0]) > 4 and words[0].endswith(("ly", "er"))):  # "legally murky", "fewer"
        return False
    grammar = (v.ops, v.period, v.money, v.money_nouns, v.numbers, v.tone, v.relative)
    read = {  # every word a row of the grammar covers ("not a penny more": a bound, whole)
        x
        for k in range(len(words))
        for rows in grammar
        if (c := v.match(rows, words, k)) is not None
        for x in range(k, k + len(c.words))
    }
    content = [
        w
        for k, w in enumerate(words)
        if w not in lists["empty_words"]
        and w not in lists["adverbs"]
        and w not in lists["vague"]
        and w not in lists["axis_words"]  # "pricing - £35 a visit": the axis, named
        and w not in said
        and len(w) > 1
        and k not in read
    ]
    return bool(content)


_OBLIGING = vocab().lists["obliging"]


def _obliges(low: list[str]) -> bool:
    """ "It should ONLY summarise", "we shouldn't promise it prevents ALL leaks": the clause
    asks for a change (what the work or we should do) within its first three words."""
    return any(t in _OBLIGING for t in low[1:3]) and low[0] in SUBJECTS | {"the", "copy", "this"}


def _money_like(low: list[str], k: int) -> bool:
    """A figure that could be money: not a week's, a month's, a count of weeks or hours, or a
    count of things ("10 customers": a figure said before a noun that is no money word)."""
    after = low[k + 1] if k + 1 < len(low) else ""
    return (
        NUM.match(low[k]) is not None
        and low[k - 1 : k] not in (["week"], ["wk"], ["month"], ["day"], ["year"])
        and after not in ("weeks", "wks", "hours", "days", "%")
        and not (after.isalpha() and after not in vocab().lists["after_money"])
    )


def _first_num(low: list[str]) -> str:
    return next((t for k, t in enumerate(low) if _money_like(low, k)), "20")


def _ask(cx: Ctx, out: Reading) -> None:
    """Whether a careful reader asks: money with no currency, a price or name refused with no
    replacement, a date with no week, a request that names nothing, "both" where both can't be,
    a bare "neither", an own answer that picks no option and binds nothing."""
    ds = out.directions
    low = [w for cl in cx.utt.clauses if not _not_ours(cx, cl) for w in cl.low]
    why = ""
    money_words = {"dollars", "bucks", "quid", "pounds", "euros", "$", "£", "€"}
    if any(t in money_words and low[k + 1 : k + 2] != ["of"] for k, t in enumerate(low)) and not (
        cx.held or any(d.axis in ("price", "number") and d.amount is not None for d in ds)
    ):
        why = "price_amount"  # "twelve-ish dollars": money the reader cannot read
    elif any(d.axis == "price" and d.do and d.amount and not d.currency for d in ds):
        why = "no_currency"  # "free" is free in any currency: nothing to ask
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
        and all(any(d.axis == "place" for d in option_directions(t)) for t in cx.fork.values())
    ):
        why = "both_cannot"
    elif cx.source == "own" and not ds and out.option is None and "neither" in low:
        why = "neither"
    elif (
        not ds
        and (
            cx.source == "rejection"
            or any(p.reason in ("vague", "no_value") for p in out.parts)
            or any(
                " ".join(low[k : k + 3]).startswith(("make it", "can we make"))
                for k in range(len(low))
            )
        )
        and not _chatter(cx)
    ):
        why = "names_nothing"
    elif cx.source == "own" and cx.fork and not ds and out.option is None and not _chatter(cx):
        why = "no_option"  # "uk. we don't have visas" of "UK only" / "UK + US": which one?
    why = why or out.ask_why
    out.asked, out.ask_why = bool(why), why
    if why == "both_cannot":  # "both" of two towns: asked, and neither option's words bind
        out.directions = [d for d in ds if not d.option]


def _chatter(cx: Ctx) -> bool:
    text = " ".join(cx.low)
    return any(c in text for c in cx.v.lists["chatter"]) and cx.source != "rejection"


@lru_cache(maxsize=512)
def _option_cached(text: str, unit: str | None) -> tuple[Read, ...]:
    words = [t for t in parse(text).tokens if t.is_word]
    if (
        words
        and len(words) <= 4
        and capitalised_words(words)
        and words[0].low
        not in (
            CLAUSE_VERBS | {"tour", "park", "sell", "launch", "ship", "expand", "accept", "write"}
        )
    ):
        return tuple(_option_bare(text))  # "Clear Cut Ice", "Peak District": a name or a place
    # the option's words read like the player's
    r = read_text(text, source="option", unit=unit)
    out = list(r.directions)
    first = min((d.start for d in out), default=0)
    head = [t for t in parse(text).tokens if t.end <= first and t.is_word]
    while head and head[0].low in CLAUSE_VERBS:
        head = head[1:]  # "Charge employers $2,000 per hire": the people, not the verb
    if head and is_people(head, vocab()) and not any(d.axis == "audience" for d in out):
        tidy = tidy_value(parse(text), head)
        if tidy:  # "Small landlords in Manchester": the people, then the place
            out.append(Read("audience", True, tidy[0], tidy[1], tidy[2]))
    for p in r.parts:
        if p.kind != "direction":
            out += _option_bare(p.words)
    return tuple(out)


def option_directions(text: str, *, unit: str | None = None) -> list[Read]:
    """What a fork option's own words bind, read the same way ("Delivery riders, $399 kit")."""
    return [replace(d) for d in _option_cached(text, unit)]


_WHEN_LEADS = vocab().lists["when_leads"]


def _option_bare(text: str) -> list[Read]:
    """An option's words that no cue places ("Bristol", "Delivery riders", "Formal"): a person
    word is an audience, a channel word a channel, a known place a place, a capitalised made-up
    phrase a name, anything else the scope."""
    utt = parse(text)
    v = vocab()
    toks = [t for t in utt.tokens if t.is_word]
    if toks and toks[0].low in _WHEN_LEADS:
        return []  # "Launch week 5, before term": when, not what
    if len(toks) > 1 and (toks[0].low in IMPERATIVE_CUES or toks[0].low in CLAUSE_VERBS):
        toks = toks[1:]  # "Stay Bristol-only": the place, not a name "Stay …"
    if not toks or len(toks) > 6 or any(t.low in v.lists["finite"] for t in toks[1:]):
        return []  # "hospices pay": a statement, no value
    tidy = tidy_value(utt, toks)
    if not tidy:
        return []
    value, a, b = tidy
    if value.lower().endswith("-only"):  # "Bristol-only": Bristol
        value, b = value[:-5], b - 5
    tone = v.match(v.tone, [t.low for t in toks], 0)
    if tone is not None and len(tone.words) == len(toks):
        return [Read("tone", bool(tone.row["do"]), str(tone.row["value"]), a, b)]  # "Short"
    if is_place(toks, v):
        return [Read("place", True, value, a, b)]
    if is_channel(value, v):
        return [Read("channel", True, value, a, b)]
    if is_people(toks, v):
        return [Read("audience", True, value, a, b)]
    if (
        capitalised_words(toks)
        and len(toks) <= 3
        and not any(t.low in v.lists["verbs"] for t in toks)
    ):
        return [Read("name", True, value, a, b, weak=True)]
    return [Read("scope", True, value, a, b, weak=True)]


def _read_option(text: str, unit: str | None) -> list[Read]:
    return option_directions(text, unit=unit)
