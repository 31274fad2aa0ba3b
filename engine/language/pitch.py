"""Reading a pitch: who the customer is, what the company offers, which industry it is in, and a
company name when the player gives none. Any script is kept intact (accents, CJK); nothing is
lower-cased except plain English words, so "NHS" and "Thé" survive.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from engine.language.domains import TRADES, WORLDS
from engine.language.grammar import WHERE_AFTER, is_plural, plural, singular
from savedb.records import FrozenRecord
from textkit import STOPWORDS, clean, content_words, is_cjk, words
from textkit.patterns import Pattern


@dataclass(frozen=True, eq=False, repr=False)
class PitchReading(FrozenRecord):
    """What a pitch says: the offering, who it is for, where, and the two worlds it lives in.

    `customer` is the people who pay (never cut mid-phrase: "night-shift nurses", with the place
    they work in `setting`: "big city hospitals"); `world` is what the offering is about
    (engine.language.domains.WORLDS: "meals") and `trade` what the customer does ("nursing").
    `note` is one plain line when part of the reading is a guess, for the new-venture form."""

    customer: str
    offering: str
    industry: str
    customer_found: bool
    setting: str = ""
    world: str = "general"
    trade: str = "general"
    note: str = ""
    setting_prep: str = "at"

    @property
    def who(self) -> str:
        """The customer with the place they are in ("NHS nurses in Leeds")."""
        return f"{self.customer} {self.setting_phrase}".strip()

    @property
    def setting_phrase(self) -> str:
        return f"{self.setting_prep} {self.setting}" if self.setting else ""


# "X for Y" in the languages players write pitches in (Latin scripts): the word for "for".
_FOR = r"(?:for|pour|para|für|fuer|per|för|voor)"
_CLAUSE_END = Pattern(
    r"\s+(?:who|that|which|to|with|by|so|because|while|without|using|in order|across|from|"
    r"living|working|looking|trying|"
    r"through|via|where|when|qui|que|avec|sans|dans|con|sin|que|mit|ohne|die|der)\b|[.,;:!?()]",
    re.IGNORECASE,
)
# a leading article, in the languages pitches come in
_ARTICLES = (
    r"an?\s+|the\s+|un\s+|une\s+|le\s+|la\s+|les\s+|des\s+|el\s+|los\s+|las\s+|una?\s+|gli\s+|"
    r"ein(?:e)?\s+|der\s+|die\s+|das\s+"
)
_LEAD = Pattern(
    r"^(?:(?:we(?:'re| are)?|i(?:'m| am)?)\s+(?:build(?:ing)?|make|making|offer(?:ing)?|run(?:ning)?|"
    r"sell(?:ing)?|launch(?:ing)?|creat(?:e|ing)|start(?:ing)?)\s+|" + _ARTICLES + r")+",
    re.IGNORECASE,
)
_ARTICLE = Pattern(r"^(?:" + _ARTICLES + r")+", re.IGNORECASE)
_HELPS = Pattern(
    r"\b(?:helps?|helping|lets?|letting|enables?|saves?)\s+([^,.;:!?]+?)"
    r"(?:\s+(?:to|find|get|book|track|plan|run|keep|sell|buy|manage|cut|save|"
    r"avoid|share|learn)\b|[,.;:!?]|$)",
    re.IGNORECASE,
)
# Japanese / Chinese / Korean: "<customer>のための<offering>", "面向<customer>的<offering>" …
_CJK_FOR = [
    Pattern(r"^(?P<c>.+?)(?:のための|のため|向けの|向け)(?P<o>.+)$"),
    Pattern(r"^(?:为|為|给|給)(?P<c>.+)提供(?P<o>.+)$"),  # "为骑车上班的通勤者提供上门修车服务"
    Pattern(r"^(?:面向|为|為)(?P<c>.+?)的(?P<o>.+)$"),
    Pattern(r"^(?P<c>.+?)(?:을|를)?\s*위한\s*(?P<o>.+)$"),
]
_PEOPLE_SUFFIX = Pattern(
    r"\w+(?:ers|ors|ists|ians|ants|ents|ees|owners|ies|les|ics|ools|"
    r"ops|ses|ns|ts|ds|ks|ms|ps|rs|gs)$"
)

# Industry: a few telling words each (whole words), and the customer to fall back to.
INDUSTRIES: dict[str, tuple[tuple[str, ...], str]] = {
    "health": (
        (
            "clinic",
            "clinics",
            "health",
            "nurse",
            "nurses",
            "patients",
            "care",
            "hospital",
            "hospitals",
            "physiotherapy",
            "therapy",
            "medical",
            "infirmières",
            "dental",
            "pharmacy",
            "看護師",
            "wellbeing",
            "mental",
        ),
        "care teams",
    ),
    "food": (
        (
            "coffee",
            "tea",
            "thé",
            "food",
            "bakery",
            "bakeries",
            "restaurant",
            "restaurants",
            "meal",
            "meals",
            "kitchen",
            "café",
            "cafe",
            "お茶",
            "茶",
            "grocery",
            "chefs",
            "snacks",
            "wine",
        ),
        "people who eat on the go",
    ),
    "farming": (
        (
            "farm",
            "farms",
            "farmers",
            "harvest",
            "crops",
            "irrigation",
            "agriculture",
            "soil",
            "livestock",
            "orchard",
            "growers",
            "seeds",
        ),
        "small farms",
    ),
    "energy": (
        (
            "solar",
            "energy",
            "microgrid",
            "microgrids",
            "battery",
            "batteries",
            "power",
            "electric",
            "heat",
            "wind",
            "grid",
        ),
        "households off the grid",
    ),
    "education": (
        (
            "school",
            "schools",
            "students",
            "teachers",
            "tutoring",
            "learning",
            "course",
            "courses",
            "classroom",
            "kids",
            "children",
            "escuelas",
        ),
        "teachers",
    ),
    "money": (
        (
            "tax",
            "invoicing",
            "invoices",
            "accounting",
            "bookkeeping",
            "payments",
            "payroll",
            "finance",
            "loans",
            "insurance",
            "budget",
        ),
        "small business owners",
    ),
    "fashion": (
        (
            "wedding",
            "dresses",
            "dress",
            "clothing",
            "fashion",
            "tailoring",
            "shoes",
            "jewellery",
            "jewelry",
            "vintage",
        ),
        "couples planning a wedding",
    ),
    "travel": (
        (
            "travel",
            "tour",
            "tours",
            "hotel",
            "hotels",
            "hostel",
            "trips",
            "bike",
            "bikes",
            "transport",
            "couriers",
            "delivery",
            "logistics",
            "van",
        ),
        "people on the move",
    ),
    "home": (
        (
            "home",
            "homes",
            "repair",
            "repairs",
            "cleaning",
            "plumbing",
            "garden",
            "pets",
            "dog",
            "dogs",
            "childcare",
            "elderly",
            "seniors",
        ),
        "busy households",
    ),
    "creative": (
        (
            "music",
            "musicians",
            "artists",
            "illustrators",
            "photographers",
            "design",
            "writers",
            "podcast",
            "video",
            "film",
            "craft",
            "makers",
        ),
        "independent creators",
    ),
    "software": (
        (
            "software",
            "developers",
            "api",
            "app",
            "apps",
            "saas",
            "data",
            "code",
            "devops",
            "analytics",
            "ai",
            "platform",
        ),
        "small product teams",
    ),
}


def industry_of(pitch: str) -> str:
    toks = words(pitch)
    best, hits = "general", 0
    for name, (vocab, _) in INDUSTRIES.items():
        n = sum(1 for t in toks if t in vocab)
        if n > hits:
            best, hits = name, n
    return best


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
    opener = toks[0] if toks else ""
    out = []
    for w in phrase.split():
        title = w[:1].isupper() and all(p[1:] == p[1:].lower() for p in w.split("-"))
        if w.isupper() and len(w) > 1:
            out.append(w)  # an acronym
        elif w == opener and title:
            out.append(w[:1].lower() + w[1:])
        elif title_case and title and w.isascii() and not place:
            out.append("-".join(p[:1].lower() + p[1:] for p in w.split("-")))
        else:
            out.append(w)  # a name ("Zürich", "Leeds" in a place), German nouns, CJK
    return " ".join(out)


# markup tags, Rich/BBCode tags, typed escapes (\n, \\t, \x1b, \u200b, an ANSI colour), format
# placeholders (%s, {0}) and stray braces: none of them is a word of the pitch
_MARKUP = Pattern(
    r"<[^<>]{0,60}>|\[/?[#a-z0-9 =_-]{0,40}\]|\\+(?:x[0-9a-f]{2}|u[0-9a-f]{4}|[nrte])(?:\[[\d;]*m)?"
    r"|%[sdr]\b|\{\d*\}|[{}]",
    re.IGNORECASE,
)
# Where the customer is: "nurses at big city hospitals", "farmers in Kenya".
_SETTING = Pattern(r"\s+(at|in|across|near|around|inside|within|throughout)\s+", re.IGNORECASE)
# Things a pitch is "for" that do not pay: the customer is whoever owns them.
_NOT_PEOPLE = frozenset(
    [
        "plants",
        "batteries",
        "bikes",
        "e-bikes",
        "cars",
        "vans",
        "dogs",
        "cats",
        "pets",
        "horses",
        "boats",
        "phones",
        "laptops",
        "gardens",
        "lawns",
        "pools",
        "roofs",
        "bees",
        "chickens",
        "gear",
        "equipment",
        "instruments",
        "furniture",
        "photos",
    ]
)
# Occasions a thing is bought for, never people though they end like a trade ("dinners"): "family
# dinners" are bought by families, "office parties" by offices.
_OCCASIONS = frozenset(
    [
        "dinners",
        "lunches",
        "breakfasts",
        "suppers",
        "brunches",
        "parties",
        "weddings",
        "picnics",
        "barbecues",
        "birthdays",
        "holidays",
        "events",
        "meetings",
        "trips",
    ]
)
_PARTS = frozenset(
    ["batteries", "tyres", "tires", "parts"]
)  # owned with the thing they are part of
_MADE = ("handmade", "homemade", "hand-made")
# What a word says of the thing, not of its owner ("elderly cats" are owned by cat owners).
_OF_THE_THING = frozenset(
    ["used", "old", "broken", "second-hand", "new", "elderly", "senior", "older", "young", *_MADE]
)
_PEOPLE_WORDS = frozenset(
    [
        "people",
        "staff",
        "kids",
        "children",
        "families",
        "couples",
        "teams",
        "folks",
        "parents",
        "seniors",
        "police",
        "clinics",
        "schools",
        "shops",
        "cafés",
        "cafes",
        "restaurants",
        "hospitals",
        "hotels",
        "farms",
        "practices",
        "firms",
        "agencies",
        "charities",
        "cooperatives",
        "breweries",
        "bakeries",
        "salons",
        "homes",
        "households",
        "startups",
        "offices",
        "businesses",
        "companies",
        "studios",
        "gyms",
        "canteens",
        "neighbourhoods",
    ]
)
_RTL = Pattern(r"[\u0590-\u08ff]")
_RTL_FOR = Pattern(r"^(?:لل|ل|ל|של)(?=\w)")
_MAX_CUSTOMER_WORDS = 8
_CONJ = {"and", "or", "et", "y", "und", "e", "och", "en"}


def _trim(phrase: str) -> str:
    """A phrase up to its clause's end ("nurses who work nights" -> "nurses"), whole words only,
    without dangling stop words; never cut inside a noun phrase."""
    phrase = _CLAUSE_END.split(phrase, maxsplit=1)[0].strip()
    toks = phrase.split()
    while toks and toks[-1].lower() in STOPWORDS | _CONJ:
        toks.pop()
    return " ".join(toks).strip(" '\"“”‘’-")


def _head_noun_phrase(phrase: str) -> str:
    """A very long customer phrase (a rambling pitch) down to its first people-noun."""
    toks = phrase.split()
    if len(toks) <= _MAX_CUSTOMER_WORDS:
        return phrase
    for i, w in enumerate(toks[:_MAX_CUSTOMER_WORDS]):
        lw = w.lower().strip(",.")
        if lw in _PEOPLE_WORDS or _PEOPLE_SUFFIX.fullmatch(lw):
            return " ".join(toks[: i + 1])
    return " ".join(toks[:_MAX_CUSTOMER_WORDS])


def _split_setting(customer: str) -> tuple[str, str, str]:
    """("night-shift nurses at big city hospitals") -> ("night-shift nurses", "at", "big city …")."""
    m = _SETTING.search(customer)
    if not m or not customer[: m.start()].strip():
        return customer, "", ""
    return customer[: m.start()].strip(), m.group(1).lower(), _trim(customer[m.end() :])


# Customers who do not pay for themselves: their parents do.
_MINORS = frozenset(["kids", "children", "toddlers", "teens", "teenagers", "babies", "infants"])
_WITH = Pattern(r"\s+with\s+((?:(?!who\b|that\b|in\b|at\b|and\b)[\w'-]+\s*){1,4})", re.IGNORECASE)


def _parents(customer: str, said: str) -> str:
    """ "kids with dyslexia" -> "parents of kids with dyslexia" ('' for a customer who pays)."""
    if _head(customer).lower() not in _MINORS:  # "parents of young children" pay already
        return ""
    m = _WITH.search(said)
    return f"parents of {customer}" + (f" with {m.group(1).strip()}" if m else "")


def _owners(customer: str) -> str:
    """Who pays for a thing: "plants" -> "plant owners", "vintage cars" -> "vintage car owners",
    a part's owner owns the whole ("e-bike batteries" -> "e-bike owners"), a handmade thing is
    sold by its makers ("handmade furniture" -> "furniture makers")."""
    toks = customer.split()
    if not toks or toks[-1].lower() not in _NOT_PEOPLE:
        return customer
    made = any(t.lower() in _MADE for t in toks)
    while len(toks) > 1 and toks[0].lower() in _OF_THE_THING:
        toks = toks[1:]
    if len(toks) > 1 and toks[-1].lower() in _PARTS:
        return " ".join(toks[:-1]) + " owners"
    head = toks[-1]
    toks[-1] = head[:-3] + "y" if head.lower().endswith("ies") else head.rstrip("s")
    return " ".join(toks) + (" makers" if made else " owners")


def _buying_place(customer: str) -> str:
    """Who pays for a thing a place buys for itself: "office coffee" -> "offices", "school
    lunches" -> "schools", "family meals" -> "families" ('' unless the head is a thing and the
    first word names a place or group that buys)."""
    toks = customer.split()
    if len(toks) < 2 or _is_people(customer) or not toks[0].isascii():
        return ""
    place = plural(toks[0].lower())
    return place if place in _PEOPLE_WORDS else ""


def _hosts(customer: str) -> str:
    """Who pays for an occasion no place or group buys: "birthday parties" -> "birthday party
    hosts", "weddings" -> "engaged couples" ('' unless the head is an occasion)."""
    toks = customer.split()
    if not toks or toks[-1].lower() not in _OCCASIONS:
        return ""
    if len(toks) == 1 and toks[0].lower() in _OCCASION_PAYERS:
        return _OCCASION_PAYERS[toks[0].lower()]
    return f"{singular(customer)} hosts"


_OCCASION_PAYERS = {
    "weddings": "engaged couples",
    "holidays": "holidaymakers",
    "trips": "travellers",
    "events": "event organisers",
    "meetings": "meeting organisers",
}


def _hits(word: str, tells: tuple[str, ...]) -> bool:
    """A whole-word hit; a CJK word (no spaces in those scripts) hits a tell it contains."""
    if word in tells:
        return True
    return is_cjk(word) and any(is_cjk(t) and t in word for t in tells)


_QUALIFIER = Pattern(r"\s+(?:of|on|at|in|with|for|de|du|des|di|da)\s+", re.IGNORECASE)


def _head(phrase: str) -> str:
    """The head noun of a phrase: its last word before a qualifier ("parents" of "parents of
    young children", "flowers" of "wedding flowers on a budget")."""
    ws = words(_QUALIFIER.split(phrase, maxsplit=1)[0])
    return ws[-1] if ws else ""


def _best(
    vocab: dict[str, tuple[str, ...]], strong: list[str], weak: list[str], head: str = ""
) -> str:
    """The entry whose telling words the strong words (counted twice, the head noun once more)
    and the weak words hit most; ties go to the first in the table."""
    best, score = "general", 0
    for name, tells in vocab.items():
        n = 2 * sum(_hits(t, tells) for t in strong) + sum(_hits(t, tells) for t in weak)
        n += _hits(head, tells) if head else 0
        if n > score:
            best, score = name, n
    return best


def _unmarked(pitch: str) -> str:
    """The pitch as read: markup tags and escapes gone, then `textkit.clean` (stored as typed)."""
    pitch = re.sub(
        r"<(script|style)\b[^>]*>.*?</\1\s*>", " ", pitch, flags=re.IGNORECASE | re.DOTALL
    )
    return clean(_MARKUP.sub(" ", pitch))


def _read_cjk(text: str) -> tuple[str, str]:
    flat = re.sub(r"[。、！？!?.,]", "", text).strip()
    for pat in _CJK_FOR:
        m = pat.match(flat)
        if m:
            return m.group("o").strip(), m.group("c").strip()
    cw = content_words(text)
    return (cw[0] if cw else text[:20]), ""


def _read_rtl(text: str) -> tuple[str, str]:
    """Arabic / Hebrew: "for" is a prefix (ل, לל): "وجبات للممرضات" -> ("وجبات", "ممرضات")."""
    toks = text.split()
    for i, w in enumerate(toks[1:], start=1):
        if _RTL_FOR.match(w):
            return " ".join(toks[:i]), " ".join([_RTL_FOR.sub("", w), *toks[i + 1 :]])
    return text, ""


def _is_people(phrase: str) -> bool:
    """A phrase whose head noun is people (a trade, a role, a group), not a thing or an animal."""
    head = _head(_trim(phrase)).lower()
    return (
        bool(head)
        and head not in _NOT_PEOPLE
        and head not in _OCCASIONS
        and (head in _PEOPLE_WORDS or bool(_PEOPLE_SUFFIX.fullmatch(head)))
    )


def _payer(phrase: str) -> str:
    """Of "dogs, for solo groomers who work from a van": the later "for" names who pays when the
    first names what the offering serves (a thing or an animal) and the later names people."""
    later = re.search(rf"[,;:—–]\s*{_FOR}\s+(?P<c>.+)$", phrase, re.IGNORECASE)
    if later and not _is_people(phrase) and _is_people(later.group("c")):
        return later.group("c")
    return phrase


def _read_latin(first: str) -> tuple[str, str]:
    """(offering, customer phrase) of a pitch in a Latin script."""
    lead = re.match(rf"^{_FOR}\s+(?P<c>[^,:;.!?—–-]+)[,:;—–-]\s*(?P<o>.+)$", first, re.IGNORECASE)
    if lead:
        return lead.group("o"), lead.group("c")
    m = re.search(rf"^(?P<o>.*?)\s+{_FOR}\s+(?P<c>.+)$", first, re.IGNORECASE)
    if m:
        return m.group("o"), _payer(m.group("c"))
    h = _HELPS.search(first)
    if h:
        offering = first[: h.start()]
        if not content_words(_LEAD.sub("", offering.strip() + " ")):
            offering = first[h.end() :]
        return offering, h.group(1)
    return first, ""


def read_pitch(pitch: str) -> PitchReading:
    """The pitch's reading (see `_read_pitch`), read once per pitch: a venture's workers read
    the same pitch at every stage (a frozen value, so the cached one is shared)."""
    return _read_pitch(pitch)


@functools.lru_cache(maxsize=256)
def _read_pitch(pitch: str) -> PitchReading:
    """The offering, customer, setting and the two worlds of a pitch (any language; English best).

    Reads 3 to 60 words with or without "for"; keeps accents and other scripts whole; reads the
    pitch without markup or escapes; a pitch that names no customer gets the offering world's
    usual one and says so in `note`."""
    text = _unmarked(pitch)
    first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0] if text else ""
    if is_cjk(text):
        offering, customer = _read_cjk(text)
    elif _RTL.search(text):
        offering, customer = _read_rtl(first)
    else:
        offering, customer = _read_latin(first)
    offering = _trim(_LEAD.sub("", offering.strip()))
    offering = re.sub(r"\s+(?:that|which|to)$", "", offering)
    if not offering:
        offering = " ".join(content_words(text)[:3])
    # its article goes ("les étudiants" would read "three les étudiants" in the work)
    said = customer
    customer = _ARTICLE.sub("", _trim(customer))
    while customer.split()[1:] and customer.split()[-1].lower() in WHERE_AFTER:
        customer = customer.rsplit(None, 1)[0]  # "small businesses everywhere": who, not where
    customer, prep, setting = _split_setting(_head_noun_phrase(customer))
    owners = (
        _parents(customer, said) or _buying_place(customer) or _hosts(customer) or _owners(customer)
    )
    found = bool(customer)
    if not customer:
        people = [
            w
            for w in re.findall(r"[^\W\d_]+", first)
            if _PEOPLE_SUFFIX.fullmatch(w.lower())
            and w.lower() not in STOPWORDS
            and w.lower() not in words(offering)
        ]
        customer, found = (people[-1], True) if people else ("", False)
    core = _QUALIFIER.split(offering, maxsplit=1)[0]  # "wedding flowers" of "… on a budget"
    world = _best({k: v[0] for k, v in WORLDS.items()}, words(core), words(text))
    trade = _best(TRADES, words(f"{owners} {setting}"), [], _head(owners)) if found else "general"
    if found and "retired" in words(owners):  # a retired engineer's trade is no longer tech
        trade = "elders"
    note = ""
    if owners != customer:
        verb = "do" if is_plural(customer) else "does"
        note = f"“{customer}” {verb} not pay, so the customer is read as {owners}"
        customer = owners
    if not customer:
        customer = WORLDS[world][1] if world in WORLDS else "early customers"
        note = f"the pitch names no customer, so it is read as {customer}; add “for …” to say"
    if not offering:
        offering = "the service"
    industry = industry_of(text)
    return PitchReading(
        customer=_keep_case(customer, text),
        offering=_keep_case(offering, text),
        industry=industry,
        customer_found=found,
        setting=_keep_case(setting, text, place=True),
        setting_prep=prep or "at",
        world=world,
        trade=trade,
        note=note,
    )


def describe(r: PitchReading) -> str:
    """The reading in one line for the new-venture form ("Offering: meal kits · Customer: …")."""
    parts = [f"Offering: {r.offering}", f"Customer: {r.customer}"]
    if r.setting:
        parts.append(f"Where: {r.setting}")
    parts.append(
        f"About: {r.world}" + (f" · Their trade: {r.trade}" if r.trade != "general" else "")
    )
    return " · ".join(parts)


def company_name(pitch: str) -> str:
    """A name when the player gives none: the offering's first words as written (any script),
    each word's first letter raised and the rest kept ("AI Receptionist Co", "Thé Co")."""
    r = read_pitch(pitch)
    source = r.offering or _unmarked(pitch)
    if is_cjk(source):
        return source[:12]
    picked = [
        w
        for w in source.split()
        if w.lower() not in STOPWORDS and (len(w) > 2 or (len(w) == 2 and w.isupper()))
    ][:2]
    if not picked:
        picked = content_words(_unmarked(pitch))[:2] or ["New"]
    name = " ".join(w[:1].upper() + w[1:] for w in picked)
    return name if _RTL.search(name) else name + " Co"
