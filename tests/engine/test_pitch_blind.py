"""A second blind set (tests/data/pitches_blind.jsonl): 157 pitches in domains the other sets do not
touch (funeral directors, tattoo studios, shipyards, mosques, narrowboats …), written as founders
type them ("sold to X", "X pay £5 a head for our Y", "we help X do Y", "marketplace connecting X
and Y", "app that lets X", "X can book Y", the place first, a benefit or a problem first, a name
before a colon, Spanish, French, German, emoji, nine with no payer), labelled by the corpus's
rules (../shared/corpus/README.md; a marketplace's payer is the side the pitch says pays, else the
side that buys the goods) and committed before the reader ran on them.

First reading (commit 62d97e2, before any change made for it): who pays 76.4 % (exact 66.9 %),
offering 72.0 %, place 96.8 %, bad customers 3 (2 verbs, 1 benefit).

Scored as tests/engine/test_pitch_fresh.py scores its set (the pitch bench's rules, in a child
process). A row the reader still misses is listed below with its cause, and fails the day it reads
right, so the list only shrinks. A read customer is bad when it is a pronoun, a verb, a rival or a
benefit and the label itself is not ("touring musicians": the bench's verb list holds "touring")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.direction_sets import ROOT, rows
from tests.engine.pitch_sets import cases, judge

ROWS = rows("pitches_blind")

# The causes of the misses, each shared by the rows that list it.
MOD = "a leading modifier names the buyer or owner, and no vocabulary row says so"
CONN = "'connecting X with/and Y': neither side is read as the buyer"

# Misses the reader still makes, by aspect: pitch -> why.
MISSES: dict[str, dict[str, str]] = {
    "payer": {
        "HR teams at mid-size companies pay for our exit interview bot": "the payer's setting ('at mid-size companies') is read as who pays",
        "vintage clothing sellers on Depop can list faster with our photo tool": "a subject with a setting ('on Depop') before its verb is missed",
        "companionship visits for grandparents living alone, booked by their grown-up kids": "the payer named by 'booked by' is mapped as a minor ('kids')",
        "hearing loop installation for churches and village halls": "a coordination of two buyers is cut at 'and'",
        "job seekers over fifty: CV rewrites and interview coaching, £49": "the customer's qualifier ('over fifty') is dropped",
        "marketplace connecting farmers and restaurants": CONN,
        "marketplace connecting freelance editors with self-published authors": CONN,
        "fitness classes aimed at over-60s in Swansea": "'over-60s' is not known as people",
        "Vintage tractor parts by post": MOD,
        "pressure washing patios in perth": MOD,
        "uber for tractor hire in rural Kenya": "what a hire is for ('tractor') has no payer row",
        "Running a community pool is hard. We run the bookings, the lifeguard rota and the card payments for pool trusts.": "the 'pool' owned row wins over the named trusts",
        "coding camps for 8 to 12 year olds in Dublin": "an age ('8 to 12 year olds') is not read as minors",
        "smart locks for your holiday let": "'holiday' maps to holidaymakers; 'let' (a rented home) is unknown",
    },
    "offering": {
        "HR teams at mid-size companies pay for our exit interview bot": "the payer's setting splits the subject, and its first words are read as the offering",
        "Food banks need volunteers at short notice - we built a rota app for them": "what the payer needs ('volunteers') is read, not what 'we built' after the dash",
        "vintage clothing sellers on Depop can list faster with our photo tool": "the payer is missed (a setting before its verb), so it is read as the offering",
        "Raised beds delivered and built for gardeners in Bristol": "'delivered' makes a delivery of the goods",
        "job seekers over fifty: CV rewrites and interview coaching, £49": "the customer before the colon is read as the offering (only a claim there is read past)",
        "a tiny sauna on wheels you can rent for the weekend": "'rent' makes a hire of the goods",
        "a cocktail bar inside an old tram in Zürich": "'inside' is kept in the offering",
        "we connect retired engineers with startups that need a mentor, startups pay": "no noun names the offering ('mentoring'): the verb 'connect' is read",
        "less paperwork for foster carers - one app for logs and allowances": "'one app' after the dash: 'one' is read as a pronoun, so the claim stays",
        "More bookings for yoga teachers with a simple class page": "a benefit leads; the instrument ('with a … page') is the offering",
        "B2B for florists — wholesale stems delivered before 7am": "'B2B' is read as the offering, 'delivered' makes it a delivery",
        "parents pay, kids get a weekly science kit": "the offering is in the clause after 'parents pay,'",
        "we help small breweries sell kegs direct to pubs through one ordering site": "'through one ordering site': 'one' is read as a pronoun, so the goods they sell are read",
        "Guitar setups and repairs in Glasgow": "two offerings joined by 'and' are kept together",
        "pressure washing patios in perth": "what is washed is kept in the offering",
        "basically Calendly for tattoo artists": "a rival names the offering; no noun does",
        "Florists throw away a third of their stock. Bloom is a surplus flower marketplace. Shops list, cafés and offices buy.": "the sentence naming who buys is read for the offering",
        "Small vets lose clients to chains. We give them a booking page and reminders. £39 a month.": "'we give them Y' is no offering frame",
        "Zillow for student housing in Ireland": "a rival not in the brands list is read as the offering",
        "targeting dental labs: 3D printed crowns overnight": "'printed' ends the offering as a participle would",
    },
    "place": {
        "kayak tours around the Lofoten islands": "a name before a lower-case noun is read as qualifying it ('the Amazon warehouse')",
        "craft chocolate from Ghanaian cocoa, sold online": "an adjective of origin is read as the place",
        "pressure washing patios in perth": "a lower-case place after an object is missed",
        "Walking tours of Porto for cruise passengers": "'of' leads no place",
        "a floating sauna on the river Thames": "'on' leads no place: 'on Etsy', 'on the App Store'",
    },
}
# Customers read that no one could be, until fixed: pitch -> kind.
BAD: dict[str, str] = {}


@pytest.fixture(scope="module")
def judged() -> list[dict[str, Any]]:
    return judge(ROWS)


def _cases(aspect: str) -> list[Any]:
    return cases(ROWS, MISSES, aspect)


def test_the_set_is_varied_and_every_miss_listed_is_one_of_its_rows() -> None:
    assert len(ROWS) >= 100
    assert len({r["pitch"] for r in ROWS}) == len(ROWS)
    assert sum(r["customer"] is None for r in ROWS) >= 5  # a pitch may name no payer
    assert sum(r["pitch"] == r["pitch"].lower() for r in ROWS) >= 30
    assert sum(not r["pitch"].isascii() for r in ROWS) >= 10
    fresh = (ROOT / "tests/data/pitches_fresh.jsonl").read_text("utf-8")
    assert not {r["pitch"] for r in ROWS} & {json.loads(x)["pitch"] for x in fresh.splitlines()}
    pitches = {r["pitch"] for r in ROWS}
    assert all(p in pitches for m in MISSES.values() for p in m)


@pytest.mark.parametrize("k", _cases("payer"))
def test_who_pays(judged: list[dict[str, Any]], k: int) -> None:
    assert judged[k]["payer"], (ROWS[k]["customer"], judged[k]["read"])


@pytest.mark.parametrize("k", _cases("offering"))
def test_the_offering(judged: list[dict[str, Any]], k: int) -> None:
    assert judged[k]["offering"], (ROWS[k]["offering"], judged[k]["read"])


@pytest.mark.parametrize("k", _cases("place"))
def test_the_place(judged: list[dict[str, Any]], k: int) -> None:
    assert judged[k]["place"], (ROWS[k]["place"], judged[k]["read"])


def test_no_pronoun_verb_rival_or_benefit_is_ever_who_pays(judged: list[dict[str, Any]]) -> None:
    bad = {
        ROWS[k]["pitch"]: j["bad"] for k, j in enumerate(judged) if j["bad"] and not j["label_bad"]
    }  # counted only where the label itself is a customer the bench accepts
    assert bad == BAD
