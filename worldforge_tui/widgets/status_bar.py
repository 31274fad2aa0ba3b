"""The status bar: company meters, a treasury sparkline over game days, and the runtime pill."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Sparkline, Static

from worldforge_tui.formatting import TONE_STYLE, meter_tone, number, value_text
from worldforge_tui.safe_text import one_line

if TYPE_CHECKING:
    from engine.models import Economics

METERS: tuple[tuple[str, str, str], ...] = (
    # field, label (wide), label (compact)
    ("treasury_usd", "", ""),
    ("runway_months", "runway ", "rw "),
    ("monthly_burn_usd", "burn ", "b "),
    ("monthly_revenue_usd", "rev ", "r "),
    ("proof", "proof ", "P"),
    ("trust", "trust ", "T"),
    ("velocity", "vel ", "V"),
    ("threat", "threat ", "⚠"),
)


PILL_CHARS = 56


def meters_content(economics: Economics | None, *, compact: bool = False) -> Content:
    """One line of coloured meters; `compact` drops the long labels for 80-column terminals."""
    if economics is None:
        return Content("no venture yet")
    values = economics.model_dump()
    parts: list[str | tuple[str, str]] = []
    for name, wide, short in METERS:
        value = values[name]  # every METERS name is an Economics field (tests/tui/test_views.py)
        if parts:
            parts.append((" · " if not compact else " ", "$foreground-muted"))
        label = short if compact else wide
        if label:
            parts.append((label, "$foreground-muted"))
        parts.append((value_text(name, value), TONE_STYLE[meter_tone(name, value)]))
    return Content.assemble(*parts)


def pill_content(pill: str) -> Content:
    """The runtime pill: simulation / local: model / foundry: model / fallback: …"""
    text = one_line(pill or "simulation", PILL_CHARS)  # shown whole: the meters give way
    style = (
        "$warning bold"
        if text.startswith("fallback")
        else ("$success bold" if text.startswith(("local", "foundry", "live")) else "$accent bold")
    )
    return Content.assemble(("● ", style), (text, style))


def memory_pill(store: str) -> Content:
    """Where memory lives, shown only when it is not the save file: Cosmos DB, or the local
    store standing in while Cosmos DB does not answer."""
    text = one_line(store, 60)
    if text.startswith("local-sqlite"):
        return Content.assemble(
            ("● ", "$warning bold"), ("memory: local (cosmos down)", "$warning bold")
        )
    return Content.assemble(("● ", "$success bold"), (f"memory: {text}", "$success bold"))


class StatusBar(Horizontal):
    """Meters, sparkline, day and pill; `show(...)` refreshes from the latest snapshot."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; }
    StatusBar #status-meters { width: 1fr; height: 1; padding: 0 1; }
    StatusBar #status-spark { width: 16; height: 1; margin: 0 1; }
    StatusBar #status-day { width: auto; height: 1; padding: 0 1; color: $foreground-muted; }
    StatusBar #status-pill { width: auto; height: 1; padding: 0 1; }
    StatusBar #status-memory { width: auto; max-width: 30; height: 1; padding: 0 1;
                               display: none; }
    StatusBar #status-memory.-on { display: block; }
    StatusBar.-compact #status-spark { width: 8; margin: 0; }
    StatusBar.-narrow #status-spark { display: none; }
    """

    def compose(self) -> ComposeResult:
        meters = Static(Content("no venture yet"), id="status-meters")
        meters.tooltip = (
            "treasury · runway (rw) · monthly burn (b) · monthly revenue (r) · "
            "proof (P) · trust (T) · velocity (V) · threat (⚠)"
        )
        yield meters
        yield Sparkline([], id="status-spark")
        yield Static("", id="status-day", markup=False)
        yield Static(pill_content("simulation"), id="status-pill")
        yield Static("", id="status-memory")

    def show(
        self,
        economics: Economics | None,
        history: Sequence[Any] = (),
        day: int | None = None,
        pill: str | None = None,
        memory: str | None = None,
    ) -> None:
        """Render meters from economics, the sparkline from [(day, treasury)], the day and pill."""
        compact = self.has_class("-compact")
        self.query_one("#status-meters", Static).update(meters_content(economics, compact=compact))
        points = [
            number(p[1] if isinstance(p, (list, tuple)) and len(p) > 1 else p) for p in history
        ]
        self.query_one("#status-spark", Sparkline).data = points[-64:] if len(points) > 1 else []
        self.query_one("#status-day", Static).update("" if day is None else f"day {day}")
        if pill is not None:
            self.set_pill(pill)
        shown = self.query_one("#status-memory", Static)
        remote = bool(memory) and memory != "local-sqlite"
        shown.set_class(remote, "-on")
        if remote and memory:
            shown.update(memory_pill(memory))

    def set_pill(self, pill: str) -> None:
        """Show the router's current pill (runtime and model, or a fallback)."""
        self.query_one("#status-pill", Static).update(pill_content(pill))
