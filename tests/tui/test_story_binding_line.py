"""The story pane's Binding line never cuts a direction mid-word: past its width it counts the
directions it leaves to the Memory pane (played: "… leave out deal desk hire; reach custom…")."""

from __future__ import annotations

from engine.language.directions import Direction
from worldforge_tui.widgets.story_pane import _binding


def _text(parts) -> str:
    return "".join(p if isinstance(p, str) else p[0] for p in parts)


def test_a_long_binding_line_counts_what_it_leaves_out():
    values = [f"segment number {n} of the market" for n in range(20)]
    recalled = [Direction(axis="audience", value=v).to_dict() for v in values]
    line = _text(_binding(recalled))
    shown = line.removeprefix("Binding: ").rstrip("\n").split("; ")
    assert "…" not in line
    more = shown.pop()
    assert more.startswith("and ") and more.endswith(" more (Memory pane)")
    assert len(shown) + int(more.split()[1]) == len(values)
    assert all(
        s == Direction(axis="audience", value=v).shown()
        for s, v in zip(shown, values, strict=False)
    )


def test_a_short_binding_line_shows_every_direction():
    recalled = [Direction(axis="audience", value="law firms").to_dict()]
    assert (
        _text(_binding(recalled))
        == f"Binding: {Direction(axis='audience', value='law firms').shown()}\n"
    )
