"""The closed loop: a decision or a rejection becomes binding memory and the next artifact follows it."""

from __future__ import annotations

import pytest

from engine.errors import GameError, InputError
from engine.game.rubric import evaluate
from engine.game.rules import RULES
from engine.language.directions import Direction
from engine.play.headless import Plan, play
from engine.session.commands import Approve, Decide, DecideOwn, Reject, RunStage, StandupReply
from engine.views.fork_words import in_words
from engine.writing.simulate import simulate_artifact


def test_rejection_reason_becomes_procedural_memory_and_redo_follows_it(new_session):
    s = new_session()
    s.give(RunStage)
    first = s.state.current.artifact
    s.give(Reject, "Focus on weekly harvest forecasts; leave out investors")
    procedural = [m for m in s.memory.records() if m.kind == "procedural"]
    note = next(m for m in procedural if "harvest forecasts" in m.text and m.author == "ceo")
    axes = {d["axis"]: d["value"] for d in note.payload["directions"]}
    assert axes == {"scope": "weekly harvest forecasts", "exclusion": "investors"}
    run = s.state.current
    assert run.attempt == 2 and s.state.stage.redos == 1
    assert "harvest forecasts" in str(run.artifact["okrs_q1"])
    assert "harvest" not in str(first)
    assert run.rubric.compliance == 100 and not run.rubric.drift
    injected = {m["id"] for m in run.memory_injected}
    assert note.id in injected  # the binding note rode into the brief: that is why it binds
    assert {d["memory_id"] for d in run.binding} >= {note.id}
    assert "<campaign_memory>" in run.memory_block


def test_redo_limit_then_approve(new_session):
    s = new_session()
    s.give(RunStage)
    s.give(Reject, "State the price up front")
    s.give(Reject, "Lower the price")
    assert not s.can("reject")
    with pytest.raises(GameError, match="no redos left"):
        s.give(Reject, "again")
    s.give(Approve)
    assert s.state.phase == "fork"


def test_phase_rules_are_enforced_without_losing_state(new_session):
    s = new_session()
    with pytest.raises(GameError):
        s.give(Approve)
    with pytest.raises(GameError):
        s.give(Decide, "A")
    s.give(RunStage)
    with pytest.raises(InputError):
        s.give(Reject, "   ")
    with pytest.raises(InputError):
        s.give(Reject, "bad \x00 reason")
    assert s.state.phase == "gate"
    s.give(Approve)
    with pytest.raises(InputError):
        s.give(Decide, "C")
    assert s.state.phase == "fork"
    before = len(s.events())
    second = s.state.dilemma.options[1]
    s.give(Decide, "2")
    assert s.state.stages[0].decision.rule_id == second.rule_id
    assert len(s.events()) > before


def test_receipt_has_every_field_before_after_and_next_brief(new_session):
    s = new_session()
    s.give(RunStage)
    s.give(Approve)
    first = s.state.dilemma.options[0]
    r = s.give(Decide, "A")
    assert r.rule_id == first.rule_id and r.effect_line == first.effect_line
    assert set(r.economics_delta) == set(r.before.numbers())
    assert r.after != r.before
    assert r.memory_written and r.memory_written[0]["kind"] == "procedural"
    assert r.next_brief["worker"] == s.state.stages[1].worker_title
    binds = r.memory_written[0]["directions"]  # the option's content of its own, in words
    decided = [e for e in s.events() if e.type == "CEO_DECISION"][-1].payload["directions"]
    assert [Direction.from_dict(d).line() for d in decided] == binds
    said = [in_words(Direction.from_dict(d), s.state) for d in decided]  # in the venture's words
    assert binds and all(line in r.next_brief["binding"] for line in said)
    assert first.rule_id not in r.next_brief["binding"]  # no ids on screen
    assert len(s.state.standup) == 3
    assert all(
        t.tool in ("recall_memory", "watch_burn", "search_knowledge") for t in s.state.standup
    )


def test_own_answer_matches_whole_words_else_is_costed_like_an_option(new_session):
    s = new_session()
    s.give(RunStage)
    s.give(Approve)
    rules = {o.rule_id for o in s.state.dilemma.options}
    r = s.give(DecideOwn, "Deep relationships and ownership with each farm")  # "ship" inside words
    assert r.rule_id in rules and r.matched_by == "custom"
    s.give(RunStage)
    run = s.state.current
    assert "relationships" not in str(run.artifact)  # never bound as a literal fragment
    assert not run.rubric.drift
    s.give(Approve)
    option = s.state.dilemma.options[0]
    keyword = RULES[option.rule_id].keywords[0]
    r2 = s.give(DecideOwn, f"we go with {keyword}, plainly")
    assert r2.rule_id == option.rule_id and r2.matched_by == "keywords"


def test_standup_reply_is_binding_for_next_stage(new_session):
    s = new_session()
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    assert s.can("standup_reply")
    s.give(StandupReply, "Mention irrigation sensors in everything, and price it at $45 a month")
    assert not s.can("standup_reply")
    s.give(RunStage)
    art = s.state.current.artifact
    assert "irrigation sensors" in str(art["okrs_q1"]) and "$45 a month" in art["value_proposition"]
    assert s.state.current.rubric.compliance == 100


def test_drift_is_flagged_naming_the_direction_the_artifact_broke(new_session):
    from engine.game.dilemmas import option_directions
    from engine.language.directions import Binding

    s = new_session()
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    s.give(StandupReply, "Speak to organic growers with one site")
    s.give(RunStage)
    run = s.state.current
    binding = Binding(directions=[Direction.from_dict(d) for d in run.binding])
    assert not run.rubric.drift and run.rubric.compliance == 100
    # The same stage written as if another audience had been chosen breaks the recalled one.
    wrong = Binding(
        directions=option_directions(
            "strategist.breadth",
            base=Direction(axis="price", value="", amount=50),
            customer="hobby gardeners",
            stage=None,
        )
    )
    stage = s.state.stage
    art = simulate_artifact(
        "strategist",
        founder=s.state.founder,
        stage=stage,
        binding=wrong,
        economics=s.state.economics,
        seed=1,
        attempt=1,
    )
    rub = evaluate(
        "strategist",
        art,
        goal=stage.goal,
        founder_keywords=s.state.founder.keywords,
        binding=binding,
    )
    assert rub.drift and rub.compliance < 60 and rub.final < 70
    broke = [v for v in rub.violations if v["axis"] == "audience"]
    assert broke and broke[0]["line"].startswith("DRIFT: speaks to")
    assert "organic growers" in broke[0]["line"] and broke[0]["line"] in rub.notes


def test_two_runs_in_one_save_dir_never_see_each_others_memories(new_session):
    a = new_session(pitch="Bike repair subscriptions for city couriers")
    b = new_session(pitch="Tax filing help for freelance illustrators")
    play(a, Plan(path="A" * 8, said={"reject": {"stage_1_you": ["mention courier insurance"]}}))
    a_texts = {m.text for m in a.memory.records()}
    b.give(RunStage)
    b_records = b.memory.records()
    assert {m.run_id for m in b_records} == {b.state.run_id}
    assert not a_texts & {m.text for m in b_records}
    block = b.state.current.memory_block
    assert "courier" not in block.lower()
    assert a.state.run_id != b.state.run_id


def test_a_workers_note_event_says_what_the_note_holds(new_session):
    s = new_session()
    s.give(RunStage)
    notes = [m for m in s.memory.records() if m.author == "worker"]
    assert notes, "the simulated worker writes a finding"
    said = [e.message for e in s.events() if e.type == "MEMORY_WRITTEN" and e.actor != "memory"]
    assert said and all(m.startswith("worker note ") for m in said)
    assert any(notes[0].text[:30] in m for m in said)  # its words, not only its id
    assert not any(notes[0].id in m for m in said)


def test_the_standups_playbook_line_is_the_decisions_own(new_session):
    """Each option's record names the playbook line its standup cites: two options of one fork
    are backed by their own lines, and the line is in the section the tool names."""
    from engine.game.rules import RULES

    cited = {}
    for key in ("1", "2"):
        s = new_session()
        s.give(RunStage)
        s.give(Approve)
        rule = RULES[s.state.dilemma.options[int(key) - 1].rule_id]
        s.give(Decide, key)
        turn = next(t for t in s.state.standup if t.tool == "search_knowledge")
        heading = rule.playbook.partition(" | ")[0].split(" / ")[-1]
        assert turn.tool_result.lower() == heading.lower()
        assert turn.speaker in {w.title for w in s.state.org}  # a worker speaks, not a section
        cited[key] = turn.line
    assert cited["1"] != cited["2"]


def test_the_rivals_name_typed_in_lower_case_binds_as_the_venture_spells_it(new_session):
    """ "dont mention pipeline partners" bound "leave out pipeline partners": the binding line
    and the memory pane named the rival in the player's lower case."""
    from engine.session.commands import Reject

    s = new_session()
    rival = s.state.antagonist.name
    s.give(RunStage)
    s.give(Reject, f"too generic, and dont mention {rival.lower()}")
    binding = s.state.current.binding if s.state.current else []
    values = [Direction.from_dict(d).value for d in binding]
    assert rival in values and rival.lower() not in values


def test_the_rival_called_so_is_left_out_by_name(new_session):
    """ "dont mention the rival" bound "leave out rival", and the redo said "Mentions of 'rival'
    were already gone" while it still named the rival in its goals (in play)."""
    from engine.session.commands import Reject

    s = new_session()
    rival = s.state.antagonist.name
    s.give(RunStage)
    s.give(Reject, "too generic. dont mention the rival")
    binding = s.state.current.binding if s.state.current else []
    leave_out = [Direction.from_dict(d) for d in binding]
    assert [(d.axis, d.value) for d in leave_out if not d.do] == [("exclusion", rival)]
    assert s.state.current is not None and s.state.current.attempt == 2
    said = {k: v for k, v in s.state.current.artifact.items() if rival in str(v)}
    assert list(said) == ["follows_decision"], said  # only the note that says its mentions are gone


def test_an_own_answer_leaves_out_the_rival_by_name_too(new_session):
    """The rival called so was named in a rejection and a standup reply but not in an own
    answer: every reader of the player's words takes the venture's names the same way."""
    s = new_session()
    rival = s.state.antagonist.name
    s.give(RunStage)
    s.give(Approve)
    read = DecideOwn.from_said("A, and dont mention the rival").read(s.state)
    assert [d.value for d in read.directions if not d.do] == [rival]
