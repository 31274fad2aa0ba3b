"""Word banks of the customer's trade (data only): who buys, where they gather and when they are
busy. Keyed like engine.language.domains.TRADES; what the company sells is engine.writing.worlds.

Fields: `unit` (who pays, singular: "$40 a month per {unit}"), `place` (where they gather, for the
launch channels), `moment` (when the offering matters to them, to follow a noun: "no time to cook
{moment}"); a trade that runs the offering's world as a business (groomers) may add its own
`pain` and `outcome`, which then replace the world's.
"""

from __future__ import annotations

# fmt: off
TRADE_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "nursing": {
        "unit": ("nurse", "ward team"),
        "place": ("hospital staff rooms", "the nursing union newsletter", "night-shift group chats"),
        "moment": ("after a night shift", "on a twelve-hour shift", "at the 3 a.m. break"),
    },
    "clinics": {
        "unit": ("clinic", "practice"),
        "place": ("practice-manager forums", "clinic owner meetups", "the regional health network"),
        "moment": ("between patients", "before morning clinic", "at the end of a full list"),
    },
    "teaching": {
        "unit": ("school", "class"),
        "place": ("teacher staff rooms", "parent associations", "district newsletters"),
        "moment": ("before the first bell", "in the lunch break", "at the end of term"),
    },
    "farming": {
        "unit": ("farm", "grower"),
        "place": ("the grower cooperatives", "market-day stalls", "the extension officers"),
        "moment": ("at planting time", "when the crop comes in", "before the rains"),
    },
    "hospitality": {
        "unit": ("kitchen", "café"),
        "place": ("local food markets", "chef group chats", "the hospitality trade fair"),
        "moment": ("in the lunch rush", "after close", "before service"),
    },
    "couriers": {
        "unit": ("rider", "driver"),
        "place": ("courier depots", "rider group chats", "the drivers' forum"),
        "moment": ("between drops", "at the end of a long route", "on a late run"),
    },
    "freelance": {
        "unit": ("freelancer", "studio"),
        "place": ("freelancer communities", "portfolio sites", "co-working spaces"),
        "moment": ("between commissions", "the week a deadline lands", "at the end of the month"),
    },
    "retail": {
        "unit": ("shop", "seller"),
        "place": ("the high-street traders' group", "seller forums", "market-day stalls"),
        "moment": ("before opening", "in the Saturday rush", "after closing up"),
    },
    "tech": {
        "unit": ("team", "workspace"),
        "place": ("developer meetups", "open-source forums", "engineering newsletters"),
        "moment": ("before a release", "during an on-call week", "at sprint planning"),
    },
    "families": {
        "unit": ("family", "household"),
        "place": ("school-gate chats", "parent groups", "the local library"),
        "moment": ("after the school run", "on a busy weeknight", "at the weekend"),
    },
    "elders": {
        "unit": ("household", "member"),
        "place": ("community centres", "the local GP surgery", "church halls"),
        "moment": ("mid-morning", "on a quiet afternoon", "before the winter"),
    },
    "homes": {
        "unit": ("home", "household"),
        "place": ("neighbourhood groups", "estate agents", "community boards"),
        "moment": ("at the weekend", "before the winter", "on moving day"),
    },
    "couples": {
        "unit": ("couple", "booking"),
        "place": ("wedding fairs", "planner referrals", "bridal forums"),
        "moment": ("months before the day", "in the last week before the wedding", "on the day"),
    },
    "charities": {
        "unit": ("charity", "project"),
        "place": ("the local voluntary council", "charity newsletters", "funder open days"),
        "moment": ("before a funding round", "at year end", "between projects"),
    },
    "law": {
        "unit": ("firm", "partner"),
        "place": ("the law society's events", "practice-manager groups", "legal newsletters"),
        "moment": ("before a filing deadline", "at quarter end", "between client calls"),
    },
    "workers": {
        "unit": ("worker", "member"),
        "place": ("union branches", "workplace group chats", "community centres"),
        "moment": ("after a long shift", "between shifts", "on a day off"),
    },
    "learners": {
        "unit": ("learner", "student"),
        "place": ("student unions", "study group chats", "the campus noticeboard"),
        "moment": ("in exam week", "after lectures", "late at night"),
    },
    "pet owners": {
        "unit": ("pet owner", "household"),
        "place": ("dog parks", "pet shop noticeboards", "neighbourhood groups"),
        "moment": ("on a long workday", "over a weekend away", "before the holidays"),
    },
    "pet trades": {
        "unit": ("groomer", "pet business"),
        "place": ("groomers' forums", "pet trade shows", "grooming-school alumni groups"),
        "moment": ("between appointments", "after a day of back-to-back grooms",
                   "before the first dog of the day"),
        # they run the pets world as a business: their own problem and promise
        "pain": ("hours lost driving between appointments", "no-shows that leave the van idle",
                 "bookings juggled over text between grooms"),
        "outcome": ("a full day of grooms on one tidy route", "fewer no-shows",
                    "bookings that run themselves"),
    },
    "collectors": {
        "unit": ("collector", "member"),
        "place": ("collector forums", "swap meets", "enthusiast clubs"),
        "moment": ("late at night", "on a weekend", "after a big release"),
    },
    "care homes": {
        "unit": ("home", "agency"),
        "place": ("care manager networks", "the local care association", "agency owner forums"),
        "moment": ("at shift handover", "over a weekend short-staffed", "before an inspection"),
    },
    "athletes": {
        "unit": ("member", "club"),
        "place": ("club noticeboards", "training group chats", "race-day stalls"),
        "moment": ("before training", "on a rest day", "in race week"),
    },
    "general": {
        "unit": ("customer", "account"),
        "place": ("local business groups", "trade associations", "the founder's network"),
        "moment": ("in a busy week", "at the end of the day", "on a Monday morning"),
    },
}
# fmt: on


def trade_words(trade: str) -> dict[str, tuple[str, ...]]:
    """The bank of one customer trade (the general one when the customer fits none)."""
    return TRADE_WORDS.get(trade, TRADE_WORDS["general"])
