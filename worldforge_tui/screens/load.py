"""The load screen (`l`): saved ventures with outcome and day; Enter opens one."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from worldforge_tui import actions
from worldforge_tui.screens.resume import StyledOnMount
from worldforge_tui.text.formatting import human_time
from worldforge_tui.text.safe_text import one_line

if TYPE_CHECKING:
    from engine.session.saves import RunSummary


def run_prompt(run: RunSummary) -> Content:
    """One saved run: name, day, phase or outcome, pitch, last update."""
    outcome = run.outcome
    # the phase as the board names it ("standup", never the engine's "brief")
    phase = actions.PHASE_TITLES.get(run.phase, run.phase).lower()
    state = outcome.upper() if outcome else f"in progress ({phase})"
    style = (
        "$success bold"
        if (outcome or "").lower() == "victory"
        else "$error bold"
        if outcome
        else "$accent"
    )
    return Content.assemble(
        (one_line(run.name, 40), "bold"),
        f"  day {run.day}  ",
        (state, style),
        "\n",
        (
            f"  {one_line(run.pitch, 90)}  · {human_time(run.updated)}",
            "$foreground-muted",
        ),
    )


class LoadScreen(StyledOnMount, ModalScreen[str | None]):
    """Dismisses with the chosen run id, or None."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("load")

    def __init__(self, runs: list[RunSummary]) -> None:
        super().__init__(classes="dialog")
        self._runs = runs

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box load-box"):
            yield Label("Load a venture", classes="dialog-title")
            if self._runs:
                yield OptionList(
                    *(Option(run_prompt(run), id=f"run:{run.run_id}") for run in self._runs),
                    id="load-list",
                )
            else:
                new = actions.live_key(self.app, "app.new")
                yield Label(
                    f"No saved ventures yet: press {new} for a new one.",
                    id="load-empty",
                    markup=False,
                )
            cancel = actions.live_key(self.app, "load.cancel")
            yield Label(f"Enter opens · {cancel} cancels", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        if self._runs:
            self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#load-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss((event.option.id or "").removeprefix("run:") or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
