"""The new-venture screen: pitch, what the game reads in it, company name, founder archetype and
seed; or resume the last run.

As the pitch is typed, the game's reading fills four fields (the offering, who pays, the place and
the problem), each editable: what the player confirms is what every worker writes about (a field
the player edited is never overwritten by a later reading). The seed is fresh for every new
venture (shown and editable, so a run can be played again). At 80x24 the fields scroll between
the title and the buttons, which stay in view; the hint says what Enter does.

It is also the game's first screen, shown before the engine has loaded (it needs none of it): the
player types while the engine loads behind it, the hint says it is loading, Enter pressed before
it has loaded says "starting…" and starts the venture, with what the form holds then, once it has
(`engine_loaded`); the run to resume is offered as soon as the saves can be read."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

from engine.game.archetypes import ARCHETYPE_RULES
from engine.language.text import MAX_FIELD_CHARS, MAX_NAME_CHARS, MAX_PITCH_CHARS
from worldforge_textkit.numbers import CURRENCIES, books, in_books
from worldforge_tui import actions
from worldforge_tui.messages import VentureRequest
from worldforge_tui.screens.resume import StyledOnMount
from worldforge_tui.text.safe_text import literal, literal_line
from worldforge_tui.widgets.bounded_input import BoundedInput
from worldforge_tui.widgets.choice import Choice

if TYPE_CHECKING:
    from engine.session.saves import RunSummary

ARCHETYPES = tuple((a.label, a.id) for a in ARCHETYPE_RULES.values())
# The reading's fields: (key, label, placeholder). The key is the engine's (founding.READING_FIELDS).
FIELDS = (
    ("offering", "Offering", "what the company sells"),
    ("customer", "Who pays", "(none named: who pays?)"),
    ("place", "Place", "(none named; optional)"),
    ("problem", "Problem", "what they struggle with (optional)"),
)
HINT = "Enter starts the venture · Tab moves to the next field · Esc cancels"
LOADING_HINT = "The game is loading: type your pitch · Tab moves to the next field · Esc cancels"
STARTING_HINT = "Starting… the venture starts as soon as the game has loaded · Esc cancels"


class NewVentureScreen(StyledOnMount, ModalScreen[VentureRequest | None]):
    """Dismisses with {"pitch","name","archetype","seed","currency","reading"}, {"resume":
    run_id}, or None (cancel); "reading" holds the four fields as the player confirmed them."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("new")

    def __init__(
        self,
        *,
        resume: RunSummary | None = None,
        seed: int | None = None,
        typed: str = "",
        loading: bool = False,
    ) -> None:
        super().__init__(classes="dialog")
        # shown before the engine has loaded (the game's first screen): Enter waits for it
        self._loading = loading
        self._waiting = False  # Enter was pressed while the engine loaded: start once it has
        self._resume = resume
        self._typed = typed[:MAX_PITCH_CHARS]  # letters typed while the engine loaded
        self._seed = fresh_seed() if seed is None else seed
        self._edited: set[str] = set()  # fields the player changed: the reading leaves them be
        # the books' currency the pitch was last read as: one the player picks instead stays
        self._read_currency = "USD"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box venture-box"):
            yield Label("New venture", classes="dialog-title")
            with VerticalScroll(id="nv-form"):
                yield Label("Pitch: what does the company do, for whom?", classes="form-label-top")
                yield BoundedInput(
                    placeholder="e.g. inventory planning for small bakeries",
                    id="nv-pitch",
                    max_length=MAX_PITCH_CHARS,  # the engine's limits: what fits here is accepted
                )
                yield Label(
                    "Reading: type a pitch to see who it is for.",
                    id="nv-reading",
                    classes="form-label-top",
                )
                for key, label, placeholder in FIELDS:
                    with Horizontal(classes="form-row"):
                        yield Label(label, classes="form-label")
                        yield BoundedInput(
                            placeholder=placeholder,
                            id=f"nv-{key}",
                            max_length=MAX_FIELD_CHARS,
                            compact=True,
                        )
                with Horizontal(classes="form-row"):
                    yield Label("Company", classes="form-label")
                    yield BoundedInput(
                        placeholder="(from the pitch)",
                        id="nv-name",
                        max_length=MAX_NAME_CHARS,
                        compact=True,
                    )
                with Horizontal(classes="form-row"):
                    yield Label("Founder", classes="form-label")
                    yield Choice(
                        list(ARCHETYPES),
                        value="builder",
                        allow_blank=False,
                        id="nv-archetype",
                        compact=True,
                    )
                yield Label(
                    literal(ARCHETYPE_RULES["builder"].mechanic, limit=300),
                    id="nv-mechanic",
                    classes="form-label-top",
                )
                with Horizontal(classes="form-row"):
                    yield Label("Currency", classes="form-label")
                    yield Choice(
                        [(f"{c.symbol} {c.name}", c.code) for c in CURRENCIES.values()],
                        value="USD",
                        allow_blank=False,
                        id="nv-currency",
                        compact=True,
                    )
                with Horizontal(classes="form-row"):
                    yield Label("Seed", classes="form-label")
                    yield Input(str(self._seed), id="nv-seed", type="integer", compact=True)
            yield Label("", id="nv-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Start", variant="primary", id="nv-start")
                if self._resume is not None:
                    yield self._resume_button(self._resume)
                yield Button("Cancel", id="nv-cancel")
            yield Label(
                LOADING_HINT if self._loading else HINT, id="nv-hint", classes="dialog-hint"
            )

    @staticmethod
    def _resume_button(run: RunSummary) -> Button:
        name = run.name or run.run_id
        return Button(literal_line(f"Resume {name} (day {run.day})", limit=40), id="nv-resume")

    class Drawn(Message):
        """The game's first form is on screen: the app loads the engine from here on, so that
        nothing competes with the form's first frame."""

    def engine_loaded(self, resume: RunSummary | None, error: str | None) -> None:
        """The engine has loaded behind the form: offer the run to resume, say why the saves could
        not be read, and start the venture if Enter was pressed while it loaded (with what the
        form holds now: nothing typed meanwhile is lost)."""
        self._loading = False
        if resume is not None and self._resume is None:
            self._resume = resume
            self.query_one(".dialog-buttons", Horizontal).mount(
                self._resume_button(resume), before="#nv-cancel"
            )
        if error:
            self.show_error(error)
        self.query_one("#nv-hint", Label).update(HINT)
        if self._waiting:
            self._waiting = False
            self._start()

    def engine_failed(self, error: str) -> None:
        """The engine did not load: nothing can start; the form says why and keeps what it holds."""
        self._waiting = False
        self.show_error(error)
        self.query_one("#nv-hint", Label).update("Esc closes the form")

    # The pitch field takes focus as the form mounts, not after its first draw: keys typed once the
    # form shows must land in it (with the focus deferred, a pitch typed in the ~0.5 s between the
    # first frame and the deferred focus, as in a browser under load, reached no widget and was
    # lost). The key that opened the form was handled by the board and is never delivered again.
    AUTO_FOCUS = "#nv-pitch"

    def on_mount(self) -> None:
        reading = self.query_one("#nv-reading", Label)
        reading.styles.width = "100%"  # wraps: the whole reading stays readable at 80 columns
        reading.styles.height = "auto"
        pitch = self.query_one("#nv-pitch", Input)
        pitch.focus()
        if self._typed:
            pitch.insert_text_at_cursor(self._typed)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """The game's first form says once it is drawn (the app loads the engine from then on)."""
        if self._loading and not self._drawn_once:
            self._drawn_once = True
            self.call_after_refresh(self.post_message, self.Drawn())

    _drawn_once = False

    def on_key(self, event: events.Key) -> None:
        """A letter the app routed to the screen before the pitch field had focus (typed as the
        form was pushed, as the game started) goes into the pitch field instead of nowhere."""
        if event.is_printable and event.character:
            self._into_pitch(event, event.character)
        elif event.key == "ctrl+j" and isinstance(self.focused, Input):
            # Enter typed before the game took the terminal arrives as a line feed (the terminal
            # turned its carriage return into one): it starts the venture, as Enter does.
            event.stop()
            self._start()

    def on_paste(self, event: events.Paste) -> None:
        if event.text:
            self._into_pitch(event, event.text.splitlines()[0] if event.text.strip() else "")

    def _into_pitch(self, event: events.Key | events.Paste, text: str) -> None:
        pitch = self.query_one("#nv-pitch", Input)
        if self.focused not in (None, pitch) or not text:
            return  # typed on another field (a button, the founder list): theirs to handle
        event.stop()
        pitch.focus()
        pitch.insert_text_at_cursor(text)

    def show_error(self, message: str) -> None:
        """Show why the engine refused the venture (the screen stays open)."""
        self.query_one("#nv-error", Label).update(literal_line(message, limit=400))

    @on(Input.Changed, "#nv-pitch")
    def _pitch_changed(self, event: Input.Changed) -> None:
        """Show how the game reads the pitch and fill the fields the player has not edited."""
        self.query_one("#nv-reading", Label).update(
            literal_line(reading_line(event.value), limit=240)
        )
        fields = reading_fields(event.value)
        currency = self.query_one("#nv-currency", Select)
        if currency.value == self._read_currency:  # the player has not picked another
            # here, not at the top: the reader's money words, which the first screen need not wait for
            from engine.language.currency import pitch_currency

            self._read_currency = pitch_currency(event.value)  # the pitch's money or place
            currency.value = self._read_currency
        for key, _, _ in FIELDS:
            if key in self._edited:
                continue
            value = fields.get(key, "")[:MAX_FIELD_CHARS]
            field = self.query_one(f"#nv-{key}", Input)
            if field.value != value:
                with field.prevent(Input.Changed):  # the reading's fill is no edit of the player's
                    field.value = value
                    field.cursor_position = 0  # a long value shows its start

    @on(Input.Changed)
    def _field_changed(self, event: Input.Changed) -> None:
        """A field the player changes is theirs: later readings leave it; emptied, it refills."""
        key = (event.input.id or "").removeprefix("nv-")
        if key not in {k for k, _, _ in FIELDS}:
            return
        if event.value.strip():
            self._edited.add(key)
        else:
            self._edited.discard(key)

    @on(Select.Changed, "#nv-archetype")
    @on(Select.Changed, "#nv-currency")
    def _archetype_changed(self, event: Select.Changed) -> None:
        """What the chosen founder changes in the game (its modifier and its own option), its
        amounts in the chosen currency: a venture in pounds read "saves $2,500"."""
        rules = ARCHETYPE_RULES.get(str(self.query_one("#nv-archetype", Select).value))
        code = self.query_one("#nv-currency", Select).value
        if rules is not None:
            with books(code if isinstance(code, str) else "USD"):
                said = in_books(rules.mechanic)
            self.query_one("#nv-mechanic", Label).update(literal(said, limit=300))

    @on(Input.Submitted)
    @on(Button.Pressed, "#nv-start")
    def _start(self) -> None:
        pitch = self.query_one("#nv-pitch", Input).value.strip()
        if not pitch:
            self.show_error("Write a pitch first: a few words on what the company does.")
            self.query_one("#nv-pitch", Input).focus()
            return
        if self._loading:  # the engine is still loading: it starts once it has, visibly
            self._waiting = True
            self.show_error("")
            self.query_one("#nv-hint", Label).update(STARTING_HINT)
            return
        seed_text = self.query_one("#nv-seed", Input).value.strip() or str(self._seed)
        try:
            seed = int(seed_text)
        except ValueError:
            self.show_error("The seed must be a whole number.")
            return
        archetype = self.query_one("#nv-archetype", Select).value
        currency = self.query_one("#nv-currency", Select).value
        self.dismiss(
            {
                "pitch": pitch,
                "name": self.query_one("#nv-name", Input).value.strip() or None,
                "archetype": archetype if isinstance(archetype, str) else "builder",
                "seed": seed,
                "currency": currency if isinstance(currency, str) else None,
                "reading": {
                    key: self.query_one(f"#nv-{key}", Input).value.strip() or None
                    for key, _, _ in FIELDS
                },
            }
        )

    @on(Button.Pressed, "#nv-resume")
    def _resume_pressed(self) -> None:
        self.dismiss({"resume": self._resume.run_id if self._resume is not None else None})

    @on(Button.Pressed, "#nv-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def fresh_seed() -> int:
    """A new venture's seed: different every time, small enough to read and type again (from the
    OS's randomness; `secrets` would add hmac and hashlib to the first screen's imports)."""
    return random.SystemRandom().randrange(1_000_000)


def reading_line(pitch: str) -> str:
    """The pitch as the game reads it, with the guess it made when the pitch says too little."""
    if len(pitch.split()) < 2:
        return "Reading: type a pitch to see who it is for."
    # here, not at the top: the pitch model is pydantic, which the first frame must not wait for
    from engine.language.pitch import describe, read_pitch

    r = read_pitch(pitch)
    line = "Reading: " + describe(r)
    return f"{line}. Note: {r.note}." if r.note else line


def reading_fields(pitch: str) -> dict[str, str]:
    """The four fields as the game reads the pitch ("" where it reads nothing)."""
    if len(pitch.split()) < 2:
        return {}
    from engine.language.pitch import read_pitch, shown

    return {k: v if isinstance(v, str) else "" for k, v in shown(read_pitch(pitch)).items()}
