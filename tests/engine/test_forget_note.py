"""Forget one note: a recorded command of the run (replay reproduces it), `worldforge memory forget
RUN --note ID`, and the next brief drops exactly its directions. Before, `f` and `memory forget`
forgot the whole run and only `w` simulated forgetting one note."""

from __future__ import annotations

import json

import pytest

from engine.errors import InputError
from engine.session.commands import Approve, Decide, ForgetNote, RunStage, StandupReply
from engine.session.replay import verify
from engine.workers.agents import gather_context


def _bound(s) -> list[tuple[str | None, str]]:
    st = s.state
    ctx = gather_context(st, st.stage, s.memory, s.knowledge)
    return [(d.memory_id, d.line()) for d in ctx.binding.directions]


def _two_notes(s):
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    s.give(StandupReply, "Price it at $27 a month and never mention franchises")
    return s.memory.records(kinds=["procedural"])


def test_the_next_brief_drops_exactly_the_forgotten_notes_directions(new_session):
    s = new_session(pitch="Scheduling for solo mobile dog groomers", seed=31)
    notes = _two_notes(s)
    reply, decision = notes[-1], notes[-2]
    before = _bound(s)
    assert any(m == reply.id for m, _ in before) and any(m == decision.id for m, _ in before)
    s.execute(ForgetNote.typed(reply.id))
    after = _bound(s)
    assert [x for x in before if x[0] != reply.id] == after
    assert reply.id not in {r.id for r in s.memory.records()}
    s.give(RunStage)
    run = s.state.current
    assert not any("$27" in str(b) or "franchises" in str(b) for b in run.binding)
    assert any(b.get("source") == "decision" for b in run.binding)
    assert verify(s.conn, s.state.run_id).ok


def test_a_note_the_run_does_not_hold_is_one_line_and_changes_nothing(new_session):
    s = new_session(pitch="Scheduling for solo mobile dog groomers", seed=31)
    _two_notes(s)
    count = len(s.memory.records())
    with pytest.raises(InputError, match="no note m999"):
        s.execute(ForgetNote.typed("m999"))
    assert len(s.memory.records()) == count


def test_the_cli_forgets_one_note_as_a_recorded_command(tmp_path, capsys):
    from engine.session.api import GameSession
    from worldforge_tui.cli import main

    s = GameSession.start_venture(
        pitch="Scheduling for solo mobile dog groomers", seed=31, save_dir=tmp_path
    )
    reply = _two_notes(s)[-1]
    run_id = s.state.run_id
    s.close()
    argv = ["memory", "forget", run_id, "--note", reply.id, "--save-dir", str(tmp_path)]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["note"] == reply.id and out["deleted"] == 1
    assert main(["replay", run_id, "--verify", "--save-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(argv) == 2  # already forgotten: one line, exit 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and reply.id in err[0]
    s = GameSession.load(run_id, save_dir=tmp_path)
    try:
        assert reply.id not in {r.id for r in s.memory.records()}
        assert any(r.id != reply.id for r in s.memory.records(kinds=["procedural"]))
    finally:
        s.close()
