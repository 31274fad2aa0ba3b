"""The main screen: Story, Decision receipt, Memory and Replay log panes, action bar, status bar.

Gate keys live here as bindings with ids; `check_action` disables (never hides) an action the
engine would refuse, so the footer and the buttons always say what is possible now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Static

from worldforge_tui.widgets.action_bar import BUTTONS, ActionBar, hint_for
from worldforge_tui.widgets.memory_pane import MemoryPane
from worldforge_tui.widgets.receipt_pane import ReceiptPane
from worldforge_tui.widgets.replay_pane import ReplayPane
from worldforge_tui.widgets.status_bar import StatusBar
from worldforge_tui.widgets.story_pane import StoryPane

if TYPE_CHECKING:
    from worldforge_tui.app import WorldForgeApp

W = TypeVar("W", bound=Widget)
PANES = (("story", "Story"), ("receipt", "Receipt"), ("memory", "Memory"), ("log", "Replay log"))
# action → (engine capability, the phase it belongs to, what to call it in a notice)
GATE_ACTIONS = {"approve": ("approve", "gate", "Approve"), "reject": ("reject", "gate", "Reject"),
                "choose": ("decide", "fork", "Choosing an option"),
                "own_answer": ("decide_own", "fork", "An own answer"),
                "standup_reply": ("standup_reply", "brief", "A standup reply"),
                "run_stage": ("run_stage", "brief", "Running the stage")}
GATE_KEYS = {"a": "approve", "r": "reject", "1": "choose", "2": "choose", "o": "own_answer",
             "t": "standup_reply", "g": "run_stage"}


def pane_bar(active: str) -> Content:
    """The compact-mode pane switcher: F-key, name, the active one highlighted; clickable."""
    parts = []
    for number, (pane, label) in enumerate(PANES, start=1):
        style = "reverse bold" if pane == active else ""
        parts.append(f"[{style} @click=screen.pane('{pane}')] F{number} {label} [/]")
    return Content.from_markup("  ".join(parts))


def titled(widget: W, title: str) -> W:
    """Set a pane's border title before it mounts (no restyle after the first frame)."""
    widget.border_title = title
    return widget


class MainScreen(Screen[None]):
    """The board. In compact terminals one pane shows at a time (tabs, or F1–F4)."""

    DEFAULT_CLASSES = "-pane-story"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "approve", "Approve", id="gate.approve"),
        Binding("r", "reject", "Reject…", id="gate.reject"),
        Binding("1", "choose('A')", "Option 1", id="fork.option_a"),
        Binding("2", "choose('B')", "Option 2", id="fork.option_b"),
        Binding("o", "own_answer", "Own answer…", id="fork.own"),
        Binding("t", "standup_reply", "Reply", id="standup.reply"),
        Binding("g", "run_stage", "Run stage", id="stage.run"),
        Binding("f1", "pane('story')", "Story", show=False, id="pane.story"),
        Binding("f2", "pane('receipt')", "Receipt", show=False, id="pane.receipt"),
        Binding("f3", "pane('memory')", "Memory", show=False, id="pane.memory"),
        Binding("f4", "pane('log')", "Log", show=False, id="pane.log"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(pane_bar("story"), id="pane-tabs")
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield titled(StoryPane(id="story"), "Story")
            with Vertical(id="right"):
                yield titled(ReceiptPane(id="receipt"), "Decision receipt")
                yield titled(MemoryPane(id="memory"), "Memory")
        yield titled(ReplayPane(id="log"), "Replay log")
        yield ActionBar(id="actions")
        yield StatusBar(id="status")
        yield Footer()

    @property
    def wf(self) -> WorldForgeApp:
        return self.app  # type: ignore[return-value]

    # ---- rendering -----------------------------------------------------------------------
    def show(self, snap: Any, *, busy: bool = False) -> None:
        """Render every pane from one snapshot (None = no venture open)."""
        self.query_one(StoryPane).show(snap, self.query_one(ReplayPane).log_view.narration())
        self.query_one(ReceiptPane).show(snap)
        self.query_one(MemoryPane).show(snap)
        status = self.query_one(StatusBar)
        if snap is None:
            status.show(None, (), None, self.wf.pill())
            self.query_one(ActionBar).show_state(None, {}, busy)
        else:
            status.show(snap.economics, snap.treasury_history, snap.day, self.wf.pill())
            stage = snap.stages[snap.stage_index] if snap.stage_index < len(snap.stages) else None
            labels = None
            if snap.dilemma is not None and len(snap.dilemma.options) >= 2:
                labels = (snap.dilemma.options[0].text, snap.dilemma.options[1].text)
            self.query_one(ActionBar).show_state(snap.phase, dict(snap.can), busy,
                                                 stage.redos if stage else 0, labels)
        self.refresh_bindings()

    def on_resize(self) -> None:
        status = self.query_one(StatusBar)
        compact = self.size.width < 140
        if status.has_class("-compact") != compact:
            status.set_class(compact, "-compact")
            self.show(self.wf.snap, busy=self.wf.busy is not None)

    # ---- compact pane switching ----------------------------------------------------------
    def action_pane(self, pane: str) -> None:
        """Show one pane in compact mode (F1–F4, or a click on the pane bar)."""
        for name, _ in PANES:
            self.set_class(name == pane, f"-pane-{name}")
        self.query_one("#pane-tabs", Static).update(pane_bar(pane))

    def reveal(self, pane: str) -> None:
        """Bring a pane forward in compact mode (e.g. the receipt after a decision)."""
        if self.has_class("-compact"):
            self.action_pane(pane)

    # ---- gate actions --------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Gate keys: shown for their own phase only, and disabled there when not possible."""
        gate = GATE_ACTIONS.get(action)
        if gate is None:
            return True
        capability, phase, _ = gate
        if self.wf.can(capability):
            return True
        snap = self.wf.snap
        return None if snap is not None and snap.phase == phase else False

    def on_key(self, event: events.Key) -> None:
        """A gate key that cannot act now says why instead of doing nothing."""
        action = GATE_KEYS.get(event.key)
        if action is None or self.wf.can(GATE_ACTIONS[action][0]):
            return
        event.stop()
        snap = self.wf.snap
        if snap is None:
            why = "no venture is open (n starts one)"
        elif self.wf.busy is not None:
            why = "a worker is still at work"
        else:
            why = hint_for(snap.phase, dict(snap.can)) or f"the venture is in {snap.phase}"
        self.notify(f"{GATE_ACTIONS[action][2]} is not possible now: {why}", markup=False,
                    severity="warning", timeout=3)

    def action_approve(self) -> None:
        self.wf.gate_approve()

    def action_reject(self) -> None:
        self.wf.gate_reject()

    def action_choose(self, key: str) -> None:
        self.wf.gate_decide(key)

    def action_own_answer(self) -> None:
        self.wf.gate_own_answer()

    def action_standup_reply(self) -> None:
        self.wf.gate_standup_reply()

    def action_run_stage(self) -> None:
        self.wf.gate_run_stage()

    @on(Button.Pressed, "#actions Button")
    async def _button(self, event: Button.Pressed) -> None:
        for button_id, _, action, _, _ in BUTTONS:
            if event.button.id == button_id:
                await self.run_action(action)
                return
