"""The save file: one SQLite database (WAL) per save dir, and a re-entrant transaction helper.

Every package that keeps tables in the save file registers its DDL here through `register_schema`,
so one `connect()` makes a ready database and the engine, the memory store and the CLI share it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

DB_FILENAME = "worldforge.db"
BUSY_TIMEOUT_MS = 5000

_schemas: list[tuple[str, Callable[[sqlite3.Connection], None]]] = []
_depth = threading.local()
_rollbacks: dict[int, int] = {}


def register_schema(name: str, ensure: Callable[[sqlite3.Connection], None]) -> None:
    """Register a function that creates a package's tables (idempotent: CREATE ... IF NOT EXISTS)."""
    if all(existing != name for existing, _ in _schemas):
        _schemas.append((name, ensure))


def db_path(save_dir: Path | str) -> Path:
    return Path(save_dir) / DB_FILENAME


def connect(path: Path | str, *, create: bool = True) -> sqlite3.Connection:
    """Open the save file in autocommit mode with WAL, a busy timeout and every registered schema."""
    path = Path(path)
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    elif not path.exists():
        raise FileNotFoundError(f"no save file at {path}")
    conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000,
                           check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA secure_delete=ON")
    with transaction(conn):
        for _, ensure in _schemas:
            ensure(conn)
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE … COMMIT, re-entrant per connection: inner blocks join the outer one.

    On any exception the whole outermost transaction rolls back, so nothing is half-written.
    """
    depths: dict[int, int] = _depth.__dict__.setdefault("d", {})
    key = id(conn)
    depth = depths.get(key, 0)
    if depth == 0:
        conn.execute("BEGIN IMMEDIATE")
    depths[key] = depth + 1
    try:
        yield conn
    except BaseException:
        depths[key] = depth
        if depth == 0:
            conn.execute("ROLLBACK")
            _rollbacks[key] = _rollbacks.get(key, 0) + 1
        raise
    else:
        depths[key] = depth
        if depth == 0:
            conn.execute("COMMIT")


def rollback_count(conn: sqlite3.Connection) -> int:
    """How many outermost `transaction` blocks on `conn` rolled back (lets in-process caches of
    table contents notice that writes they saw were undone)."""
    return _rollbacks.get(id(conn), 0)
