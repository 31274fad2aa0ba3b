"""Read-only and odd saves: a read-only save dir is named in one line (exit 2) by commands that
write, and commands that only look work on it; a save that is a symlink out of its dir is refused
by writers and read strictly read-only, never creating files beside its target."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.play.headless import Plan, play
from engine.session.api import GameSession
from worldforge_savedb.db import db_path
from worldforge_tui.cli import main

ROOT = Path(__file__).resolve().parents[2]
PITCH = "Repair bookings for independent bike shops"


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, str]:
    """A save dir holding one whole venture (its WAL merged: nobody has it open)."""
    save_dir = tmp_path_factory.mktemp("played")
    session = GameSession.start_venture(pitch=PITCH, name="Spoke Co", seed=4, save_dir=save_dir)
    play(session, Plan())
    run_id = session.state.run_id
    session.close()
    return save_dir, run_id


def _copy(played: tuple[Path, str], where: Path) -> Path:
    where.mkdir(parents=True)
    shutil.copy2(db_path(played[0]), db_path(where))
    return where


LOOKING = (
    ("runs", "--json"),
    ("replay", "{run}", "--verify"),
    ("export", "{run}", "--out", "-"),
    ("memory", "show", "{run}"),
)
WRITING = (
    ("simulate", "--pitch", PITCH),
    ("memory", "forget", "{run}", "--yes"),
    ("export", "{run}"),  # into the save dir's reports/
)


def _argv(args: tuple[str, ...], run_id: str, save_dir: Path) -> list[str]:
    return [a.format(run=run_id) for a in args] + ["--save-dir", str(save_dir)]


def test_a_symlinked_save_is_read_strictly_read_only(played, tmp_path, capsys) -> None:
    target = _copy(played, tmp_path / "elsewhere")
    linked = tmp_path / "linked"
    linked.mkdir()
    db_path(linked).symlink_to(db_path(target))
    before = sorted(p.name for p in target.iterdir())
    for args in LOOKING:
        assert main(_argv(args, played[1], linked)) == 0, args
        capsys.readouterr()
        assert sorted(p.name for p in target.iterdir()) == before, args  # no -wal, no -shm
    for args in WRITING[:2]:  # (an export goes to the link's own reports/, never the target's)
        assert main(_argv(args, played[1], linked)) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "symlink" in err, (args, err)
    assert sorted(p.name for p in target.iterdir()) == before
    assert sorted(p.name for p in linked.iterdir()) == ["worldforge.db"]


def _read_only_runner(save_dir: Path):
    """How to run the CLI with `save_dir` read-only: a read-only bind mount in a mount namespace
    of its own (root ignores file modes), or the modes (anyone else). None: neither works here."""
    cli = [sys.executable, "-m", "worldforge_tui.cli"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if os.geteuid() != 0:
        save_dir.chmod(0o555)
        db_path(save_dir).chmod(0o444)
        return lambda argv: subprocess.run(
            [*cli, *argv],
            check=False,
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=300,
        )
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    mount = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    probe = subprocess.run(
        [unshare, "-m", "sh", "-c", mount, str(save_dir), "true"], check=False, capture_output=True
    )
    if probe.returncode != 0:
        return None
    return lambda argv: subprocess.run(
        [unshare, "-m", "sh", "-c", mount, str(save_dir), *cli, *argv],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


def _progress(line: str) -> bool:
    """A slow command's notice on stderr (worldforge_tui/cli/info.py `progress`), not an error."""
    return line.startswith("worldforge: ") and (
        line.endswith("…") or re.search(r": done in \d+\.\d s$", line) is not None
    )


def test_a_read_only_save_dir_is_named_and_read(played, tmp_path) -> None:
    save_dir = _copy(played, tmp_path / "ro")
    run = _read_only_runner(save_dir)
    if run is None:
        pytest.skip("no way to make a read-only directory here (root without unshare -m)")
    try:
        for args in LOOKING:
            done = run(_argv(args, played[1], save_dir))
            assert done.returncode == 0, (args, done.stderr)
        runs = json.loads(run(_argv(("runs", "--json"), played[1], save_dir)).stdout)
        assert [r["run_id"] for r in runs] == [played[1]]
        for args in WRITING:
            done = run(_argv(args, played[1], save_dir))
            assert done.returncode == 2, (args, done.stderr)
            # one error line, last; before it only the notices of work that took over a second
            # ("exporting …", "… done in 3.2 s": a loaded machine makes an export that slow)
            *notices, last = done.stderr.splitlines()
            assert last.startswith("worldforge: error: "), done.stderr
            assert all(_progress(n) for n in notices), done.stderr
            assert "Traceback" not in done.stderr, done.stderr
            assert str(save_dir) in done.stderr, done.stderr
        assert sorted(p.name for p in save_dir.iterdir()) == ["worldforge.db"]
    finally:
        save_dir.chmod(0o755)
        db_path(save_dir).chmod(0o644)
