"""The headless CLI: bad input gets one clear line and exit 2, and nothing is half-written."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.language.reader.vocab import vocab
from worldforge_tui.cli import main

PITCH = "A solar microgrid cooperative for rural farmers"
VAGUE = vocab().teach_backs["vague"]  # what the reader says of a request it cannot place


@pytest.mark.parametrize(
    "args",
    [
        ["--pitch", ""],
        ["--pitch", "solar " * 20_000],
        ["--pitch", PITCH, "--archetype", "wizard"],
        ["--pitch", PITCH, "--choose", "ABX"],
        ["--pitch", PITCH, "--choose", "A" * 10],  # more letters than any venture has forks
        ["--pitch", PITCH, "--reject", "9:too vague"],
        ["--pitch", PITCH, "--reject", "NEED"],
        ["--pitch", PITCH, "--reject", "2:"],
        ["--pitch", PITCH, "--reject", "2:a", "--reject", "2:b", "--reject", "2:c"],
        ["--pitch", PITCH, "--own", "2:bad\x00text"],
        ["--pitch", "solar \x1b[31m grid"],
        ["--pitch", PITCH, "--seed", "-4"],
        ["--pitch", PITCH, "--seed", "abc"],
        ["--pitch", PITCH, "--currency", "yen"],
    ],
)
def test_bad_input_exit_2_one_line_nothing_written(tmp_path, capsys, args):
    save = tmp_path / "saves"
    rc = main(["simulate", "--save-dir", str(save), *args])
    err = capsys.readouterr().err
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("worldforge: error: ")
    assert "Traceback" not in err
    assert not (save / "worldforge.db").exists()


def test_markup_text_is_literal_and_plays(tmp_path, capsys):
    rc = main(
        [
            "simulate",
            "--save-dir",
            str(tmp_path),
            "--json",
            "--pitch",
            "[bold]Solar[/] grids for rural [red]farmers[/red]",
            "--own",
            "3:keep [/] literal",
        ]
    )
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"]["result"] in ("victory", "defeat")
    own = out["stages"][2]["decision"]  # no option fits: costed like one, never free
    assert own["option"] == "own" and own["interpreted"]["matched_by"] == "custom"
    assert own["rule_id"] == out["dilemmas"][2]["rule_id"]


def test_simulate_json_shape(tmp_path, capsys):
    rc = main(
        [
            "simulate",
            "--save-dir",
            str(tmp_path),
            "--json",
            "--pitch",
            PITCH,
            "--choose",
            "B",
            "--reject",
            "NEED:name the cooperative's pricing",
            "--own",
            "stage_5_find:grow through farm fairs",
        ]
    )
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {
        "reshaped",
        "run_id",
        "seed",
        "currency",
        "outcome",
        "score",
        "economics",
        "org",
        "stages",
        "dilemmas",
        "world_events",
        "rival",
        "events",
        "memory",
        "served_by",
        "routing",
        "pitch",  # the pitch as read and as confirmed (--customer, --offering, …)
        "binds_nothing",
        "readings",
    }
    assert out["binds_nothing"] == []  # every planned word binds
    # each worded input's reading, every direction with the words it was read from
    said = [r["said"] for r in out["readings"]]
    assert said == ["name the cooperative's pricing", "grow through farm fairs"]
    assert all(r["unread"] == [] for r in out["readings"])
    assert out["served_by"] == {
        "simulation": sum(1 + s["redos"] for s in out["stages"] if s["score"] is not None)
    }
    need = out["stages"][1]
    assert need["redos"] == 1 and need["decision"]["option"] == "B"
    assert out["dilemmas"][1]["rule_id"] == need["decision"]["rule_id"]
    own = out["stages"][4]["decision"]
    assert own["option"] == "own" and own["rule_id"] == out["dilemmas"][4]["rule_id"]
    assert (
        own["interpreted"]["matched_by"] == "custom"
        and "read and costed as “" in own["interpreted"]["says"]
    )
    assert out["events"]["ARTIFACT_REJECTED"] == 1
    assert out["memory"]["procedural"] >= 2
    econ = out["economics"]  # no runway sentinel: null runway exactly when profitable
    assert isinstance(econ["profitable"], bool)
    assert (econ["runway_months"] is None) == econ["profitable"]


def test_simulate_names_the_planned_words_that_bind_nothing(tmp_path, capsys):
    """What the TUI confirms first, a script is told: one warning line each, and the JSON says
    which option, stage and parts; what does bind still binds."""
    rc = main(
        [
            "simulate",
            "--save-dir",
            str(tmp_path),
            "--json",
            "--pitch",
            "Refill subscriptions for office coffee in Leeds",
            "--reject",
            "1:price it at £12 a week, start with law firms and hire a barista for the launch",
            "--reply",
            "2:freeze hiring, and bake a cake for the team",
        ]
    )
    assert rc == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["binds_nothing"] == [
        {
            "option": "--reject",
            "stage_id": "stage_1_you",
            "stage": "1:YOU",
            "parts": ["hire a barista for the launch"],
            "why": [VAGUE.format(words="hire a barista for the launch")],
        },
        {
            "option": "--reply",
            "stage_id": "stage_2_need",
            "stage": "2:NEED",
            "parts": ["bake a cake for the team"],
            "why": [VAGUE.format(words="bake a cake for the team")],
        },
    ]
    tail = "binds nothing (the gate checks only what binds)."
    assert captured.err.splitlines() == [
        f"worldforge: warning: --reject 1:YOU: “hire a barista for the launch” {tail} "
        + VAGUE.format(words="hire a barista for the launch"),
        f"worldforge: warning: --reply 2:NEED: “bake a cake for the team” {tail} "
        + VAGUE.format(words="bake a cake for the team"),
    ]
    assert out["stages"][0]["redos"] == 1 and out["events"]["ARTIFACT_REJECTED"] == 1


def test_a_part_that_binds_nothing_says_why_in_the_warning_the_json_and_strict_reading(
    tmp_path, capsys
):
    """ "40 quid a box" in a venture that keeps its books in dollars binds nothing: the warning,
    the JSON (binds_nothing and the reading's unread part) and the --strict-reading error each
    carry the reading's teach-back (how to say it so it binds), not only the words."""
    said = ["--pitch", "Refill subscriptions for office coffee in Denver"]
    said += ["--reject", "1:charge 40 quid a box, start with law firms"]
    teach = "The books are kept in dollars: say “$40 a box”."
    rc = main(["simulate", "--save-dir", str(tmp_path / "warn"), "--json", *said])
    assert rc == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert [(u["parts"], u["why"]) for u in out["binds_nothing"]] == [(["40 quid a box"], [teach])]
    warning = "“40 quid a box” binds nothing (the gate checks only what binds)."
    assert captured.err.splitlines() == [f"worldforge: warning: --reject 1:YOU: {warning} {teach}"]
    reading = out["readings"][0]
    assert reading["unread"] == [
        {"words": "40 quid a box", "why": "other_currency", "teach_back": teach, "span": [7, 20]}
    ]
    assert [d["words"] for d in reading["directions"]] == ["law firms"]  # the £40 binds nothing
    rc = main(["simulate", "--save-dir", str(tmp_path / "strict"), "--strict-reading", *said])
    assert rc == 2
    assert capsys.readouterr().err.strip() == (
        "worldforge: error: --reject 1:YOU: “40 quid a box” binds nothing (--strict-reading). "
        + teach
    )


def test_simulate_says_profitable_or_the_runway(tmp_path, capsys):
    rc = main(["simulate", "--save-dir", str(tmp_path), "--pitch", PITCH, "--json"])
    econ = json.loads(capsys.readouterr().out)["economics"]
    rc = main(["simulate", "--save-dir", str(tmp_path / "2"), "--pitch", PITCH])
    out = capsys.readouterr().out
    assert rc == 0
    if econ["profitable"]:
        assert " · profitable · " in out
    elif econ["runway_months"] < 24:  # "16 months", "4.5 months" (never "16.0 months")
        months = f"{econ['runway_months']:.1f}".removesuffix(".0")
        assert f" · runway {months} months · " in out
    else:  # two years and more is said in years
        assert f" · runway {econ['runway_months'] / 12:.0f} years · " in out


# A simulated venture needs none of these: the TUI and its renderer, the model clients and their
# event loop.
NOT_ON_THE_HEADLESS_PATH = ("textual", "rich", "openai", "httpx", "asyncio", "azure")

# `--version` and `--help` build the parser only: no models, store, router, renderer or metadata.
NOT_FOR_THE_PARSER = (
    "pydantic",
    "sqlite3",
    "rich",
    "memory",
    "importlib.metadata",
    "engine.routing",
)


@pytest.mark.parametrize("flag", ["--version", "--help", "simulate --help"])
def test_version_and_help_load_only_the_parser(flag):
    code = (
        "import sys, contextlib, io; from worldforge_tui.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({flag.split()!r})\n"
        f"bad = [m for m in sys.modules if any(m == b or m.startswith(b + '.') for b in {NOT_FOR_THE_PARSER!r})]\n"
        "assert not bad, bad[:8]"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_headless_simulate_loads_no_tui_or_model_client_code(tmp_path):
    code = (
        "import sys; from worldforge_tui.cli import main; "
        f"rc = main(['simulate', '--pitch', {PITCH!r}, '--save-dir', {str(tmp_path)!r}]); "
        "assert rc == 0, rc; "
        f"bad = [m for m in sys.modules if m.split('.')[0] in {NOT_ON_THE_HEADLESS_PATH!r}]; "
        "assert not bad, bad[:5]"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_core_packages_do_not_import_textual():
    code = (
        "import sys, engine.session.api, engine.play.balance, engine.session.replay, memory.local.store, knowledge; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'textual']"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_output_into_a_closed_pipe_is_quiet(tmp_path):
    """`worldforge … | head` must not print a BrokenPipe error line."""
    exe = [
        sys.executable,
        "-m",
        "worldforge_tui.cli",
        "simulate",
        "--pitch",
        PITCH,
        "--json",
        "--save-dir",
        str(tmp_path),
    ]
    proc = subprocess.Popen(exe, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the game writes a byte
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "BrokenPipe" not in err and "Traceback" not in err


def test_a_niche_venture_writes_no_doubled_words(tmp_path, capsys):
    """Seen in play: a depth niche ("the busiest people who travel for work") became the unit with
    its article, so the strategist "keeps the the busiest person wedge sharp"."""
    import re

    rc = main(
        [
            "simulate",
            "--save-dir",
            str(tmp_path),
            "--pitch",
            "Luxury cat hotels for people who travel for work",
            "--seed",
            "306",
            "--json",
        ]
    )
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    text = json.dumps(out["stages"], ensure_ascii=False)
    assert "busiest" in text  # the niche is written into the work
    assert not re.findall(r"\b(\w{3,}) \1\b", text, flags=re.IGNORECASE)


def test_a_command_named_first_builds_the_same_parser_for_it() -> None:
    """build_parser builds only the command named first when it is one of its own: that
    command's parser is the whole parser's."""
    from worldforge_tui.cli import OWN_COMMANDS, build_parser

    whole = build_parser()
    whole_commands = next(a for a in whole._actions if a.dest == "command").choices
    assert set(whole_commands) > OWN_COMMANDS
    for name in sorted(OWN_COMMANDS):
        part = build_parser([name])
        commands = next(a for a in part._actions if a.dest == "command").choices
        assert set(commands) == {name}
        assert commands[name].format_help() == whole_commands[name].format_help()


def test_memory_forget_says_what_went_for_a_game_run_and_a_script_run(tmp_path, capsys):
    """Both forget paths (the run's game session, and the store alone for notes a script wrote
    under an id with no game behind it) print one line in the same form."""
    from engine.routing import Router
    from engine.session.api import GameSession
    from engine.session.commands import RunStage
    from memory.local.store import MemoryStore
    from memory.models import NewNote

    game = GameSession.start_venture(pitch=PITCH, seed=2, save_dir=tmp_path, router=Router())
    game.give(RunStage)
    run_id, memories = game.state.run_id, len(game.memory.records())
    events = game.conn.execute("SELECT count(*) FROM events WHERE run_id = ?", (run_id,))
    n_events = events.fetchone()[0]
    script = MemoryStore(game.conn, "script-run")
    script.remember(NewNote("context", "a note a script wrote", author="system", game_day=1))
    game.close()
    save = ["--yes", "--save-dir", str(tmp_path)]
    assert main(["memory", "forget", run_id, *save]) == 0
    assert main(["memory", "forget", "script-run", *save]) == 0
    game_line = f"forgot run {run_id}: {memories} memories, {n_events} events deleted"
    assert capsys.readouterr().out.splitlines() == [
        f"{game_line}; copies of reports saved elsewhere are not tracked",
        "forgot run script-run: 1 memory deleted",
    ]


def test_the_json_reading_is_the_one_that_binds(tmp_path, capsys):
    """--json showed its own second reading: "drop the competition stuff" read "competition"
    while the venture bound the rival by name, and "half the price" showed no figure while the
    venture bound one. It shows the command's own reading now, and why the reader asks."""
    said = ["--pitch", "meal prep boxes for shift workers at the hospital in leeds"]
    said += ["--reject", "1:way too corporate. drop the competition stuff"]
    said += ["--own", "2:neither, we go thru the staff wellbeing team"]
    rc = main(["simulate", "--save-dir", str(tmp_path), "--seed", "11", "--json", *said])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    reject, own = out["readings"]
    left_out = [(d["value"], d["words"]) for d in reject["directions"] if not d["do"]]
    assert left_out == [(out["rival"]["name"], "competition")]
    assert own["asked"] == "neither" and own["directions"] == []
