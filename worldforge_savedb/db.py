"""The save file: one SQLite database (WAL) per save dir, and a re-entrant transaction helper.

Every package that keeps tables in it (the memory store, the engine's session, the Cosmos failover)
registers its DDL, its migration from older formats and its SQL functions here (`register_schema`,
`register_function`), so one `connect()` makes a ready database they all share; this module imports
none of them.
`connect()` also checks what it opens: the file carries our application id and a format version
(`PRAGMA user_version`); an older save is migrated, and a newer, foreign, corrupt or truncated file
raises `SaveFileError` before anything is written to it.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from worldforge_savedb.stamp import Look, inspect, read_head
from worldforge_savedb.stamp import is_busy as is_busy

DB_FILENAME = "worldforge.db"
BUSY_TIMEOUT_MS = 15000  # a writer waits this long for another process's transaction (issue 26)
BUSY_RETRIES = 3  # then BEGIN IMMEDIATE is tried again this many times before SaveBusyError
APPLICATION_ID = 0x57466731  # "WFg1": marks a file as a WorldForge save
SCHEMA_VERSION = 3  # 2: recall on FTS5; 3: index terms derived, not stored (memory.local.schema). Bump, and extend the registered migrations, whenever a change is not additive
SQLITE_MAGIC = b"SQLite format 3\x00"
SUGGESTION = "move it aside or use --save-dir DIR to start a fresh save dir"

_Step = Callable[[sqlite3.Connection], object]  # what it returns is not used
_schemas: list[tuple[str, _Step, _Step | None]] = []
_functions: dict[str, tuple[int, Callable[..., str | bytes | int | float | None]]] = {}
_depth = threading.local()


class SaveFileError(ValueError):
    """The file is not a save this build can open (newer, foreign, corrupt, truncated); it is left
    untouched. The engine maps it to `engine.errors.SaveError`."""


class SaveReadOnlyError(SaveFileError):
    """The save dir (or file) cannot be written (a read-only mount, no write permission): commands
    that write are refused in one line; commands that only look open it read-only."""


READ_ONLY_COMMANDS = "runs, replay, export --out FILE|-, memory show"


def read_only_line(path: Path, why: str) -> str:
    return (
        f"save dir {path.parent} is read-only ({why}): nothing can be saved there; "
        f"read-only commands ({READ_ONLY_COMMANDS}) still work, or use --save-dir DIR"
    )


def _unwritable(path: Path) -> str | None:
    """Why the save at `path` cannot be written (None: it can). Asked of the OS (`access`, which
    a read-only mount answers for root too), before SQLite fails with 'unable to open'."""
    if not os.access(path.parent, os.W_OK):
        return "its directory cannot be written"
    if path.exists() and not os.access(path, os.W_OK):
        return "the save file cannot be written"
    return None


class SaveBusyError(sqlite3.OperationalError):
    """Another process kept the save locked past the busy timeout and the retries; nothing was
    written. The message is the one line a front end shows."""


BUSY_LINE = (
    "the save is busy: another WorldForge process kept it locked for {seconds} s; nothing was "
    "changed, try again when it is done"
)


def busy_line() -> str:
    return BUSY_LINE.format(seconds=BUSY_TIMEOUT_MS * (BUSY_RETRIES + 1) // 1000)


def register_schema(name: str, ensure: _Step, *, migrate: _Step | None = None) -> None:
    """Register a function that creates a package's tables (idempotent: CREATE ... IF NOT EXISTS)
    and one that brings them from an older format (`migrate`: run before every `ensure` when the
    save's format is older than SCHEMA_VERSION)."""
    if all(existing != name for existing, _, _ in _schemas):
        _schemas.append((name, ensure, migrate))


def register_function(
    name: str, n_args: int, fn: Callable[..., str | bytes | int | float | None]
) -> None:
    """Register a deterministic SQL function that every connection opened afterwards gets (a
    package's views and triggers may call it)."""
    _functions[name] = (n_args, fn)


def db_path(save_dir: Path | str) -> Path:
    return Path(save_dir) / DB_FILENAME


def inside(base: Path, target: Path) -> bool:
    """True when `target`, every symlink resolved, lies in `base` (itself resolved)."""
    try:
        target.resolve().relative_to(base.resolve())
    except ValueError:
        return False
    return True


def check_links(path: Path) -> None:
    """Refuse to write a save whose file, -wal, -shm or -journal is a symlink leading out of the save
    dir: SQLite would write through it, wherever it points (issue 26)."""
    for name in ("", "-wal", "-shm", "-journal"):
        link = Path(f"{path}{name}")
        if link.is_symlink() and not inside(path.parent, link):
            raise SaveReadOnlyError(  # commands that only look open it strictly read-only
                f"{link} is a symlink to {link.resolve()}, outside the save dir; WorldForge does "
                f"not write through it: {SUGGESTION}"
            )


def _check_file(path: Path) -> bool:
    """Refuse a file that is not an SQLite database, then whatever `stamp.inspect` finds (a
    missing, foreign or newer stamp, damage), before anything writes to it; True for a new
    (missing or empty) file, which `connect` stamps first. The first bytes come through the
    pinned descriptor of `stamp.read_head`, never a plain open/close.

    A zero-length file counts as a new save: a process killed while creating the file leaves one,
    and it holds nothing to lose. Whether the file is whole (truncated, torn) is asked of SQLite
    inside a read transaction, never judged from its size against the header: without SQLite's
    lock that comparison races another process's checkpoint.
    """
    try:
        size, head = read_head(path)
    except FileNotFoundError:
        return True
    except OSError as err:
        raise SaveFileError(
            f"cannot read save file {path} ({err.strerror or err}): {SUGGESTION}"
        ) from None
    if size == 0:
        return True
    if not head.startswith(SQLITE_MAGIC[: len(head)]):
        raise SaveFileError(
            f"{path} is not a WorldForge save (not an SQLite database): {SUGGESTION}"
        )
    # busy now: the header's stamp will do (the open checks it again under the write lock)
    look = inspect(path) or Look(_int(head, 68), _int(head, 60), "ok")
    if look.app_id is not None:
        _check_stamp(path, look.app_id, look.version)
    if look.problem != "ok":  # damage is refused at open, not mid-game; file and WAL stay as found
        raise SaveFileError(damaged_line(path, look.problem))
    return False


def _int(head: bytes, at: int) -> int:
    return int.from_bytes(head[at : at + 4], "big")


def _check_stamp(path: Path, app_id: int, version: int, *, new: bool = False) -> None:
    """Refuse a missing (unless the database is `new`: no table yet), foreign or newer stamp."""
    if app_id == 0 and not new:
        raise SaveFileError(
            f"{path} has no WorldForge stamp (an SQLite database from another application, or "
            f"from before saves were stamped); it was left untouched: {SUGGESTION}, or {ADOPT}"
        )
    if app_id not in (0, APPLICATION_ID):
        raise SaveFileError(
            f"{path} belongs to another application (id {app_id:#x}), not WorldForge; it was left "
            f"untouched: {SUGGESTION}"
        )
    if version > SCHEMA_VERSION:
        raise SaveFileError(
            f"save file {path} was written by a newer WorldForge (format {version}; "
            f"this build reads up to {SCHEMA_VERSION}): upgrade, or {SUGGESTION}"
        )


_DAMAGE_WORDS = ("malformed", "not a database", "corrupt", "disk image")
ADOPT = (
    "if it is a save from an early WorldForge build, stamp it first: sqlite3 FILE "
    f"'PRAGMA application_id={APPLICATION_ID}'"
)


def damaged_line(path: Path, problem: str) -> str:
    """The one line for a save SQLite reports damaged (a short form of what it said)."""
    detail = " ".join(str(problem).replace("*", " ").split())[:80]
    return (
        f"save file {path} is damaged ({detail}); it was left as found (with its -wal): keep a "
        f"copy, try `sqlite3 {path} .recover`, or {SUGGESTION}"
    )


def _prepare(conn: sqlite3.Connection, path: Path | None) -> None:
    """Check, migrate and stamp the save inside one transaction (re-checked under the write lock)."""
    with transaction(conn):
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        new = conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is None
        if path is not None:
            _check_stamp(path, app_id, version, new=new)
        if version < SCHEMA_VERSION and not new:
            for _, _, migrate in _schemas:
                if migrate is not None:
                    migrate(conn)
        for _, ensure, _ in _schemas:
            ensure(conn)
        if app_id != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        if version != SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def connect(path: Path | str, *, create: bool = True, readonly: bool = False) -> sqlite3.Connection:
    """Open the save file in autocommit mode with WAL, a busy timeout and every registered schema
    (`readonly`: a read-only connection that changes nothing, for commands that only look).

    Raises SaveFileError (file left untouched) for a newer, foreign, corrupt or truncated file.
    """
    memory = str(path) == ":memory:"
    path = Path(path)
    fresh = memory
    if not memory:
        if create and not readonly:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:  # a read-only mount, or no permission on a parent
                if err.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
                    raise  # (a file where the dir should be: the front end names it)
                reason = err.strerror or type(err).__name__
                raise SaveReadOnlyError(read_only_line(path, reason.lower())) from None
        elif not path.exists():
            raise FileNotFoundError(f"no save file at {path}")
        if not readonly:
            check_links(path)
            unwritable = _unwritable(path) if path.parent.exists() else None
            if unwritable is not None:
                raise SaveReadOnlyError(read_only_line(path, unwritable))
        fresh = _check_file(path)  # the stamp and damage, before anything writes to the file
        if fresh and readonly:
            raise SaveFileError(f"{path} is empty: there is nothing to read yet")
    if readonly:
        return _connect_readonly(path)
    conn = _open(path)
    try:
        if fresh and not memory:  # stamp a new file before WAL: the stamp lands in the file itself
            with transaction(conn):  # both in one commit: each commit here is 4 fdatasyncs
                conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        _pragmas(conn)
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


def _pragmas(conn: sqlite3.Connection) -> None:
    """The per-connection settings every writable connection gets."""
    _retry_busy(lambda: conn.execute("PRAGMA journal_mode=WAL"))
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA secure_delete=ON")


def copy_of(source: sqlite3.Connection) -> sqlite3.Connection:
    """An in-memory copy of an open save (schema, rows, stamp) on a connection set up as `connect`
    sets one up. The copy carries the schema, so none is re-run: `connect(":memory:")` followed
    by a backup spent most of its time creating tables the backup then replaced (balance
    branches a venture at every fork this way)."""
    conn = _open(":memory:")
    _pragmas(conn)
    source.backup(conn)
    return conn


def _open(target: Path | str, *, uri: bool = False) -> sqlite3.Connection:
    """A connection as every one to a save is set up: autocommit, the busy timeout, rows by
    name, and the registered SQL functions."""
    conn = sqlite3.connect(
        target,
        uri=uri,
        isolation_level=None,
        timeout=BUSY_TIMEOUT_MS / 1000,
        check_same_thread=False,
    )
    conn.row_factory = sqlite3.Row
    for name, (n_args, fn) in _functions.items():
        conn.create_function(name, n_args, fn, deterministic=True)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return conn


def _retry_busy(fn: Callable[[], object]) -> None:
    for attempt in range(BUSY_RETRIES + 1):
        try:
            fn()
            return
        except sqlite3.OperationalError as err:
            if not is_busy(err):
                raise
            if attempt == BUSY_RETRIES:
                raise SaveBusyError(busy_line()) from None
            time.sleep(0.05 * (attempt + 1))


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """A connection that cannot write the save (SQLite `mode=ro`); an older format is refused
    rather than upgraded, since upgrading would write.

    `mode=ro` still creates the -wal and -shm files a WAL save reads through, beside the file
    SQLite opens: in a read-only dir it cannot ("unable to open database file"), and for a save
    that is a symlink out of its dir it would create them beside the target. There the file is
    opened `immutable=1`, which creates nothing and takes no lock; refused (one line) when a -wal
    holding writes not yet merged lies beside it, since immutable reading would not see them."""
    linked = path.is_symlink() and not inside(path.parent, path)
    if linked or _unwritable(path) is not None:
        real = path.resolve()
        wal = Path(f"{real}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            where = "a symlink out of its dir" if linked else "in a read-only dir"
            raise SaveFileError(
                f"save file {path} is {where} and has writes not yet merged ({wal.name}); "
                "open it once where it can be written (worldforge runs) to merge them"
            )
        conn = _open(real.as_uri() + "?mode=ro&immutable=1", uri=True)
    else:
        conn = _open(path.absolute().as_uri() + "?mode=ro", uri=True)
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version != SCHEMA_VERSION:
        conn.close()
        raise SaveFileError(
            f"save file {path} is format {version}; open it once with `worldforge play` to "
            f"upgrade it to format {SCHEMA_VERSION} (read-only commands never write)"
        )
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE … COMMIT, re-entrant per connection: inner blocks join the outer one.

    On any exception the whole outermost transaction rolls back, so nothing is half-written.
    """
    depths: dict[int, int] = _depth.__dict__.setdefault("d", {})
    key = id(conn)
    depth = depths.get(key, 0)
    if depth == 0:  # BEGIN IMMEDIATE, waiting and retrying while another process writes
        _retry_busy(lambda: conn.execute("BEGIN IMMEDIATE"))
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
