"""The board names every way to lose, with the engine's own lines, names and score parts."""

from __future__ import annotations

from engine.game import economy, endings
from engine.game.models import Economics
from worldforge_tui import glossary
from worldforge_tui.text.formatting import FIELD_INFO
from worldforge_tui.widgets.status_bar import METERS, meters_content


def econ(**changes: float) -> Economics:
    base = {
        "treasury_usd": 30_000,
        "monthly_burn_usd": 20_000,
        "monthly_revenue_usd": 5_000,
        "runway_months": 2.0,
        "addressable_market_usd": 90_000,
        "proof": 30,
        "trust": 40,
        "velocity": 50,
        "burn_pressure": 61,
        "autonomy": 40,
        "threat": 83,
    }
    return Economics(**{**base, **changes})


def test_every_meter_that_can_end_the_run_is_on_the_bar_at_every_width():
    for defeat in economy.DEFEATS:
        assert defeat.field in METERS
    narrow = meters_content(econ(), compact=True).plain
    wide = meters_content(econ(), compact=False).plain
    assert "S61" in narrow and "⚠83" in narrow
    assert "strain 61" in wide and "threat 83" in wide


def test_one_name_per_meter_everywhere():
    """Status bar, receipt, help and the engine's effect lines use the engine's one name."""
    from engine.game.rules import LABEL

    for field, name in economy.METER_NAMES.items():
        assert glossary.METER_BY_FIELD[field].name == name
        assert FIELD_INFO[field][0] == name
        assert LABEL[field].lower() == name
    assert "pressure" not in glossary.meters_tooltip()


def test_losing_lines_come_from_the_engine(monkeypatch):
    text = glossary.loss_rule()
    assert "strain ≥ 100 (The team broke)" in text and "treasury ≤ $0 (Out of cash)" in text
    assert f"from stage {int(economy.TUNING['defeat_from_stage'])} on" in text
    moved = tuple(
        d._replace(test=economy.Line(">=", 90)) if d.field == "threat" else d
        for d in economy.DEFEATS
    )
    monkeypatch.setattr(glossary, "DEFEATS", moved)
    assert "threat ≥ 90" in glossary.loss_rule()


def test_score_rows_add_up_to_the_engine_score():
    from engine.game.models import GameState  # noqa: F401 - the score reads stages only on defeat

    final = econ(monthly_revenue_usd=25_000, runway_months=99.0, trust=70, market_share=20)
    earned = sum(float(v.split("/")[0]) for _, v in glossary.score_rows(final))
    assert round(earned) == endings.score(final, None, "victory")
    rule = glossary.score_rule()
    for part in endings.SCORE_PARTS:
        assert f"{part.points} × ({part.what})" in rule
