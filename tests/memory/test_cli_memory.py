"""`worldforge memory …` through the CLI entry: each action, JSON output, one-line errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.local.store import MemoryStore
from memory.models import NewNote
from worldforge_savedb.db import connect, db_path
from worldforge_tui.cli import main


@pytest.fixture
def seeded(save_dir: Path) -> Path:
    conn = connect(db_path(save_dir))
    s = MemoryStore(conn, "run-1")
    s.remember(NewNote("procedural", "Depth over breadth", author="ceo", game_day=4, axis="scope"))
    s.remember(
        NewNote(
            "context",
            "Clinics churn after a quarter",
            author="system",
            game_day=5,
            importance=2,
            expires_day=8,
        )
    )
    for i in range(2):
        s.worker_write(
            {"kind": "preference", "text": f"Farm co-op {i} wants payroll"},
            worker="w",
            stage_id=f"s{i}",
            game_day=6,
        )
    conn.close()
    return save_dir


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["memory", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_show_text_and_json(seeded: Path, capsys) -> None:
    code, out, _ = run_cli(capsys, "show", "--run", "run-1", "--save-dir", str(seeded))
    assert code == 0 and "procedural (1 live)" in out and "[binding]" in out
    code, out, _ = run_cli(capsys, "show", "--run", "run-1", "--save-dir", str(seeded), "--json")
    data = json.loads(out)
    assert data["counts"]["preference"] == 2 and len(data["records"]) == 4


def test_recall_uses_env_save_dir(seeded: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("WORLDFORGE_HOME", str(seeded))
    code, out, _ = run_cli(
        capsys,
        "recall",
        "--run",
        "run-1",
        "--query",
        "payroll farms",
        "--limit",
        "3",
        "--budget",
        "300",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["budget"] == 300 and data["tokens_used"] <= 300
    assert data["block"].startswith("<campaign_memory>") and len(data["items"]) <= 3
    assert "mem-00001" in [i["id"] for i in data["injected"]]


def test_prune_dry_run_then_apply(seeded: Path, capsys) -> None:
    args = ("prune", "--run", "run-1", "--save-dir", str(seeded), "--day", "9", "--json")
    code, out, _ = run_cli(capsys, *args, "--dry-run")
    assert code == 0 and json.loads(out) == {
        "status": "dry_run",
        "eligible_ids": ["mem-00002"],
        "deleted_count": 0,
        "archived_ids": [],
    }
    code, out, _ = run_cli(capsys, *args)
    assert json.loads(out)["deleted_count"] == 1
    code, out, _ = run_cli(capsys, "audit", "--run", "run-1", "--save-dir", str(seeded), "--json")
    assert json.loads(out)[-1]["operation"] == "retention_prune"


def test_consolidate_is_idempotent_from_the_cli(seeded: Path, capsys) -> None:
    args = (
        "consolidate",
        "--run",
        "run-1",
        "--save-dir",
        str(seeded),
        "--source",
        "mem-00003",
        "--source",
        "mem-00004",
        "--summary",
        "Farm co-ops want payroll",
        "--reviewer",
        "ceo",
        "--json",
    )
    code, out, _ = run_cli(capsys, *args, "--dry-run")
    assert code == 0 and json.loads(out)["status"] == "dry_run"
    assert json.loads(run_cli(capsys, *args)[1])["status"] == "consolidated"
    assert json.loads(run_cli(capsys, *args)[1])["status"] == "already_consolidated"


def test_forget_removes_the_run(seeded: Path, capsys) -> None:
    events = pytest.importorskip("engine.session.events")
    conn = connect(db_path(seeded))
    event = events.make_event(
        "run-1",
        events.next_event_id(conn, "run-1"),
        "MEMORY_WRITTEN",
        "memory",
        "Depth over breadth",
        {"text": "Depth over breadth"},
        4,
    )
    events.insert_events(conn, [event])
    conn.close()
    code, out, _ = run_cli(capsys, "forget", "--run", "run-1", "--save-dir", str(seeded), "--yes")
    assert code == 0 and "4 memories deleted" in out
    for path in seeded.rglob("*"):
        assert b"Depth over breadth" not in path.read_bytes()
    code, out, _ = run_cli(capsys, "show", "--run", "run-1", "--save-dir", str(seeded), "--json")
    assert code == 0 and json.loads(out)["records"] == []  # known through its audit trail


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("show", "--run", "nope"), "unknown run id"),
        (("recall", "--run", "run-1", "--query", "x", "--budget", "5"), "budget"),
        (
            (
                "consolidate",
                "--run",
                "run-1",
                "--source",
                "mem-00001",
                "--summary",
                "s",
                "--reviewer",
                "r",
            ),
            "2..",
        ),
        (
            (
                "consolidate",
                "--run",
                "run-1",
                "--source",
                "mem-00001",
                "--source",
                "mem-00404",
                "--summary",
                "s",
                "--reviewer",
                "r",
            ),
            "unknown memory id",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(seeded: Path, capsys, argv, needle) -> None:
    code, out, err = run_cli(capsys, *argv, "--save-dir", str(seeded))
    assert code == 2 and out == ""
    assert err.startswith("worldforge: error: ") and needle in err and err.count("\n") == 1


def test_missing_save_file_is_a_clean_error(tmp_path: Path, capsys) -> None:
    code, _, err = run_cli(capsys, "show", "--run", "r", "--save-dir", str(tmp_path / "none"))
    assert code == 2 and "no save file" in err
    assert not (tmp_path / "none").exists()


def test_cli_module_does_not_import_textual() -> None:
    import subprocess
    import sys

    code = (
        "import sys, worldforge_tui.cli.memory, memory.local.store, memory.foundry.cloud; "
        "sys.exit(1 if any(m == 'textual' or m.startswith('textual.') for m in sys.modules)"
        " else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
