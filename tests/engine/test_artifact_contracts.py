"""The contracts as data: the simulation's artifacts, shaped without pydantic, are exactly what the
pydantic contract validates and dumps, and a model's answer is still held to the contract."""

from __future__ import annotations

import json
from typing import Any

from engine.config import Settings
from engine.game import artifacts
from engine.game.rubric import evaluate
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession
from engine.workers import agents
from engine.writing.simulate import simulate_artifact


def test_shaped_artifacts_are_what_the_contract_validates_and_dumps(tmp_path, monkeypatch):
    """Every artifact the simulation builds in two ventures (fresh, redone, drifted, flawed)."""
    made: list[tuple[str, dict[str, Any]]] = []

    def recorded(role: str, **kw: Any) -> dict[str, Any]:
        art = simulate_artifact(role, **kw)
        made.append((role, art))
        return art

    monkeypatch.setattr(agents, "simulate_artifact", recorded)
    router = Router(Settings(demo_mode="simulation"))
    for seed, path in ((3, "AAAAAAAA"), (8, "BABABABA")):
        s = GameSession.start_venture(
            pitch="Dog walking on demand for busy nurses in Leeds",
            seed=seed,
            save_dir=tmp_path,
            router=router,
        )
        play(s, Plan(path=path))
        s.close()
    for role, art in made:
        dumped = artifacts.model(role).model_validate(art).model_dump(mode="json")
        assert json.dumps(dumped) == json.dumps(art)  # field order, number types and defaults
    # two ventures of 7 to 9 stages each (a stage added or skipped by the company's state)
    assert {role for role, _ in made} == set(artifacts.ROLES) and len(made) >= 14


def test_shaped_fills_defaults_types_numbers_and_drops_other_keys():
    plan = {
        "target_mrr_usd_m1_to_m6": [100, 200],
        "burn_usd_per_month": 900,
        "breakeven_month": 4,
        "churn_target_pct": 3,
    }
    art = {
        "summary": "s",
        "follows_decision": {"rule_id": "none", "how": "h", "extra": 1},
        "subject": "x",
        "body": "y",
        "gtm_channels": [{"channel": "c", "expected_cac_usd": 5, "weekly_hours": 2}],
        "financial_plan": plan,
        "not_in_contract": True,
    }
    out = artifacts.shaped("marketer", art)
    assert json.dumps(out) == json.dumps(
        artifacts.model("marketer").model_validate(art).model_dump(mode="json")
    )
    assert out["financial_plan"]["price_usd_per_month"] is None
    assert out["financial_plan"]["target_mrr_usd_m1_to_m6"] == [100.0, 200.0]
    assert "not_in_contract" not in out and out["memory_writes"] == []


def test_an_artifact_not_known_to_fit_is_still_held_to_the_contract():
    bad = {"summary": "only a summary"}
    assert artifacts.contract_errors("ops", bad) > 0
    r = evaluate("ops", bad, goal="retain", founder_keywords=["nurses"])
    assert r.final == 0 and r.checks == {"fits_contract": False}
