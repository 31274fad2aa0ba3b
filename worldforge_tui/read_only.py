"""A second window on a run: watch it read-only, scroll its log live, and take it over when the
window holding it closes (or, asked first, when that window stops answering)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from worldforge_tui.boot import log
from worldforge_tui.text.safe_text import one_line

if TYPE_CHECKING:
    from textual.timer import Timer

    from engine.session.api import GameSession
    from engine.session.lease import Holder
    from worldforge_tui.app import WorldForgeApp

WATCH_SECONDS = 0.5  # how often a read-only window reads the run's new events


class ReadOnlyWatch:
    """Reads the held run's new events every `WATCH_SECONDS` until this window holds it."""

    def __init__(self, app: WorldForgeApp, session: GameSession) -> None:
        self.app, self.session = app, session
        self.offered = False  # a take-over is offered once per watch: the player confirms it
        self.say("Read-only", 10)
        self.timer: Timer = app.set_interval(WATCH_SECONDS, self.tick)

    def say(self, title: str, timeout: float) -> None:
        line = one_line(self.session.read_only_line(), 300)
        self.app.notify(line, title=title, severity="warning", markup=False, timeout=timeout)

    def tick(self) -> None:
        app, session = self.app, self.session
        if app.session is not session or not session.read_only:
            self.timer.stop()
            return
        try:
            fresh = session.refresh()
            took_over = session.try_take_over()
        except Exception:  # noqa: BLE001 - a watch tick must never take the app down
            log.exception("watching the run failed")
            return
        holder = session.holder
        if not took_over and holder is not None and holder.expired() and not self.offered:
            self.offered = True
            self.offer_take_over(holder)
        if session.forgotten:  # deleted elsewhere: say so once, keep the last view, never write
            self.timer.stop()
            self.say("Run forgotten", 15)
            return
        if fresh:
            app.replay.push_many(fresh)
            app.replay.flush()
        if fresh or took_over:
            app.snapshot()
            app.refresh_view()
        if took_over:
            self.timer.stop()
            app.notify(
                "The other window closed the run: you can play it here now.",
                title="Read-only ended",
                markup=False,
            )

    def offer_take_over(self, holder: Holder) -> None:
        """The holder's heartbeat went silent: ask before taking the run from it."""
        from worldforge_tui.screens.dialogs import ConfirmScreen  # loaded after the first frame

        app, session = self.app, self.session

        def confirmed(yes: bool | None) -> None:
            if yes and app.session is session and session.try_take_over(confirmed=True):
                app.snapshot()
                app.refresh_view()
                app.notify("You hold the run now; the other window saves nothing.", markup=False)

        app.push_screen(
            ConfirmScreen(
                one_line(
                    f"The window holding this run{'' if app.is_web else f' ({holder.describe()})'}"
                    " has not answered for "
                    f"{holder.silent_for():.0f} s: it may be stopped or hung. Take the run over "
                    "here? That window will no longer be able to save.",
                    400,
                ),
                yes_label="Take over",
            ),
            confirmed,
        )
