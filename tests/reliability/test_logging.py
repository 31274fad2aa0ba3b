"""Logging: tracebacks and route fallbacks land in the rotating log with run, stage and attempt ids,
scrubbed of secrets; the CLI shows one line; a failed command leaves the last committed step."""

from __future__ import annotations

import logging.handlers

import pytest

from engine.config import Settings
from engine.game import rules
from engine.logs import _FileHandler, correlation, get_logger, log_path
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from tests.servers.openai_server import refused_url
from worldforge_tui.cli import main as cli_main

CANARY = "sk-proj-LOGCANARY0123456789abcdefXYZ"


def _boom(*_args, **_kwargs):
    raise RuntimeError(f"consequence table exploded near {CANARY}")


def test_unexpected_command_error_is_logged_with_ids_and_rolled_back(tmp_path, monkeypatch):
    session = GameSession.start_venture(
        pitch="Repair bookings for independent bike shops",
        seed=3,
        save_dir=tmp_path,
        router=Router(Settings(demo_mode="simulation")),
    )
    try:
        session.give(RunStage)
        session.give(Approve)
        events_before = len(session.events())
        monkeypatch.setattr(rules, "apply_rule", _boom)
        with pytest.raises(RuntimeError):
            session.give(Decide, "A")
        assert session.state.phase == "fork" and len(session.events()) == events_before
        text = log_path().read_text(encoding="utf-8")
        assert "Traceback" in text and "RuntimeError" in text
        line = next(ln for ln in text.splitlines() if "ERROR" in ln)
        for part in (f"run={session.state.run_id}", "stage=stage_1_you", "attempt=1", "cmd=decide"):
            assert part in line
        assert CANARY not in text
        monkeypatch.undo()
        session.give(Decide, "A")  # the command works again from the last committed step
        assert session.state.phase in ("brief", "ended")
    finally:
        session.close()


def test_cli_shows_one_line_and_logs_the_traceback(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(rules, "apply_rule", _boom)
    code = cli_main(
        ["simulate", "--pitch", "Meal plans for night shift nurses", "--save-dir", str(tmp_path)]
    )
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert len(err.splitlines()) == 1 and "details in" in err and str(log_path()) in err
    assert CANARY not in err
    text = log_path().read_text(encoding="utf-8")
    assert "cmd=decide" in text and "run=run-" in text and "Traceback" in text
    assert CANARY not in text


def test_route_fallbacks_are_logged_with_run_stage_and_attempt(tmp_path):
    from engine.routing.router import model_tier_ready

    model_tier_ready().result()  # the client import counts against a call's 0.5 s: do it first
    settings = Settings(
        demo_mode="local",
        local_agent_base_url=refused_url(),
        local_agent_model="qwen2.5",
        agent_request_timeout=0.5,
        agent_cooldown_seconds=0,
    )
    session = GameSession.start_venture(
        pitch="Bookkeeping for small farm co-ops",
        seed=2,
        save_dir=tmp_path,
        router=Router(settings),
    )
    try:
        play(session, Plan(said={"reject": {"stage_1_you": ["Name the first ten farms"]}}))
        run_id = session.state.run_id
    finally:
        session.close()
    lines = [
        ln
        for ln in log_path().read_text(encoding="utf-8").splitlines()
        if "route fallback local -> simulation" in ln
    ]
    assert lines and all(f"run={run_id}" in ln for ln in lines)
    assert any("stage=stage_1_you" in ln and "attempt=2" in ln for ln in lines)  # the redo
    assert all("unreachable" in ln for ln in lines)


def test_log_follows_the_log_dir_and_rotates(tmp_path, monkeypatch):
    first = get_logger()
    monkeypatch.setenv("WORLDFORGE_HOME", str(tmp_path / "other"))
    logger = get_logger()
    ones = [h for h in logger.handlers if isinstance(h, _FileHandler)]
    assert logger is first and len(ones) == 1
    handler = ones[0]._file
    assert isinstance(handler, logging.handlers.RotatingFileHandler)
    assert handler.baseFilename == str((tmp_path / "other" / "logs" / "worldforge.log").absolute())
    assert handler.maxBytes > 0 and handler.backupCount >= 1
    with correlation(run="r1", stage="stage_2_need"):
        logger.info(f"api_key={CANARY}")
    text = log_path().read_text(encoding="utf-8")
    assert "[run=r1 stage=stage_2_need]" in text and CANARY not in text
