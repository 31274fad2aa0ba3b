"""The rotating log file in the user state dir: tracebacks with correlation ids, never secrets."""

from __future__ import annotations

import logging
import logging.handlers
import traceback
from pathlib import Path
from typing import Any

from memory.scrub import scrub

_LOGGER = "worldforge"


class _ScrubFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = scrub(record.getMessage())
        record.args = None
        return True


def get_logger() -> logging.Logger:
    """The app logger, writing to <log dir>/worldforge.log (rotating, 1 MB × 3)."""
    logger = logging.getLogger(_LOGGER)
    if not logger.handlers:
        from engine.config import log_dir

        directory = log_dir()
        directory.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(directory / "worldforge.log", maxBytes=1_000_000,
                                                       backupCount=3, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        handler.addFilter(_ScrubFilter())
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


def log_path() -> Path:
    from engine.config import log_dir

    return log_dir() / "worldforge.log"


def log_exception(err: BaseException, context: dict[str, Any] | None = None) -> Path:
    """Write a traceback with correlation ids (run, stage, attempt…) and return the log's path."""
    ids = " ".join(f"{k}={v}" for k, v in (context or {}).items())
    tb = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    get_logger().error(f"{ids}\n{tb}")
    return log_path()
