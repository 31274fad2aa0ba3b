"""A redo changes exactly what the rejection named, keeps the standing decision binding, and the
story shows what changed; approved flaws cost later; standing orders bind the next fork."""

from __future__ import annotations

import json
from pathlib import Path

from engine.game.economy import founding_org, initial_economics
from engine.game.models import Directive, Economics, Founder
from engine.game.world import build_stages
from engine.language.reading import read_reason
from engine.writing.redo import NUMBER_FIELD, TOPIC_FIELDS
from engine.writing.simulate import simulate_artifact

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
STANDING = Directive(
    source="decision",
    rule_id="strategist.depth",
    text="Depth: own one night-shift nurses niche end to end",
    keywords=["depth", "niche", "painful workflow", "moat"],
)


def _economics() -> Economics:
    e = initial_economics(founding_org())
    e.monthly_revenue_usd = 1234.0
    return e


def redo_pair(reason: str, role: str) -> tuple[dict, dict, Directive]:
    stage = build_stages(founding_org())[STAGE_OF[role]]
    econ = _economics()
    first = simulate_artifact(
        role, founder=FOUNDER, stage=stage, directive=STANDING, economics=econ, seed=11, attempt=1
    ).model_dump()
    d = Directive(
        source="rejection",
        text=reason,
        rule_id=STANDING.rule_id,
        standing_text=STANDING.text,
        keywords=STANDING.keywords,
        reading=read_reason(reason).model_dump(),
    )
    second = simulate_artifact(
        role,
        founder=FOUNDER,
        stage=stage,
        directive=d,
        economics=econ,
        seed=11,
        attempt=2,
        previous=first,
    ).model_dump()
    return first, second, d


def field_changed(row: dict, first: dict, second: dict) -> bool:
    """Judged by the label (what the reason is about), not by what the reader thought."""
    topic, direction = row["topic"], row.get("direction")
    key = TOPIC_FIELDS[topic][row["role"]]
    if row.get("number") in ("cac", "hours"):
        key = "gtm_channels"  # those numbers live in the channel costs
    if topic == "number" and key == "financial_plan":
        sub = NUMBER_FIELD.get(row.get("number") or "")
        if sub:
            a, b = first[key][sub], second[key][sub]
            a, b = (a[-1], b[-1]) if isinstance(a, list) else (a, b)
            return (b < a) if direction == "down" else (b > a)
    if topic == "timeline" and key == "financial_plan" and direction:
        a, b = first[key]["breakeven_month"], second[key]["breakeven_month"]
        return (b < a) if direction == "sooner" else (b > a)
    return first.get(key) != second.get(key)


def test_a_rejection_naming_a_field_changes_that_field_in_the_redo():
    rows = [json.loads(x) for x in (DATA / "rejection_reasons.jsonl").read_text().splitlines()]
    named = [r for r in rows if r.get("actionable", True)]
    changed = [r for r in named if field_changed(r, *redo_pair(r["reason"], r["role"])[:2])]
    share = len(changed) / len(named)
    missed = [r["reason"] for r in named if r not in changed]
    assert share >= 0.90, f"{share:.1%} changed; missed {missed[:10]}"


def test_the_redo_keeps_the_standing_decision_and_says_what_changed():
    first, second, _ = redo_pair("Too expensive for a small clinic", "designer")
    assert second["follows_decision"]["rule_id"] == "strategist.depth"
    assert "price drops" in second["summary"]
    price = [f for f in second["features"] if f.startswith("Pilot price")]
    assert price and price != [f for f in first["features"] if f.startswith("Pilot price")]
    # what the reason did not name stays as it was
    assert second["hero_headline"] == first["hero_headline"] and second["url"] == first["url"]


def test_a_reason_the_workers_cannot_act_on_is_said_so_and_changes_nothing_named():
    first, second, _ = redo_pair("meh", "marketer")
    assert "could not tell what to change" in second["summary"]
    assert second["body"] == first["body"] and second["financial_plan"] == first["financial_plan"]


def test_revenue_targets_never_start_below_booked_revenue():
    first, second, _ = redo_pair("Revenue targets are fantasy", "marketer")
    assert first["financial_plan"]["target_mrr_usd_m1_to_m6"][0] >= 1234
    assert min(second["financial_plan"]["target_mrr_usd_m1_to_m6"]) >= 1234


def test_session_redo_shows_changes_and_keeps_the_decision(new_session):
    s = new_session(pitch="Herbal tea subscriptions for night-shift nurses")
    s.run_stage()
    s.approve()
    decided = s.decide("A").rule_id
    s.run_stage()
    s.reject("Who is this for? Speak to nurses on night shifts in care homes")
    run = s.state.current
    assert run.directive.rule_id == decided  # a rejection no longer erases the decision
    assert run.artifact["follows_decision"]["rule_id"] == decided
    assert any(c.startswith("Who it is for") for c in run.changes)
    assert not run.rubric.drift


def test_report_card_and_json_render_shipped_work_for_people(played):
    import re

    from engine.play.headless import summary
    from engine.views.report import render_report

    s = played("AB" * 4, rejects={"stage_4_search": ["too expensive for farmers"]})
    card = render_report(s)
    assert "## Shipped work" in card and "Pilot price" in card
    stages = summary(s)["stages"]
    prose = "\n".join(line for st in stages for line in st["shipped"])
    assert all(st["shipped"] for st in stages if st["score"] is not None)
    for text in (card.split("## Decisions")[0], prose):
        assert not re.search(r"\[['{]|\bmem-\d+|\.md#|\d\.\d{3,}|_usd\b|_pct\b", text)
        assert "Page address: https://" in text and "Https://" not in text
