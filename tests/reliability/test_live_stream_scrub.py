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


# Issue 46: a word still being written is drawn as it comes when nothing redacted can grow from it,
# and held when it could. Secrets of every kind the scrubber knows, streamed a character at a time.
SPLIT_SECRETS = {
    "shape": ("the key sk-proj-", "Ab3dEf6hIj9kLm2nOp5qRs8t", " was pasted"),
    "aws": ("we saw ", "AKIAQWERTYUIOPASDFGH", " in the log"),
    "jwt": ("session ", "eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4", " ok"),
    "letters after a key word": ("the api key is ", "abcdefghijklmnopqrstuvwxyzabcdefgh", " ok"),
    "bearer": ("send Bearer ", "qwertyuiopasdfghjklzxcv", " to it"),
    "password": ("my password is ", "correcthorsebattery", " today"),
    "configured": ("the vendor said ", "zebrafishcanyonmoss", " twice"),
}


def test_a_secret_split_across_pieces_never_shows_even_in_part(monkeypatch) -> None:
    import worldforge_textkit.scrub as scrubbing

    monkeypatch.setattr(scrubbing, "_configured", set())
    scrubbing._by_length.cache_clear()
    scrubbing._scrub_short.cache_clear()
    scrubbing.register_secret("zebrafishcanyonmoss")
    try:
        for name, (before, secret, after) in SPLIT_SECRETS.items():
            full = json.dumps({"title": "Plan", "summary": before + secret + after})
            for end in range(1, len(full) + 1):
                view = LiveView()
                view.apply(_event("delta", full[:end], call_key="stage-1/attempt-1"))
                shown = _drawn(view)
                for cut in range(4, len(secret) + 1):
                    assert secret[:cut] not in shown, (name, end, shown)
            view = LiveView()
            view.apply(_event("end", full, call_key="stage-1/attempt-1"))
            assert "[redacted]" in _drawn(view) and secret not in _drawn(view), name
    finally:
        scrubbing._by_length.cache_clear()
        scrubbing._scrub_short.cache_clear()


def test_a_plain_word_is_drawn_while_it_is_written() -> None:
    """The tiny model writes a character at a time: each word used to wait for its end."""
    text = json.dumps({"title": "Plan", "summary": "Meal kits for nurses"})
    mid = text[: text.index("nurses") + 3]
    view = LiveView()
    view.apply(_event("delta", mid, call_key="stage-1/attempt-1"))
    assert "Meal kits for nur" in _drawn(view)
    for held in ("for sk", "for ak", "key is abc", "design abc"):  # could become a secret
        text = json.dumps({"title": "Plan", "summary": f"Meal kits {held}zz"})
        view = LiveView()
        view.apply(_event("delta", text[: text.index(held) + len(held)], "stage-1/attempt-1"))
        assert held not in _drawn(view), held
