"""While an event waits, the board refuses to run the stage (it never answers the event for the
player), so no line may promise that the run key runs it with a default (played: the story read
"1 / 2 answer · g runs the stage with option 1" and the bar "(or run the stage: its default
applies)", and g said "An event waits for your answer: 1 or 2 first.")."""

from __future__ import annotations

from types import SimpleNamespace

from worldforge_tui import actions
from worldforge_tui.widgets.story_pane import _pending_event


def _key(action_id: str) -> str:
    return actions.BY_ID[action_id].key


def test_the_hint_line_does_not_offer_the_run_key_while_an_event_waits():
    can = {"answer_event": True, "run_stage": True, "standup_reply": True}
    hint = actions.hint_line("brief", can, _key)
    assert "default applies" not in hint
    assert "g run the next stage" not in hint
    assert "1 / 2 answer the event (then g runs the stage)" in hint
    assert "g run the next stage" in actions.hint_line("brief", {"run_stage": True}, _key)


def test_the_story_pane_does_not_promise_the_run_key_a_default():
    option = SimpleNamespace(key="A", text="Apologise", effect_line="Trust +3")
    other = SimpleNamespace(key="B", text="Stay quiet", effect_line="Trust -7")
    pending = SimpleNamespace(
        day=22, title="A viral complaint", text="…", options=[option, other], default="A"
    )
    snap = SimpleNamespace(pending_event=pending, fatal_events={})
    said = "".join(p if isinstance(p, str) else p[0] for p in _pending_event(snap, _key))
    assert "runs the stage with option" not in said
    assert "1 / 2 answer · then g runs the stage" in said
