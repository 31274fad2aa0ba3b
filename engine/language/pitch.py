"""Reading a pitch: what the company offers, who pays, where, and the two worlds it lives in.

One grammar over the pitch's words; the vocabulary (cue words per language, people words, occasions
and owned things with who pays for them, place prepositions) is data in `pitch_words.json`, each row
with an example the tests read back; a place of business is grammar's one list. Precedence: "paid
by" beats a cue ("for", "helps", "sell … to", "between"), a cue one implied; among implied ones
(`_implied`) a people word beats an occasion, an occasion a buying place, that an owned thing; then
the longest, then the first. A phrase that names no payer reads as none, never as a guess.

Any script is kept intact (accents, CJK); nothing is lower-cased except plain English words, so
"NHS" and "Thé" survive. Markup, typed escapes and placeholders are not words of the pitch.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from engine.language.domains import TRADES, WORLDS
from engine.language.grammar import is_plural, names_organisation, plural, singular
from engine.language.pitch_words import Payer, vocab
from engine.language.reader.utterance import Token, tokenize
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import STOPWORDS, clean, content_words, is_cjk, words
from worldforge_textkit.patterns import Pattern

_KIND_RANK: dict[str, int] = {"minor": 0, "occasion": 1, "place": 2, "owned": 3}


@dataclass(frozen=True, eq=False, repr=False)
class PitchReading(FrozenRecord):
    """What a pitch says: the offering, who pays, where, and the two worlds it lives in.

    `customer` is the people who pay (never cut mid-phrase: "night-shift nurses", with the place
    they work in `setting`: "big city hospitals"); `customer_found` is False when the pitch names
    or implies no payer (then `customer` is the offering world's usual one, for the prose, and
    `note` says so). `place` is a place name the pitch gives ("Leeds", "north of England");
    `world` is what the offering is about (engine.language.domains.WORLDS: "meals") and `trade`
    what the customer does ("nursing"). `note` is one plain line when part of the reading is a
    guess, for the new-venture form; `problem` is the player's own words when they gave one."""

    customer: str
    offering: str
    customer_found: bool
    setting: str = ""
    world: str = "general"
    trade: str = "general"
    note: str = ""
    setting_prep: str = "at"
    place: str = ""
    problem: str = ""

    @property
    def who(self) -> str:
        """The customer with the place they are in ("NHS nurses in Leeds")."""
        return f"{self.customer} {self.setting_phrase}".strip()

    @property
    def setting_phrase(self) -> str:
        return f"{self.setting_prep} {self.setting}" if self.setting else ""


def _span(text: str, toks: list[Token]) -> str:
    return text[toks[0].start : toks[-1].end].strip() if toks else ""


# ------------------------------------------------------------------------------ grammar

_MARKUP = Pattern(
    r"<[^<>]{0,60}>|\[/?[#a-z0-9 =_-]{0,40}\]|\\+(?:x[0-9a-f]{2}|u[0-9a-f]{4}|[nrte])(?:\[[\d;]*m)?"
    r"|%[sdr]\b|\{\d*\}|[{}]",
    re.IGNORECASE,
)
_RTL = Pattern(r"[\u0590-\u08ff]")
_RTL_FOR = Pattern(r"^(?:لل|ل|ל|של)(?=\w)")
_CJK_FOR = [
    Pattern(r"^(?P<c>.+?)(?:のための|のため|向けの|向け)(?P<o>.+)$"),
    Pattern(r"^(?:为|為|给|給)(?P<c>.+)提供(?P<o>.+)$"),  # "为骑车上班的通勤者提供上门修车服务"
    Pattern(r"^(?:面向|为|為)(?P<c>.+?)的(?P<o>.+)$"),
    Pattern(r"^(?P<c>.+?)(?:을|를)?\s*위한\s*(?P<o>.+)$"),
]
_MAX_CUSTOMER_WORDS = 8
_MAX_READ = 600  # characters of a pitch read (the longest labelled pitch has about 350)
_RELATIVE = frozenset(["who", "that", "qui", "que", "die", "der"])
_SUBJECTS = frozenset(["we", "i", "that", "which", "who", "to", "will", "can", "que", "qui", "che"])
_STOPS = frozenset(",;:.!?()—–-")  # "-" alone is a dash (a hyphen stays inside its word)
_OBJECT_RELATIVE = frozenset(["that", "which"])
_NOT = frozenset(["not", "no", "never", "without", "isn't", "aren't", "pas", "kein", "keine"])


def _language(toks: list[Token]) -> str:
    """The pitch's language by its function words (English unless another's clearly win)."""
    v = vocab()
    counts = {lang: sum(t.low in tell for t in toks) for lang, tell in v.tells.items()}
    best = max(counts, key=lambda k: (counts[k], k == "en"))
    return best if counts[best] > counts.get("en", 0) else "en"


def _is_people(toks: list[Token], lang: str) -> bool:
    """A phrase whose head word names people or a group that buys (a trade, a role, a shop)."""
    head = _head(toks)
    if head is None:
        return False
    v = vocab()
    people = {head.lemma, head.low} & v.sets["people"] or names_organisation(head.low)
    people = people or bool(re.fullmatch(r"[A-Z]{2,}s", head.text))  # "GPs", "SMEs", "NGOs"
    if people or head.lemma in _payer_words("minor"):  # a place of business buys: "universities"
        return True
    if head.lemma in v.sets["things"] or any(p.words == (head.lemma,) for p in v.payers):
        return False
    lem = head.lemma[:-1] if lang == "de" and head.lemma.endswith("ern") else head.lemma
    if lang not in ("en", "de") and head.low.endswith("s"):  # "agricultores", "turistas"
        lem = head.low[:-2] if head.low[:-2].endswith(v.suffixes) else head.low[:-1]
    return lem.endswith(v.suffixes) and len(lem) > 3 and not lem.endswith("ment")  # "payment"


def _head(toks: list[Token]) -> Token | None:
    """The head word: the last word before a qualifier or a clause ("parents" of "parents of young
    children", "nurses" of "nurses who work nights")."""
    v = vocab()
    out: list[Token] = []
    for t in toks:
        if out and (
            t.low in v.sets["clause_ends"]
            or t.low in v.sets["settings"]
            or (t.low.endswith("ing") and is_plural(out[-1].low))  # "nurses nearing retirement"
            or t.low in {"of", "for", "over", "under", "de", "von", "di"}  # "time for parents"
        ):
            break
        if t.is_word:
            out.append(t)
    return out[-1] if out else None


def _clause(toks: list[Token], i: int) -> list[Token]:
    """The words from `i` to the end of their clause (a stop, a relative word, "to", "by" …)."""
    v = vocab()
    out: list[Token] = []
    for t in toks[i:]:
        if t.text in _STOPS or (out and (t.low in v.sets["clause_ends"] or t.low in v.between)):
            break
        out.append(t)
    while out and (out[-1].low in STOPWORDS or not out[-1].is_word):
        out.pop()
    return out


def _strip_front(toks: list[Token]) -> list[Token]:
    """Without leading articles, possessives, "we're building" words and a subject before its
    verb ("we clean gutters …": the offering is "clean gutters")."""
    v = vocab()
    while toks:
        lead = next((ld for ld in v.leads if tuple(t.low for t in toks[: len(ld)]) == ld), None)
        subject = len(toks) > 1 and toks[0].low in ("we", "i") and toks[1].low not in STOPWORDS
        if (
            lead is None
            and not subject
            and toks[0].low not in v.articles["*"] | v.sets["possessives"]
        ):
            return toks
        toks = toks[len(lead) if lead else 1 :]
    return toks


def _place_alone(toks: list[Token]) -> tuple[str, int, int]:
    """A known place that is a whole part of the pitch after a comma or stop ("…, manchester"),
    as it is spelled; ("", 0, 0) when there is none."""
    from engine.language.reader.vocab import vocab as words

    cased_only = words().lists["places_cased_only"]
    for k in range(len(toks)):
        if k and toks[k - 1].text not in (",", *_STOPS):
            continue
        n, spelled = _known_place(toks, k)
        end = k + n
        if not n or (spelled.lower() in cased_only and not toks[k].is_cap):
            continue  # "soaps, bath": a word, not Bath
        if end == len(toks) or toks[end].text in (",", *_STOPS):
            return spelled, k, end
    return "", 0, 0


def _known_place(toks: list[Token], k: int) -> tuple[int, str]:
    """How many words from `k` on name a place the reader's vocabulary knows, however cased
    ("leeds", "milton keynes"), and the place as it is spelled ("Leeds", "Milton Keynes"): one
    list of place names for the pitch and the CEO's words."""
    from engine.language.reader.vocab import vocab as words

    v = words()
    found = v.match(v.places, [t.low for t in toks], k)
    return (len(found.words), str(found.row["cue"])) if found is not None else (0, "")


def _place(text: str, toks: list[Token], lang: str) -> tuple[str, int, int]:
    """The place the pitch names ("Leeds", "north of England", "Glasgow's West End") and its token
    range: after a place preposition, a run of capitalised words (a direction word may lead, "of"
    may join). A market ("across Europe") beats an origin ("from Osaka"); then the first."""
    v = vocab()
    best: tuple[int, int, int, int, str] | None = None  # rank, -position, start, end, spelling
    for i in range(len(toks)):
        for prep, rank in v.place_preps.items():
            n = len(prep)
            if tuple(t.low for t in toks[i : i + n]) != prep or i + n >= len(toks):
                continue
            j = i + n
            if toks[j].low in v.articles["*"] and j + 1 < len(toks):
                j += 1
            k = j
            if toks[k].low in v.sets["place_heads"] and k + 1 < len(toks):
                k += 1 + (toks[k + 1].low in {"of", "de"} and k + 2 < len(toks))
            known, spelled = (0, "") if toks[k].is_cap else _known_place(toks, k)  # "in leeds"
            if not (toks[k].is_cap or known) or toks[k].lemma in _payer_words("occasion"):
                continue
            if lang == "de" and toks[k].low.endswith(("ung", "heit", "keit")):
                continue
            end = k + max(known, 1) - 1
            while end + 1 < len(toks) and (
                toks[end + 1].is_cap
                or (
                    toks[end + 1].low in {"of", "de", "del"}
                    and end + 2 < len(toks)
                    and toks[end + 2].is_cap
                )
            ):
                end += 1
            after = toks[end + 1] if end + 1 < len(toks) else None
            if (
                lang == "en"
                and after is not None
                and after.is_word
                and not after.is_cap
                and after.low not in STOPWORDS
                and after.low not in v.sets["clause_ends"]
                and j > i + n - 1
                and k == j
                and toks[j - 1].low in v.articles["*"]
            ):
                continue  # "at the Amazon warehouse": a name qualifying a noun, not a place
            key = (rank, -i, j, end + 1, spelled if j == k and end + 1 == k + known else "")
            if best is None or key[:2] > best[:2]:
                best = key
    if best is None:
        return "", 0, 0
    _, _, start, end, spelled = best
    return spelled or _span(text, toks[start:end]), start, end


@functools.cache
def _payer_words(kind: str) -> frozenset[str]:
    return frozenset(p.words[-1] for p in vocab().payers if p.kind == kind)


def _match(toks: list[Token], lang: str) -> list[tuple[int, int, int, Payer]]:
    """Every payer row the words match: (kind rank, -length, position, row)."""
    lows = [t.low for t in toks]  # a plural the lemmas lack ("stag dos") made singular by grammar
    lemmas = [
        singular(t.low) if t.lemma == t.low and t.low.endswith("s") else t.lemma for t in toks
    ]
    # a place of business buys:
    found = [
        (_KIND_RANK["place"], -1, i, Payer((t.lemma,), "place", plural(t.lemma), False))
        for i, t in enumerate(toks)
        if lang == "en" and t.is_word and names_organisation(t.low)  # grammar's list: "gym towels"
    ]
    for p in vocab().payers:
        n = len(p.words)
        for i in range(len(toks) - n + 1):
            hit = p.words in (tuple(lemmas[i : i + n]), tuple(lows[i : i + n]))
            if hit or (p.compound and n == 1 and toks[i].low.startswith(p.words[0])):
                found.append((_KIND_RANK[p.kind], -n, i, p))
    taken: set[int] = set()
    kept = []
    for f in sorted(found, key=lambda f: (f[1], f[2])):  # longest first: "baby shower", not "baby"
        span = set(range(f[2], f[2] - f[1]))
        if not span & taken:
            taken |= span
            kept.append(f)
    return sorted(kept, key=lambda f: (f[0], f[1], f[2]))


def _thing_payer(phrase: list[Token], lang: str) -> tuple[str, bool]:
    """Who pays for what a cue names when it is no person: an occasion's holders, a buying place,
    a thing's owners (a part's owner owns the whole; a handmade thing is sold by its makers); a
    place name's residents; (phrase, False) when the phrase names people or nothing matched."""
    v = vocab()
    head = _head(phrase)
    if head is None:
        return "", False
    if _is_people(phrase, lang):
        if head.lemma in _payer_words("minor"):  # "para niños": the row's own "padres"
            row = next(p.payer for p in v.payers if p.kind == "minor" and p.words[-1] == head.lemma)
            return (f"parents of {_span_words(phrase)}" if lang == "en" else row), True
        return "", False
    made = any(t.low in v.sets["made"] for t in phrase)
    if made and head.lemma in v.sets["things"]:
        return f"{head.text} makers", True  # "handmade furniture" is sold by its makers
    hits = _match(phrase, lang)
    first_place = next((h for h in hits if h[3].kind == "place" and h[2] == 0), None)
    if first_place is not None and len(phrase) > 1 and head.lemma not in v.sets["people"]:
        return first_place[3].payer, True  # "office coffee", "team lunches": the place buys
    on_head = [h for h in hits if h[2] + len(h[3].words) - 1 == phrase.index(head)]
    if head.lemma in v.sets["things"]:  # "e-bike batteries": the whole's owners
        on_head = [h for h in hits if h[3].kind == "owned"] or on_head
    for _, _, i, p in on_head or hits:
        if p.kind == "owned" and made:
            return f"{_span_words(phrase[i : i + len(p.words)])} makers", True
        if p.kind == "owned" and len(phrase) > 1 and i > 0 and phrase[i - 1].low.isalpha():
            keep = [t for t in phrase[:i] if t.low not in v.sets["not_owner"]]
            if keep and p.payer.endswith(" owners") and keep[-1].low not in v.sets["possessives"]:
                return f"{' '.join(t.text for t in keep)} {p.payer}", True
        return p.payer, True
    if lang == "en" and all(t.is_cap for t in phrase if t.is_word):
        return f"{_span_words(phrase)} residents", True  # "for Walthamstow": who lives there
    return "", False


def _span_words(toks: list[Token]) -> str:
    """The words as said: a possessive's apostrophe kept on its word ("nurses'")."""
    out = ""
    prev: Token | None = None
    for t in toks:
        if not (t.is_word or t.text in "-'’"):
            continue
        glued = prev is not None and t.text in "'’" and t.start == prev.end
        out += t.text if glued or not out else " " + t.text
        prev = t
    return out


def _cues(toks: list[Token]) -> list[tuple[int, str]]:
    """Where a customer is introduced: (index of its first word, cue kind)."""
    v = vocab()
    out: list[tuple[int, str]] = []
    for i, t in enumerate(toks):
        prev = toks[i - 1] if i else None
        verb = prev is not None and prev.lemma in v.sets["not_cues"]  # "caring for", "pay for"
        if verb and prev is not None and i > 1 and prev.low[-3:] != "ing" and toks[i - 2].is_word:
            w = toks[i - 2]  # "lawn care for", "sick pay for": a noun; "agents pay for": a verb
            verb = w.low in STOPWORDS or (is_plural(w.low) and _is_people([w], "en"))
        by = _strip_front(_clause(toks, i + 1)) if t.low == "by" else []  # not "by the hour"
        if (
            by
            and (is_plural(by[-1].low) or _is_people(by, "en"))
            and v.sets["paid_by"] & {s.low for s in toks[max(i - 2, 0) : i]}
        ):
            out.insert(0, (i + 1, "paid"))  # "therapy for teens, paid by parents": who pays
        elif _pays_for(toks, i):  # "Employers pay for coaching for their staff": the subject
            k = _subject_end(toks, i)
            while k and toks[k - 1].is_word and toks[k - 1].low not in STOPWORDS:
                k -= 1
            out.insert(0, (k, "paid"))
        elif (
            i > 1
            and t.low in v.sets["copulas"]
            and toks[i - 1].lemma in v.sets["buyers"]
            and toks[i - 2].low in v.sets["possessives"]
        ):
            out.insert(0, (i + 1, "paid"))  # "our customers are dentists": said outright
        elif (aim := _aim(toks, i)) and i not in _negated(toks):
            out.append((i + aim, "aimed"))  # "a tool targeting clinics", "aimed at landlords"
        elif t.low in v.fors and not verb:
            if prev is not None and _brand_at(toks) == i - 1:
                continue  # "Uber for lawnmowers": what follows is the offering
            out.append((i + 1, "for"))
        elif t.low in v.between:
            out.append((i + 1, "between"))
        elif (
            t.low in v.sets["where_cues"]
            and prev is not None
            and prev.is_word
            and any(is_plural(s.low) and _is_people([s], "en") for s in toks[i + 1 : i + 3])
        ):  # "an app where (dog) walkers find clients"
            out.append((i + 1, "helps"))  # "an app where landlords find tradespeople"
        elif t.low in {"to", "aux"} and any(
            s.lemma in v.sets["sell_verbs"] for s in toks[max(i - 6, 0) : i]
        ):
            out.append((i + 1, "for"))  # "we sell refurbished laptops to schools": who buys
        elif t.low in v.sets["cue_verbs"] and (
            t.low.endswith(("s", "ing"))
            or t.low in {"hilft", "zeigt"}
            or not prev
            or prev.low in _SUBJECTS
        ):
            out.append((i + 1, "helps"))  # "helps teachers", "we help nurses", "Helping …"
    return [(i, k) for i, k in out if i < len(toks)]


def _verb_after(toks: list[Token], phrase: list[Token]) -> bool:
    """Whether the helped phrase is followed by its verb ("we help hospices recruit …"): who."""
    k = toks.index(phrase[-1]) + 1
    return k < len(toks) and toks[k].low in vocab().sets["object_verbs"]


def _pays_for(toks: list[Token], i: int) -> bool:
    """Whether `toks[i]` is a paying verb whose subject is people: "parents pay for …", "dog
    owners in leeds pay per groom" (a place between the payer and its verb is no part of who)."""
    v = vocab()
    if not (0 < i < len(toks) and toks[i].low in v.sets["pays_for"]):
        return False
    nxt = toks[i + 1] if i + 1 < len(toks) else None  # "…, the parents pay": the pitch ends
    amount = nxt is not None and (not nxt.is_word or nxt.low[0].isdigit())  # "pay £5 a head"
    if nxt is not None and not amount and nxt.low not in v.fors | v.sets["pay_terms"]:
        return False
    end = _subject_end(toks, i)
    who = toks[end - 1] if end > 0 else None  # people, or one body that pays ("council")
    if who is None:
        return False
    the = any(t.low in v.articles["*"] for t in toks[max(end - 3, 0) : end - 1])  # "the landlord"
    payer = _is_people([who], "en") and (is_plural(who.low) or the)
    return (payer or names_organisation(who.low)) and i not in _negated(toks)  # "without each …"


def _subject_end(toks: list[Token], i: int) -> int:
    """Where the subject of the verb at `i` ends: before a place that sits between them ("dog
    owners in leeds pay"), else at the verb."""
    v = vocab()
    while i > 1 and toks[i - 1].low in v.sets["pay_adverbs"]:
        i -= 1  # "families usually pay"
    for k in range(max(i - 4, 1), i - 1):
        named = all(t.is_cap for t in toks[k + 1 : i]) or _known_place(toks, k + 1)[0] == i - k - 1
        if (toks[k].low,) in v.place_preps and named:
            return k
    return i


def _aim(toks: list[Token], i: int) -> int:
    """How many words from `i` say whom the offering is aimed at ("targeting", "aimed at")."""
    lows = tuple(t.low for t in toks[i : i + 2])
    return max((len(a) for a in _aims() if lows[: len(a)] == a), default=0)


@functools.cache
def _aims() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(w.split()) for w in vocab().sets["aim_cues"])


def _customer_phrase(toks: list[Token], i: int, kind: str = "for") -> list[Token]:
    """The customer's words after a cue: up to the clause's end (after "helps", up to its verb:
    "helps teachers plan lessons"), without its article, a trailing "everywhere", and not past
    eight words (a rambling pitch keeps its first people word)."""
    v = vocab()
    phrase = _strip_front(_clause(toks, i))
    if kind == "paid" and phrase:  # "Parents pay for …": the payer ends at its verb
        at = i + next(k for k, t in enumerate(toks[i:]) if t is phrase[0])
        pays = [k for k in range(len(phrase)) if _pays_for(toks, at + k)]
        phrase = phrase[: pays[0]] if pays else phrase
    if kind == "helps":  # up to its verb, or its first people word: "lets landlords screen …"
        ends = v.sets["object_verbs"] | v.sets["modals"]  # "walkers in leeds can find …"
        verb = next((k for k, t in enumerate(phrase) if t.low in ends), None)
        ppl = [k + 1 for k, t in enumerate(phrase) if is_plural(t.low) and _is_people([t], "es")]
        phrase = phrase[:verb] if verb else phrase[: (ppl or [len(phrase)])[0]]
    while len(phrase) > 1 and phrase[-1].low in v.sets["where_after"]:
        phrase = phrase[:-1]
    end = toks.index(phrase[-1]) + 1 if phrase else i
    if len(phrase) > 1 and end < len(toks) and toks[end].low == "by":  # "farmers hit by floods"
        phrase, end = phrase[:-1], end - 1  # a passive's participle is no part of who
    if phrase and _is_vague(phrase) and end < len(toks) and toks[end].low in _RELATIVE | {"with"}:
        stop = next((k for k in range(end, len(toks)) if toks[k].text in _STOPS), len(toks))
        return phrase + toks[end:stop]  # "people who hate dating apps", "people with diabetes"
    ed = [k for k in range(1, len(phrase)) if phrase[k].low.endswith("ed")]  # a participle after
    ed = [k for k in ed if is_plural(phrase[k - 1].low) and not _is_vague(phrase[:k])]  # who
    phrase = phrase[: ed[0]] if ed else phrase  # "coffee for remote workers delivered weekly"
    who, _, _ = _split_setting(phrase)
    if len(phrase) > _MAX_CUSTOMER_WORDS >= len(who):
        phrase = who  # a long setting goes before a long customer is cut
    if len(phrase) > _MAX_CUSTOMER_WORDS:
        people = [k for k, t in enumerate(phrase[:_MAX_CUSTOMER_WORDS]) if _is_people([t], "en")]
        phrase = phrase[: people[0] + 1] if people else phrase[:_MAX_CUSTOMER_WORDS]
    return phrase


def _split_setting(phrase: list[Token]) -> tuple[list[Token], str, list[Token]]:
    """("night-shift nurses at big city hospitals") -> (nurses words, "at", setting words)."""
    v = vocab()
    for k, t in enumerate(phrase):
        if k and t.low in v.sets["settings"]:
            return phrase[:k], t.low, _strip_front(phrase[k + 1 :])
    return phrase, "", []


def _implied(text: str, toks: list[Token], lang: str, place: tuple[int, int]) -> tuple[str, str]:
    """A payer the pitch implies without a cue: (customer, the words it came from)."""
    v = vocab()
    subject = _subject(toks, lang)
    if subject:
        return subject, ""
    candidates: list[tuple[int, int, int, str, str]] = []
    negated = _negated(toks)  # "without each shop paying for …": no shop pays
    for rank, neg, i, p in _match(toks, lang):
        if place[0] <= i < place[1] or i in negated:
            continue
        n = len(p.words)
        after = toks[i + n] if i + n < len(toks) else None
        if p.kind == "owned" and (
            (after is not None and after.lemma in v.sets["venues"] | v.sets["not_owned_after"])
            or (
                p.words[0] not in v.sets["owned_modifiers"]
                and not (i and toks[i - 1].low in v.sets["possessives"])
                and not (after is not None and after.low in v.sets["owned_services"])  # "tuning"
            )
        ):
            continue  # a cat café sells cats' company; "phone charging" is no phone's owner's
        if p.kind == "place" and not (
            (after is not None and after.is_word and after.low not in v.sets["settings"] | v.fors)
            or (i and toks[i - 1].low in {"at", "to", "in", "for"})
        ):
            continue  # "Cat café in Lisbon" sells a café visit: no café pays
        key, payer, said = rank, p.payer, _span(text, toks[i : i + n])
        if p.kind == "place" and after and is_plural(after.low) and _is_people([after], lang):
            key, payer, said = -1, _span(text, toks[i : i + n + 1]), ""  # "office workers"
        candidates.append((key, neg, i, payer, said))
    lead = _strip_front(toks)  # "Landlord compliance checklists": the landlords buy
    if (
        len(lead) > 1
        and lead[0].low in v.sets["role_modifiers"]  # singular: a modifier, not a subject
        and lead[1].is_word
        and lead[1].low not in STOPWORDS | v.sets["clause_ends"]
    ):
        candidates.append((-1, 0, toks.index(lead[0]), plural(lead[0].text), ""))
    if not candidates:
        return "", ""
    _, _, _, payer, said = min(candidates)
    return payer, said


def _subject(toks: list[Token], lang: str) -> str:
    """People the offering serves without a cue: "sensors landlords can fit" (a people noun before
    a modal), German "die Pendlern … zeigt" (a dative plural, given in the nominative)."""
    v = vocab()
    for k, t in enumerate(toks[:-1]):  # "allotment gardeners' seed swap": the owners named
        owner = toks[k + 1].text in "'’" and t.lemma not in _payer_words("minor")
        if owner and _is_people([t], lang):
            lead = [m + 1 for m, s in enumerate(toks[:k]) if s.low in STOPWORDS or not s.is_word]
            return _span_words(_strip_front(toks[max(lead or [0]) : k + 1]))
    verbs = v.sets["modals"]  # the verb after a people subject: "teachers spend hours …"
    ends = verbs | _RELATIVE
    for k, t in enumerate(toks[:-1]):
        j = k + 1  # past a participle's clause: "renters facing eviction need …"
        if toks[j].low.endswith("ing") and len(toks[j].low) > 4 and is_plural(t.low):
            j = next((m for m in range(j, min(j + 5, len(toks))) if toks[m].low in ends), j)
        if (
            (toks[j].low in verbs or j > k + 1)
            and t.low not in v.sets["pronouns"]
            and t.lemma not in _payer_words("minor")  # "boxes kids love and parents buy"
            and _is_people([t], lang)
        ):  # with the modifiers that open the pitch: "wheelchair users can book …"
            m = next((m for m in range(k) if toks[m].low not in v.articles["*"]), k)
            plain = all(
                s.is_word and s.low not in STOPWORDS and not is_plural(s.low) for s in toks[m:k]
            )
            return _span_words(toks[m if plain and m + 3 > k else k : j])
    for k, t in enumerate(toks[2:-1], 2):  # "invoicing that freelancers enjoy", "… that small
        rel = k - 1 if toks[k - 1].low in _OBJECT_RELATIVE else k - 2  # cafés use"
        if (
            toks[rel].low in _OBJECT_RELATIVE
            and toks[rel + 1].low not in v.sets["cue_verbs"]  # "that lets climbers log …"
            and is_plural(t.low)
            and _is_people([t], lang)
            and toks[k + 1].is_word  # "that hosts your lessons": a verb with its object
            and toks[k + 1].low not in STOPWORDS | v.sets["possessives"]
            and not _is_people([toks[k + 1]], lang)
        ):
            return _span_words(toks[rel + 1 : k + 1])
    if lang == "de":
        for t in toks[1:]:
            if t.is_cap and t.low.endswith("ern") and t.low not in v.sets["nominative"]:
                return _nominative(t.text, lang)
    return ""


def _offering(toks: list[Token], end: int, lang: str) -> list[Token]:
    """The offering: the leading noun phrase, up to the cue, a clause, a participle ("brewed in"),
    a pronoun ("you can hire"), a place preposition or a second article ("a month")."""
    v = vocab()
    articles = v.articles.get(lang, frozenset())
    phrase = _strip_front(toks[:end])
    sold = [k for k, t in enumerate(phrase[:-1]) if k and t.lemma in v.sets["sell_verbs"]]
    sold = [k for k in sold if phrase[k - 1].low in v.sets["pronouns"] | {"to", "also"}]
    phrase = _strip_front(phrase[sold[0] + 1 :]) if sold else phrase  # "I want to sell candles"
    out: list[Token] = []
    for k, t in enumerate(phrase):
        caps = len(t.text) > 1 and t.text.isupper()  # "IT support" is no "it"
        if (t.text in _STOPS and out) or (t.low in v.sets["pronouns"] and not caps):
            break  # "you can hire"; "We help …" offers no "we"
        if t.text == "," and out and not _listing(phrase, k + 1):
            break  # "house cleaning, airbnb hosts pay": a comma ends it ("bread, cakes and …")
        if not out and t.low in STOPWORDS and not caps:
            continue  # "(apply) for grants": the offering is a noun phrase, from its first word
        if out and (
            t.low in v.sets["clause_ends"]
            or t.low in v.sets["copulas"]
            or t.low in articles
            or t.low
            in {"in", "on", "near", "across", "for", "en", "à", "im", "around", "pour", "para"}
            or t.low == "für"
            or (k and t.low.endswith("ed") and len(t.low) > 4 and not t.is_cap)
            or (lang == "fr" and k and t.low.endswith(("és", "ées", "é", "ée")))  # "livrés"
            or t.low in v.sets["participles"]  # "vegan cheese made in Bristol"
            or _aim(phrase, k)  # "a tool targeting clinics"
            or (k + 1 < len(phrase) and phrase[k + 1].low in v.sets["modals"])
        ):
            break
        if t.is_word or (t.text in "'’" and out and t.start == out[-1].end):
            out.append(t)  # a possessive's apostrophe stays on its word ("kids' parties")
    while len(out) > 1 and out[-1].low in v.sets["where_after"]:
        out.pop()  # "piano lessons online": where it is sold is no part of what
    return out


def _listing(toks: list[Token], k: int) -> bool:
    """Whether the words from `k` to the next comma or stop carry on a list ("cakes and pastries")."""
    for t in toks[k:]:
        if t.text == "," or t.text in _STOPS:
            return False
        if t.low in ("and", "or", "&", "+"):
            return True
    return False


def _offering_after(toks: list[Token], lang: str) -> list[Token]:
    """The offering of a pitch that opens with its customer: after "our", "we <verb>" or what
    they need ("Small gyms that need a booking system", "Teachers …, so we built an app")."""
    v = vocab()
    for k, t in enumerate(toks[1:], 1):
        start = k + 2 if t.low in {"we", "i"} else k + 1 if t.low in v.sets["offering_after"] else 0
        if start < len(toks) and toks[start].low == "to":
            continue  # "the ones we need to convince": a verb follows, no offering
        found = _offering(toks[start:], len(toks), lang) if start else []
        if found:
            return found
    return []


class _Parts(TypedDict):
    """What the first sentence of a pitch names, as read in its script (`read_pitch` completes it)."""

    offering: str
    customer: str
    said: str  # the words that named a customer who does not pay ("for kids" of parents)
    place: str
    setting: str
    prep: NotRequired[str]  # the setting's preposition ("at", "in"), when one was read


def _read_latin(text: str) -> _Parts:
    """The reading's parts of a pitch in a Latin script (see `read_pitch`)."""
    v = vocab()
    toks = tokenize(text)  # the reader's own tokens (one tokenizer)
    lang = _language(toks)
    place, p0, p1 = _place(text, toks, lang)
    if not place:  # "…, airbnb hosts pay per clean, manchester": a known place on its own
        place, p0, p1 = _place_alone(toks)
    cues = _cues(toks)
    phrases = [(i, kind, _customer_phrase(toks, i, kind)) for i, kind in cues]
    no = v.sets["pronouns"] | v.fors  # "helps you sleep", "Help for …", "for 50 quid": nobody
    phrases = [
        (i, k, ph) for i, k, ph in phrases if ph and not (ph[0].low in no or ph[0].low[0].isdigit())
    ]
    people = [(i, kind) for i, kind, ph in phrases if kind == "paid" or _is_people(ph, lang)]
    people += [(i, k) for i, k, ph in phrases if k == "helps" and _verb_after(toks, ph)]
    chosen = people[0] if people else next(((i, k) for i, k, _ in phrases[:1] if k == "for"), None)
    customer, said, note_said, prep, setting = "", "", "", "", ""
    b = _brand_at(toks)  # "a tinder for dog playdates", "basically uber for dog walkers"
    brand = b is not None
    if b is not None:
        offering = [t for t in _clause(toks, b + 2) if p1 <= p0 or t.start < toks[p0].start]
        while offering and (offering[-1].low,) in v.place_preps:
            offering.pop()  # "uber for dog walkers in leeds": the place is its own field
    else:
        offering = _first_offering(toks, chosen, lang)
    who, prep_word, where = _who(toks, chosen, (p0, p1))
    if who and chosen is not None:
        mapped, changed = _thing_payer(who, lang)
        if changed and mapped.endswith(" residents") and not place:
            place = _span_words(who)
        if changed and mapped.startswith("parents of ") and who[-1] is not toks[-1]:
            nxt = toks.index(who[-1]) + 1
            if toks[nxt].low == "with":  # "parents of kids with dyslexia"
                mapped += " with " + _span_words(_clause(toks, nxt + 1))
        said_so = chosen[1] == "paid" or who[-1].low.endswith(("ed", "ly", "less", "bound"))
        thing = lang == "en" and not (changed or said_so or is_plural(who[-1].low))  # "homeless"
        thing = thing and not _is_people(who, lang)  # a plural is likely who buys: "theatres"
        if not _is_vague(who) and not thing:  # "for corporate gifting": nobody; "the elderly"
            said = _nominative(_span_words(who), lang)
            if (
                chosen[1] == "paid"
                and lang == "en"
                and not (is_plural(said) or names_organisation(said))
            ):
                said = plural(
                    said
                )  # "the landlord pays": it sells to landlords ("the council": one)
            customer = mapped if changed else said
            note_said = said if changed else ""
            prep, setting = prep_word, _span(text, where)
    if not customer and brand:  # "Uber for dog walking": what the offering is for says who
        mapped, changed = _thing_payer(_strip_front(offering), lang)
        customer, note_said = (mapped, _span_words(offering)) if changed else ("", "")
    elif not customer:
        customer, note_said = _implied(text, toks, lang, (p0, p1))
    rest = " ".join(t.low for t in toks[toks.index(offering[-1]) + 1 :]) if offering else ""
    noun = next((n for w, n in v.nouns.items() if f" {w} " in f" {rest} "), "")  # "… delivered"
    at = toks.index(offering[0]) if offering else 0  # "help landlords collect rent": collection
    at -= at > 1 and toks[at - 1].low in v.articles["*"]  # "find a mortgage": a search
    noun = v.verb_nouns.get(toks[at - 1].low, "") if at and cues and cues[0][1] == "helps" else noun
    said_offering = f"{singular(_span_words(offering))} {noun}" if noun else _span_words(offering)
    if len(offering) == 1 and offering[0].lemma in v.sets["generic_offerings"]:
        said_offering = " ".join([said_offering, *(t.text for t in _purpose(toks, offering[0]))])
    return {
        "offering": said_offering,
        "customer": customer,
        "said": note_said,
        "place": place,
        "setting": setting or "",
        "prep": prep,
    }


def _purpose(toks: list[Token], generic: Token) -> list[Token]:
    """What a bare app or platform is for, from the words after it in its sentence: "app for
    allotment holders to swap surplus veg" -> "to swap surplus veg", "platform connecting
    freelance chefs with pubs" -> "connecting freelance chefs" (none when nothing says)."""
    v = vocab()
    for i in range(toks.index(generic) + 1, len(toks) - 2):
        t, nxt = toks[i], toks[i + 1]
        if t.text in _STOPS or t.text == ",":
            return []
        if t.low not in v.sets["purpose_leads"] or not nxt.is_word or nxt.is_cap:
            continue
        plural = nxt.low.endswith("s") and not nxt.low.endswith("ss")
        if (t.low == "for" and not nxt.low.endswith("ing")) or nxt.low in v.articles["*"] or plural:
            continue  # "for allotment holders", "to families abroad", "to the council": whom
        words = [t]
        for u in toks[i + 1 : i + 6]:
            if not u.is_word or u.low in v.sets["clause_ends"] or u.low in _PURPOSE_ENDS:
                break
            words.append(u)
        return words if len(words) > 2 else []
    return []


_PURPOSE_ENDS = frozenset(("in", "at", "for", "from", "with", "so", "and", "but", "near"))


def _brand_at(toks: list[Token]) -> int | None:
    """Where a pitch opens "<brand> for …" past an article or chat ("a tinder for dog
    playdates", "basically uber for dog walkers"): the brand's index, else None."""
    v = vocab()
    k = 0
    openers = {lead[0] for lead in v.leads if len(lead) == 1}  # "basically", "so", "its"
    while k < min(len(toks), 4) and (toks[k].low in v.articles["*"] or toks[k].low in openers):
        k += 1
    ok = len(toks) > k + 2 and toks[k].low in v.sets["brands"] and toks[k + 1].low in v.fors
    return k if ok else None


def _first_offering(toks: list[Token], chosen: tuple[int, str] | None, lang: str) -> list[Token]:
    """The offering around the chosen cue: before it, after "pay for" when the payer opens the
    pitch, after "For nurses:", or after the helped people's verb ("We help X find childcare")."""
    v = vocab()
    terms = v.sets["pay_terms"]  # "parents pay (monthly) for lessons"; "pay per visit": none
    pays = [k for k in range(len(toks) - 2) if _pays_for(toks, k)]  # "… pay £5 a head for our Y"
    pay = next((j for k in pays for j in range(k, len(toks)) if toks[j].low in v.fors - terms), 0)
    if chosen is not None and chosen[0] < pay and not _strip_front(toks[: chosen[0]]):
        return _offering(toks[pay + 1 :], len(toks), lang)  # "parents pay for lessons"
    if chosen is not None and chosen[0] == 1 and chosen[1] != "helps":  # "For nurses: meal kits"
        stop = next((k for k, t in enumerate(toks) if t.text in _STOPS), len(toks))
        return _offering(toks[stop + 1 :], len(toks), lang)
    offering = _offering(toks, chosen[0] - 1 if chosen else len(toks), lang)
    stop = next((k for k, t in enumerate(toks) if t.text in ":-–—"), len(toks))
    lead = _strip_front(toks[:stop])  # "Cheaper than Deliveroo: food delivery", "Save time: …"
    claim = lead and lead[0].low in v.sets["claims"] | v.sets["pronouns"]
    if claim or any(t.low == "than" for t in lead):  # a claim before a colon or dash is none
        offering = _offering(toks[stop + 1 :], len(toks), lang) or offering
    helps = chosen is not None and chosen[1] == "helps" and not offering
    after = _customer_phrase(toks, chosen[0], "helps") if helps and chosen else []
    if after:  # what helps them do it: "… fill screenings with group bookings"
        verb = toks.index(after[-1]) + 1
        tool = next((k for k in range(verb, len(toks)) if toks[k].low in v.sets["tools"]), verb)
        offering = _offering(toks[tool + 1 :], len(toks), lang) or _offering(
            toks[verb + 1 :], len(toks), lang
        )
    end = toks.index(offering[-1]) + 1 if offering else 0
    lone = len(offering) == 1 and (  # "Built for parents: a meal planner", "Aimed at nurses, …"
        offering[0].low in v.sets["participles"] or offering[0].low.endswith("ed") or _aim(toks, 0)
    )
    # a name before a colon, comma or dash names no offering: "Quill - an AI tutor for …"
    name = 0 < end < len(toks) and lang != "de" and all(t.is_cap for t in offering)
    if name and toks[end].low in v.sets["copulas"]:  # "Ledgerly is bookkeeping for plumbers"
        offering = _offering(toks[end + 1 :], len(toks), lang) or offering
    elif lone or (name and toks[end].text in ":,-–—"):
        stop = next((k for k in range(end, len(toks)) if toks[k].text in _STOPS), len(toks))
        offering = _offering(toks[stop + 1 :], len(toks), lang) or offering
    return [] if offering and offering[-1].lemma in v.sets["buyers"] else offering


def _who(
    toks: list[Token], chosen: tuple[int, str] | None, place: tuple[int, int]
) -> tuple[list[Token], str, list[Token]]:
    """The chosen cue's people, its setting's preposition and the setting; a place the pitch
    names is no part of who ("brands expanding into Japan": its preposition and participle go
    with it)."""
    if chosen is None:
        return [], "", []
    who, prep_word, where = _split_setting(_customer_phrase(toks, chosen[0], chosen[1]))
    p0, p1 = place
    if who and p1 > p0 >= chosen[0] and toks.index(who[-1]) + 2 >= p0:
        who = [t for t in who if t.start < toks[p0].start]
        while len(who) > 1 and (who[-1].low in STOPWORDS or who[-1].low.endswith("ing")):
            who = who[:-1]
    return who, prep_word, where


def _nominative(phrase: str, lang: str) -> str:
    """German plurals after "zwischen" or as an indirect object take an -n the customer drops
    ("Handwerkern" -> "Handwerker"), unless the word is its own nominative ("Eltern")."""
    if lang != "de":
        return phrase
    v = vocab()
    return " ".join(
        w[:-1]
        if w.endswith("ern") and w[:1].isupper() and w.lower() not in v.sets["nominative"]
        else w
        for w in phrase.split()
    )


def _is_vague(phrase: list[Token]) -> bool:
    v = vocab()
    return all(t.lemma in v.sets["vague"] or t.low in v.sets["vague"] for t in phrase if t.is_word)


# ------------------------------------------------------------------------------ the reading


def _and_spelled(phrase: str) -> str:
    """ "plumbers n sparkies", "fish & chips": the work writes "and" ("per tradesperson n sparky"
    was written for the first)."""
    return re.sub(r"(?<=\w) (?:n|&|\+) (?=\w)", " and ", phrase)


def _keep_case(phrase: str, pitch: str, place: bool = False) -> str:
    """Keep names, acronyms, German nouns and CJK as written; lower-case only a word capitalised
    because it opens the pitch, or every plain English word of a Title Case pitch outside the
    place (`place`: "Leeds" of "… In Leeds" stays)."""
    toks = pitch.split()
    title_case = (
        len(toks) > 2
        and not re.search(r"\bf(?:ü|ue)r\b", pitch, re.IGNORECASE)
        and all(w[:1].isupper() for w in toks if w[:1].isalpha() and w.lower() not in STOPWORDS)
    )
    opener = toks[0].rstrip("'’") if toks else ""
    out = []
    for k, w in enumerate(phrase.split()):  # the opener, made singular: "Flowers delivered"
        title = w[:1].isupper() and all(p[1:] == p[1:].lower() for p in w.split("-"))
        if w.isupper() and len(w) > 1:
            out.append(w)  # an acronym
        elif opener in (w.rstrip("'’"), plural(w) if k == 0 else "") and title and not place:
            out.append(w[:1].lower() + w[1:])
        elif title_case and title and w.isascii() and not place:
            out.append("-".join(p[:1].lower() + p[1:] for p in w.split("-")))
        else:
            out.append(w)  # a name ("Zürich", "Leeds" in a place), German nouns, CJK
    return " ".join(out)


def _hits(word: str, tells: tuple[str, ...]) -> bool:
    """A whole-word hit; a CJK word (no spaces in those scripts) hits a tell it contains."""
    return word in tells or (is_cjk(word) and any(is_cjk(t) and t in word for t in tells))


_QUALIFIER = Pattern(r"\s+(?:of|on|at|in|with|for|de|du|des|di|da)\s+", re.IGNORECASE)


def offering_head(offering: str) -> str:
    """The offering without what qualifies it or what it is for, to stand before another noun
    ("the next app release" of "app to swap surplus veg", "subscription boxes" of "subscription
    boxes of local cheese")."""
    words = _QUALIFIER.split(offering, maxsplit=1)[0].split()
    cut = next((i for i, w in enumerate(words) if i and w in vocab().sets["purpose_leads"]), 0)
    return " ".join(words[:cut] if cut else words) or offering


def _head_word(phrase: str) -> str:
    ws = words(_QUALIFIER.split(phrase, maxsplit=1)[0])
    return ws[-1] if ws else ""


def _best(
    table: dict[str, tuple[str, ...]], strong: list[str], weak: list[str], head: str = ""
) -> str:
    """The entry whose telling words the strong words (counted twice, the head noun once more)
    and the weak words hit most; ties go to the first in the table."""
    best, score = "general", 0
    for name, tells in table.items():
        n = 2 * sum(_hits(t, tells) for t in strong) + sum(_hits(t, tells) for t in weak)
        n += _hits(head, tells) if head else 0
        if n > score:
            best, score = name, n
    return best


def _negated(toks: list[Token]) -> set[int]:
    """The words in a negation's scope: "sharpening, not repairs" is about sharpening (a
    "not"/"no"/"without" runs to the clause's end)."""
    out: set[int] = set()
    for i, t in enumerate(toks):
        if (i - 1 in out or t.low in _NOT) and t.text not in _STOPS:
            out.add(i)
    return out


def unmarked(pitch: str) -> str:
    """The pitch as read: markup tags and escapes gone, then `worldforge_textkit.clean` (stored as typed)."""
    pitch = re.sub(
        r"<(script|style)\b[^>]*>.*?</\1\s*>", " ", pitch, flags=re.IGNORECASE | re.DOTALL
    )
    return clean(_MARKUP.sub(" ", pitch))


def _read_other_script(text: str) -> _Parts:
    """CJK ("<customer>のための<offering>") and right-to-left scripts ("for" is a prefix: ل, ל)."""
    offering, customer = text, ""
    if is_cjk(text):
        flat = re.sub(r"[。、！？!?.,]", "", text).strip()
        m = next((m for pat in _CJK_FOR if (m := pat.match(flat))), None)
        if m:
            offering, customer = m.group("o").strip(), m.group("c").strip()
        else:
            cw = content_words(text)
            offering = cw[0] if cw else text[:20]
    else:
        toks = text.split()
        for i, w in enumerate(toks[1:], start=1):
            if _RTL_FOR.match(w):
                offering = " ".join(toks[:i])
                customer = " ".join([_RTL_FOR.sub("", w), *toks[i + 1 :]])
                break
    return {"offering": offering, "customer": customer, "said": "", "place": "", "setting": ""}


@functools.lru_cache(maxsize=256)  # a venture's workers read the same pitch at every stage
def read_pitch(pitch: str) -> PitchReading:
    """The offering, who pays, the place, the setting and the two worlds of a pitch.

    Reads the first of three sentences naming a payer, else the first (any language) without
    markup or escapes; a pitch that names no payer gets the offering world's usual one for the
    prose, `customer_found` False, and says so in `note`."""
    text = unmarked(pitch)
    read = _read_other_script if is_cjk(text) or _RTL.search(text) else _read_latin
    parts = re.split(r"(?<=[.!?])\s", text[:_MAX_READ])[:3] if text else [""]  # a later sentence
    read_parts = [read(part) for part in parts]
    got = next((g for g in read_parts if g["customer"]), read_parts[0])  # the one that says who
    place = got["place"] or next((g["place"] for g in read_parts if g["place"]), "")
    customer, said = got["customer"], got["said"]
    toks = tokenize(text)
    if read is _read_latin and customer and set(customer.split()) & set(got["offering"].split()):
        later = _offering_after(tokenize(text[:_MAX_READ]), _language(toks))  # "Vets drown …
        got["offering"] = _span_words(later) or got["offering"]  # … Our AI writes their notes"
    first = got if got["offering"] or len(parts) < 2 else read_parts[0]  # "Bike repairs. For …"
    offering = got["offering"] or first["offering"] or " ".join(content_words(text)[:3])
    offering = offering or "the service"
    found = bool(customer)
    core = _QUALIFIER.split(offering, maxsplit=1)[0]  # "wedding flowers" of "… on a budget"
    negated = _negated(toks)  # "sharpening, not repairs" is about sharpening
    affirmed = [t.low for i, t in enumerate(toks) if t.is_word and i not in negated]
    world = _best({k: v[0] for k, v in WORLDS.items()}, words(core), affirmed)
    trade = _best(TRADES, words(f"{customer} {got['setting']}"), [], _head_word(customer))
    if "retired" in words(customer):  # a retired engineer's trade is no longer tech
        trade = "elders"
    note = ""
    if said and said != customer:
        verb = "do" if is_plural(said) else "does"
        note = f"“{said}” {verb} not pay, so the customer is read as {customer}"
    if not customer:
        customer = WORLDS[world][1] if world in WORLDS else "early customers"
        note = f"the pitch names no customer, so it is read as {customer}; add “for …” to say"
    return PitchReading(
        customer=_and_spelled(_keep_case(customer, text)),
        offering=_and_spelled(_keep_case(offering, text)),
        customer_found=found,
        setting=_keep_case(got["setting"], text, place=True),
        setting_prep=got.get("prep") or "at",
        place=place,
        world=world,
        trade=trade,
        note=note,
    )


def confirmed(
    r: PitchReading, *, customer: str = "", offering: str = "", place: str = "", problem: str = ""
) -> PitchReading:
    """The reading with what the player confirmed on the new-venture form in place of what was
    read (an empty field keeps the reading's); the worlds follow a changed offering or payer."""
    if offering and offering != r.offering:
        core = _QUALIFIER.split(offering, maxsplit=1)[0]
        world = _best({k: v[0] for k, v in WORLDS.items()}, words(core), [])
        r = dataclasses.replace(r, offering=offering, world=world)
    if customer and customer != r.customer:
        trade = _best(TRADES, words(customer), [], _head_word(customer))
        r = dataclasses.replace(r, customer=customer, customer_found=True, note="", trade=trade)
    if place and place != r.place:
        r = dataclasses.replace(r, place=place, setting=place, setting_prep="in")
    return dataclasses.replace(r, problem=problem) if problem else r


class ShownReading(TypedDict):
    """A pitch's reading as data: None where nothing was read."""

    offering: str
    customer: str | None
    place: str | None
    problem: str | None
    setting: str | None
    note: str | None


def shown(r: PitchReading) -> ShownReading:
    """The reading as data (headless `--json`, the form): no customer read is null."""
    return {
        "offering": r.offering,
        "customer": r.customer if r.customer_found else None,
        "place": r.place or None,
        "problem": r.problem or None,
        "setting": r.who if r.setting else None,
        "note": r.note or None,
    }


def describe(r: PitchReading) -> str:
    """The reading in one line for the new-venture form ("Offering: meal kits · Customer: …")."""
    where = f" ({r.setting_phrase})" if r.setting else ""  # theirs, not the venture's place
    trade = f" · Their trade: {r.trade}" if r.trade != "general" else ""
    return f"Offering: {r.offering} · Customer: {r.customer}{where} · About: {r.world}{trade}"


def company_name(pitch: str) -> str:
    """A name when the player gives none: the offering's first words as written (any script),
    each word's first letter raised and the rest kept ("AI Receptionist Co", "Thé Co")."""
    r = read_pitch(pitch)
    source = r.offering or unmarked(pitch)
    source = offering_head(source)  # "app to swap surplus veg": App Co
    if is_cjk(source):
        return source[:12]
    picked = [
        w
        for w in source.split()
        if w.lower() not in STOPWORDS and (len(w) > 2 or (len(w) == 2 and w.isupper()))
    ][:2]
    if not picked:
        picked = content_words(unmarked(pitch))[:2] or ["New"]
    name = " ".join(w[:1].upper() + w[1:] for w in picked)
    return name if _RTL.search(name) else name + " Co"
