"""Issue 26: the game never writes through a symlink that leads out of the save dir (the save file,
its -wal / -shm, or the reports folder); it refuses in one line and the target is left untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import SaveError
from engine.session.api import GameSession
from tests.reliability.conftest import cli, play_venture
from worldforge_savedb.db import SaveFileError, connect


def test_a_save_file_symlinked_outside_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    play_venture(outside, stop_after=2)
    before = (outside / "worldforge.db").read_bytes()
    save = tmp_path / "save"
    save.mkdir()
    (save / "worldforge.db").symlink_to(outside / "worldforge.db")
    with pytest.raises(SaveFileError, match="outside the save dir"):
        connect(save / "worldforge.db")
    res = cli(save, "simulate", "--pitch", "Dog walking rotas", "--save-dir", str(save))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "symlink" in res.stderr
    assert (outside / "worldforge.db").read_bytes() == before
    assert not (outside / "worldforge.db-wal").exists()


def test_a_wal_symlinked_outside_is_refused(tmp_path: Path) -> None:
    play_venture(tmp_path, stop_after=2)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    save_dir = tmp_path / "save"
    save_dir.mkdir()
    (save_dir / "worldforge.db").write_bytes((tmp_path / "worldforge.db").read_bytes())
    (save_dir / "worldforge.db-wal").symlink_to(victim)
    with pytest.raises(SaveFileError, match="symlink"):
        connect(save_dir / "worldforge.db")
    assert victim.read_text() == "keep me"


def test_reports_symlinked_outside_are_not_written(tmp_path: Path) -> None:
    run_id = play_venture(tmp_path / "save", stop_after=3)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "save" / "reports").symlink_to(elsewhere, target_is_directory=True)
    session = GameSession.load(run_id, save_dir=tmp_path / "save")
    try:
        with pytest.raises(SaveError, match="outside the save dir"):
            session.export_report()
    finally:
        session.close()
    assert list(elsewhere.iterdir()) == []


def test_a_report_is_written_through_no_planted_temp_link(tmp_path: Path) -> None:
    run_id = play_venture(tmp_path, stop_after=3)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    session = GameSession.load(run_id, save_dir=tmp_path)
    try:
        day = session.state.day
        (tmp_path / "reports").mkdir(exist_ok=True)
        (tmp_path / "reports" / f"{run_id}-day{day}.tmp").symlink_to(victim)  # the old temp name
        path = session.export_report()
    finally:
        session.close()
    assert victim.read_text() == "keep me" and path.read_text().startswith("#")
