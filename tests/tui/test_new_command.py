"""A new command is one class and one action row: a throwaway command defined here, with one row
added to the action table, shows in the snapshot's "what may I do", in the TUI's action rows
(hint line, button, palette, bindings), answers its key and runs by mouse through the app's one
generic path, grows its `worldforge simulate` option, which the headless driver gives from the
plan, and replays exactly. Nothing else in the product is touched."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

import pytest

from engine.errors import GameError
from engine.session import commands
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, Flag, PlainCommand, RunStage
from engine.session.replay import verify
from engine.session.steps import Step
from tests.tui.conftest import settle
from worldforge_tui import actions
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.cli import main

PITCH = "Meal kits for night-shift nurses"


@pytest.fixture
def breather(monkeypatch):
    """The throwaway command and its row, registered for this test only (the registry and the
    table are copied first, so the class and the row are gone afterwards)."""
    monkeypatch.setattr(commands, "REGISTRY", dict(commands.REGISTRY))

    @dataclass(frozen=True)
    class Breather(PlainCommand[None]):
        """At the gate the CEO takes a day to think the artifact over."""

        name: ClassVar[str] = "breather"
        cmd: ClassVar[str] = "breather"
        verb: ClassVar[str] = "take a breather"
        phases: ClassVar[tuple[str, ...] | None] = ("gate",)
        flag: ClassVar[Flag | None] = Flag(
            "--breather", "STAGE:WHY", "take a day at a stage's gate (the words are not kept)"
        )

        def apply(self, step: Step, prepared: None) -> None:
            step.days(1)

    row = actions.command_row(
        "gate.breather",
        "b",
        "Breather",
        "Take a day to think the artifact over",
        "breather",
        hint="take a day",
        button="btn-breather",
        palette="Take a breather",
    )
    monkeypatch.setattr(actions, "ACTIONS", (*actions.ACTIONS, row))
    monkeypatch.setitem(actions.BY_ID, row.id, row)
    return Breather, row


def test_the_engine_lists_it_and_refuses_it_by_its_phase(tmp_path, breather):
    kind, _row = breather
    assert commands.named("breather") is kind and kind in commands.player()
    s = GameSession.start_venture(pitch=PITCH, seed=7, save_dir=tmp_path)
    try:
        assert s.snapshot().can["breather"] is False  # its phase is the gate; this is the brief
        with pytest.raises(GameError, match="cannot take a breather now: run the stage first"):
            s.give(kind)
        assert s.inputs[-1]["cmd"] == "start"  # nothing was recorded
    finally:
        s.close()


def test_it_shows_everywhere_the_table_feeds(tmp_path, breather):
    kind, row = breather
    s = GameSession.start_venture(pitch=PITCH, seed=7, save_dir=tmp_path)
    try:
        s.give(RunStage)
        can = s.snapshot().can
        assert can["breather"] is True
        assert row in actions.phase_rows("gate")
        hint = actions.hint_line("gate", can, lambda i: actions.BY_ID[i].key)
        assert "b take a day" in hint
        assert any(b.id == "gate.breather" for b in actions.bindings("board"))
        assert row in actions.button_rows()
        assert actions.state_of(row, "gate", can) is True
        assert actions.state_of(row, "fork", can) is False  # hidden outside its phase
        day = s.state.day
        s.give(kind)
        assert s.state.day == day + 1 and s.inputs[-1] == {"cmd": "breather"}
        s.give(Approve)
        s.give(Decide, "A")
        report = verify(s.conn, s.state.run_id)  # replay re-issues it from its record
        assert report.ok, report.first_difference
    finally:
        s.close()


async def test_it_runs_by_mouse_through_the_generic_path_and_replays(tmp_path, breather):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate" and app.snap.can["breather"]
        day = app.session.state.day
        button = app.main.query_one("#btn-breather")
        assert button.display and not button.disabled
        assert await pilot.click("#btn-breather")
        await settle(app, pilot)
        assert app.session.state.day == day + 1
        assert app.session.inputs[-1] == {"cmd": "breather"}
        assert app.snap.phase == "gate"  # still at the gate: approve goes on
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert any("Take a breather" in str(t) for t in titles)
        await pilot.press("a")
        await settle(app, pilot)
        assert app.snap.phase == "fork"
        report = verify(app.session.conn, app.session.state.run_id)
        assert report.ok, report.first_difference


def test_simulate_grows_its_option_and_the_headless_plan_gives_it(tmp_path, breather, capsys):
    kind, _row = breather
    assert commands.flags()["breather"] is kind.flag
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "--breather STAGE:WHY" in capsys.readouterr().out
    days = {}
    for where, extra in (("plain", []), ("breather", ["--breather", "NEED:think it over"])):
        save = tmp_path / where
        argv = ["simulate", "--pitch", PITCH, "--seed", "7", "--save-dir", str(save), "--json"]
        assert main([*argv, *extra]) == 0
        out = json.loads(capsys.readouterr().out)
        s = GameSession.load(out["run_id"], save_dir=save)
        try:
            cmds = [r["cmd"] for r in s.inputs]
            days[where] = [e.game_day for e in s.events() if e.type == "ARTIFACT_APPROVED"]
        finally:
            s.close()
        assert cmds.count("breather") == (where == "breather")
        if where == "breather":  # at NEED's gate: after its run, before its approval
            at = cmds.index("breather")
            assert cmds[at - 1] == "run_stage" and cmds[at + 1] == "approve"
        assert main(["replay", out["run_id"], "--save-dir", str(save), "--verify"]) == 0
        capsys.readouterr()
    assert days["breather"][0] == days["plain"][0]  # YOU's gate is untouched
    assert days["breather"][1] == days["plain"][1] + 1  # NEED's approval comes a day later
    bad = ["simulate", "--pitch", PITCH, "--save-dir", str(tmp_path), "--breather", "NEED"]
    assert main(bad) == 2  # bad input is one line
    assert "--breather takes STAGE:TEXT" in capsys.readouterr().err


async def test_its_key_is_live(tmp_path, breather):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        day = app.session.state.day
        await pilot.press("b")
        await settle(app, pilot)
        assert app.session.state.day == day + 1
        assert app.session.inputs[-1] == {"cmd": "breather"}
