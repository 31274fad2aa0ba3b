"""The end screen: victory or defeat, and the report card (final economics, decisions, memory)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from worldforge_tui import actions
from worldforge_tui.formatting import FIELDS, TONE_STYLE, meter_tone, value_text
from worldforge_tui.safe_text import one_line
from worldforge_tui.widgets.status_bar import field

Part = str | tuple[str, str]


def report_card(snap: Any) -> Content:
    """Outcome banner, final economics, each stage's decision, the memory trail counts."""
    outcome = field(snap, "outcome")
    result = str(field(outcome, "result") or "ended").upper()
    banner = "$success bold reverse" if result == "VICTORY" else "$error bold reverse"
    founder = field(snap, "founder")
    parts: list[Part] = [(f"  {result}  ", banner), "  ",
                         (one_line(field(founder, "company"), 60), "bold"),
                         f" · day {field(outcome, 'day')}\n",
                         one_line(field(outcome, "reason"), 300) + "\n",
                         ((f"Score {field(outcome, 'score')}/100 · grade {field(outcome, 'grade')}"
                           f" · ending: {one_line(field(outcome, 'title'), 60)}\n\n"), "bold"),
                         ("Final economics\n", "bold underline")]
    economics = field(snap, "economics")
    for name, label, _, _ in FIELDS:
        value = field(economics, name)
        if value is None:
            continue
        parts.append((f"  {label:<14}", "$foreground-muted"))
        parts.append((f"{value_text(name, value):>10}\n", TONE_STYLE[meter_tone(name, value)]))
    parts.append(("\nDecisions\n", "bold underline"))
    for stage in field(snap, "stages") or []:
        decision = field(stage, "decision")
        parts.append((f"  {one_line(field(stage, 'beat'), 8):<8}", "$accent"))
        if decision is None:
            parts.append(("—\n", "$foreground-muted"))
            continue
        parts.append(one_line(field(decision, "text"), 120))
        parts.append(((f"  ({one_line(field(decision, 'rule_id'), 40)}, score "
                      f"{field(stage, 'score')}{', DRIFT' if field(stage, 'drift') else ''})\n"),
                      "$foreground-muted"))
    counts = field(snap, "memory_counts") or {}
    trail = " · ".join(f"{kind} {n}" for kind, n in counts.items() if n)
    parts.append(("\nMemory trail\n", "bold underline"))
    parts.append(f"  {trail or 'none'} · store {one_line(field(snap, 'memory_store'), 30)}\n")
    return Content.assemble(*parts)


class EndScreen(ModalScreen[str | None]):
    """Dismisses with "export", "new" or None (back to the board)."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("end")

    def __init__(self, snap: Any) -> None:
        super().__init__(classes="dialog")
        self._snap = snap

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box end-box"):
            with VerticalScroll(id="end-scroll"):
                yield Static(report_card(self._snap), id="end-card")
            with Horizontal(classes="dialog-buttons"):
                yield Button(Content("Export report [e]"), variant="primary", id="end-export")
                yield Button(Content("New venture [n]"), id="end-new")
                yield Button(Content("Board [esc]"), id="end-close")

    @on(Button.Pressed, "#end-export")
    def _export(self) -> None:
        self.dismiss("export")

    @on(Button.Pressed, "#end-new")
    def _new(self) -> None:
        self.dismiss("new")

    @on(Button.Pressed, "#end-close")
    def _close(self) -> None:
        self.dismiss(None)

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)
