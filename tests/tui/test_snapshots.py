"""Snapshot tests: the board at 120×40 and the compact layout at 80×24, seeded, animations off.

Regenerate after a deliberate visual change with `pytest tests/tui/test_snapshots.py
--snapshot-update`, and review the SVGs first.
"""

from __future__ import annotations

from tests.tui.conftest import after_keys
from worldforge_tui.app import WorldForgeApp

PITCH = "Meal kits for night-shift nurses"


def make_app(tmp_path) -> WorldForgeApp:
    return WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)


def test_board_at_gate_120x40(snap_compare, tmp_path):
    assert snap_compare(make_app(tmp_path), terminal_size=(120, 40), run_before=after_keys())


def test_board_after_decision_120x40(snap_compare, tmp_path):
    assert snap_compare(
        make_app(tmp_path), terminal_size=(120, 40), run_before=after_keys("a", "2")
    )


def test_compact_receipt_80x24(snap_compare, tmp_path):
    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), run_before=after_keys("a", "1"))
