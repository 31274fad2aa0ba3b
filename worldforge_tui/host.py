"""The typed host of the app's mixins (`SessionRunner`, `PlayerActions`, `LiveWriting`).

The app is one Textual `App` split across those mixins; each calls members another part defines.
For the type checker each mixin is an `App[int]` that declares, with real types, the members it
borrows from the rest of the app (`AppHost`); at run time the base is plain `object`, so the
method order of `WorldForgeApp` is exactly the mixins then `App`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import AwaitMount

    from engine.routing import Router
    from engine.session.api import GameSession
    from engine.views.snapshot import Snapshot
    from worldforge_tui.replay_entries import EventInbox
    from worldforge_tui.screens.main import MainScreen
    from worldforge_tui.widgets.replay_log import ReplayLog

    _Base = App[int]
else:
    _Base = object


class AppHost(_Base):
    """The app's shared state and the members the mixins call across each other."""

    if TYPE_CHECKING:
        session: GameSession | None
        snap: Snapshot | None
        busy: str | None
        router: Router | None
        save_dir: str | Path | None
        auto_run: bool
        last_export: Path | None
        inbox: EventInbox
        route_fallbacks: deque[dict[str, Any]]

        @property
        def main(self) -> MainScreen: ...

        @property
        def replay(self) -> ReplayLog: ...

        def refresh_view(self) -> None: ...
        def can(self, capability: str) -> bool: ...
        def command(
            self,
            label: str,
            fn: Callable[[GameSession], object],
            thinking: str | None = None,
            *,
            on_refused: Callable[[str], None] | None = None,
        ) -> bool: ...
        def key_of(self, action_id: str) -> str: ...
        def give(self, row_id: str, said: str = "", error: str = "") -> None: ...
        def action_new_venture(
            self, error: str | None = None, typed: str = "", *, by_player: bool = True
        ) -> AwaitMount | None: ...
        def _end_choice(self, choice: str | None) -> None: ...
        def live_reset(self) -> None: ...
