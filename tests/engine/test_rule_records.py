"""A rule is one record (engine/game/rules.json, loaded by engine/game/rules.py): its effects, the fork option that offers it, what
the option binds, the simulated worker's verb phrase, the receipt's words and its roles. No part
is missing, and no other product file names a rule id."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from string import Formatter

import pytest

from engine.game.dilemmas import DECK, FILLS, option_directions
from engine.game.rules import OWN_ANSWER, RECORDS, RULES, decided_words, load_rules, verb_phrase
from engine.language.directions import Direction
from engine.views.fork_words import binding_words
from engine.views.render import decision_words

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = (
    "engine",
    "memory",
    "knowledge",
    "worldforge_tui",
    "worldforge_textkit",
    "worldforge_azurehttp",
    "worldforge_savedb",
)
RECORD = Path("engine/game/rules.json")


@pytest.mark.parametrize("rule_id", sorted(set(RULES) - {OWN_ANSWER.id}))
def test_every_rule_has_every_part(rule_id):
    rule = RULES[rule_id]
    parts = {
        "keywords": all(rule.keywords),
        "summary": rule.summary,
        "principle": rule.principle,
        "playbook": rule.playbook,
        "effects": rule.effects,
        "option": rule.option,
        "tradeoff": rule.tradeoff,
        "offered": rule.offered,
        "binds": rule.binds,
        "verb": rule.verb,
        "decided": rule.decided,
    }
    assert [name for name, part in parts.items() if not part] == []
    for offer in rule.offered:  # each offer is a variant of the deck, on the side it says
        v = next(v for family in DECK.values() for v in family if v.id == offer.variant)
        assert (v.a if offer.key == "A" else v.b)[2] == rule_id
    for b in rule.binds:  # a bound value names only what the company fills in
        assert {n for _, n, _, _ in Formatter().parse(b.value) if n} <= set(FILLS), b.value


def test_one_rule_answers_own_words_and_no_fork_offers_it():
    assert [r.id for r in RULES.values() if r.own_answer] == [OWN_ANSWER.id]
    assert not OWN_ANSWER.offered and not OWN_ANSWER.binds


def test_a_rule_id_is_named_in_one_product_file_the_record():
    ids = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, RULES)) + r")(?!\w)")
    named: dict[str, set[str]] = {}
    for top in PRODUCT:
        for path in (ROOT / top).rglob("*"):
            if path.suffix not in (".py", ".json", ".md", ".toml", ".tcss") or not path.is_file():
                continue
            for rule_id in ids.findall(path.read_text(encoding="utf-8")):
                named.setdefault(rule_id, set()).add(str(path.relative_to(ROOT)))
    assert {rid: files for rid, files in named.items() if files != {str(RECORD)}} == {}
    assert set(named) == set(RULES)


def test_the_receipt_says_the_decision_in_its_own_words_not_the_simulators(monkeypatch):
    """The simulated worker's phrase can change without changing what the receipt, the report
    and the standup say the CEO decided."""
    rule = RULES["go.cheap"]
    monkeypatch.setitem(RULES, rule.id, replace(rule, verb="undercut everyone on price"))
    assert verb_phrase(rule.id) == "undercut everyone on price"
    assert decided_words(rule.id) == rule.decided != "undercut everyone on price"
    assert decision_words(rule.id, "Cheap") == rule.decided
    assert binding_words([], rule.id, "Cheap") == f"Binding: {rule.decided}"
    assert binding_words([], OWN_ANSWER.id, "my own way") == "Binding: my own way"


def test_option_binds_resolve_from_the_company_now():
    base = Direction(axis="price", value="$40 a month", amount=40.0, unit="farm")
    got = {
        rid: [
            (d.axis, d.value, d.amount)
            for d in option_directions(rid, base=base, customer="the farmers", stage="stage_3_go")
        ]
        for rid in ("go.premium", "go.cheap", "seller.presell", "go.flank", "designer.ship")
    }
    assert got["go.premium"][0][2] == 70.0 and got["go.cheap"][0][2] == 20.0
    assert got["seller.presell"][0][2] == 700.0  # a year up front, ten months of the premium
    assert got["go.flank"] == [("audience", "the farmers the big players ignore", None)]
    assert got["designer.ship"] == [("timeline", "week 1", 1.0)]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (('"verb": ', '"verbs": '), "no such part ['verbs']"),
        (('"revenue": 1400', '"revenu": 1400'), "no such effect ['revenu']"),
        (('[["founder_edge", "A"]]', '[["founder_edge", "C"]]'), "choices"),
        (('"value": "the founder\'s warm network"', '"value": "x", "op": "under"'), "choices"),
        (('"pivot": 40, "per": 60', '"pivot": "forty", "per": 60'), "not a number"),
        (('"principle": "Start with who you know"', '"principle": 7'), "not words: ['principle']"),
        (('"id": "founder.craft"', '"id": "founder.network"'), "founder.network is there twice"),
    ],
)
def test_a_bad_record_is_refused_by_name_as_it_loads(tmp_path, change, said):
    text = RECORDS.read_text(encoding="utf-8")
    assert change[0] in text
    bad = tmp_path / "rules.json"
    bad.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(ValueError, match=r"rules\.json: rule") as refused:
        load_rules(bad)
    assert said in str(refused.value)
    assert load_rules(RECORDS) == RULES  # the shipped file loads as the game has it


@pytest.mark.parametrize(
    ("after", "said"),
    [
        ({"rule": "no.such", "effects": {"trust": 1}, "why": "w"}, "no such earlier rule"),
        ({"rule": "founder.network", "effects": {"trust": 1}, "why": "w"}, "no such earlier"),
        ({"rule": "founder.craft", "effects": {"trst": 1}, "why": "w"}, "no such effect"),
        ({"rule": "founder.craft", "effects": {"trust": "1"}, "why": "w"}, "not a number"),
        ({"rule": "founder.craft", "effects": {"trust": 1}, "why": " "}, "without its why"),
        ({"rule": "founder.craft", "effects": {"trust": 1}}, "why"),
    ],
)
def test_an_effect_after_an_earlier_decision_is_checked_as_it_loads(tmp_path, after, said):
    """An `after` part names an earlier rule that exists (not itself), moves real effects by
    numbers, and says why; else the file does not load."""
    rows = json.loads(RECORDS.read_text(encoding="utf-8"))
    rows[0]["after"] = [after]  # founder.network
    bad = tmp_path / "rules.json"
    bad.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(ValueError, match=r"rules\.json: rule founder\.network") as refused:
        load_rules(bad)
    assert said in str(refused.value)


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_every_rule_cites_a_line_of_a_playbook_section(rule_id):
    """The standup's playbook advice is the record's: a section that exists and a line of it."""
    from engine.workers.standup import _advice
    from knowledge.retrieval import default_index

    title, _, opening = RULES[rule_id].playbook.partition(" | ")
    hit = default_index().section(title)
    assert hit is not None, title
    assert opening and _advice(hit.text, opening).lower().startswith(opening.lower()[:12])
