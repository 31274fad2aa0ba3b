"""The help screen (`?`): how a chapter plays, and every key with its binding id."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, Static

LOOP = (
    "Each chapter a worker ships an artifact for the current stage.",
    ("• Gate: approve it (a), or reject it with a reason (r). The worker redoes the stage with "
    "your reason as binding direction (costs game days; at most 2 redos)."),
    ("• Fork: choose option 1 or 2, or write your own answer (o). A rule, not a model, changes "
    "the numbers. The receipt shows every field before → after, what the workers learned, and "
    "the next brief with your decision as its binding line."),
    "• The next gate checks the artifact followed it: DRIFT marks one that did not.",
    "• Win: decide stage 8's fork while solvent. Lose: treasury, trust, burn pressure or threat.",
    "",
)

KEYS: tuple[tuple[str, str, str], ...] = (
    ("a", "Approve the artifact at the gate", "gate.approve"),
    ("r", "Reject with a reason (the worker redoes it)", "gate.reject"),
    ("1 / 2", "Choose fork option A / B", "fork.option_a / fork.option_b"),
    ("o", "Own answer at the fork", "fork.own"),
    ("t", "Reply to the standup (procedural memory)", "standup.reply"),
    ("s", "Settings (routing, models, test connection)", "app.settings"),
    ("n", "New venture", "app.new"),
    ("l", "Load a saved venture", "app.load"),
    ("e", "Export the report (Markdown)", "app.export"),
    ("/", "Filter the replay log; Enter on a row inspects it", "replay.filter"),
    ("tab", "Move focus between panes", "-"),
    ("?", "This help", "app.help"),
    ("ctrl+p", "Command palette (every action is there)", "command_palette"),
    ("ctrl+q", "Quit", "app.quit"),
)


def keys_content() -> Content:
    """The key table as styled text (static strings only: nothing untrusted here)."""
    rows: list[str | tuple[str, str]] = []
    for key, what, binding_id in KEYS:
        rows.append((f"{key:>7}  ", "$accent bold"))
        rows.append(what)
        rows.append((f"  {binding_id}\n", "$foreground-muted"))
    return Content.assemble(*rows)


class HelpScreen(ModalScreen[None]):
    """Modal help; any of Escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="help.close"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box help-box"):
            yield Label("WorldForge — how to play", classes="dialog-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(Content("\n".join(LOOP)), id="help-loop")
                yield Static(keys_content(), id="help-keys")
            yield Label("Escape closes · rebind keys by id in keymap.json (config dir)",
                        classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
