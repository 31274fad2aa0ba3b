"""Small modal dialogs: ask for a line of text, confirm a risky action, inspect a payload."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from engine.language.text import MAX_REASON_CHARS
from worldforge_tui import actions
from worldforge_tui.chip_edits import Chips
from worldforge_tui.screens.resume import StyledOnMount
from worldforge_tui.text.safe_text import clean, literal
from worldforge_tui.widgets.bounded_input import BoundedInput
from worldforge_tui.widgets.reading_chips import ReadingChips

if TYPE_CHECKING:
    from engine.language.directions import Direction
    from engine.language.steering import Read

# Every prompt's answer (a reason, an own answer, a reply, a summary) meets the engine's limit for
# player reasons: what the field takes, the engine accepts, so typed text is never lost.
PROMPT_LIMIT = MAX_REASON_CHARS


class TextPromptScreen(StyledOnMount, ModalScreen[str | None]):
    """Ask for one line (a rejection reason, an own answer); Enter submits, Escape cancels.
    Given a `reader` (words that bind), the reading shows as chips under the field as it is
    typed, and the chip keys correct it: `confirmed()` is what binds when the words are sent."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("prompt")

    def __init__(
        self,
        title: str,
        placeholder: str = "",
        *,
        submit_label: str = "OK",
        initial: str = "",
        error: str = "",
        reader: Callable[[str], Read] | None = None,
        chips: Chips | None = None,
    ) -> None:
        super().__init__(classes="dialog")
        self._reader = reader
        self._chips = chips  # corrections made before, to keep on these words
        self._title = title
        self._placeholder = placeholder
        self._submit_label = submit_label
        self._initial = initial
        self._error = error  # why the last try was refused (the typed text comes back in it)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(literal(self._title), classes="dialog-title")
            yield BoundedInput(
                self._initial,
                placeholder=self._placeholder,
                id="prompt-input",
                max_length=PROMPT_LIMIT,
            )
            if self._reader is not None:
                yield ReadingChips(self._reader, chips=self._chips, id="prompt-reading")
            yield Label(literal(self._error), id="prompt-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self._submit_label, variant="primary", id="prompt-ok")
                yield Button("Cancel", id="prompt-cancel")
            cancel = actions.live_key(self.app, "dialog.cancel")
            yield Label(
                f"Enter: {self._submit_label} · {cancel} cancels",
                classes="dialog-hint",
                markup=False,
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        if self._reader is not None and self._initial:
            self.query_one(ReadingChips).typed(self._initial)

    @on(Input.Changed, "#prompt-input")
    def _typed(self, event: Input.Changed) -> None:
        if self._reader is not None:
            self.query_one(ReadingChips).typed(event.value.strip())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The chip keys act only where the words are read."""
        return action != "chip" or self._reader is not None

    def action_chip(self, what: str) -> None:
        """A chip key: select, change the axis, flip do / don't, drop (reading_chips)."""
        said = self.query_one(ReadingChips).correct(what)
        if said:
            self.notify(said, title="Reading", severity="warning", markup=False)

    def confirmed(self) -> list[Direction] | None:
        """What binds if the words are sent as typed (None: the reading as read)."""
        if self._reader is None:
            return None
        return self.query_one(ReadingChips).confirmed()

    def chips(self) -> Chips:
        """The chips and the corrections made to them (to keep if the words come back)."""
        return self.query_one(ReadingChips).chips

    @on(Input.Submitted, "#prompt-input")
    @on(Button.Pressed, "#prompt-ok")
    def _submit(self) -> None:
        value = self.query_one(Input).value.strip()
        if not value:
            cancel = actions.live_key(self.app, "dialog.cancel")
            self.query_one("#prompt-error", Label).update(
                f"Type something first ({cancel} cancels)."
            )
            return
        self.dismiss(value)

    @on(Button.Pressed, "#prompt-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(StyledOnMount, ModalScreen[bool]):
    """Yes/no. `y` confirms, `n` or Escape declines, Enter takes the default: yes for a choice the
    player just asked for, no (the safe answer, and the dialog says so) for a destructive one."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("confirm")

    def __init__(
        self,
        question: str,
        *,
        yes_label: str = "Yes",
        default: bool = False,
    ) -> None:
        super().__init__(classes="dialog")
        self._question = question
        self._yes_label = yes_label
        self._default = default

    def compose(self) -> ComposeResult:
        yes_key, no_key = (actions.live_key(self.app, a) for a in ("confirm.yes", "confirm.no"))
        with Vertical(classes="dialog-box"):
            yield Static(literal(self._question), classes="dialog-title")
            with Horizontal(classes="dialog-buttons"):
                yield Button(
                    Content(f"{self._yes_label} [{yes_key}]"), variant="error", id="confirm-yes"
                )
                yield Button(Content(f"No [{no_key}]"), id="confirm-no")
            enter = f"Enter: {self._yes_label}" if self._default else "Enter: No (the safe answer)"
            yield Label(
                f"{enter} · {yes_key} yes · {no_key} no", classes="dialog-hint", markup=False
            )

    def on_mount(self) -> None:
        self.query_one("#confirm-yes" if self._default else "#confirm-no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class InspectorScreen(StyledOnMount, ModalScreen[None]):
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
                yield Static(literal(clean(self._shown(self._body), 60_000)), id="inspector-body")
            close = actions.live_key(self.app, "inspector.close")
            yield Label(f"{close} closes", classes="dialog-hint", markup=False)

    def _shown(self, body: str) -> str:
        """The payload as this viewer may read it: served in a browser (`worldforge serve`), the
        host's paths, host name and URLs as placeholders (`<save dir>`, `<server URL>`)."""
        if not self.app.is_web:
            return body
        from worldforge_tui.text.visitor import for_visitor

        save_dir = getattr(self.app, "save_dir", None)
        places = {str(Path(save_dir).expanduser()): "<save dir>"} if save_dir else {}
        return for_visitor(body, places, urls=())

    def on_mount(self) -> None:
        self.query_one("#inspector-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
