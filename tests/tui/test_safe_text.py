"""Untrusted text helpers: escapes stripped, controls visible, markup left literal, long text cut."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from worldforge_tui.text.safe_text import clean, literal, literal_line, one_line

HOSTILE = (
    "[bold]boss[/] [/] [link=http://x]y[/link] \x1b[31mred\x1b[0m \x1b]0;title\x07 \x07bell\x00"
)


def test_markup_survives_as_text():
    text = literal("[bold]hi[/] and [/]")
    assert text.plain == "[bold]hi[/] and [/]"
    assert text.spans == []


def test_ansi_and_osc_sequences_removed():
    out = clean(HOSTILE)
    assert "\x1b" not in out and "\x07" not in out and "\x00" not in out
    assert "red" in out and "[bold]boss[/]" in out
    assert "title" not in out  # the OSC payload (window title) is dropped with its sequence


def test_controls_become_visible_symbols():
    assert clean("a\x00b\x7fc") == "a\u2400b\u2421c"


def test_bidi_overrides_neutralised():
    assert "\u202e" not in clean("abc\u202edef")


def test_long_text_cut_with_ellipsis():
    out = clean("x" * 10_000, 100)
    assert len(out) == 100 and out.endswith("…")


def test_one_line_folds_newlines():
    assert one_line("a\n\n  b\r\nc") == "a ⏎ b ⏎ c"
    assert "\n" not in literal_line("x\ny").plain


def test_plain_text_passes_untouched():
    assert clean("Ship the MVP by day 30 — 20% off") == "Ship the MVP by day 30 — 20% off"


def test_non_strings_are_shown():
    assert clean(None) == "" and clean(42) == "42"


@given(st.text())
def test_clean_never_leaves_escape_or_controls(value):
    out = clean(value, 500)
    assert len(out) <= 500
    assert not any(ord(ch) < 0x20 and ch != "\n" for ch in out)
    assert not any(0x7F <= ord(ch) <= 0x9F for ch in out)
    assert "\n" not in one_line(value, 200)
