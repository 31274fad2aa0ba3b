"""A venture keeps its books in its founder's currency: chosen at founding (defaulted from the
pitch's money, else its place, else US dollars), recorded in the start, and every amount a player
reads is written in it; a price the CEO names in it binds, one in another currency is asked about.
No conversion: a pound venture plays exactly as the same dollar venture, only the unit changes."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.errors import InputError
from engine.language.currency import pitch_currency
from engine.language.steering import read_directions
from engine.play.headless import Plan, play
from engine.session import replay
from engine.session.api import GameSession
from engine.session.founding import validate_start
from engine.session.saves import load_run, state_from_json, state_json
from worldforge_textkit.numbers import books
from worldforge_tui.cli import main

KNIVES = "mobile knife sharpening van for restaurants in leeds, charge 40 quid a visit"


@pytest.mark.parametrize(
    ("pitch", "code"),
    [
        (KNIVES, "GBP"),  # its money: "quid"
        ("a tutoring app for farmers, £30 a month", "GBP"),
        ("bike repairs for commuters, €12 a visit", "EUR"),
        ("a fiver a wash for dog owners", "GBP"),
        ("knife sharpening for restaurants in Leeds", "GBP"),  # its place
        ("meal kits for busy nurses in Dublin", "EUR"),
        ("bakery deliveries for cafés in Paris", "EUR"),
        ("rota app for NHS nurses", "GBP"),
        ("tutoring in Dublin for $30 a lesson", "USD"),  # its money beats its place
        ("dog walking for busy couples in Austin", "USD"),
        ("raise 50 grand for a coffee cart", "USD"),  # "grand" counts money, names none
        ("A solar microgrid cooperative for rural farmers", "USD"),
    ],
)
def test_the_books_default_to_the_pitchs_money_then_its_place(pitch, code):
    assert pitch_currency(pitch) == code


def test_a_chosen_currency_wins_and_an_unknown_one_is_one_line():
    start = validate_start(KNIVES, None, "builder", 7, currency="usd")
    assert start.currency == "USD" and start.record()["currency"] == "USD"
    assert validate_start("knife van for chefs", None, "builder", 7, currency="£").currency == "GBP"
    assert validate_start("knife van for chefs", None, "builder", 7, currency="euros").currency == (
        "EUR"
    )
    with pytest.raises(InputError, match=r"^unknown currency 'yen' \(choose USD, GBP, EUR\)$"):
        validate_start(KNIVES, None, "builder", 7, currency="yen")


def test_a_save_from_before_the_currency_reads_as_dollars(sim_router):
    """A state and a recorded start without the currency: US dollars, whatever the pitch says."""
    start = validate_start(KNIVES, None, "builder", 7).record()
    assert start.pop("currency") == "GBP"
    with replay.founded("run-old", [start], sim_router) as session:
        assert session.state.founder.currency == "USD"
        data = json.loads(state_json(session.state))
    del data["founder"]["currency"]
    assert state_from_json(json.dumps(data)).founder.currency == "USD"


def _strings(x: Any) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, list | tuple):
        for v in x:
            yield from _strings(v)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            yield from _strings(getattr(x, f.name))


def _played(
    tmp_path: Path, sim_router, currency: str, sym: str, said: str
) -> tuple[GameSession, list[str]]:
    """The knife van played to its end in `currency`, its CEO rejecting NEED with "price is
    {said}" and naming a price with `sym` at a standup; every line a player reads: the story
    (events), each screen's snapshot, memory, the report."""
    session = GameSession.start_venture(
        pitch=KNIVES, seed=7, save_dir=tmp_path, router=sim_router, currency=currency
    )
    shown: list[str] = []
    session.add_listener(lambda e: shown.extend(_strings(session.snapshot())))
    play(
        session,
        Plan.from_cli(
            {"reject": [f"2:price is {said}"], "reply": [f"3:price it at {sym}5 a knife"]}
        ),
    )
    shown += [t for e in session.events() for t in _strings(e.payload)]
    shown += [str(r) for r in session.memory.records()]
    shown += session.export_report(tmp_path / "report.md").read_text().splitlines()
    return session, shown


def test_a_pound_venture_writes_no_dollar_and_plays_as_the_dollar_one(tmp_path, sim_router):
    quid, seen = _played(tmp_path / "quid", sim_router, "GBP", "£", "40 quid per visit")
    quid.close()
    assert quid.state.founder.currency == "GBP"
    assert [t for t in seen if "$" in t] == []
    assert any("price £40 a visit" in t for t in seen)  # "40 quid per visit" bound as £40
    assert any("revenue £" in t for t in seen)  # the ending
    pounds, _ = _played(tmp_path / "gbp", sim_router, "GBP", "£", "£40 per visit")
    dollars, seen_usd = _played(tmp_path / "usd", sim_router, "USD", "$", "$40 per visit")
    try:
        assert not [t for t in seen_usd if "£" in t]
        assert "$40 a visit" in " ".join(seen_usd)

        def story(s: GameSession) -> list[str]:
            out = []
            for e in s.events():
                p = {k: v for k, v in e.payload.items() if k not in ("tools_called", "usage")}
                out.append(json.dumps([e.type, p], ensure_ascii=False, sort_keys=True))
            return out

        # no conversion: the same venture, only the unit changed (figures, scores, outcome)
        same = [line.replace("£", "$") for line in story(pounds)]
        assert _without_timings(same) == _without_timings(story(dollars))
        assert pounds.state.outcome is not None and dollars.state.outcome is not None
        assert pounds.state.outcome.score == dollars.state.outcome.score
    finally:
        pounds.close()
        dollars.close()


def _without_timings(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        kind, payload = json.loads(line)
        artifact = payload.get("artifact")
        if isinstance(artifact, dict):
            artifact.pop("tools_called", None)
        out.append(json.dumps([kind, _drop(payload, "ms", "latency_ms")], sort_keys=True))
    return out


def _drop(x: Any, *keys: str) -> Any:
    if isinstance(x, dict):
        return {k: _drop(v, *keys) for k, v in x.items() if k not in keys}
    if isinstance(x, list):
        return [_drop(v, *keys) for v in x]
    return x


def test_a_price_in_the_books_currency_binds_and_another_is_asked_about():
    with books("GBP"):
        read = read_directions("price is 40 quid per visit", source="rejection")
        assert [d.line() for d in read.directions] == ["price £40 a visit"]
        assert read_directions("a fiver a knife", source="standup").directions[0].value == (
            "£5 a knife"
        )
        dollars = read_directions("price is $40 per visit", source="rejection")
        assert dollars.directions == [] and dollars.in_books == "£40 a visit"
    with books("USD"):
        read = read_directions("price is 40 quid per visit", source="rejection")
        assert read.directions == [] and read.in_books == "$40 a visit"


def test_a_dollar_venture_asks_about_quid_in_one_line(tmp_path, capsys):
    pitch = "mobile knife sharpening van for restaurants in austin"
    args = ["simulate", "--save-dir", str(tmp_path), "--pitch", pitch]
    rc = main([*args, "--reject", "2:price is 40 quid per visit"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2
    said = (
        "Which price should the NEED work state? The books are kept in dollars: say “$40 a visit”."
    )
    assert err == [f"worldforge: error: {said}"]


def test_simulate_takes_the_currency_and_replay_keeps_it(tmp_path, capsys, sim_router):
    args = ["simulate", "--save-dir", str(tmp_path), "--pitch", "dog walking for couples"]
    assert main([*args, "--currency", "EUR", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["currency"] == "EUR"
    assert "€" in out["outcome"]["reason"] or "€" in json.dumps(out, ensure_ascii=False)
    assert main([*args, "--currency", "EUR"]) == 0
    text = capsys.readouterr().out
    assert "treasury €" in text and "$" not in text
    session = GameSession.load(out["run_id"], save_dir=tmp_path, router=sim_router)
    try:
        state, inputs = load_run(session.conn, out["run_id"])
        assert state.founder.currency == "EUR" and inputs[0]["currency"] == "EUR"
        assert replay.verify(session.conn, out["run_id"]).ok
    finally:
        session.close()
