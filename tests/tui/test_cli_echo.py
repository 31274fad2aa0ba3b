"""The CLI's error line echoes what the user typed: one line, line breaks escaped, clipped."""

from __future__ import annotations

import pytest

from worldforge_tui.cli import LINE_LIMIT, main

PITCH = ["simulate", "--pitch", "Meal kits for night-shift nurses"]


@pytest.mark.parametrize(
    "argv",
    [
        [*PITCH, "--bogus", "a\r\nb"],
        [*PITCH, "--bogus", "a\rb\nc"],
        ["a\r\nb"],
        ["simulate", "--pitch", "x\ny", "--seed", "1\r\n2"],
    ],
)
def test_an_argument_with_line_breaks_is_echoed_on_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("worldforge: error: ") and err.count("\n") == 1 and "\r" not in err
    assert "\\n" in err or "\\r" in err  # the break is shown, escaped, not acted on


def test_a_huge_argument_is_clipped(capsys):
    assert main([*PITCH, "--archetype", "x" * 100_000]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert len(err) < len("worldforge: error: ") + LINE_LIMIT + 40
    assert "100," in err  # says how long the argument was
