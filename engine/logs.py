"""The rotating log file in the user state dir: tracebacks with correlation ids, never secrets.

Session commands run inside `correlation(run=…, stage=…, attempt=…, cmd=…)` (`logged`), so every
line logged meanwhile, the router's included, names the run, stage and attempt. Unexpected
errors are logged with their traceback before they reach the front end, which shows one line.
Every formatted line, traceback text included, passes the secret scrubber.
"""

from __future__ import annotations

import contextvars
import logging
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

_LOGGER = "worldforge"
LOG_FILENAME = "worldforge.log"
MAX_BYTES = 1_000_000
BACKUPS = 3

_ids: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "worldforge_log_ids", default=None
)


class _ScrubFormatter(logging.Formatter):
    """Format with the current correlation ids, then scrub the whole line (tracebacks too)."""

    def format(self, record: logging.LogRecord) -> str:
        from worldforge_textkit.scrub import (
            scrub,  # only once a line is written: start-up stays light
        )

        ids = getattr(record, "ids", None) or _ids.get() or {}
        record.ids_text = " ".join(f"{k}={v}" for k, v in ids.items()) or "-"
        return scrub(super().format(record))


def log_path() -> Path:
    from engine.config import log_dir

    return log_dir() / LOG_FILENAME


class _FileHandler(logging.Handler):
    """The one file every `worldforge.*` logger writes to (engine, memory, knowledge, TUI): opened
    on the first line, never before (a clean run creates no log), and following the log dir when
    it changes (WORLDFORGE_HOME differs per test and per portable install). Installed on the
    `worldforge` logger at import, so a warning from any package (`cosmos memory parked: …`)
    reaches the file instead of Python's last-resort print to stderr, which the TUI would lose."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(
            _ScrubFormatter("%(asctime)s %(levelname)s %(name)s [%(ids_text)s] %(message)s")
        )
        self._file: logging.Handler | None = None
        self._path: Path | None = None

    def _target(self) -> logging.Handler:
        import logging.handlers

        path = log_path().absolute()
        if self._file is None or self._path != path:
            if self._file is not None:
                self._file.close()
            path.parent.mkdir(parents=True, exist_ok=True)
            handler = logging.handlers.RotatingFileHandler(
                path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
            )
            handler.setFormatter(self.formatter)
            self._file, self._path = handler, path
        return self._file

    def emit(self, record: logging.LogRecord) -> None:
        try:
            target = self._target()
        except OSError:  # no writable log dir: the line is lost, the game goes on
            return
        target.emit(record)

    def current_path(self) -> Path:
        self._target()
        assert self._path is not None
        return self._path

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        super().close()


def install() -> logging.Logger:
    """Give the `worldforge` logger its file handler (once per process) and return it."""
    logger = logging.getLogger(_LOGGER)
    if not any(isinstance(h, _FileHandler) for h in logger.handlers):
        handler = _FileHandler()
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
        # The Azure SDKs (Cosmos, identity) warn through their own loggers: same file, not stderr.
        azure = logging.getLogger("azure")
        azure.addHandler(handler)
        azure.setLevel(logging.WARNING)
        azure.propagate = False
    return logger


def get_logger() -> logging.Logger:
    """The app logger, writing to <log dir>/worldforge.log (rotating, 1 MB × 3). Raises OSError
    when the log dir cannot be made (the TUI's start-up says so once)."""
    logger = install()
    for handler in logger.handlers:
        if isinstance(handler, _FileHandler):
            handler.current_path()
    return logger


install()


@contextmanager
def correlation(**ids: object) -> Iterator[None]:
    """Add ids (run, stage, attempt, cmd…) to every line logged in this context, nested ones merged."""
    merged = {**(_ids.get() or {}), **{k: str(v)[:80] for k, v in ids.items() if v is not None}}
    token = _ids.set(merged)
    try:
        yield
    finally:
        _ids.reset(token)


def log_exception(err: BaseException, context: dict[str, Any] | None = None) -> Path:
    """Write a traceback with correlation ids (run, stage, attempt…) and return the log's path."""
    tb = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    with correlation(**(context or {})):
        get_logger().error(f"{type(err).__name__}: {str(err)[:300]}\n{tb}")
    return log_path()


def _session_ids(session: object, cmd: str) -> dict[str, object]:
    state = getattr(session, "state", None)
    stage = getattr(state, "stage", None) if state is not None else None
    return {
        "run": getattr(state, "run_id", None),
        "stage": getattr(stage, "id", None),
        "attempt": (stage.redos + 1) if stage is not None else None,
        "phase": getattr(state, "phase", None),
        "cmd": cmd,
    }


@contextmanager
def logged(session: object, cmd: str) -> Iterator[None]:
    """Run a session command inside its correlation ids; log an unexpected error (not a
    GameError) with a traceback before it goes on up, so the front end can show one line."""
    from engine.errors import GameError

    with correlation(**_session_ids(session, cmd)):
        try:
            yield
        except GameError:
            raise
        except Exception as err:
            if not getattr(err, "_worldforge_logged", False):
                log_exception(err)
                err._worldforge_logged = True  # type: ignore[attr-defined]
            raise


class LoggedEvent(Protocol):
    """What the log reads of a session event (engine.session.events.Event)."""

    @property
    def id(self) -> int: ...
    @property
    def run_id(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def payload(self) -> Mapping[str, object]: ...


def log_event(event: LoggedEvent) -> None:
    """Session listener: route fallbacks go to the log as warnings with their run, stage, attempt."""
    if event.type != "ROUTE_FALLBACK":
        return
    try:
        p = event.payload
        with correlation(
            run=event.run_id, stage=p.get("stage_id"), attempt=p.get("attempt"), event=event.id
        ):
            get_logger().warning(
                f"route fallback {p.get('from_tier')} -> {p.get('to_tier')}: "
                f"{str(p.get('reason'))[:200]}"
            )
    except Exception:  # noqa: BLE001 - logging must never break the game
        return
