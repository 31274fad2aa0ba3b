"""Start-up helpers that need no widgets: the shared router from settings, and the log file."""

from __future__ import annotations

import logging
from typing import Any

from worldforge_tui.safe_text import one_line

log = logging.getLogger("worldforge.tui")
LOG_FILENAME = "tui.log"


def load_router() -> tuple[Any, str | None]:
    """The shared router from saved settings + env; a broken settings file falls back to defaults."""
    from engine.config import Settings, load_settings
    from engine.routing import Router

    try:
        return Router(load_settings()), None
    except Exception as exc:  # noqa: BLE001 - bad settings must not stop the game: use the floor
        return Router(Settings.model_validate({})), one_line(f"settings ignored: {exc}", 200)


def setup_file_log() -> None:
    """Send tracebacks to the log file (WORLDFORGE_HOME or the user log dir), never the screen."""
    if any(isinstance(h, logging.FileHandler) for h in log.handlers):
        return
    try:
        from engine.config import log_dir

        directory = log_dir()
        directory.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(directory / LOG_FILENAME, encoding="utf-8")
    except OSError:
        return
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    from worldforge_tui import version

    log.info("WorldForge %s started", version())
