"""The story fills field by field while a model writes compact JSON with no spaces (a grammar-bound
local model's way), not all at once at the end."""

from __future__ import annotations

import json
from types import SimpleNamespace

from worldforge_tui.live_writing import LiveView, live_content


def _drawn(text: str) -> str:
    view = LiveView()
    view.apply(
        SimpleNamespace(
            kind="delta",
            text=text,
            call_key="stage-1/attempt-1",
            role="strategist",
            model="tiny",
            tier="local",
        )
    )
    content = live_content(view)
    return "" if content is None else content.plain


def test_compact_json_shows_each_field_as_it_closes() -> None:
    full = json.dumps(
        {"title": "Dockside", "summary": "xq7Tz0pLmW", "body": "Nn3vQwErTy"},
        separators=(",", ":"),
    )
    mid = full[: full.index("xq7Tz0pLmW") + 4]  # the title closed, the summary being written
    shown = _drawn(mid)
    assert "Dockside" in shown and "waiting for the first field" not in shown
    assert "xq7T" not in shown  # a word still being written is not drawn (issue 26)


def test_a_piece_counts_as_shown_only_once_its_word_is_drawn() -> None:
    """The reach the token → story figure is measured by: a piece inside a word (or key, or
    number) still being written is not on screen, and is once the word closes."""
    from worldforge_tui.live_writing import _reached

    full = json.dumps({"title": "Dockside", "summary": "xq7Tz0pLmW"}, separators=(",", ":"))
    word = full.index("xq7Tz0pLmW")
    _, reach = _reached(full[: word + 4], final=False)
    assert reach <= word  # "xq7T" is not drawn yet
    closed = full[: word + 11]  # the closing quote ends the word
    _, reach = _reached(closed, final=False)
    assert reach == len(closed)
    _, reach = _reached(full[: full.index('"summary"') + 4], final=False)
    assert reach <= full.index('"summary"')  # a key being written is not drawn either


def test_an_attempt_given_up_on_is_counted_never_shown_and_holds_nothing_back() -> None:
    """The token → story figure's bookkeeping: a new attempt's pieces are not queued behind the
    abandoned attempt's (whose text was longer), which are counted as never shown."""

    from worldforge_tui.live_writing import LiveFeed

    host = LiveFeed(SimpleNamespace())  # tracking never reaches the app

    def event(kind: str, text: str = "", at: float = 0.0, tier: str = "local"):
        return SimpleNamespace(
            kind=kind, text=text, at=at, tier=tier, model="tiny", call_key="stage_1/attempt-1"
        )

    for i, text in enumerate(['{"a": "one', '{"a": "one two', '{"a": "one two three']):
        host.track(event("delta", text, float(i)))
    host.track(event("start"))  # a re-ask: the first answer was refused
    assert host.unshown == 3 and not host._pieces
    host.track(event("delta", '{"a": "x', 5.0))
    assert list(host._pieces) == [(len('{"a": "x'), 5.0)]
    host.track(event("end", '{"a": "x"}', 6.0))
    assert list(host._pieces) == [(0, 5.0)]  # drawn whole at the next frame, not at the result


def test_only_the_lines_that_differ_are_marked_for_repaint() -> None:
    from rich.segment import Segment
    from textual.strip import Strip

    from worldforge_tui.widgets.live_section import changed_lines

    def lines(*texts: str) -> list[Strip]:
        return [Strip([Segment(t)]) for t in texts]

    before = lines("title", "summary: one", "▌")
    assert changed_lines(before, lines("title", "summary: one two", "▌")) == (1, 2)  # its line
    assert changed_lines(before, lines("title", "summary: one", "two", "▌")) == (2, 4)  # moved
    assert changed_lines(before, before) == (0, 0)  # nothing to repaint


def test_an_answer_a_model_served_is_drawn_whole_as_its_call_ends() -> None:
    """The last word of an artifact used to wait for the step's result (the score, the gate, the
    whole board redrawn) to reach the screen; the ended call is drawn whole at once, without the
    cursor. An answer the simulation served instead is not drawn as the model's."""

    def view_after(end_tier: str) -> str:
        view = LiveView()
        common = {"call_key": "stage-1/attempt-1", "role": "strategist", "model": "tiny"}
        text = '{"title": "Dockside", "summary": "knives sharp before service"}'
        view.apply(SimpleNamespace(kind="delta", text=text[:-3], tier="local", **common))
        view.apply(SimpleNamespace(kind="end", text=text, tier=end_tier, **common))
        content = live_content(view)
        return "" if content is None else content.plain

    shown = view_after("local")
    assert "Knives sharp before service" in shown and "✓ Written" in shown
    assert "▌" not in shown and "Being written" not in shown
    assert view_after("simulation") == ""
