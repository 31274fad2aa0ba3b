"""The load list names a venture's phase as the board does: played, a venture waiting at its
standup read "in progress (brief)", the engine's own word."""

from __future__ import annotations

from engine.session.saves import RunSummary
from worldforge_tui.screens.load import run_prompt


def _run(phase: str, outcome: str | None = None) -> RunSummary:
    return RunSummary(
        run_id="run-1",
        name="Bookkeepin Co",
        pitch="bookkeepin for plumbers",
        archetype="builder",
        seed=1,
        day=9,
        phase=phase,
        stage=2,
        outcome=outcome,
        reason=None,
        updated="2026-12-08T01:01:00+00:00",
    )


def test_a_run_at_its_standup_reads_standup():
    shown = run_prompt(_run("brief")).plain
    assert "in progress (standup)" in shown and "brief" not in shown


def test_a_run_at_its_gate_or_fork_reads_so():
    assert "in progress (gate)" in run_prompt(_run("gate")).plain
    assert "in progress (fork)" in run_prompt(_run("fork")).plain
    assert "DEFEAT" in run_prompt(_run("ended", "defeat")).plain
