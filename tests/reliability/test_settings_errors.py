"""One error path for settings: a bad or foreign value, from the environment (any case) or the
settings file, is the same one line on stderr and exit 2 from every command that reads settings,
and the same line in the TUI's notice; warnings from every package reach the one log file."""

from __future__ import annotations

import json
import logging

import pytest

from engine.config import settings_path
from engine.logs import log_path
from worldforge_tui.cli import main

PITCH = "Meal kits for night-shift nurses"
COMMANDS = (
    ["simulate", "--pitch", PITCH],
    ["routing", "status", "--no-probe"],
    ["routing", "test"],
    ["play"],
)


def _lines(capsys) -> list[str]:
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err.splitlines()


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        # the game's own names (an old unprefixed name with a value not ours is ignored with a
        # warning: tests/engine/test_settings_sources.py)
        (
            "WORLDFORGE_DEMO_MODE",
            "true",
            "WORLDFORGE_DEMO_MODE='true' in the environment: must be 'simulation'",
        ),
        (
            "worldforge_demo_mode",
            "true",
            "worldforge_demo_mode='true' in the environment: must be 'simulation'",
        ),
        (
            "WORLDFORGE_AGENT_REQUEST_TIMEOUT",
            "soon",
            "WORLDFORGE_AGENT_REQUEST_TIMEOUT='soon' in the environment",
        ),
        (
            "WORLDFORGE_LOCAL_AGENT_BASE_URL",
            "localhost:8080",
            "WORLDFORGE_LOCAL_AGENT_BASE_URL='localhost:8080'",
        ),
    ],
)
def test_a_bad_env_value_is_one_same_line_and_exit_2_everywhere(
    monkeypatch, capsys, tmp_path, name, value, expected
):
    assert main(["simulate", "--pitch", PITCH, "--save-dir", str(tmp_path), "--json"]) == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    monkeypatch.setenv(name, value)
    seen = set()
    memory = ["memory", "show", "--run", run_id, "--save-dir", str(tmp_path)]
    for argv in [*COMMANDS, memory]:
        assert main([*argv, "--save-dir", str(tmp_path)] if argv[0] == "simulate" else argv) == 2
        lines = _lines(capsys)
        assert len(lines) == 1 and expected in lines[0], (argv, lines)
        assert "validation error" not in lines[0] and "pydantic" not in lines[0]
        seen.add(lines[0])
    assert len(seen) == 1  # the very same line from every command
    assert not log_path().exists() or "Traceback" not in log_path().read_text()


def test_a_bad_settings_file_value_names_the_file(capsys):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps({"DEMO_MODE": "turbo"}), encoding="utf-8")
    for argv in COMMANDS[1:]:
        assert main(argv) == 2
        (line,) = _lines(capsys)
        assert f"DEMO_MODE='turbo' in the settings file {settings_path()}" in line


def test_a_secret_value_is_never_echoed(monkeypatch, capsys):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("WORLDFORGE_AGENT_MAX_RETRIES", "many")
    monkeypatch.setenv("WORLDFORGE_LOCAL_AGENT_API_KEY", "sk-never-echo-0123456789")
    assert main(["routing", "status", "--no-probe"]) == 2
    (line,) = _lines(capsys)
    assert "sk-never-echo" not in line and "AGENT_MAX_RETRIES='many'" in line


async def test_the_tui_notice_is_the_same_line(monkeypatch, capsys, tmp_path):
    from tests.tui.conftest import settle
    from worldforge_tui.app import WorldForgeApp

    monkeypatch.setenv("WORLDFORGE_DEMO_MODE", "true")
    assert main(["routing", "status", "--no-probe"]) == 2
    (cli_line,) = _lines(capsys)
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        notices = [n.message for n in app._notifications]
        assert app.router.settings.demo_mode == "simulation"
    assert cli_line == f"worldforge: error: {notices[0]}"
    assert "settings ignored" in log_path().read_text(encoding="utf-8")


def test_warnings_from_every_package_reach_the_log_not_stderr(capsys):
    for name in ("worldforge.memory.cosmos.failover", "worldforge.routing", "azure.cosmos"):
        logging.getLogger(name).warning("cosmos memory parked: Incorrect padding (%s)", name)
    assert capsys.readouterr().err == ""
    text = log_path().read_text(encoding="utf-8")
    for name in ("worldforge.memory.cosmos.failover", "worldforge.routing", "azure.cosmos"):
        assert f"WARNING {name} [-] cosmos memory parked: Incorrect padding ({name})" in text
