"""Fixtures for the memory tests: a fresh save file, a bound store, a loopback Foundry server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memory.local.store import MemoryStore
from tests.memory.foundry_server import FoundryServer
from worldforge_savedb.db import connect, db_path


@pytest.fixture
def save_dir(tmp_path: Path) -> Path:
    return tmp_path / "save"


@pytest.fixture
def conn(save_dir: Path):
    c = connect(db_path(save_dir))
    yield c
    c.close()


@pytest.fixture
def store(conn) -> MemoryStore:
    return MemoryStore(conn, "run-a")


@pytest.fixture
def foundry() -> Iterator[FoundryServer]:
    server = FoundryServer()
    server.start()
    yield server
    server.stop()
