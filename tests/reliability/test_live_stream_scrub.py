"""Issue 26: the live standup / artifact stream is scrubbed before it is drawn (and so before `serve`
sends it): an echoed FOUNDRY_API_KEY or a URL's Basic credentials never reach the screen, not even
half-way while the secret is still streaming in."""

from __future__ import annotations

import json
from types import SimpleNamespace

from worldforge_tui.live_writing import LiveView, live_content

KEY = "abcd1234efgh5678ijkl"
LINE = f"our key is FOUNDRY_API_KEY={KEY} and the feed https://bob:hunter2secret@example.com/x ok"


def _event(kind: str, text: str, call_key: str = "stage-1/standup-0") -> SimpleNamespace:
    return SimpleNamespace(
        kind=kind, text=text, call_key=call_key, role="strategist", model="m", tier="local"
    )


def _drawn(view: LiveView) -> str:
    content = live_content(view)
    return "" if content is None else content.plain


def test_a_streamed_standup_line_is_drawn_scrubbed_at_every_prefix() -> None:
    full = json.dumps({"line": LINE})
    for end in range(1, len(full) + 1):
        view = LiveView()
        view.apply(_event("delta", full[:end]))
        shown = _drawn(view)
        for secret in (KEY, "hunter2secret", "bob:"):
            for cut in range(6, len(secret) + 1):
                assert secret[:cut] not in shown, (end, shown)
    view = LiveView()
    view.apply(_event("end", full))
    shown = _drawn(view)
    assert "FOUNDRY_API_KEY=[redacted]" in shown and KEY not in shown
    assert "hunter2secret" not in shown


def test_a_streamed_artifact_is_drawn_scrubbed() -> None:
    full = json.dumps({"title": "Plan", "summary": LINE, "body": "more " * 5})
    view = LiveView()
    view.apply(_event("delta", full, call_key="stage-1/attempt-1"))
    shown = _drawn(view)
    assert "Summary:" in shown and "[redacted]" in shown
    assert KEY not in shown and "hunter2secret" not in shown
