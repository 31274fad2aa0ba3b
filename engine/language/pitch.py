"""Reading a pitch: who the customer is, what the company offers, which industry it is in, and a
company name when the player gives none. Any script is kept intact (accents, CJK); nothing is
lower-cased except plain English words, so "NHS" and "Thé" survive.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from engine.language.text import STOPWORDS, content_words, is_cjk, words


class PitchReading(BaseModel):
    customer: str
    offering: str
    industry: str
    customer_found: bool


# "X for Y" in the languages players write pitches in (Latin scripts): the word for "for".
_FOR = r"(?:for|pour|para|für|fuer|per|för|voor)"
_CLAUSE_END = re.compile(
    r"\s+(?:who|that|which|to|with|by|so|because|while|without|using|in order|across|from|"
    r"living|working|looking|trying|"
    r"through|via|where|when|qui|que|avec|sans|dans|con|sin|que|mit|ohne|die|der)\b|[.,;:!?()]",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^(?:(?:we(?:'re| are)?|i(?:'m| am)?)\s+(?:build(?:ing)?|make|making|offer(?:ing)?|run(?:ning)?|"
    r"sell(?:ing)?|launch(?:ing)?|creat(?:e|ing)|start(?:ing)?)\s+|an?\s+|the\s+|un\s+|une\s+|"
    r"le\s+|la\s+|les\s+|el\s+|los\s+|las\s+|una?\s+|ein(?:e)?\s+|der\s+|die\s+|das\s+)+",
    re.IGNORECASE,
)
_HELPS = re.compile(
    r"\b(?:helps?|helping|lets?|letting|enables?|saves?)\s+([^,.;:!?]+?)"
    r"(?:\s+(?:to|find|get|book|track|plan|run|keep|sell|buy|manage|cut|save|"
    r"avoid|share|learn)\b|[,.;:!?]|$)",
    re.IGNORECASE,
)
# Japanese / Chinese / Korean: "<customer>のための<offering>", "面向<customer>的<offering>" …
_CJK_FOR = [
    re.compile(r"^(?P<c>.+?)(?:のための|のため|向けの|向け)(?P<o>.+)$"),
    re.compile(r"^(?:面向|为|為)(?P<c>.+?)(?:的|提供)(?P<o>.+)$"),
    re.compile(r"^(?P<c>.+?)(?:을|를)?\s*위한\s*(?P<o>.+)$"),
]
_PEOPLE_SUFFIX = re.compile(
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


def _keep_case(phrase: str, pitch: str) -> str:
    """Keep names, acronyms, German nouns and CJK as written; lower-case only a word capitalised
    because it opens the pitch, or every word of a Title Case pitch."""
    toks = pitch.split()
    title_case = len(toks) > 2 and all(
        w[:1].isupper() for w in toks if w[:1].isalpha() and w.lower() not in STOPWORDS
    )
    opener = toks[0] if toks else ""
    out = []
    for w in phrase.split():
        if w.isupper() and len(w) > 1:
            out.append(w)
        elif (title_case or w == opener) and w[:1].isupper() and w[1:] == w[1:].lower():
            out.append(w[:1].lower() + w[1:])
        else:
            out.append(w)
    return " ".join(out)


def _trim(phrase: str, limit: int = 5) -> str:
    phrase = _CLAUSE_END.split(phrase, maxsplit=1)[0].strip()
    toks = phrase.split()[:limit]
    while toks and toks[-1].lower() in STOPWORDS | {"and", "or", "et", "y", "und"}:
        toks.pop()
    return " ".join(toks).strip(" '\"“”‘’-")


def read_pitch(pitch: str) -> PitchReading:
    """The customer, the offering and the industry of a pitch (any language; English best)."""
    text = " ".join(pitch.split())
    industry = industry_of(text)
    fallback = INDUSTRIES[industry][1] if industry in INDUSTRIES else "early customers"
    if is_cjk(text):
        flat = re.sub(r"[。、！？!?.,]", "", text).strip()
        for pat in _CJK_FOR:
            m = pat.match(flat)
            if m:
                return PitchReading(
                    customer=m.group("c").strip(),
                    offering=m.group("o").strip(),
                    industry=industry,
                    customer_found=True,
                )
        cw = content_words(text)
        return PitchReading(
            customer=fallback,
            offering=cw[0] if cw else text[:20],
            industry=industry,
            customer_found=False,
        )
    first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    m = re.search(rf"^(?P<o>.*?)\s+{_FOR}\s+(?P<c>.+)$", first, re.IGNORECASE)
    offering, customer = "", ""
    if m:
        offering, customer = m.group("o"), _trim(m.group("c"))
    else:
        h = _HELPS.search(first)
        if h:
            customer = _trim(h.group(1))
            offering = first[: h.start()]
            if not content_words(_LEAD.sub("", offering.strip() + " ")):
                offering = first[h.end() :]
        else:
            offering = first
    offering = _trim(_LEAD.sub("", offering.strip()), 6)
    offering = re.sub(r"\s+(?:that|which|to)$", "", offering)
    if not offering:
        cw = content_words(text)
        offering = " ".join(cw[:3]) or "the service"
    found = bool(customer)
    if not customer:
        people = [
            w
            for w in re.findall(r"[^\W\d_]+", first)
            if _PEOPLE_SUFFIX.fullmatch(w.lower())
            and w.lower() not in STOPWORDS
            and w.lower() not in words(offering)
        ]
        customer = people[-1] if people else fallback
        found = bool(people)
    return PitchReading(
        customer=_keep_case(customer, text),
        offering=_keep_case(offering, text),
        industry=industry,
        customer_found=found,
    )


def company_name(pitch: str) -> str:
    """A name when the player gives none: the offering's first words as written (any script)."""
    r = read_pitch(pitch)
    source = r.offering if r.offering else pitch
    if is_cjk(source):
        return source[:12]
    picked = [w for w in source.split() if w.lower() not in STOPWORDS and len(w) > 2][:2]
    if not picked:
        picked = [w for w in content_words(pitch)[:2]]
    return " ".join(w[:1].upper() + w[1:] for w in picked) + " Co"
