"""The end screen, the status bar and the report show the company's numbers as the rules read
them: a meter is never rounded across its defeat line, and the runway is one number everywhere
(∞ only for a company whose revenue covers its burn)."""

from __future__ import annotations

import re

import pytest

from engine.config import Settings
from engine.game.economy import meter_shown, recompute
from engine.routing import Router
from engine.session.api import GameSession
from engine.views.report import render_report
from worldforge_tui.screens.end import report_card
from worldforge_tui.text.formatting import delta_text, value_text
from worldforge_tui.widgets.status_bar import meters_content

PITCH = "Meal kits for night-shift nurses"


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("threat", 99.5, 99),  # 100 loses: 99.5 is a win and shows as one
        ("threat", 99.99, 99),
        ("threat", 100.0, 100),
        ("threat", 98.5, 99),  # halves round up (f"{98.5:.0f}" said 98, f"{99.5:.0f}" 100)
        ("burn_pressure", 99.6, 99),
        ("trust", 0.4, 1),  # 0 loses: 0.4 shows 1
        ("trust", 0.0, 0),
        ("trust", 50.5, 51),
        ("proof", 99.5, 100),  # no defeat line: plain rounding
    ],
)
def test_a_meter_is_never_shown_across_its_defeat_line(field, value, shown):
    assert meter_shown(field, value) == shown
    assert value_text(field, value) == str(shown)


def test_a_meter_delta_is_the_difference_of_the_numbers_shown():
    assert delta_text("threat", 98.4, 99.6) == "+1"  # 98 → 99
    assert delta_text("threat", 99.2, 99.7) == "±0"  # 99 → 99
    assert delta_text("runway_months", 4.0, None) == "profit"
    assert value_text("runway_months", None) == "∞"
    assert value_text("runway_months", 660.0) == "55y"  # a long runway is still a runway


def test_status_bar_end_screen_and_report_agree_to_the_unit(tmp_path):
    session = GameSession.start_venture(
        pitch=PITCH, seed=7, save_dir=tmp_path, router=Router(Settings())
    )
    econ = session.state.economics
    econ.threat, econ.trust, econ.burn_pressure = 99.5, 0.4, 99.5
    econ.treasury_usd = 660_000.0
    econ.market_share = 0.0
    econ.overhead_usd = 0.0
    recompute(econ)
    econ.monthly_burn_usd = econ.monthly_revenue_usd + 1_000.0  # not profitable: 660 months
    recompute(econ)
    assert not econ.profitable and econ.runway_months == 660.0
    bar = meters_content(econ).plain
    card = report_card(session.snapshot()).plain
    report = render_report(session.read_model())
    assert "∞" not in bar and "55y" in bar
    assert re.search(r"threat\s+99\b", card) and not re.search(r"threat\s+100\b", card)
    assert "⚠99" in bar or " 99" in bar
    assert "100" not in re.sub(r"\$[\d,.]+k?", "", bar)  # no meter reads 100 on the bar
    threat_line = next(line for line in report.splitlines() if "threat" in line.lower())
    assert threat_line.endswith(": 99"), threat_line
    trust_line = next(line for line in report.splitlines() if line.startswith("- Trust"))
    assert trust_line.endswith(": 1"), trust_line
    assert re.search(r"runway\s+55y", card)
    session.close()
