"""widgets.choice.Choice: a Select that ends as a plain Select does, without restyling on mount."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.dom import DOMNode
from textual.widgets import OptionList, Select

from worldforge_tui.widgets.choice import Choice

OPTIONS = [("one", 1), ("two", 2)]


class Pair(App[None]):
    """A plain Select beside a Choice built with the same arguments; counts mounted restyles."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        self.kwargs = kwargs
        self.restyled: list[DOMNode] = []

    def compose(self) -> ComposeResult:
        yield Select(OPTIONS, id="plain", **self.kwargs)
        yield Choice(OPTIONS, id="choice", **self.kwargs)

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        if node is not self and node.is_attached:
            self.restyled.append(node)
        super().update_styles(node, animate)


def parts(select: Select[Any]) -> list[tuple[str, frozenset[str]]]:
    return [
        (
            type(w).__name__,
            frozenset(c for c in w.classes if c != "-textual-compact")
            | {"compact" if getattr(w, "compact", False) else "wide"},
        )
        for w in select.walk_children()
    ]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"allow_blank": False, "compact": True},
        {"allow_blank": False, "value": 2},
        {"allow_blank": True},
        {"allow_blank": True, "value": 1, "compact": True},
    ],
)
async def test_a_choice_ends_as_a_select_does(kwargs: dict[str, Any]) -> None:
    app = Pair(**kwargs)
    async with app.run_test() as pilot:
        await pilot.pause()
        plain = app.query_one("#plain", Select)
        choice = app.query_one("#choice", Choice)
        assert choice.value == plain.value
        assert parts(choice) == parts(plain)
        overlay = choice.query_one(OptionList)
        assert overlay.has_class("-textual-compact") == bool(kwargs.get("compact"))
        inside_choice = [n for n in app.restyled if n is choice or choice in n.ancestors]
        inside_plain = [n for n in app.restyled if n is plain or plain in n.ancestors]
        assert inside_choice == []  # styled once, as it mounted
        assert inside_plain  # the plain Select restyles its parts after mounting them


async def test_a_choice_still_changes_by_key() -> None:
    app = Pair(allow_blank=False, compact=True)
    async with app.run_test() as pilot:
        choice = app.query_one("#choice", Choice)
        choice.focus()
        await pilot.press("enter", "down", "enter")
        await pilot.pause()
        assert choice.value == 2
