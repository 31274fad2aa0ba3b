"""Messages the app's workers post to the UI thread (workers never touch widgets themselves)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict

from textual.message import Message

if TYPE_CHECKING:
    from engine.routing import Router
    from engine.session.api import GameSession


class VentureRequest(TypedDict, total=False):
    """What the new-venture form (or the CLI) asks for: a pitch and its choices, or a run to
    resume."""

    pitch: str
    name: str | None
    archetype: str
    seed: int
    currency: str | None  # the books' (None: the pitch's own)
    reading: dict[str, str | None]  # the pitch's fields as the player confirmed them
    resume: str | None


class CommandFinished(Message):
    """A session command ended (result, or a one-line error; `crashed` for unexpected faults;
    `undone` when the player cancelled it and the run went back to where it stood before).
    `report` names the handler of its result (`worldforge_tui.reports`; "" for none), as its
    action row does; `on_refused` reopens the prompt it came from with the engine's reason."""

    def __init__(
        self,
        label: str,
        result: object = None,
        error: str | None = None,
        crashed: bool = False,
        undone: bool = False,
        *,
        report: str = "",
        on_refused: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__()
        self.label, self.result, self.error, self.crashed = label, result, error, crashed
        self.undone, self.report, self.on_refused = undone, report, on_refused


class SessionOpened(Message):
    """A venture was started or loaded in a worker; the app adopts it on the UI thread."""

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session


class SessionFailed(Message):
    """Starting or loading a venture failed with a one-line reason."""

    def __init__(self, error: str, request: VentureRequest | None) -> None:
        super().__init__()
        self.error, self.request = error, request


class Booted(Message):
    """The engine is imported and the router built (with a warning if settings were ignored)."""

    def __init__(
        self,
        router: Router | None,
        warning: str | None,
        keymap: dict[str, str],
        *,
        failed: bool = False,
    ) -> None:
        super().__init__()
        self.router, self.warning, self.keymap, self.failed = router, warning, keymap, failed


class EngineNotice(Message):
    """An engine event worth a notification (a route fallback), relayed from the worker thread."""

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message
