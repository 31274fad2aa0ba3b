"""The action bar: the thinking line (role, tier, model, spinner) and the gate/fork buttons.

Buttons mirror the registry's phase actions for the mouse (labels carry the live keys): only the
current phase's buttons are shown, and an action the engine would refuse (no redos left, a worker
still thinking) is disabled, never hidden.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from worldforge_tui import actions
from worldforge_tui.text.safe_text import one_line
from worldforge_tui.widgets import shown

if TYPE_CHECKING:
    from engine.routing import Router
    from engine.views.snapshot import Snapshot

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
OPTION_IDS = ("fork.option_a", "fork.option_b")


class ActionBar(Vertical):
    """Thinking line above a row of buttons; `show_state` and `set_thinking` drive it."""

    DEFAULT_CSS = """
    ActionBar { height: auto; background: $panel; }
    ActionBar > #thinking { height: 1; padding: 0 1; }
    ActionBar > #action-row { height: 1; }
    ActionBar Button { min-width: 10; margin: 0 1 0 0; }
    ActionBar Button.-hidden { display: none; }
    ActionBar #action-hint { width: 1fr; height: 1; padding: 0 1; color: $foreground-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._thinking: str | None = None
        self._frame = 0
        self._hint: str | None = None
        self._key_of: Callable[[str], str] = actions.default_key
        self._labels: tuple[str, str] | None = None
        self._state: tuple[str | None, dict[str, bool], bool, int | None] = (None, {}, False, None)
        self._rows = actions.button_rows()  # the table's rows with a button, read when built

    def compose(self) -> ComposeResult:
        yield Static("", id="thinking")
        with Horizontal(id="action-row"):
            for row in self._rows:
                yield Button(Content(row.label), id=row.button, compact=True, classes="-hidden")
            yield Static("", id="action-hint", markup=False)

    def on_mount(self) -> None:
        self.set_interval(0.12, self._tick, name="thinking-spinner")

    def show_state(
        self,
        phase: str | None,
        can: dict[str, bool],
        busy: bool,
        redos_left: int | None = None,
        option_labels: tuple[str, str] | None = None,
    ) -> None:
        """Show the phase's buttons, disabled when the engine would refuse them or a worker runs.

        Only the shown buttons get their `disabled` set (a hidden one's is set when its phase
        comes, before it shows), and only the buttons that changed are restyled, in one pass: each
        class or `disabled` change restyled its button at once, up to ten restyles on a phase
        change, and restyling the whole row took the hidden buttons along. A button disabled
        while focused gives up the focus first, as Textual's own `disabled` watcher does."""
        self._state = (phase, dict(can), busy, redos_left)
        self._labels = option_labels
        changed: list[Button] = []
        for row in self._rows:
            button = self.query_one(f"#{row.button}", Button)
            waits = row.command != "answer_event" or can.get("answer_event")  # (only an event's)
            if phase is None or phase != row.phase or not waits:  # no venture: all hidden
                if not button.has_class("-hidden"):
                    button.add_class("-hidden", update=False)
                    changed.append(button)
                continue
            disabled = actions.state_of(row, phase, can, busy) is not True
            if button.disabled != disabled:
                if disabled and button.has_focus:
                    button.blur()
                button.set_reactive(Button.disabled, disabled)
                changed.append(button)
            if button.has_class("-hidden"):
                button.remove_class("-hidden", update=False)
                changed.append(button)
        if changed:
            self.app.stylesheet.update_nodes(dict.fromkeys(changed))  # a button has no children
        self._show_labels()

    def relabel(self, key_of: Callable[[str], str]) -> None:
        """Use the live keys (after a keymap.json rebind) in button labels and the hint line."""
        self._key_of = key_of
        self._show_labels()

    def _show_labels(self) -> None:
        phase, can, busy, redos_left = self._state
        key_of = self._key_of
        width = self.size.width or self.app.size.width
        option_room = max(8, min(28, (width - 35) // 2))  # two options + "Own answer [o]"
        used = 0  # cells the shown buttons take (label, padding, margin)
        for row in self._rows:
            button = self.query_one(f"#{row.button}", Button)
            if row.id in OPTION_IDS and self._labels:
                index = OPTION_IDS.index(row.id)
                text = f"[{key_of(row.id)}] {one_line(self._labels[index], option_room)}"
            else:
                text = f"{row.label.rstrip('…')} [{key_of(row.id)}]"
            if str(button.label) != text:
                button.label = Content(text)
            if phase is not None and row.phase == phase and not button.has_class("-hidden"):
                used += max(len(text) + 2, 10) + 1
        hint = ""
        if not busy:  # the whole hint when it fits beside the buttons, else what they cannot say
            hint = actions.hint_line(phase, can, key_of, redos_left)
            if width < 110 or len(hint) > width - used - 2:
                hint = actions.hint_line(phase, can, key_of, redos_left, terse=True)
        if hint != self._hint:
            self._hint = hint
            shown.update(self.query_one("#action-hint", Static), hint)

    clock_start: float | None = None  # while waiting for a first token: the seconds waited

    def set_thinking(self, text: str | None, *, clock: bool = False, redraw: bool = True) -> None:
        """Show (or clear, with None) the progress line naming who is working and how; `clock`
        starts a live count of the seconds waited (kept until the line changes without it).
        `redraw=False` only updates the figures of a line already shown: the spinner's next tick
        draws them (a streamed piece then costs no repaint of the bar)."""
        self._thinking = text
        if clock:
            self.clock_start = time.monotonic()
        elif text is None or "waiting for the first token" not in text:
            self.clock_start = None
        if redraw or text is None:
            self._render_thinking()

    @property
    def thinking(self) -> str | None:
        return self._thinking

    def _tick(self) -> None:
        if self._thinking is not None:
            self._frame = (self._frame + 1) % len(SPINNER)
            self._render_thinking()

    def _render_thinking(self) -> None:
        line = self.query_one("#thinking", Static)
        if self._thinking is None:
            if line.display:
                line.update("")
                line.display = False
            return
        line.display = True
        waited = (
            f" · {time.monotonic() - self.clock_start:.1f} s"
            if self.clock_start is not None
            else ""
        )
        shown.update(
            line,
            Content.assemble(
                (SPINNER[self._frame] + " ", "$accent bold"), (self._thinking + waited, "$accent")
            ),
            layout=False,  # one line of fixed height: a new text never moves anything
        )


def thinking_text(verb: str, snap: Snapshot | None, router: Router | None) -> str:
    """'strategist (Chief Strategist) is working on NEED · tier local · model qwen2.5'."""
    stages = getattr(snap, "stages", None) or []
    index = getattr(snap, "stage_index", 0) or 0
    stage = stages[index] if 0 <= index < len(stages) else None
    role = getattr(stage, "owner_role", "narrator") if stage is not None else "narrator"
    tier, model = "simulation", "simulation"
    try:
        targets = router.plan(role) if router is not None else []
    except Exception:  # noqa: BLE001 - a misconfigured router still lets the floor answer
        targets = []
    if targets:
        tier, model = str(targets[0].tier), str(targets[0].model)
    who = one_line(getattr(stage, "worker_title", role), 40) if stage is not None else "the team"
    beat = one_line(getattr(stage, "beat", ""), 12) if stage is not None else ""
    return one_line(f"{role} ({who}) {verb} {beat} · tier {tier} · model {model}", 200)
