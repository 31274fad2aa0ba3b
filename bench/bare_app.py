"""A bare Textual app with the same kinds and count of widgets as a measured screen stack.

    python bench/bare_app.py SPEC_JSON [WIDTH HEIGHT]

SPEC_JSON is a list of screens, bottom first, each a list of [textual class path, count] pairs,
the path of the nearest Textual class of each widget the measured app showed (bench.tui_startup
takes it from the live app, so the anchor follows the game's screens as they change). The bare app
composes each screen's widgets flat, default content, no styles of its own, pushes the upper
screens as modals, and prints the same figures as the measured child when the top screen's first
Input (or its last widget) has focus and a frame has been drawn:
`cpu_s widgets import_s ready_s` (seconds from interpreter start), and ends there (`os._exit`).

Run as a script it imports nothing of the bench package (whose set-up would add to the anchor's
time); benches import it for `spec_of` (the widget kinds of a live screen) and `Bare` (in-process
anchors driven by Pilot). On the bottom screen, f1-f4 show one quarter of its widgets and hide the
rest, as the board's pane keys do, so a key's time has an anchor of the same kinds.
"""

from __future__ import annotations

import time

T0 = time.perf_counter()

import importlib  # noqa: E402 - timed from the first line, as the measured child is
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from typing import Any, ClassVar  # noqa: E402

from textual.app import App, ComposeResult  # noqa: E402
from textual.binding import BindingType  # noqa: E402
from textual.screen import ModalScreen, Screen  # noqa: E402
from textual.widget import Widget  # noqa: E402
from textual.widgets import Input  # noqa: E402

# Widgets whose constructor needs an argument: the least that builds one.
_ARGS: dict[str, tuple[object, ...]] = {
    "textual.widgets._select.Select": ([("a", "a")],),
    "textual.widgets._button.Button": ("button",),
    "textual.widgets._static.Static": ("label",),
    "textual.widgets._label.Label": ("label",),
    "textual.widgets._tabs.Tab": ("tab",),
}


OWN = ("textual.widgets._toast.ToastRack", "textual.widgets._tooltip.Tooltip")  # every screen's
PLAIN = ("textual.containers.", "textual.widget.Widget", "textual.scroll_view.ScrollView")


def textual_class(w: Any) -> str:
    """The path of the nearest Textual class of a widget (a BoundedInput is an Input)."""
    for cls in type(w).__mro__:
        if cls.__module__.startswith("textual."):
            return f"{cls.__module__}.{cls.__qualname__}"
    return "textual.widget.Widget"


def _built_by_textual(w: Any, screen: Any) -> bool:
    """A widget inside a Textual widget (not a plain container, ours or Textual's) was built by
    that widget: it comes with it in the bare app too."""
    node = w.parent
    while isinstance(node, Widget) and node is not screen:
        if not textual_class(node).startswith(PLAIN):
            return True
        node = node.parent
    return False


def spec_of(screen: Any) -> list[list[object]]:
    """A live screen's widgets as [textual class path, count] pairs, for `Bare`."""
    counts: dict[str, int] = {}
    for w in screen.walk_children(with_self=False):
        key = textual_class(w)
        if key in OWN or _built_by_textual(w, screen):
            continue
        counts[key] = counts.get(key, 0) + 1
    return [[k, v] for k, v in sorted(counts.items())]


def _widget(path: str) -> Widget:
    module, _, name = path.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    made = cls(*_ARGS.get(path, ()))
    assert isinstance(made, Widget)
    return made


def _widgets(spec: list[list[object]]) -> list[Widget]:
    return [_widget(str(path)) for path, count in spec for _ in range(int(str(count)))]


class BareScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        (f"f{i}", f"pane({i})", f"pane {i}") for i in (1, 2, 3, 4)
    ]

    def __init__(self, spec: list[list[object]]) -> None:
        super().__init__()
        self._spec = spec
        self.shown = 0

    def compose(self) -> ComposeResult:
        yield from _widgets(self._spec)

    def action_pane(self, i: int) -> None:
        """Show the i-th quarter of the widgets, hide the rest, focus its first focusable one."""
        widgets = list(self.children)
        quarter = max(1, len(widgets) // 4)
        mine = widgets[(i - 1) * quarter : i * quarter]
        for w in widgets:
            w.display = w in mine
        focusable = [w for w in mine if w.focusable]
        if focusable:
            focusable[0].focus()
        self.shown = i


class BareModal(ModalScreen[None]):
    def __init__(self, spec: list[list[object]]) -> None:
        super().__init__()
        self._spec = spec

    def compose(self) -> ComposeResult:
        yield from _widgets(self._spec)

    def on_mount(self) -> None:
        inputs = list(self.query(Input))
        if inputs:
            inputs[0].focus()


class Bare(App[None]):
    def __init__(self, screens: list[list[list[object]]], *, exit_when_ready: bool = False) -> None:
        super().__init__()
        self._screens = screens
        self._exit_when_ready = exit_when_ready
        self.imported = time.perf_counter()
        self.ready = 0.0
        self.cpu = 0.0
        self.widgets = 0

    def on_mount(self) -> None:
        self.push_screen(BareScreen(self._screens[0]))
        for spec in self._screens[1:]:
            self.push_screen(BareModal(spec))
        self.call_after_refresh(self.done)

    def done(self) -> None:
        self.ready = time.perf_counter()
        self.cpu = time.process_time()
        self.widgets = sum(
            1 for screen in self.screen_stack for _ in screen.walk_children(with_self=False)
        )
        if self._exit_when_ready:  # the process ends at the moment, as the measured child does
            line = f"{self.cpu:.4f} {self.widgets} {self.imported - T0:.4f} {self.ready - T0:.4f}"
            os.write(1, (line + "\n").encode())  # fd 1: Textual holds sys.stdout while it runs
            os._exit(0)


if __name__ == "__main__":
    screens = json.loads(sys.argv[1])
    size = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (120, 40)
    Bare(screens, exit_when_ready=True).run(headless=True, size=size)
    sys.exit(1)  # never reached the moment
