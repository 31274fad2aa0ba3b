"""The end screen: victory or defeat, and the report card (final economics, decisions, memory)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from worldforge_tui import actions
from worldforge_tui.glossary import loss_rule, score_rows, score_rule, win_rule
from worldforge_tui.screens.resume import StyledOnMount
from worldforge_tui.text.formatting import FIELDS, TONE_STYLE, meter_tone, value_text
from worldforge_tui.text.safe_text import one_line

if TYPE_CHECKING:
    from engine.views.snapshot import Snapshot

Part = str | tuple[str, str]


def report_card(snap: Snapshot) -> Content:
    """Outcome banner, final economics, each stage's decision, the memory trail counts."""
    outcome = snap.outcome
    result = (outcome.result if outcome is not None else "ended").upper()
    banner = "$success bold reverse" if result == "VICTORY" else "$error bold reverse"
    parts: list[Part] = [
        (f"  {result}  ", banner),
        "  ",
        (one_line(snap.founder.company, 60), "bold"),
    ]
    if outcome is not None:
        parts += [
            f" · day {outcome.day}\n",
            one_line(outcome.reason, 300) + "\n",
            (
                (
                    f"Score {outcome.score}/100 · grade {outcome.grade}"
                    f" · ending: {one_line(outcome.title, 60)}\n"
                ),
                "bold",
            ),
        ]
        earned = " · ".join(
            f"{name} {points}"
            for name, points in score_rows(
                snap.economics,
                sum(1 for s in snap.stages if s.decision) / len(snap.stages)
                if outcome.result == "defeat" and snap.stages
                else None,
            )
        )
        parts.append((f"  {earned}\n", "$foreground-muted"))
        parts.append("\n")
    else:
        parts += [" · day None\n", "\n", ("Score None/100 · grade None · ending: \n\n", "bold")]
    parts.append(("Final economics\n", "bold underline"))
    values = snap.economics.shown()  # the numbers as the report and status bar show them
    for name, label, _, _ in FIELDS:
        value = values[name]  # every FIELDS name is an Economics field (tests/tui/test_views.py)
        parts.append((f"  {label:<14}", "$foreground-muted"))
        parts.append((f"{value_text(name, value):>10}\n", TONE_STYLE[meter_tone(name, value)]))
    parts.append(("\nDecisions\n", "bold underline"))
    for stage in snap.stages:
        decision = stage.decision
        parts.append((f"  {one_line(stage.beat, 8):<8}", "$accent"))
        if decision is None:
            parts.append(("—\n", "$foreground-muted"))
            continue
        parts.append(one_line(decision.text, 120))
        parts.append(
            (
                (f"  (score {stage.score}{', DRIFT' if stage.drift else ''})\n"),
                "$foreground-muted",
            )
        )
    from memory.models import kind_words

    trail = " · ".join(
        f"{kind_words(kind, many=n != 1)} {n}" for kind, n in snap.memory_counts.items() if n
    )
    parts.append(("\nMemory trail\n", "bold underline"))
    parts.append(f"  {trail or 'none'} · store {one_line(snap.memory_store, 30)}\n")
    parts.append(("\nHow the run is won, lost and scored\n", "bold underline"))
    for rule in (win_rule(), loss_rule(), score_rule()):
        parts.append((f"  {rule}\n", "$foreground-muted"))
    return Content.assemble(*parts)


class EndScreen(StyledOnMount, ModalScreen[str | None]):
    """Dismisses with "export", "new" or None (back to the board)."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("end")

    def __init__(self, snap: Snapshot) -> None:
        super().__init__(classes="dialog")
        self._snap = snap

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box end-box"):
            with VerticalScroll(id="end-scroll"):
                yield Static(report_card(self._snap), id="end-card")
            with Horizontal(classes="dialog-buttons"):
                key = partial(actions.live_key, self.app)
                yield Button(
                    Content(f"Export report [{key('end.export')}]"),
                    variant="primary",
                    id="end-export",
                )
                yield Button(Content(f"New venture [{key('end.new')}]"), id="end-new")
                yield Button(Content(f"Board [{key('end.close')}]"), id="end-close")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        """A button gives its choice: export, new, or None (the board)."""
        self.dismiss({"end-export": "export", "end-new": "new"}.get(event.button.id or ""))

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)
