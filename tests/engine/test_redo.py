"""A redo changes exactly what the rejection named, from the rejection's typed directions, never
adds a flaw, and says what changed from the real diff; a reason the reader cannot place is asked
about instead of spending a redo."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.game.adherence import check
from engine.game.dilemmas import option_directions
from engine.game.economy import founding_org, initial_economics
from engine.game.flaws import find_flaws
from engine.game.models import Economics, Founder
from engine.game.pricing import list_price
from engine.game.world import build_stages
from engine.language.directions import Binding, Direction, payload
from engine.language.steering import read_directions
from engine.session.commands import Approve, Decide, DecideOwn, Reject, RunStage, StandupReply
from engine.writing.simulate import simulate_artifact
from worldforge_textkit import has_phrase

DATA = Path(__file__).resolve().parents[1] / "data"
STAGE_OF = {"strategist": 2, "designer": 3, "marketer": 4, "ops": 5}  # index into the stages
FOUNDER = Founder(
    name="You",
    company="Night Tea Co",
    archetype="operator",
    pitch="Herbal tea subscriptions for night-shift nurses",
    customer="night-shift nurses",
    keywords=["herbal", "tea", "nurses"],
)
STANDING = option_directions(
    "strategist.depth",
    base=Direction(axis="price", value="", amount=80),
    customer="night-shift nurses",
    stage="s2",
)


def _economics() -> Economics:
    e = initial_economics(founding_org())
    e.monthly_revenue_usd = 1234.0
    return e


def redo_pair(reason: str, role: str) -> tuple[dict, dict, list]:
    """The first attempt (briefed with the standing decision), then the redo briefed with the
    rejection's note folded on top, as recall would bring both back."""
    stage = build_stages(founding_org())[STAGE_OF[role]]
    econ = _economics()
    standing = Binding(rule_id="strategist.depth", directions=STANDING)
    first = simulate_artifact(
        role, founder=FOUNDER, stage=stage, binding=standing, economics=econ, seed=11, attempt=1
    )
    read = read_directions(
        reason,
        source="rejection",
        stage=stage.id,
        current=first,
        base_price=list_price(11),
        customer=FOUNDER.customer,
    )
    note = payload(read.directions, source="rejection", said=reason)
    slots = {d.slot: d for d in STANDING} | {d.slot: d for d in read.directions}
    binding = Binding(rule_id="strategist.depth", directions=list(slots.values()), rejection=note)
    second = simulate_artifact(
        role,
        founder=FOUNDER,
        stage=stage,
        binding=binding,
        economics=econ,
        seed=11,
        attempt=2,
        previous=first,
    )
    return first, second, read.directions


def field_changed(row: dict, first: dict, second: dict) -> bool:
    """Whether the redo changed any field of the work (bench/writing.py's redo share)."""
    del row
    return any(first[k] != second.get(k) for k in first if k not in ("summary", "follows_decision"))


def _rows() -> list[dict]:
    return [json.loads(x) for x in (DATA / "rejection_reasons.jsonl").read_text().splitlines()]


def test_a_rejection_naming_a_part_changes_it_and_only_fields_it_names():
    named = [r for r in _rows() if r.get("actionable", True) and r["topic"] != "decision"]
    changed, extra = [], []
    for r in named:
        first, second, directions = redo_pair(r["reason"], r["role"])
        if not directions:
            continue  # asked about (see the session test below), never guessed
        diff = {
            k
            for k in first
            if k not in ("summary", "follows_decision") and first[k] != second.get(k)
        }
        if diff:
            changed.append(r["reason"])
        ok = check(r["role"], second, directions)
        if ok:
            extra.append((r["reason"], [v.line for v in ok]))
    share = len(changed) / len(named)
    assert share >= 0.85, f"{share:.1%} changed"
    assert not extra, extra[:5]  # every named direction is honoured by the redo


def test_a_redo_never_adds_a_flaw_and_says_what_changed_from_the_diff():
    for r in _rows():
        if not r.get("actionable", True):
            continue
        first, second, directions = redo_pair(r["reason"], r["role"])
        if not directions:
            continue
        before = {f["kind"] for f in find_flaws(r["role"], first, customer="night-shift nurses")}
        # as the gate does (engine.workers.agents): a named audience is whom the redo must address
        who = next((d.value for d in directions if d.axis == "audience"), "night-shift nurses")
        after = {f["kind"] for f in find_flaws(r["role"], second, customer=who)}
        assert after <= before, (r["reason"], after - before)
    first, second, _ = redo_pair("Too expensive for a small clinic", "designer")
    price = [f for f in second["features"] if f.startswith("Pilot price")]
    old = [f for f in first["features"] if f.startswith("Pilot price")]
    assert price and price != old
    # the summary states the new price and never quotes the one it replaced
    now, was = (f.split(": ")[1].split(" per")[0] for f in (price[0], old[0]))
    how = second["follows_decision"]["how"]  # what changed, apart from the summary
    assert now in how and was not in how
    # what the reason did not name stays as it was
    assert second["hero_headline"] == first["hero_headline"] and second["url"] == first["url"]


def test_a_redo_that_needs_no_change_says_so_instead_of_claiming_one():
    first, _, _ = redo_pair("meh", "designer")
    said = next(f for f in first["features"] if f.startswith("Pilot price"))
    amount = said.split("$")[1].split(" ")[0]
    _, second, _ = redo_pair(f"The price must be ${amount} a month", "designer")
    how = second["follows_decision"]["how"]
    assert "already" in how and "→" not in how


def test_revenue_targets_never_start_below_booked_revenue():
    first, second, _ = redo_pair("Revenue targets are fantasy", "marketer")
    assert first["financial_plan"]["target_mrr_usd_m1_to_m6"][0] >= 1234
    assert (
        second["financial_plan"]["target_mrr_usd_m1_to_m6"][-1]
        < (first["financial_plan"]["target_mrr_usd_m1_to_m6"][-1])
    )


def test_the_flaw_check_never_reads_the_ceos_quoted_words():
    _first, second, _ = redo_pair("Drop the 'guaranteed' line", "designer")
    assert "guaranteed" in second["follows_decision"]["how"].lower()  # quoted back to the CEO
    assert not [
        f for f in find_flaws("designer", second, customer="x") if f["kind"] == "over_claim"
    ]


def test_an_unplaceable_reason_gets_one_question_and_spends_no_redo(new_session):
    s = new_session(pitch="Herbal tea subscriptions for night-shift nurses")
    s.give(RunStage)
    events = len(s.events())
    for vague in ("meh", "do better", "The price is wrong"):
        with pytest.raises(InputError) as err:
            s.give(Reject, vague)
        assert "?" in str(err.value)
    assert s.state.stage.redos == 0 and s.state.phase == "gate" and len(s.events()) == events


def test_money_the_reader_cannot_parse_is_asked_about_at_every_input(new_session):
    """'twelve-ish dollars' is asked about, never guessed and never dropped: at the gate (even
    beside a direction it can read), at the fork in own words and in a standup reply; nothing is
    recorded and no redo is spent, so the player can say it again with figures (or in dollars)."""
    s = new_session(pitch="Herbal tea subscriptions for night-shift nurses")
    s.give(RunStage)
    events = len(s.events())
    with pytest.raises(InputError) as err:
        s.give(Reject, "Speak to ward nurses and price it at twelve-ish dollars")
    assert "cannot tell an amount" in str(err.value) and "“$12 a meal”" in str(err.value)
    assert s.state.stage.redos == 0 and len(s.events()) == events
    # the books are in dollars: another currency is asked about with its dollar form as the
    # example, never converted at a guessed rate (beside other words it stands alone: they bind,
    # tests/engine/test_reader_grammar.py)
    with pytest.raises(InputError) as err:
        s.give(Reject, "charge £25 a box")
    assert "in dollars" in str(err.value) and "“$25 a box”" in str(err.value)
    assert read_directions("charge 25 GBP a month", source="rejection").in_books == "$25 a month"
    # "pounds" is money before "a week" and a weight before "of" (was: "Name it, e.g. $29 …")
    pounds = read_directions("price it at 12 pounds a week", source="rejection")
    assert pounds.in_books == "$12 a week" and "price_amount" in pounds.unclear
    assert not read_directions("ship 5 pounds of beans a week", source="rejection").unclear
    assert s.state.stage.redos == 0 and len(s.events()) == events
    s.give(Approve)
    events = len(s.events())
    with pytest.raises(InputError):
        s.give(DecideOwn, "Both, and price it at $twelve")
    assert s.state.phase == "fork" and len(s.events()) == events
    s.give(Decide, "A")
    events = len(s.events())
    with pytest.raises(InputError):
        s.give(StandupReply, "price it at twelve-ish dollars a month")
    assert not s.state.standup_answered and len(s.events()) == events
    s.give(StandupReply, "price it at $12 a month")
    assert s.state.standup_answered


def test_session_redo_fixes_the_named_audience(new_session):
    s = new_session(pitch="Herbal tea subscriptions for night-shift nurses")
    s.give(RunStage)
    s.give(Approve)
    decided = s.give(Decide, "A").rule_id
    s.give(RunStage)
    s.give(Reject, "Who is this for? Speak to nurses on night shifts in care homes")
    run = s.state.current
    assert run.artifact["follows_decision"]["rule_id"] == decided
    assert "care homes" in run.artifact["target_audience"]
    assert any(c.startswith("Who it is for") for c in run.changes)
    assert not run.rubric.drift


def test_report_card_and_json_render_shipped_work_for_people(played):
    import re

    from engine.play.headless import summary
    from engine.views.report import render_report

    s = played("AB" * 4, said={"reject": {"stage_4_search": ["too expensive for farmers"]}})
    card = render_report(s.read_model())
    assert "## Shipped work" in card and "Pilot price" in card
    stages = summary(s)["stages"]
    prose = "\n".join(line for st in stages for line in st["shipped"])
    assert all(st["shipped"] for st in stages if st["score"] is not None)
    for text in (card.split("## Decisions")[0], prose):
        assert not re.search(r"\[['{]|\bmem-\d+|\.md#|\d\.\d{3,}|_usd\b|_pct\b", text)
        assert "Page address: https://" in text and "Https://" not in text


def test_a_seeded_drift_adds_whole_sentences_and_a_no_op_change_reads_right():
    """A broken exclusion, claim or tone is a new sentence after the field's text, never glued
    onto a line that ends without a full stop ("… each low score Also for dog owners.")."""
    from engine.language.directions import Direction
    from engine.writing.realise import add_sentence, what_changed

    assert add_sentence("call back each low score", "Also for dog owners.") == (
        "call back each low score. Also for dog owners."
    )
    assert add_sentence("Done!", "More.") == "Done! More."
    assert add_sentence("He said “go.”", "More.") == "He said “go.” More."
    assert add_sentence("", "More.") == "More."
    gone = Direction(axis="exclusion", value="hospital managers", do=False)
    art = {"summary": "For night-shift nurses only."}
    (line,) = [x for x in what_changed("strategist", art, dict(art), [gone]) if "Mentions" in x]
    assert "were already" in line


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
def test_what_changed_reads_as_a_player_would_say_it(role):
    """'Too broad' says how much the work was cut ('5 features → 3 features'), a channel or scope
    the work did not name reads 'X (not named before)', never '“not named” → X'."""
    _, second, directions = redo_pair("Too broad, it tries to do everything", role)
    said = second["follows_decision"]["how"]
    assert "not named" not in said and check(role, second, directions) == []
    cut = re.search(r"Scope, cut to one core job: (\d+) [a-z ]+ → (\d+) [a-z ]+\.", said)
    kept = re.search(r"Scope was already \d+ [a-z ]+; nothing to change there\.", said)
    assert (cut and int(cut.group(1)) > int(cut.group(2))) or kept, said
    _, second, _ = redo_pair("Sell it through the nursing union newsletter instead", role)
    assert "“not named” →" not in second["follows_decision"]["how"]


def test_a_customer_with_a_who_clause_keeps_it_and_never_doubles_who():
    from engine.writing.phrases import Voice
    from engine.writing.realise import realise

    read = read_directions("Speak to vets who work at rural practices", source="standup")
    assert [d.value for d in read.directions] == ["vets who work at rural practices"]
    v = Voice({"customer": "solo groomers who work from a van", "outcome": "a calmer day"}, "s")
    assert (
        v.fill("{customer} who <loses> time") == "solo groomers who work from a van and lose time"
    )
    art = {"target_audience": "", "summary": "x"}
    realise("strategist", art, read.directions, Voice({"customer": "dog owners"}, "s"))
    assert art["target_audience"] == "Vets who work at rural practices"  # the audience itself
    from engine.language.grammar import relative

    assert relative("groomers who work from a van", "want calm") == (
        "groomers who work from a van and want calm"
    )
    assert relative("nurses", "want calm") == "nurses who want calm"


@pytest.mark.parametrize("reason", ["Make it plainer.", "Too much jargon.", "It is hard to read."])
def test_asking_for_plainer_words_binds_a_plain_tone(new_session, reason):
    """'Make it plainer.' got 'What should change? …' and spent nothing: it names the tone."""
    s = new_session(pitch="Herbal tea subscriptions for night-shift nurses")
    s.give(RunStage)
    s.give(Reject, reason)
    note = s.memory.records(kinds=["procedural"])[-1]
    assert [(d["axis"], d["value"]) for d in note.payload["directions"]] == [("tone", "plain")]
    assert s.state.stage.redos == 1 and not s.state.current.rubric.drift


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
def test_a_redo_naming_a_price_states_no_other_price(role):
    """The redo's summary said 'Price: “$100 a month” → $27 a month': the work quoted the price
    it replaced beside the one the CEO named. It states the named price only (the story's
    'what changed' list, from the diff, still shows the old one)."""
    first, second, _ = redo_pair("Price it at $27 a month", role)
    assert first != second
    said = second["summary"] + " " + second["follows_decision"]["how"]
    assert set(re.findall(r"\$([\d,.]+) a month", said)) <= {"27"}, said


@pytest.mark.parametrize(
    ("pitch", "topic"),
    [
        ("Tenant screening for small landlords", "repairs"),
        ("Meal kits for night-shift nurses", "meals"),
    ],
)
@pytest.mark.parametrize("seed", [5, 497780])
def test_what_the_ceo_leaves_out_stays_out_of_every_later_stage(new_session, pitch, topic, seed):
    """'Leave out repairs' in a world whose problem and promise are repairs: the redo filled the
    emptied line with 'Repairs fixed within a week' and every later stage drifted on it (seed
    497780). What the CEO leaves out is never drawn again: the problem and promise come from what
    is left of the banks."""
    from engine.play.headless import Plan, play, summary

    s = new_session(pitch=pitch, seed=seed)
    # B at the first two forks keeps seed 5's companies alive past stage 4 (rules 65)
    play(s, Plan(path="BBAAAAAA").say("reject", "stage_2_need", f"Leave out {topic}."))
    stages = summary(s)["stages"]
    assert stages[1]["redos"] == 1
    later = [st for st in stages[1:] if st["shipped"]]
    assert len(later) >= 3, [st["beat"] for st in stages]
    for st in later:
        named = [ln for ln in st["shipped"] if has_phrase(ln, topic) and "“" not in ln]
        assert not named, (st["beat"], named)
        assert not st["drift"] or not any(topic in v for v in st["verdict"]), st["verdict"]


@pytest.mark.parametrize("role", ["strategist", "designer", "marketer", "ops"])
@pytest.mark.parametrize(
    "reason", ["Price it at $27 a month", "Leave out franchises", "Sell through whatsapp"]
)
def test_a_redo_keeps_its_summary_a_summary_and_says_what_changed_apart(role, reason):
    """Every redo's summary became a changelog ("Attempt 2. You said …"); the summary stays the
    work's summary and what this attempt changed sits in how it follows what binds it."""
    _first, second, _ = redo_pair(reason, role)
    assert not second["summary"].startswith("Attempt")
    assert second["follows_decision"]["how"].startswith("Attempt 2. You said “")


def test_an_audience_field_emptied_by_an_exclusion_still_names_the_audience():
    """A redo turned the audience field into a benefit line ("Every drop made on time for …")
    when an exclusion took out each of its sentences; it names who the work is for."""
    from engine.writing.realise import realise
    from engine.writing.simulate import _voice

    stage = build_stages(founding_org())[STAGE_OF["strategist"]]
    v = _voice(FOUNDER, stage, _economics(), 11, 2, None)
    art = {"target_audience": "Night-shift nurses who plan routes every week"}
    gone = Direction(axis="exclusion", value="every mention of routes", do=False)
    realise("strategist", art, [gone], v)
    assert art["target_audience"] == v.fill("{cap_customer}")
    assert check("strategist", art, [gone]) == []


def test_a_redo_for_other_people_makes_the_verbs_agree_again():
    """A redo for "allotment ppl" instead of the council read "Allotment people wants planting
    dates" and "talks with one allotment people every day" (in play)."""
    from engine.writing.realise import _retold

    said = "Allotment people wants dates; talks with one allotment people daily"
    assert _retold(said, "council", "allotment people") == (
        "Allotment people want dates; talks with one allotment person daily"
    )
    assert _retold("Council want dates", "nurses", "council") == "Council wants dates"
    assert _retold("Nurses want dates", "night nurses", "nurses") == "Nurses want dates"


def test_every_verb_the_banks_make_agree_is_one_a_redo_agrees_again():
    """realise._AGREED lists the verbs the writing marks to agree with the customer (<loses>):
    a new one in the banks must be listed there too, or a redo for other people misses it."""
    import re
    from pathlib import Path

    from engine.writing import realise

    root = Path(realise.__file__).parent
    said = {
        m
        for f in [*root.glob("*.py"), *root.glob("*.json")]
        for m in re.findall(r"<([a-z]+)>", f.read_text(encoding="utf-8"))
    }
    assert said - {"verb"} <= set(realise._AGREED)  # <verb> is the docstring's placeholder
