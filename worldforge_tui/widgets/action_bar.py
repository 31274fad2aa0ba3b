"""The action bar: the thinking line (role, tier, model, spinner) and the gate/fork buttons.

Buttons mirror the key bindings for the mouse: only the current phase's buttons are shown, and an
action the engine would refuse (no redos left, a worker still thinking) is disabled, never hidden.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from worldforge_tui.safe_text import one_line

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
# button id → (label, action on the main screen, engine capability, phases it belongs to)
BUTTONS: tuple[tuple[str, str, str, str, tuple[str, ...]], ...] = (
    ("btn-approve", "Approve [a]", "approve", "approve", ("gate",)),
    ("btn-reject", "Reject [r]", "reject", "reject", ("gate",)),
    ("btn-option-a", "Option 1", "choose('A')", "decide", ("fork",)),
    ("btn-option-b", "Option 2", "choose('B')", "decide", ("fork",)),
    ("btn-own", "Own answer [o]", "own_answer", "decide_own", ("fork",)),
    ("btn-reply", "Reply [t]", "standup_reply", "standup_reply", ("brief",)),
    ("btn-run", "Run stage [g]", "run_stage", "run_stage", ("brief",)),
)


def hint_for(phase: str | None, can: dict[str, bool], redos: int = 0) -> str:
    """One line telling the player what they can do now."""
    if phase is None:
        return "n new venture · l load · s settings · ? help"
    if phase == "gate":
        left = max(0, 2 - redos)
        return (f"Gate: a approve · r reject with a reason ({left} redo{'s' * (left != 1)} left)"
                if can.get("reject") else "Gate: a approve (no redos left: approve or take the hit)")
    if phase == "fork":
        return "Fork: 1 / 2 choose an option · o write your own answer"
    if phase == "brief":
        if can.get("standup_reply"):
            return "Standup: t reply (binding) · g run the next stage"
        return "g run the stage"
    if phase == "ended":
        return "The venture has ended · e export the report · n new venture"
    return ""


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

    def compose(self) -> ComposeResult:
        yield Static("", id="thinking")
        with Horizontal(id="action-row"):
            for button_id, label, _, _, _ in BUTTONS:
                yield Button(Content(label), id=button_id, compact=True, classes="-hidden")
            yield Static(hint_for(None, {}), id="action-hint", markup=False)

    def on_mount(self) -> None:
        self.set_interval(0.12, self._tick, name="thinking-spinner")

    def show_state(self, phase: str | None, can: dict[str, bool], busy: bool,
                   redos: int = 0, option_labels: tuple[str, str] | None = None) -> None:
        """Show the phase's buttons, disabled when the engine would refuse them or a worker runs."""
        for button_id, label, _, capability, phases in BUTTONS:
            button = self.query_one(f"#{button_id}", Button)
            hidden = phase not in phases
            if button.has_class("-hidden") != hidden:
                button.set_class(hidden, "-hidden")
            button.disabled = busy or not can.get(capability, False)
            if button_id in ("btn-option-a", "btn-option-b"):
                index = 0 if button_id == "btn-option-a" else 1
                text = (f"[{index + 1}] {one_line(option_labels[index], 28)}" if option_labels
                        else label)
                if str(button.label) != text:
                    button.label = Content(text)
        hint = "" if busy else hint_for(phase, can, redos)
        if hint != self._hint:
            self._hint = hint
            self.query_one("#action-hint", Static).update(hint)

    def set_thinking(self, text: str | None) -> None:
        """Show (or clear, with None) the progress line naming who is working and how."""
        self._thinking = text
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
            line.update("")
            line.display = False
            return
        line.display = True
        line.update(Content.assemble((SPINNER[self._frame] + " ", "$accent bold"),
                                     (self._thinking, "$accent")))


def thinking_text(verb: str, snap: Any, router: Any) -> str:
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
