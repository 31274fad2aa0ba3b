"""The settings screen (`s`): routing mode, local and Foundry endpoints, per-role models, test, save.

Saving returns a validated `Settings` to the app, which writes the file (keys never) and hands it
to the router so the very next worker call uses it.
"""

from __future__ import annotations

import time
from functools import partial
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static

from engine.config import URL_FIELDS, Settings, env_block
from engine.routing.types import ROLES, ProbeRow, Tier
from worldforge_tui import actions
from worldforge_tui.screens.dialogs import ConfirmScreen
from worldforge_tui.screens.resume import StyledOnMount
from worldforge_tui.screens.settings_form import (
    MEMORY_OPTIONS,
    MODE_OPTIONS,
    ROUTING_OPTIONS,
    TEXT_FIELDS,
    build_settings,
    field_text,
    inherited_hint,
    pills,
    role_fields,
)
from worldforge_tui.text.safe_text import clean, literal, one_line
from worldforge_tui.text.visitor import for_visitor
from worldforge_tui.widgets.choice import Choice
from worldforge_tui.widgets.key_footer import KeyFooter

# settings field -> (role, tier) for the per-role model inputs
ROLE_FIELDS = {
    field: (role, tier)
    for role in ROLES
    for field, tier in zip(role_fields(role), ("local", "cloud"), strict=True)
}
SELECTS = {  # settings field -> (label, options) of the form's choices
    "demo_mode": ("Mode", MODE_OPTIONS),
    "agent_routing": ("Routing", ROUTING_OPTIONS),
    "memory_backend": ("Memory", MEMORY_OPTIONS),
}
TONES = {"good": "$success", "bad": "$error", "accent": "$accent", "muted": "$foreground-muted"}
# How long the screen waits for a connection test: past it the test counts as failed (no answer),
# whatever the router's own deadlines (one per endpoint, retried) would add up to.
PROBE_BOUND = 10.0
# What a web visitor (`worldforge serve`) sees in a URL field the server already set.
SERVER_SET = "set on the server (type to replace)"


def pills_content(items: list[tuple[str, str]]) -> Content:
    parts: list[str | tuple[str, str]] = []
    for text, tone in items:
        parts.append((f" {one_line(text, 60)} ", f"{TONES.get(tone, '')} reverse"))
        parts.append(" ")
    return Content.assemble(*parts)


def label_column(lines: list[str]) -> Static:
    """A grid's first column, one label a row, as one widget spanning the rows (a widget per
    label was as many more to style, lay out and draw)."""
    column = Static(Content("\n".join(lines)), classes="form-label")
    column.styles.row_span = len(lines)
    return column


def secret_hint(s: Settings, name: str, secret: bool) -> str:
    """Placeholder of a text field: whether a (masked) key is held."""
    if not secret:
        return ""
    if getattr(s, name) is not None:
        return "set (kept in memory, never saved)"
    return "kept in memory only, never saved"


class SettingsScreen(StyledOnMount, Screen[Settings | None]):
    """Edit routing settings; Save (ctrl+s) dismisses with the new settings, Escape with None."""

    BINDINGS: ClassVar[list[BindingType]] = actions.bindings("settings")
    # The first field, not the scrolling form around it: focusing the form restyles every field.
    AUTO_FOCUS = "#set-demo_mode"

    class Probed(Message):
        """Test connection finished (rows as `Router.probe` returns them)."""

        def __init__(
            self, rows: list[ProbeRow], candidate: Settings | None = None, test: int = 0
        ) -> None:
            super().__init__()
            self.rows = rows
            self.candidate = candidate
            self.test = test  # which test it answers: a stopped or overdue one is dropped

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.probe_rows: list[ProbeRow] | None = None
        self._probed_for: Settings | None = None  # the settings probe_rows describe
        self._save_pending: Settings | None = None  # Save waits for this test
        self._chosen = self._choices(settings)  # the choices the pills describe
        self._tests = 0  # connection tests started (each answer names its test)
        self._testing: tuple[int, Settings, float] | None = None  # (test, settings, started)

    @staticmethod
    def _choices(settings: Settings) -> dict[str, object]:
        return {name: getattr(settings, name) for name in SELECTS}

    def compose(self) -> ComposeResult:
        s = self.settings
        yield Label("Settings — routing and models", classes="screen-title")
        yield Static(self._pills(s), id="settings-pills")
        with VerticalScroll(id="settings-form"):
            # One grid of label | field (a row container per field doubled the widgets to style).
            with Grid(id="settings-fields"):
                labels = [label for label, _ in SELECTS.values()]
                yield label_column(labels + [label for _, label, _ in TEXT_FIELDS])
                for name, (_, options) in SELECTS.items():
                    yield Choice(
                        list(options),
                        value=getattr(s, name),
                        allow_blank=False,
                        id=f"set-{name}",
                        compact=True,
                    )
                for name, _, secret in TEXT_FIELDS:
                    text, hint = self._field(s, name, secret_hint(s, name, secret))
                    yield Input(
                        text,
                        placeholder=hint,
                        password=secret,
                        id=f"set-{name}",
                        compact=True,
                    )
            # The per-role models (below the fold) are built and mounted after the first frame.
            yield Static("", id="settings-env")
        yield Label("", id="settings-error", classes="dialog-error")
        with Horizontal(id="settings-buttons", classes="dialog-buttons"):
            yield Button("Test connection", id="settings-test", compact=True)
            yield Button("Copy env", id="settings-copy", compact=True)
            yield Button("Save", variant="primary", id="settings-save", compact=True)
            yield Button("Back", id="settings-back", compact=True)
            yield Label("Enter: next field", classes="dialog-hint", id="settings-enter")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.call_after_refresh(self._add_roles)
        self.set_interval(1.0, self._tick_test)

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        """Enter in a field moves on to the next (as the hint beside the buttons says)."""
        event.stop()
        self.focus_next()

    def _add_roles(self) -> None:
        """Build and mount the bulk of the form once the screen is on view (so it opens at once;
        saving before they arrive keeps the per-role values the settings already hold)."""
        form = self.query_one("#settings-form", VerticalScroll)
        form.mount(self.role_section(self.settings), before="#settings-env")

    def show_settings(self, settings: Settings) -> None:
        """Reopened (the app keeps this screen installed): show `settings` as a fresh screen would,
        updating only the fields whose text differs instead of composing ~70 widgets again."""
        self.settings = settings
        self.probe_rows = self._probed_for = self._save_pending = None
        self._chosen = self._choices(settings)
        self._stop_test()
        if not self.is_mounted:
            return  # composed from self.settings on the first open
        for select in self.query(Select):
            if select.id and select.id.startswith("set-"):
                select.value = getattr(settings, select.id.removeprefix("set-"))
        secrets = {name: secret for name, _, secret in TEXT_FIELDS}
        for field in self.query(Input):
            name = (field.id or "").removeprefix("set-")
            if name in secrets:
                field.value, field.placeholder = self._field(
                    settings, name, secret_hint(settings, name, secrets[name])
                )
                continue
            if name in ROLE_FIELDS:
                field.placeholder = inherited_hint(settings, *ROLE_FIELDS[name])
            field.value = field_text(settings, name)
        self.query_one("#settings-error", Label).update("")
        self.query_one("#settings-env", Static).update("")
        self.query_one("#settings-pills", Static).update(self._pills(settings))
        self.query_one("#settings-form", VerticalScroll).scroll_home(animate=False)

    @staticmethod
    def role_section(s: Settings) -> Vertical:
        """The per-role model overrides (16 inputs beside their labels: the bulk of the screen)."""
        cells: list[Widget] = [
            Label("role", classes="form-label role-head"),
            Label("local model", classes="role-col role-head"),
            Label("Foundry deployment", classes="role-col role-head"),
            label_column(list(ROLES)),
        ]
        for role in ROLES:
            local_field, cloud_field = role_fields(role)
            for field, tier in ((local_field, "local"), (cloud_field, "cloud")):
                cells.append(
                    Input(
                        field_text(s, field),
                        id=f"set-{field}",
                        compact=True,
                        placeholder=inherited_hint(s, role, tier),
                        classes="role-col",
                    )
                )
        rows: list[Widget] = [
            Label("Per-role models (blank = inherits default)", classes="form-section"),
            Grid(*cells, id="settings-role-grid"),
        ]
        return Vertical(*rows, id="settings-roles")

    # ---- what a web visitor may see (`worldforge serve`) --------------------------------
    @property
    def served(self) -> bool:
        """Shown in a browser by `worldforge serve`: the visitor sees nothing of the host."""
        return bool(self.app.is_web)

    def _field(self, s: Settings, name: str, hint: str) -> tuple[str, str]:
        """(text, placeholder) of a plain field: served, a URL the server set is not shown (left
        blank it stays as it is; see `current`)."""
        text = field_text(s, name)
        if self.served and name in URL_FIELDS and text:
            return "", SERVER_SET
        return text, hint

    def _typed_urls(self) -> list[str]:
        """The URLs the visitor typed into the form (the only ones shown back to them)."""
        if not self.is_mounted:
            return []
        values = self.form_values()
        return [values[name].strip() for name in URL_FIELDS if values.get(name, "").strip()]

    def _shown(self, text: str) -> str:
        """`text` as this viewer may read it: served, without the host's paths, names and URLs
        (but the URLs the visitor typed)."""
        return for_visitor(text, urls=self._typed_urls()) if self.served else text

    def _pills(self, settings: Settings, probe: list[ProbeRow] | None = None) -> Content:
        return pills_content([(self._shown(t), tone) for t, tone in pills(settings, probe)])

    # ---- reading the form ----------------------------------------------------------------
    def form_values(self) -> dict[str, str]:
        """Every field's current text, keyed by settings field name."""
        values: dict[str, str] = {}
        for widget in self.query(Input):
            if widget.id and widget.id.startswith("set-"):
                values[widget.id.removeprefix("set-")] = widget.value
        for select in self.query(Select):
            if select.id and select.id.startswith("set-") and isinstance(select.value, str):
                values[select.id.removeprefix("set-")] = select.value
        return values

    def current(self) -> Settings | None:
        """The settings the form describes, or None (with the reason shown) if a value is refused."""
        try:
            keep = frozenset(URL_FIELDS) if self.served else frozenset()
            candidate = build_settings(self.settings, self.form_values(), keep)
        except ValueError as exc:
            said = self._shown(one_line(str(exc), 200))
            self.query_one("#settings-error", Label).update(literal(said))
            return None
        self.query_one("#settings-error", Label).update("")
        return candidate

    def _refresh_pills(self, candidate: Settings | None = None) -> None:
        shown = candidate or self.current() or self.settings
        self.query_one("#settings-pills", Static).update(self._pills(shown, self.probe_rows))

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        """A choice changed: the pills say what it does now. A Select also reports the value it
        was given (when it mounts, or when a reopened screen shows the saved settings): nothing
        changed then, and reading the whole form three times on each open was a third of it."""
        name = (event.select.id or "").removeprefix("set-")
        if name in self._chosen and self._chosen[name] == event.value:
            return
        self._chosen[name] = event.value
        self.probe_rows = None
        self._refresh_pills()

    # ---- actions -------------------------------------------------------------------------
    @on(Button.Pressed, "#settings-save")
    def action_save(self) -> None:
        """Save; settings that reach a model are tested first, and kept past a failed test only
        when the player says so."""
        candidate = self.current()
        if candidate is None:
            return
        if candidate.runtime_label() == "simulation":
            self.dismiss(candidate)
            return
        if self._probed_for == candidate and self.probe_rows is not None:
            self._decide_save(candidate, self.probe_rows)
            return
        self._save_pending = candidate
        self._start_test(candidate)

    def _decide_save(self, candidate: Settings, rows: list[ProbeRow]) -> None:
        failed = [r for r in rows if not r["ok"]]
        if not failed:
            self.dismiss(candidate)
            return
        why = "; ".join(f"{r['tier']}: {one_line(r['error'], 80)}" for r in failed[:2])
        question = self._shown(
            f"The connection test failed ({why}). Keep these settings anyway? Calls "
            "fall back to the simulation until the endpoint answers."
        )

        def answered(keep: bool | None) -> None:
            if keep:
                self.dismiss(candidate)

        self.app.push_screen(ConfirmScreen(question, yes_label="Keep them"), answered)

    @on(Button.Pressed, "#settings-back")
    def action_close(self) -> None:
        """Leave without saving, at once: a test still running is stopped (its answer dropped)."""
        self._stop_test()
        self.dismiss(None)

    @on(Button.Pressed, "#settings-copy")
    def _copy_env(self) -> None:
        candidate = self.current()
        if candidate is None:
            return
        block = self._shown(env_block(candidate))
        self.app.copy_to_clipboard(block)
        self.query_one("#settings-env", Static).update(literal(clean(block, 8000)))
        self.notify(
            "The .env block is shown below and copied to the clipboard (keys masked).",
            title="Copy env",
            markup=False,
        )

    @on(Button.Pressed, "#settings-test")
    def action_test(self) -> None:
        candidate = self.current()
        if candidate is None:
            return
        self._save_pending = None
        self._start_test(candidate)

    # ---- the connection test: in a thread, bounded, stopped by Esc -------------------------
    def _start_test(self, candidate: Settings) -> None:
        """Test `candidate` in the background. While it runs the form is locked (keys typed then
        are never taken as the player's values) and the line counts the seconds against the bound;
        past PROBE_BOUND it counts as failed; Esc leaves at once."""
        self._tests += 1
        self._testing = (self._tests, candidate, time.monotonic())
        self.query_one("#settings-form", VerticalScroll).disabled = True
        self._tick_test()
        self.set_timer(PROBE_BOUND, partial(self._overdue, self._tests))
        self._probe(candidate, self._tests)

    def _tick_test(self) -> None:
        if self._testing is None:
            return
        waited = int(time.monotonic() - self._testing[2])
        what = "before saving" if self._save_pending is not None else ""
        escape = actions.live_key(self.app, "settings.close")
        self.query_one("#settings-error", Label).update(
            f"Testing connection {what}… {waited} s of at most {PROBE_BOUND:.0f} s "
            f"({escape} leaves without saving)".replace("  ", " ")
        )

    def _stop_test(self) -> None:
        """Forget the running test (its answer, when it comes, is dropped); unlock the form."""
        if self._testing is None:
            return
        self._testing = None
        if self.is_mounted:
            self.query_one("#settings-form", VerticalScroll).disabled = False

    def _overdue(self, test: int) -> None:
        """The bound passed without an answer: the test failed, as a refused connection would."""
        if self._testing is None or self._testing[0] != test:
            return
        candidate = self._testing[1]
        error = f"no answer within {PROBE_BOUND:.0f} s"
        ready: dict[Tier, bool] = {
            "local": candidate.local_ready(),
            "foundry": candidate.cloud_ready(),
        }
        tiers: list[Tier] = [tier for tier, up in ready.items() if up] or ["local"]
        ms = PROBE_BOUND * 1000
        rows = [
            ProbeRow(tier=tier, endpoint=None, ok=False, ms=ms, error=error, models=[])
            for tier in tiers
        ]
        self._probed(self.Probed(rows, candidate, test))

    @work(thread=True, exclusive=True, group="settings-probe", exit_on_error=False)
    def _probe(self, candidate: Settings, test: int) -> None:
        from engine.routing import Router

        try:
            rows = Router(candidate).probe()
        except Exception as exc:  # noqa: BLE001 - a probe fault is shown, never raised
            error = one_line(str(exc), 80)
            rows = [ProbeRow(tier="local", endpoint=None, ok=False, ms=0.0, error=error, models=[])]
        self.post_message(self.Probed(rows, candidate, test))

    @on(Probed)
    def _probed(self, message: Probed) -> None:
        if self._testing is None or self._testing[0] != message.test:
            return  # a test stopped (Esc, a reopen) or already counted as failed
        self._stop_test()
        self.probe_rows = message.rows
        self._probed_for = message.candidate
        pending, self._save_pending = self._save_pending, None
        if pending is not None and pending == message.candidate and self.is_current:
            self._decide_save(pending, message.rows)  # not if the screen was left meanwhile
            return
        self._refresh_pills()
        lines = []
        for row in message.rows:
            status = "ok" if row["ok"] else f"failed: {row['error']}"
            models = ", ".join(row["models"][:6])
            lines.append(f"{row['tier']}: {status}" + (f" ({models})" if models else ""))
        said = self._shown(one_line(" · ".join(lines), 300))
        self.query_one("#settings-error", Label).update(literal(said))
