"""The help screen (`?`): how a chapter plays, and every key (live, from the registry) with its id."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from engine.game.economy import MAX_REDOS  # no engine import before the first frame
from worldforge_textkit.numbers import currency
from worldforge_tui import actions
from worldforge_tui.glossary import GLOSSARY, loss_rule, meaning, score_rule, win_rule
from worldforge_tui.screens.resume import StyledOnMount


def loop_text(key_of: Callable[[str], str]) -> str:
    """How a chapter plays, naming the live keys."""
    return "\n".join(
        (
            "Each chapter a worker ships an artifact for the current stage.",
            (
                f"• Gate: approve it ({key_of('gate.approve')}), or reject it with a reason "
                f"({key_of('gate.reject')}). The worker redoes the stage with your reason as binding "
                f"direction (costs game days; at most {MAX_REDOS} redos). A part of a reason or a "
                "standup reply that binds nothing (“hire a barista”) is shown first, to reword."
            ),
            (
                f"• Fork: choose option {key_of('fork.option_a')} or {key_of('fork.option_b')}, or write "
                f"your own answer ({key_of('fork.own')}). A rule, not a model, changes the numbers. The "
                "receipt shows every field before → after, what the workers learned, and the next brief "
                "with your decision as its binding line."
            ),
            "• The next gate checks the artifact followed it: DRIFT marks one that did not.",
            f"• {win_rule()}",
            f"• {loss_rule()}",
            f"• {score_rule()}",
        )
    )


def glossary_content() -> Content:
    """Every number on the board: its status-bar letter, its one name, what it means."""
    rows: list[str | tuple[str, str]] = [("\nMeters (status bar)\n", "bold underline")]
    money = currency().symbol  # the books' own, as the status bar writes the treasury ("£24k")
    for meter in GLOSSARY:
        letter = meter.short or (money if meter.field == "treasury_usd" else "—")
        rows.append((f"{letter:>8}  ", "$accent bold"))
        rows.append((meter.name, "bold"))
        rows.append(f": {meaning(meter)}\n")
    rows.append((f"{'▁▃▅':>8}  ", "$accent bold"))
    rows.append("the sparkline: the treasury over game days\n")
    return Content.assemble(*rows)


HELP_GROUPS = (
    "Gate and fork",
    "Reading what you type",
    "Board",
    "Panes",
    "Memory pane",
    "Replay log",
)


def keys_content(key_of: Callable[[str], str]) -> Content:
    """Every board key from the registry, with the live key and its binding id (static text)."""
    rows: list[str | tuple[str, str]] = []
    for group in HELP_GROUPS:
        rows.append((f"\n{group}\n", "bold underline"))
        for row in actions.ACTIONS:
            if row.group != group:
                continue
            key = key_of(row.id)
            if row.id == "fork.option_a":
                key = f"{key} / {key_of('fork.option_b')}"
                what, binding_id = "Choose the fork's option 1 / 2", "fork.option_a / fork.option_b"
            elif row.id == "fork.option_b":
                continue
            else:
                what, binding_id = row.description, row.id
            rows.append((f"{key:>8}  ", "$accent bold"))
            rows.append(what)
            rows.append((f"  {binding_id}\n", "$foreground-muted"))
    rows.append((f"{'tab':>8}  ", "$accent bold"))
    rows.append("Move focus between panes and buttons\n")
    rows.append((f"{'ctrl+p':>8}  ", "$accent bold"))
    rows.append("Command palette (every action possible now is there)\n")
    return Content.assemble(*rows)


class HelpScreen(StyledOnMount, ModalScreen[None]):
    """Modal help; any of Escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("help")

    def __init__(self, version: str = "", keymap_path: str = "keymap.json") -> None:
        super().__init__()
        self._version = version
        self._keymap_path = keymap_path

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box help-box"):
            title = "WorldForge — how to play" + (f" · v{self._version}" if self._version else "")
            yield Label(title, classes="dialog-title")
            with VerticalScroll(id="help-scroll"):
                key_of = partial(actions.live_key, self.app)
                yield Static(Content(loop_text(key_of)), id="help-loop")
                yield Static(glossary_content(), id="help-glossary")
                yield Static(keys_content(key_of), id="help-keys")
            yield Static(
                Content(
                    f"{actions.live_key(self.app, 'help.close')} closes · rebind a key by its id "
                    f"in {self._keymap_path}, "
                    'e.g. {"gate.approve": "y"}'
                ),
                classes="dialog-hint",
                id="help-hint",
            )

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
