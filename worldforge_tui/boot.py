"""Start-up helpers that need no widgets: the shared router from settings, and the log file."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from worldforge_tui.text.safe_text import one_line

if TYPE_CHECKING:
    from engine.routing import Router

log = logging.getLogger("worldforge.tui")


def load_router() -> tuple[Router, str | None]:
    """The shared router from saved settings + env; a broken settings file falls back to defaults.
    With a local model set, its first-token probe starts in the background (`measure_pace`)."""
    from engine.config import Settings, load_settings
    from engine.routing import Router

    try:
        router = Router(load_settings())
    except Exception as exc:  # noqa: BLE001 - bad settings must not stop the game: use the floor
        log.warning("settings ignored: %s", exc)  # the same line the CLI prints, in the log too
        return Router(Settings()), one_line(str(exc), 300)
    if router.settings.local_ready():  # the local model's first token, learned while the player
        router.measure_pace()  # writes a pitch: a slow first call is then not taken for silence
    return router, None


def setup_file_log() -> None:
    """Send tracebacks to the one log (worldforge.log in WORLDFORGE_HOME or the user log dir:
    rotated, every line scrubbed of secrets), never the screen. `worldforge.tui` is a child of the
    engine's `worldforge` logger, so it writes through the engine's handler."""
    try:
        from engine.logs import get_logger

        get_logger()
    except OSError:
        return
    log.setLevel(logging.INFO)
    log.propagate = True
    from worldforge_tui import version

    log.info("WorldForge %s started", version())
