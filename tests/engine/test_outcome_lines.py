"""Lines that say what happened in this venture (engine.writing.outcomes): a consequence names the
numbers it moved at this company, a later effect names them as it lands, a shipped stage's note
is one sentence of its own; and over a handful of ventures the game's own lines stay their own."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game.economy import DEFEATS
from engine.game.endings import finish
from engine.game.models import Economics
from engine.game.rules import RULES, hints, made
from engine.game.world import adapt_pending, pressure_lens, standing
from engine.session.commands import Approve, Decide, RunStage
from engine.writing.outcomes import (
    both_summary,
    consequence_line,
    landed_line,
    moved,
    shipped_note,
)
from engine.writing.phrases import Voice
from engine.writing.simulate import FINDINGS
from worldforge_textkit import content_words

ROOT = Path(__file__).resolve().parents[2]


def _econ(**kw: float) -> Economics:
    base = dict(
        treasury_usd=34646.0,
        monthly_burn_usd=26625.0,
        monthly_revenue_usd=3840.0,
        paying_customers=55,
        proof=25.0,
        trust=37.0,
        addressable_market_usd=96000.0,
        velocity=50.0,
        burn_pressure=32.8,
        autonomy=40.0,
    )
    base.update(kw)
    return Economics(**base)


def test_moved_names_the_biggest_moves_first_in_words():
    before = _econ()
    after = _econ(proof=34.0, treasury_usd=29446.0, trust=36.6)  # trust shows 37 either way
    assert moved(before, after) == ["proof rose from 25 to 34", "cash fell from $34,646 to $29,446"]
    assert moved(before, after, limit=1) == ["proof rose from 25 to 34"]
    assert moved(before, copy.copy(before)) == []


def test_moved_writes_customers_and_monthly_money():
    after = _econ(paying_customers=27, monthly_revenue_usd=2496.0)
    assert moved(_econ(), after) == [
        "paying customers fell from 55 to 27",
        "revenue fell from $3,840 to $2,496 a month",
    ]


def test_a_consequence_is_one_sentence_naming_the_company_and_its_numbers():
    line = consequence_line(
        "The company takes a corner of the market the rival ignores.",
        "Meal Kits Co",
        _econ(),
        _econ(proof=34.0),
    )
    assert line == (
        "The company takes a corner of the market the rival ignores — "
        "at Meal Kits Co, proof rose from 25 to 34."
    )
    assert ". " not in line  # one sentence: the summary alone is never read on its own


def test_a_consequence_that_moves_nothing_yet_says_when_it_lands():
    still = consequence_line(
        "The founder builds one showcase piece before selling anything.",
        "Luxury Cat Co",
        _econ(),
        _econ(),
        later="at stage 3 (GO): Trust +2.7, revenue +$2,340/mo",
    )
    assert still.endswith(" — nothing on Luxury Cat Co's books moves until stage 3 (GO).")
    assert consequence_line("A.", "Acme", _econ(), _econ()) == "A — nothing on Acme's books moved."


def test_a_landing_call_reads_cleanly_even_when_it_ends_in_now():
    line = landed_line("quit and go all in, full time, now", "Acme", _econ(), _econ(trust=45.0))
    assert line == (
        "Your earlier call, to quit and go all in, full time, now, lands at Acme: "
        "trust rose from 37 to 45."
    )
    assert "now lands" not in line
    assert landed_line("go", "Acme", _econ(), _econ()).endswith("and no number moves.")


@pytest.mark.parametrize(
    ("redos", "said"),
    [(0, "at the first attempt"), (1, "after 1 rejection"), (2, "after 2 rejections")],
)
def test_a_shipped_note_is_one_sentence_with_its_redos_counted(redos, said):
    note = shipped_note(
        "NEED",
        "The Need Nobody Meets",
        "Strategy & Positioning Lead",
        84,
        redos,
        18,
        "Meal Kits Co",
        "Identify the unmet customer need and the core trade-off behind it",
    )
    assert note == (
        f"Strategy & Positioning Lead shipped NEED 'The Need Nobody Meets' for Meal Kits Co on "
        f"day 18 {said}, scoring 84/100; the goal was to identify the unmet customer need and "
        f"the core trade-off behind it."
    )


def test_the_receipt_and_the_note_name_what_the_decision_moved(new_session):
    s = new_session(seed=7)
    while s.state.phase != "fork":
        s.give(RunStage if s.state.phase == "brief" else Approve)
    receipt = s.give(Decide, "A")
    company = s.state.founder.company
    numbers = moved(receipt.before, receipt.after)
    assert numbers, "the first fork moves a number"
    assert receipt.summary.endswith(f"at {company}, {' and '.join(numbers)}.")
    note = receipt.memory_written[0]["text"]
    assert note.endswith(receipt.summary)  # the memory keeps what the receipt showed
    logged = [e for e in s.events() if e.type == "CONSEQUENCE_APPLIED"][-1]
    assert logged.message.endswith(receipt.summary)  # and so does the replay log's line
    shipped = [m.text for m in s.memory.records() if m.kind == "chat_summary"]
    assert shipped and all(f" for {company} on day " in t for t in shipped)


# Six bench ventures played to the end in a child process (importing `bench` gives a process a
# temporary home of its own, which must not leak into the tests sharing this worker).
_PLAY = """
import json, tempfile
from collections import Counter
from bench.writing import bench_pitches, play_venture, venture_lines, venture_row
pitches = bench_pitches()
read = []
with tempfile.TemporaryDirectory(prefix="wf-test-variety-") as tmp:
    for i in range(0, 30, 5):
        s, _, _ = play_venture(venture_row(i, pitches[i]), tmp)
        read.append({x for _src, x in venture_lines(s)})
        s.close()
seen = Counter(x for r in read for x in r)
wide = sorted({x for x in seen if seen[x] >= 3}, key=lambda x: -seen[x])
print(json.dumps({"total": sum(map(len, read)), "wide": sum(seen[x] for x in wide),
                  "top": wide[:5]}))
"""


def test_the_games_own_lines_differ_between_ventures():
    """Six bench ventures (every fifth bench pitch: other worlds, seeds, all four archetypes, a
    rejection, an own answer and a reply each): of every line a player reads (the fork's cards
    and prompts, the next brief, events and the rival's moves included), at most 3 % are found
    word for word in 3 or more of them."""
    out = subprocess.run(
        [sys.executable, "-c", _PLAY],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=600,
    )
    got = json.loads(out.stdout)
    assert got["total"] > 600  # the ventures were played to the end and read
    share = got["wide"] / got["total"]
    assert share <= 0.03, f"{share:.1%} of {got['total']}: {got['top']}"


def test_a_finding_never_doubles_the_word_its_pain_ends_in():
    """'asked about an audit found the week before before anything else' (the bench's doubled
    word): a pain ends its sentence."""
    v = Voice({"customer": "dental practices", "pain": "an audit found the week before"}, "t")
    said = [v.fill(t, beat="SEARCH", unit="practice") for t in FINDINGS]
    assert (
        "SEARCH finding: before anything else, dental practices asked about an audit found the week before."
        in said
    )
    assert not any(re.search(r"\b(\w+) \1\b", x) for x in said), said


def test_a_fork_hint_says_where_this_company_stands_once_per_metric():
    rule = RULES["designer.ship"]  # two scales, both read trust
    assert [sc.metric for sc in rule.scales] == ["trust", "trust"]
    assert hints(rule, _econ(trust=36.6)) == (
        "more trust when trust is above 30, less below; "
        "more revenue when trust is above 40, less below (now 37)"
    )
    assert hints(rule) == hints(rule, None)  # without the numbers: the rule's own words
    assert "(now" not in hints(rule)


def test_the_posed_fork_carries_the_companys_numbers_in_its_hints(new_session):
    s = new_session(seed=7)
    while s.state.phase != "fork":
        s.give(RunStage if s.state.phase == "brief" else Approve)
    for opt in s.state.dilemma.options:
        rule = RULES[opt.rule_id]
        if rule.scales:
            company = s.state.founder.company
            hint = hints(rule, s.state.economics, made(s.state), company)
            assert opt.hint == hint and "(now " in opt.hint
            assert f" at {company})" in opt.hint  # where this company stands, by name


def test_a_goal_ends_with_the_numbers_behind_its_pressure(new_session):
    s = new_session(seed=7)
    st = s.state
    company = st.founder.company
    assert st.stages[0].goal == f"{st.stages[0].base_goal} for {company}"
    while st.phase != "fork":
        s.give(RunStage if st.phase == "brief" else Approve)
    s.give(Decide, "A")
    adapt_pending(st)  # as after every fork, with the numbers the company has now
    nxt = st.stages[st.stage_index + 1]  # a stage not yet begun
    lens = pressure_lens(st.economics)
    why = standing(st)
    assert nxt.goal == f"{lens}: {nxt.base_goal[0].lower()}{nxt.base_goal[1:]} ({why})."
    # the rubric's targets are the goal's first content words: the numbers come after them
    plain = f"{lens}: {nxt.base_goal}."
    assert content_words(nxt.goal)[:5] == content_words(plain)[:5]


@pytest.mark.parametrize(
    ("numbers", "said"),
    [
        (dict(runway_months=0.5), "0.5 months of runway left at Acme"),
        (dict(burn_pressure=75.0), "strain at 75/100"),
        (dict(trust=22.0), "trust at 22/100"),
        (dict(threat=64.4), "Rivalco at threat 64/100"),
        (dict(proof=72.0), "proof at 72/100"),
        (dict(paying_customers=1), "1 paying customer and $3,840 a month to hold"),
    ],
)
def test_standing_names_the_number_its_lens_came_from(new_session, numbers, said):
    st = new_session(seed=7).state
    st.founder.company, st.antagonist.name = "Acme", "Rivalco"
    st.economics = _econ(**{"runway_months": 6.0, **numbers})
    assert standing(st) == said


def test_both_options_are_one_sentence():
    said = both_summary(
        [
            "The company positions itself head-on against the rival.",
            "The company takes a corner of the market the rival ignores.",
        ]
    )
    assert said == (
        "Both: The company positions itself head-on against the rival, and the company takes "
        "a corner of the market the rival ignores."
    )
    line = consequence_line(said, "Acme", _econ(), _econ(proof=30.0))
    assert line.count(". ") == 0 and line.endswith("— at Acme, proof rose from 25 to 30.")


@pytest.mark.parametrize(
    ("customer", "unit", "said"),
    [
        ("independent plumbers", "independent plumber", "an independent plumber they know"),
        ("dental practices", "practice", "a practice they know"),
    ],
)
def test_a_finding_about_trust_reads_for_a_person_and_a_business(customer, unit, said):
    v = Voice({"customer": customer}, "t")
    line = v.fill(FINDINGS[1], beat="GO", unit=unit)
    assert line == f"GO finding: {customer} trust a number from {said} more than one from us."


def test_a_defeat_is_one_sentence_naming_the_company(new_session):
    st = new_session(seed=7).state
    st.founder.company, st.antagonist.name = "Acme", "Pipeline Partners"
    st.economics = _econ(runway_months=2.5)
    kind, reason = next((k, r) for _, _, k, r in DEFEATS if k == "rival")
    out = finish(st, kind, reason)
    assert out.result == "defeat"
    assert out.reason == (
        f"The rival took the market, and Acme went down on day {st.day}, stage 1: "
        "Pipeline Partners' threat reached 100 with 2.5 months of runway left."
    )


@pytest.mark.parametrize(("drop", "said"), [(0, "all eight stages"), (1, "all seven stages")])
def test_a_survivor_counts_the_stages_its_venture_had(new_session, drop, said):
    """A venture whose shape skipped a stage survives seven, not "the eight stages"."""
    st = new_session(seed=7).state
    st.stages = st.stages[: len(st.stages) - drop]
    st.economics = _econ(runway_months=9.0)
    out = finish(st, None, None)
    assert (out.result, out.ending) == ("victory", "survivor")
    assert said in out.reason


def test_each_pressure_names_itself_in_the_goal():
    """Played: with 1.3 months of runway and strain at 80, the goal read "With runway tight,
    favour moves that pay for themselves quickly: … (strain at 80/100)": the strain lens said
    the runway's words."""
    from engine.game.world import LENS

    assert "runway" in LENS["runway"].lower()
    assert "runway" not in LENS["strain"].lower() and "team" in LENS["strain"].lower()
    assert len(set(LENS.values())) == len(LENS)  # no pressure borrows another's words


def test_an_event_between_stages_restates_the_next_goal_numbers(new_session):
    """Played: a tax bill landed after the fork, and the goal read "0.8 months of runway left"
    beside the standup's "0.6 months": the goal of the stage about to begin says the numbers the
    event left."""
    from engine.game.world import restate_goal

    for seed in range(1, 40):
        s = new_session(seed=seed)
        st = s.state
        while st.phase != "fork":
            s.give(RunStage if st.phase == "brief" else Approve)
        s.give(Decide, "A")
        moved = [e for e in st.world_events if not e.options and "cash" in e.effect_line]
        if moved and "of runway left" in standing(st):  # a bill or a windfall moved the runway
            break
    else:
        raise AssertionError("no seed drew a cash event after the first fork under runway pressure")
    stage = st.stages[st.stage_index]
    assert stage.goal.endswith(f"({standing(st)}).")
    was = stage.goal
    restate_goal(st)
    assert stage.goal == was
