"""The save file: one SQLite database (WAL) per save dir, and a re-entrant transaction helper.

Every package that keeps tables in the save file registers its DDL here through `register_schema`,
so one `connect()` makes a ready database and the engine, the memory store and the CLI share it.
`connect()` also checks what it opens: the file carries our application id and a format version
(`PRAGMA user_version`); an older save is migrated, and a newer, foreign, corrupt or truncated file
raises `SaveFileError` before anything is written to it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

DB_FILENAME = "worldforge.db"
BUSY_TIMEOUT_MS = 5000
APPLICATION_ID = 0x57466731  # "WFg1": marks a file as a WorldForge save
SCHEMA_VERSION = 2  # 2: recall on FTS5 (memory.schema). Bump with a registered migration whenever a change is not additive
SQLITE_MAGIC = b"SQLite format 3\x00"
SUGGESTION = "move it aside or use --save-dir DIR to start a fresh save dir"

_schemas: list[tuple[str, Callable[[sqlite3.Connection], None]]] = []
_depth = threading.local()


class SaveFileError(ValueError):
    """The file is not a save this build can open (newer, foreign, corrupt, truncated); it is left
    untouched. The engine maps it to `engine.errors.SaveError`."""


_migrations: dict[int, Callable[[sqlite3.Connection], None]] = {}


def register_migration(version: int, migrate: Callable[[sqlite3.Connection], None]) -> None:
    """Register the step that brings a save from `version - 1` to `version` (runs before the
    packages' idempotent schema functions, inside the opening transaction)."""
    if not 1 <= version <= SCHEMA_VERSION:
        raise ValueError(f"migration to version {version} is outside 1..{SCHEMA_VERSION}")
    _migrations[version] = migrate


def register_schema(name: str, ensure: Callable[[sqlite3.Connection], None]) -> None:
    """Register a function that creates a package's tables (idempotent: CREATE ... IF NOT EXISTS)."""
    if all(existing != name for existing, _ in _schemas):
        _schemas.append((name, ensure))


def db_path(save_dir: Path | str) -> Path:
    return Path(save_dir) / DB_FILENAME


def _check_header(path: Path) -> None:
    """Refuse, without opening it in SQLite, a file that is not an SQLite database or is cut short.

    A zero-length file counts as a new save: a process killed while creating the file leaves one,
    and it holds nothing to lose.
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(100)
    except FileNotFoundError:
        return
    except OSError as err:
        raise SaveFileError(
            f"cannot read save file {path} ({err.strerror or err}): {SUGGESTION}"
        ) from None
    if size == 0:
        return
    if not head.startswith(SQLITE_MAGIC[: len(head)]):
        raise SaveFileError(
            f"{path} is not a WorldForge save (not an SQLite database): {SUGGESTION}"
        )
    if len(head) < 100:
        raise SaveFileError(f"save file {path} is truncated ({size} bytes): {SUGGESTION}")
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    counter_valid = head[24:28] == head[92:96]
    wal = Path(f"{path}-wal")
    wal_size = wal.stat().st_size if wal.exists() else 0
    if page_size < 512 or page_size & (page_size - 1):
        raise SaveFileError(f"save file {path} is damaged (bad page size): {SUGGESTION}")
    if counter_valid and pages and wal_size == 0 and size < pages * page_size:
        raise SaveFileError(
            f"save file {path} is truncated ({size:,} of {pages * page_size:,} bytes): {SUGGESTION}"
        )


_known_cache: dict[tuple[str, ...], set[str]] = {}
_DAMAGE_WORDS = ("malformed", "not a database", "corrupt", "disk image")


def _known_tables() -> set[str]:
    """The tables the registered schemas create (built once per set of schemas, in memory)."""
    key = tuple(name for name, _ in _schemas)
    cached = _known_cache.get(key)
    if cached is None:
        probe = sqlite3.connect(":memory:", isolation_level=None)
        try:
            for _, ensure in _schemas:
                ensure(probe)
            cached = {
                r[0] for r in probe.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        finally:
            probe.close()
        _known_cache[key] = cached
    return cached


def _check_identity(conn: sqlite3.Connection, path: Path) -> int:
    """Return the save's format version; raise SaveFileError for a newer or foreign database."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id not in (0, APPLICATION_ID):
        raise SaveFileError(
            f"{path} belongs to another application (id {app_id:#x}), not WorldForge: {SUGGESTION}"
        )
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if app_id == 0 and tables and not tables & _known_tables():
        raise SaveFileError(
            f"{path} is an SQLite database from another application, not a "
            f"WorldForge save: {SUGGESTION}"
        )
    if version > SCHEMA_VERSION:
        raise SaveFileError(
            f"save file {path} was written by a newer WorldForge (format {version}; "
            f"this build reads up to {SCHEMA_VERSION}): upgrade, or {SUGGESTION}"
        )
    return int(version)


PAGE_CHECK_BUDGET_S = 0.025


def _check_pages(conn: sqlite3.Connection, path: Path) -> None:
    """`PRAGMA quick_check` within PAGE_CHECK_BUDGET_S: damage is refused at open, not mid-game.
    A game's save (a few MB at ~1 ms/MB) is checked whole; a very large one (a million memories
    is ~800 MB) is checked as far as the budget reaches, so opening it stays fast; SQLite still
    reports damage on any page when it is read."""
    timer = threading.Timer(PAGE_CHECK_BUDGET_S, conn.interrupt)  # the check stops at the budget
    timer.start()
    try:
        problem = conn.execute("PRAGMA quick_check(1)").fetchall()[0][0]  # statement done
    except sqlite3.OperationalError as err:
        if "interrupt" in str(err).lower():
            return  # out of budget: no damage found so far
        raise
    finally:
        timer.cancel()
        timer.join()
    if problem != "ok":
        detail = " ".join(str(problem).replace("*", " ").split())[:80]
        raise SaveFileError(f"save file {path} is damaged ({detail}): {SUGGESTION}")


def _prepare(conn: sqlite3.Connection, path: Path | None) -> None:
    """Check, migrate and stamp the save inside one transaction (re-checked under the write lock)."""
    with transaction(conn):
        version = _check_identity(conn, path) if path is not None else SCHEMA_VERSION
        has_tables = conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None
        if has_tables:
            for step in range(version + 1, SCHEMA_VERSION + 1):
                migrate = _migrations.get(step)
                if migrate is not None:
                    migrate(conn)
        for _, ensure in _schemas:
            ensure(conn)
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def connect(path: Path | str, *, create: bool = True) -> sqlite3.Connection:
    """Open the save file in autocommit mode with WAL, a busy timeout and every registered schema.

    Raises SaveFileError (file left untouched) for a newer, foreign, corrupt or truncated file.
    """
    memory = str(path) == ":memory:"
    path = Path(path)
    if not memory:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        elif not path.exists():
            raise FileNotFoundError(f"no save file at {path}")
        _check_header(path)
    conn = sqlite3.connect(
        path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
    )
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        if not memory:
            _check_identity(conn, path)  # read-only: refuse before WAL mode touches the file
            _check_pages(conn, path)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA secure_delete=ON")
        _prepare(conn, None if memory else path)
    except SaveFileError:
        conn.close()
        raise
    except sqlite3.DatabaseError as err:
        conn.close()
        if not any(word in str(err).lower() for word in _DAMAGE_WORDS):
            raise
        detail = " ".join(str(err).split())[:80]
        raise SaveFileError(f"save file {path} is damaged ({detail}): {SUGGESTION}") from None
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
        raise
    else:
        depths[key] = depth
        if depth == 0:
            conn.execute("COMMIT")
