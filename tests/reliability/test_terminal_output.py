"""Issue 12 cases 6 and 8: nothing the CLI prints carries a terminal escape or control sequence
(from a shared save, the settings file or the user), plain and --json alike; environment errors
and a non-terminal `play` give one line, never a traceback."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from pathlib import Path

import pytest

from memory.local.schema import memory_index_terms
from tests.reliability.conftest import cli, play_venture
from worldforge_savedb.db import db_path

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b[H\x1b]52;c;ZXZpbA==\x07\x9b31m\u202eevil\u202c\x07\x08"
# What a terminal would act on: ESC, C1 controls (CSI/OSC/ST), BEL, backspace, bidi overrides.
ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def escapes_in(res: subprocess.CompletedProcess[bytes]) -> int:
    text = (res.stdout + res.stderr).decode("utf-8", "replace")
    return len(ACTIVE.findall(text))


@pytest.fixture(scope="module")
def shared_save(tmp_path_factory) -> tuple[Path, str]:
    """A save someone else wrote: memory text and the run's name hold escape sequences."""
    home = tmp_path_factory.mktemp("shared")
    run_id = play_venture(home, stop_after=4)
    conn = sqlite3.connect(db_path(home), isolation_level=None)
    # the index's trigger derives a note's terms through this function (memory.local.schema)
    conn.create_function("memory_index_terms", 2, memory_index_terms)
    try:
        conn.execute("UPDATE memories SET text = text || ? WHERE run_id = ?", (HOSTILE, run_id))
        conn.execute(
            "UPDATE runs SET name = ?, pitch = pitch || ? WHERE run_id = ?",
            ("Evil" + HOSTILE, HOSTILE, run_id),
        )
    finally:
        conn.close()
    return home, run_id


@pytest.mark.parametrize(
    "args",
    [
        ("memory", "show"),
        ("memory", "show", "--json"),
        ("memory", "audit"),
        ("memory", "recall", "--query", "price"),
        ("memory", "recall", "--query", "x", "--json"),
        ("replay",),
        ("replay", "--json"),
    ],
    ids=" ".join,
)
def test_memory_and_replay_output_carries_no_escapes(shared_save, args) -> None:
    home, run_id = shared_save
    if args[0] == "memory":
        args = (*args[:2], "--run", run_id, *args[2:])
    else:
        args = (args[0], run_id, *args[1:])
    res = cli(home, *args, text=False)
    assert res.returncode == 0, res.stderr
    assert escapes_in(res) == 0
    if "--json" in args:
        json.loads(res.stdout)


def test_an_unknown_run_id_with_escapes_is_echoed_safely(shared_save) -> None:
    home, _ = shared_save
    res = cli(home, "memory", "show", "--run", "x" + HOSTILE, text=False)
    assert res.returncode == 2 and escapes_in(res) == 0
    assert res.stderr.count(b"\n") == 1


def test_settings_values_are_printed_without_escapes(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(
        json.dumps(
            {
                "LOCAL_AGENT_MODEL": "qwen" + HOSTILE,
                "NARRATOR_MODEL": HOSTILE + "m",
                "LOCAL_AGENT_BASE_URL": "http://127.0.0.1:9/v1",
            }
        ),
        encoding="utf-8",
    )
    for args in (("routing", "status"), ("routing", "status", "--json")):
        res = cli(tmp_path, *args, text=False)
        assert b"Traceback" not in res.stderr
        assert escapes_in(res) == 0, (res.stdout, res.stderr)


def test_home_that_is_a_file_gives_one_line(tmp_path: Path) -> None:
    home = tmp_path / "not-a-dir"
    home.write_text("x")
    res = cli(home, "simulate", "--pitch", "Bike repair bookings", text=False)
    assert res.returncode == 2
    assert res.stderr.count(b"\n") == 1 and b"Traceback" not in res.stderr
    assert b"WORLDFORGE_HOME" in res.stderr


def test_play_refuses_a_non_terminal_stdout(tmp_path: Path) -> None:
    res = cli(tmp_path, "play", text=False)
    assert res.returncode == 2 and res.stderr.count(b"\n") == 1
    assert b"terminal" in res.stderr


@pytest.mark.parametrize("body", ["[" * 5000 + "]" * 5000, "{" + '"a": "b",' * 20000 + "}"])
def test_a_hostile_keymap_is_reported_and_ignored(tmp_path: Path, body: str) -> None:
    from worldforge_tui.keymap import load_keymap

    (tmp_path / "keymap.json").write_text(body, encoding="utf-8")
    overrides, problem = load_keymap(tmp_path)
    assert overrides == {} and problem is not None and "ignored" in problem
