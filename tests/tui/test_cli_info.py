"""The CLI's own commands: --version, locate, runs, export, replay without --json, forget asks
first, progress on stderr, local human times, counts in words. None of them imports textual."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from engine.language.grammar import count
from engine.session.api import GameSession
from engine.session.commands import RunStage
from worldforge_tui import version
from worldforge_tui.cli import build_parser, main
from worldforge_tui.cli.info import progress
from worldforge_tui.text.formatting import human_time

PITCH = "Meal kits for night-shift nurses"


@pytest.fixture
def saved(tmp_path):
    session = GameSession.start_venture(pitch=PITCH, seed=7, save_dir=tmp_path)
    session.give(RunStage)
    run_id = session.state.run_id
    session.close()
    return tmp_path, run_id


def test_version_flag(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"worldforge {version()}"
    assert version() and version() != "0+unknown"


def test_version_is_the_installed_distributions():
    """`version()` reads no metadata; the installed metadata is built from the same constant."""
    from importlib.metadata import version as dist_version

    assert version() == dist_version("worldforge-tui")


def test_locate_names_every_path(tmp_path, isolated_home, capsys):
    assert main(["locate", "--json", "--save-dir", str(tmp_path)]) == 0
    paths = json.loads(capsys.readouterr().out)
    assert set(paths) >= {"config_dir", "settings", "keymap", "save_dir", "save_file", "logs"}
    assert paths["save_dir"] == str(tmp_path) and paths["keymap"].endswith("keymap.json")
    assert main(["locate"]) == 0
    text = capsys.readouterr().out
    assert "settings" in text and "keymap" in text and str(isolated_home) in text


def test_runs_and_export(saved, capsys):
    save_dir, run_id = saved
    assert main(["runs", "--json", "--save-dir", str(save_dir)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["run_id"] for r in rows] == [run_id] and rows[0]["phase"] == "gate"
    assert main(["runs", "--save-dir", str(save_dir)]) == 0
    text = capsys.readouterr().out
    assert "1 venture," in text and run_id in text and "today" in text

    out = save_dir / "card.md"
    assert main(["export", run_id, "--out", str(out), "--save-dir", str(save_dir), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["path"] == str(out)
    card = out.read_text(encoding="utf-8")
    assert "report card" in card and f"WorldForge {version()}" in card
    assert main(["export", "no-such-run", "--save-dir", str(save_dir)]) == 2
    assert "error" in capsys.readouterr().err


def test_replay_honours_json(saved, capsys):
    save_dir, run_id = saved
    assert main(["replay", run_id, "--save-dir", str(save_dir)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{run_id}: day") and "recorded command" in text
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    assert main(["replay", run_id, "--save-dir", str(save_dir), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["run_id"] == run_id


def test_forget_asks_first(saved, capsys, monkeypatch):
    save_dir, run_id = saved
    argv = ["memory", "forget", "--run", run_id, "--save-dir", str(save_dir)]
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # no terminal to ask on
    assert main(argv) == 2
    assert "--yes" in capsys.readouterr().err
    assert [r.run_id for r in GameSession.list_runs(save_dir)] == [run_id]

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    assert main(argv) == 2
    assert "nothing forgotten" in capsys.readouterr().err
    assert GameSession.list_runs(save_dir)
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    assert main(argv) == 0
    assert not GameSession.list_runs(save_dir)


def test_every_option_has_help_text():
    parser = build_parser()
    missing = []

    def walk(p, path):
        for action in p._actions:
            if action.option_strings and action.help is None:
                missing.append(f"{path} {action.option_strings[0]}")
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}")
            elif not action.option_strings and action.help is None:
                missing.append(f"{path} {action.dest}")

    walk(parser, "worldforge")
    assert not missing, missing


def test_progress_on_stderr_only_for_slow_work(capsys):
    with progress("quick"):
        pass
    assert capsys.readouterr().err == ""
    with progress("slow work", after=0.0):
        import time

        time.sleep(0.05)
    err = capsys.readouterr().err
    assert "slow work" in err and "done in" in err


def test_human_time_and_plurals():
    now = datetime(2026, 11, 30, 18, 0, tzinfo=UTC).astimezone()
    assert human_time(now.isoformat(), now).startswith("today ")
    assert human_time((now - timedelta(days=1)).isoformat(), now).startswith("yesterday ")
    assert human_time("2024-02-03T10:00:00+00:00", now).endswith("2024")
    assert human_time("not a time", now) == "not a time"
    assert count(1, "memory") == "1 memory"
    assert count(2, "memory") == "2 memories" and count(0, "event") == "0 events"


def test_new_commands_never_import_textual(saved):
    save_dir, _run_id = saved
    code = (
        "import sys; from worldforge_tui.cli import main; "
        f"main(['runs', '--json', '--save-dir', {str(save_dir)!r}]); "
        f"main(['locate', '--json']); "
        "bad = [m for m in sys.modules if m.split('.')[0] == 'textual']; "
        "sys.exit(3 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr


def test_version_and_help_load_no_engine_commands():
    """`--version` and `--help` build the parser without the player commands (their dataclasses
    load inspect and ast); `simulate --help` still lists every player-command option."""
    code = (
        "import sys, contextlib, io; from worldforge_tui.cli import main\n"
        "for argv in (['--version'], ['--help']):\n"
        "    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "        main(argv)\n"
        "heavy = ('engine.session.commands', 'dataclasses', 'pydantic', 'sqlite3')\n"
        "sys.exit(3 if [m for m in heavy if m in sys.modules] else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    from engine.session.commands import flags

    text = (
        build_parser(["simulate"])._subparsers._group_actions[0].choices["simulate"].format_help()
    )
    assert all(flag.option in text for flag in flags().values())


def test_memory_takes_the_run_id_as_replay_and_export_do(saved, capsys):
    """`memory show RUN` reads like `replay RUN` and `export RUN`; `--run RUN` still works, and a
    missing or contradictory run id is one line and exit 2."""
    save_dir, run_id = saved
    assert main(["memory", "show", run_id, "--save-dir", str(save_dir), "--json"]) == 0
    positional = json.loads(capsys.readouterr().out)
    assert main(["memory", "show", "--run", run_id, "--save-dir", str(save_dir), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == positional
    assert main(["memory", "show", "--save-dir", str(save_dir)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a run id" in err
    assert main(["memory", "audit", run_id, "--run", "other", "--save-dir", str(save_dir)]) == 2
    assert "two different run ids" in capsys.readouterr().err
