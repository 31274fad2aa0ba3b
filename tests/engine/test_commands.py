"""Commands as data: each player command is one class in engine.session.commands; the session
runs any of them, and what a run records is what replay rebuilds and re-issues."""

from __future__ import annotations

import pytest

from engine.errors import GameError, InputError, SaveError
from engine.session import commands as C
from engine.session.commands import AnswerEvent, Approve, Decide, RunStage

SAMPLES: dict[type[C.Command], C.Command] = {
    C.RunStage: C.RunStage(),
    C.Approve: C.Approve(),
    C.Reject: C.Reject("Speak to solo groomers, not dog owners"),
    C.AnswerEvent: C.AnswerEvent("B", by_default=True),
    C.Decide: C.Decide("A"),
    C.DecideOwn: C.DecideOwn("Both, but cheaper"),
    C.Standup: C.Standup(),
    C.StandupReply: C.StandupReply("Keep it to the van"),
    C.RoutingChanged: C.RoutingChanged("local", "local_first", "local: tiny", "local"),
    C.Consolidate: C.Consolidate(["mem-1", "mem-2"], "One note", "ceo"),
    C.Prune: C.Prune(),
    C.ForgetMemories: C.ForgetMemories(),
    C.ForgetNote: C.ForgetNote("mem-00004"),
}


def test_every_command_is_listed_once_and_rebuilds_from_its_record() -> None:
    kinds = list(C.REGISTRY.values())
    assert set(SAMPLES) == set(kinds)
    assert len({c.name for c in kinds}) == len({c.cmd for c in kinds}) == len(kinds)
    for kind, command in SAMPLES.items():
        record = command.record()
        assert record["cmd"] == kind.cmd
        assert C.from_record(record) == command


def test_an_unknown_recorded_command_is_one_line() -> None:
    with pytest.raises(SaveError, match="unknown recorded command 'teleport'"):
        C.from_record({"cmd": "teleport"})


def test_a_played_venture_records_only_what_the_commands_rebuild(played) -> None:
    session = played(
        "ABABABAB",
        said={
            "reject": {"stage_1_you": ["Price it at $25 a month"]},
            "decide_own": {"stage_3_go": ["Both, but keep the price low"]},
            "standup_reply": {"stage_2_need": ["Keep it to the farmers"]},
            "answer_event": {"*": ["B"]},
        },
    )
    recorded = session.inputs[1:]  # the first is the venture's start
    assert {r["cmd"] for r in recorded} >= {
        "run_stage",
        "approve",
        "reject",
        "decide",
        "decide_own",
        "standup",
        "standup_reply",
        "event",
    }
    for record in recorded:
        assert C.from_record(record).record() == record


def test_refusals_are_one_line_by_phase(new_session) -> None:
    s = new_session()
    assert s.can("run_stage") and not s.can("approve") and not s.can("teleport")
    with pytest.raises(GameError, match="cannot approve now: run the stage first"):
        s.give(Approve)
    with pytest.raises(GameError, match="there is no event waiting for an answer"):
        s.give(AnswerEvent, "A")
    s.give(RunStage)
    with pytest.raises(GameError, match="cannot decide now: approve or reject the artifact first"):
        s.give(Decide, "A")
    s.give(Approve)
    with pytest.raises(InputError, match="choose A or B"):
        s.give(Decide, "C")
    assert s.state.phase == "fork"


def test_the_snapshot_the_action_rows_and_the_cli_derive_from_the_command_list(new_session) -> None:
    """What may I do now, the TUI's key rows and simulate's options all come from the commands:
    every player command has an action row in its phase, and every row names a command."""
    import argparse

    from worldforge_tui.actions import ACTIONS
    from worldforge_tui.cli import build_parser

    s = new_session()
    assert set(s.snapshot().can) == {c.name for c in C.player()}
    rows = [a for a in ACTIONS if a.command is not None]
    assert {a.command for a in rows} == {c.name for c in C.player()}
    for row in rows:
        kind = C.named(row.command)
        assert kind is not None and row.phase == (kind.phases or ("?",))[0]
    sim = next(
        a.choices["simulate"]
        for a in build_parser()._actions
        if isinstance(a, argparse._SubParsersAction)
    )
    options = {o for a in sim._actions for o in a.option_strings}
    assert {f.option for f in C.flags().values()} <= options
