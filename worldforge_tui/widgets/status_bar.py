"""The status bar: company meters, a treasury sparkline over game days, and the runtime pill."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Sparkline, Static

from worldforge_textkit.numbers import number
from worldforge_tui.glossary import METER_BY_FIELD, meters_tooltip
from worldforge_tui.text.formatting import FIELD_INFO, TONE_STYLE, meter_tone, value_text
from worldforge_tui.text.safe_text import one_line
from worldforge_tui.widgets import shown

if TYPE_CHECKING:
    from engine.game.models import Economics

# The meters on the bar: money first, then every meter that can end the run (glossary order).
METERS: tuple[str, ...] = (
    "treasury_usd",
    "runway_months",
    "monthly_burn_usd",
    "monthly_revenue_usd",
    "proof",
    "trust",
    "velocity",
    "burn_pressure",
    "threat",
)


PILL_CHARS = 56


def meters_content(economics: Economics | None, *, compact: bool = False) -> Content:
    """One line of coloured meters; `compact` drops the long labels for 80-column terminals."""
    if economics is None:
        return Content("no venture yet")
    values = economics.shown()  # a profitable company's runway None: shown ∞
    parts: list[str | tuple[str, str]] = []
    for name in METERS:
        value = values[name]  # every METERS name is an Economics field (tests/tui/test_views.py)
        if parts:
            parts.append((" · " if not compact else " ", "$foreground-muted"))
        meter = METER_BY_FIELD[name]
        if not compact:
            label = f"{meter.name} " if meter.short else ""
        else:  # a meter's letter sits on its number (P33); money and months get a space
            label = meter.short + (" " if meter.short and FIELD_INFO[name][1] != "meter" else "")
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
    StatusBar.-two-lines { height: 2; align-horizontal: right; }
    StatusBar.-two-lines #status-meters { dock: top; width: 100%; }
    """

    def compose(self) -> ComposeResult:
        meters = Static(Content("no venture yet"), id="status-meters")
        yield meters
        spark = Sparkline([], id="status-spark")
        spark.tooltip = "the treasury over game days"
        yield spark
        yield Static("", id="status-day", markup=False)
        yield Static(pill_content("simulation"), id="status-pill")
        yield Static("", id="status-memory")

    _cells: dict[str, int]  # cells each part needs (its text and padding), for `fit`

    def on_mount(self) -> None:
        self._cells = {"meters": 16, "day": 0, "pill": 14, "memory": 0}

    def show(
        self,
        economics: Economics | None,
        history: Sequence[tuple[int, float]] = (),
        day: int | None = None,
        pill: str | None = None,
        memory: str | None = None,
    ) -> None:
        """Render meters from economics, the sparkline from [(day, treasury)], the day and pill."""
        compact = self.has_class("-compact")
        meters = meters_content(economics, compact=compact)
        shown_meters = self.query_one("#status-meters", Static)
        shown.update(shown_meters, meters)
        if economics is not None and shown_meters.tooltip is None:  # built once the engine is in
            shown_meters.tooltip = meters_tooltip()
        points = [
            number(p[1] if isinstance(p, (list, tuple)) and len(p) > 1 else p) for p in history
        ]
        self.query_one("#status-spark", Sparkline).data = points[-64:] if len(points) > 1 else []
        day_text = "" if day is None else f"day {day}"
        shown.update(self.query_one("#status-day", Static), day_text)
        memory_label = self.query_one("#status-memory", Static)
        remote = bool(memory) and memory != "local-sqlite"
        memory_label.set_class(remote, "-on")
        store = memory_pill(memory) if remote and memory else None
        if store is not None:
            shown.update(memory_label, store)
        self._cells.update(
            meters=meters.cell_length + 2,
            day=len(day_text) + 2,
            memory=min(30, store.cell_length + 2) if store is not None else 0,
        )
        if pill is not None:
            self.set_pill(pill)
        else:
            self.fit()

    def set_pill(self, pill: str) -> None:
        """Show the router's current pill (runtime and model, or a fallback)."""
        content = pill_content(pill)
        shown.update(self.query_one("#status-pill", Static), content)
        self._cells["pill"] = content.cell_length + 2
        self.fit()

    def fit(self, width: int | None = None) -> None:
        """Give way gracefully on a short line: the sparkline goes first, then the day and pill
        move under the meters (two lines), so no meter and no part of the pill is ever cut."""
        width = width or self.size.width or self.app.size.width
        if not width or not self.is_mounted:
            return
        needed = sum(self._cells.values())
        spark = 8 if self.has_class("-compact") else 18
        self.set_class(needed + spark > width, "-narrow")
        self.set_class(needed > width, "-two-lines")
