"""Reliability suite fixtures: a played save file to damage, and the loopback model servers."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.config import Settings
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage
from engine.session.replay import ReplayReport, verify
from engine.session.savefile import open_save
from tests.reliability.crash import Zygote
from tests.servers.fixtures import fake_openai, fake_openai_factory  # noqa: F401 - fixtures
from worldforge_savedb.db import db_path

PITCH = "Repair bookings for independent bike shops"
ROOT = Path(__file__).resolve().parents[2]


def replayed(save_dir: Path, run_id: str) -> ReplayReport:
    """`replay --verify` of one run in the save dir: the report."""
    conn = open_save(db_path(save_dir), create=False)
    try:
        return verify(conn, run_id)
    finally:
        conn.close()


def cli(home: Path, *args: str, text: bool = True, **env: str) -> subprocess.CompletedProcess[Any]:
    """`worldforge ARGS` in a child process run from the repo root, its WORLDFORGE_HOME `home`
    (`env` on top of this process's environment), output captured, whatever its exit code."""
    return subprocess.run(
        [sys.executable, "-m", "worldforge_tui.cli", *args],
        env={**os.environ, "WORLDFORGE_HOME": str(home), "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=text,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def play_venture(
    save_dir: Path, *, seed: int = 5, plan: Plan | None = None, stop_after: int | None = None
) -> str:
    """Play a simulation venture into `save_dir` (to the end, or `stop_after` commands); its run id."""
    session = GameSession.start_venture(
        pitch=PITCH,
        name="Spoke Co",
        seed=seed,
        save_dir=save_dir,
        router=Router(Settings(demo_mode="simulation")),
    )
    try:
        if stop_after is None:
            play(session, plan or Plan())
        else:
            for _ in range(stop_after):
                session.give(
                    *{"brief": (RunStage,), "gate": (Approve,), "fork": (Decide, "A")}[
                        session.state.phase
                    ]
                )
        return session.state.run_id
    finally:
        session.close()


@pytest.fixture(scope="session")
def played_save(tmp_path_factory) -> tuple[Path, str]:
    """A save file holding one finished venture: (the db file, its run id). Copy before damaging."""
    save_dir = tmp_path_factory.mktemp("played")
    run_id = play_venture(save_dir)
    return save_dir / "worldforge.db", run_id


@pytest.fixture(scope="module")
def zygotes() -> Iterator[queue.Queue[Zygote]]:
    """Two forking game launchers (tests/reliability/crash.py) handed out one per task
    (`crash.on_zygote`), so two games share the two cores; one pair per crash-test module."""
    pool: queue.Queue[Zygote] = queue.Queue()
    made = [Zygote(), Zygote()]
    for z in made:
        pool.put(z)
    yield pool
    for z in made:
        z.close()


def pytest_terminal_summary(terminalreporter) -> None:
    """The closing-note figure: how many hostile inputs the property tests generated."""
    from tests.reliability.hostile import tried

    if tried():
        terminalreporter.write_line(f"reliability: hostile inputs tried: {tried()}")
