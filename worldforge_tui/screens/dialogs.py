"""Small modal dialogs: ask for a line of text, confirm a risky action, inspect a payload."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from engine.language.text import MAX_REASON_CHARS
from worldforge_tui import actions
from worldforge_tui.safe_text import clean, literal
from worldforge_tui.widgets.bounded_input import BoundedInput

# Every prompt's answer (a reason, an own answer, a reply, a summary) meets the engine's limit for
# player reasons: what the field takes, the engine accepts, so typed text is never lost.
PROMPT_LIMIT = MAX_REASON_CHARS


class TextPromptScreen(ModalScreen[str | None]):
    """Ask for one line (a rejection reason, an own answer); Enter submits, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("prompt")

    def __init__(
        self, title: str, placeholder: str = "", *, submit_label: str = "OK", initial: str = ""
    ) -> None:
        super().__init__(classes="dialog")
        self._title = title
        self._placeholder = placeholder
        self._submit_label = submit_label
        self._initial = initial

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(literal(self._title), classes="dialog-title")
            yield BoundedInput(
                self._initial,
                placeholder=self._placeholder,
                id="prompt-input",
                max_length=PROMPT_LIMIT,
            )
            yield Label("", id="prompt-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self._submit_label, variant="primary", id="prompt-ok")
                yield Button("Cancel", id="prompt-cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def _submit(self) -> None:
        value = self.query_one(Input).value.strip()
        if not value:
            self.query_one("#prompt-error", Label).update("Type something first (Escape cancels).")
            return
        self.dismiss(value)

    @on(Input.Submitted, "#prompt-input")
    def _entered(self) -> None:
        self._submit()

    @on(Button.Pressed, "#prompt-ok")
    def _ok(self) -> None:
        self._submit()

    @on(Button.Pressed, "#prompt-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """Yes/no for a destructive action; `y` confirms, `n` or Escape declines."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("confirm")

    def __init__(self, question: str, *, yes_label: str = "Yes") -> None:
        super().__init__(classes="dialog")
        self._question = question
        self._yes_label = yes_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(literal(self._question), classes="dialog-title")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self._yes_label, variant="error", id="confirm-yes")
                yield Button("No", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed, "#confirm-yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#confirm-no")
    def _no(self) -> None:
        self.dismiss(False)

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class InspectorScreen(ModalScreen[None]):
    """A scrollable, literal view of one event's full payload (Escape or q closes)."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("inspector")

    def __init__(self, title: str, body: str) -> None:
        super().__init__(classes="dialog")
        self._title = title
        self._body = body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box inspector-box"):
            yield Label(literal(self._title), classes="dialog-title")
            with VerticalScroll(id="inspector-scroll"):
                yield Static(literal(clean(self._body, 60_000)), id="inspector-body")
            yield Label("Escape closes", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#inspector-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
