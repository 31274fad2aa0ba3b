"""A model tier may help place what the reader could not, never decide alone (issue 43): a part
the reader left unread is offered to a real loopback OpenAI-compatible server as a constrained
choice; the suggestion is shown marked with its model, binds only when the player confirms the
command that carries it, and is recorded so replay binds it again without any model."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.config import Settings
from engine.errors import SaveError
from engine.language.reader.read import read_text
from engine.language.suggested import Suggestion, check, offerable, with_suggestions
from engine.routing import Router
from engine.routing.router import model_tier_ready
from engine.session.commands import Approve, Decide, Reject, RunStage, StandupReply, from_record
from engine.session.replay import verify
from engine.workers.suggest import SYSTEM, schema
from tests.routing.helpers import local_settings
from tests.servers.fixtures import fake_openai_factory  # noqa: F401 - the fixture
from tests.servers.openai_server import FakeOpenAI

PITCH = "Refill subscriptions for office coffee in Leeds"
REPLY = "speak to law firms. keep away from the word revolutionary"
UNREAD = "keep away from the word revolutionary"


@pytest.fixture
def server(fake_openai_factory: Any) -> FakeOpenAI:  # noqa: F811 - the imported fixture
    """One loopback OpenAI-compatible server on 127.0.0.1 (port 0), stopped at teardown."""
    made: FakeOpenAI = fake_openai_factory("ollama")
    return made


def answering(*placements: dict[str, Any]) -> Any:
    """The server's answer: the placements to the suggestion call, nothing valid to anything else
    (a worker asked here falls back to the simulation, labelled)."""

    def payload(body: dict[str, Any]) -> str:
        system = str(body.get("messages", [{}])[0].get("content", ""))
        if system.startswith(SYSTEM[:40]):
            return json.dumps({"placements": list(placements)})
        return "{}"

    return payload


def at_standup(new_session: Any) -> Any:
    s = new_session(pitch=PITCH)
    s.give(RunStage)
    s.give(Approve)
    s.give(Decide, "A")
    assert s.state.standup and not s.state.standup_answered
    return s


def suggested(s: Any, server: FakeOpenAI, command: Any, **extra: Any) -> tuple[Any, str]:
    """Ask the loopback model for the command's suggestions, then go back to the simulation
    (the workers' own calls are not what these tests are about)."""
    s.router.update_settings(local_settings(server.url, **{"agent_request_timeout": 30.0, **extra}))
    model_tier_ready().result()  # the client's first import is not what these tests are about
    try:
        return s.suggest(command)
    finally:
        s.router.update_settings(Settings(demo_mode="simulation"))


def test_a_valid_suggestion_is_shown_marked_and_binds_only_when_confirmed(new_session, server):
    server.set_payload(
        answering({"part": 1, "axis": "exclusion", "do": False, "words": "revolutionary"})
    )
    s = at_standup(new_session)
    plain = StandupReply(REPLY)
    inputs, events = len(s.inputs), len(s.events())
    command, line = suggested(s, server, plain)
    assert line.startswith("Suggested by local: qwen2.5: “revolutionary” as exclusion")
    [sug] = command.suggested
    assert (sug.axis, sug.do, sug.value, sug.by) == (
        "exclusion",
        False,
        "revolutionary",
        "local: qwen2.5",
    )
    assert REPLY[sug.start : sug.end] == "revolutionary" and sug.why == "vague"
    # asking wrote nothing: no input, no event, no memory
    assert len(s.inputs) == inputs and len(s.events()) == events
    # shown first, marked with its model; the words alone still bind nothing of that part
    preview = command.preview(s.state)
    assert preview is not None and "Suggested by local: qwen2.5" in preview.says
    assert "leave out revolutionary (suggested by local: qwen2.5)" in preview.will_change
    assert "revolutionary" not in (plain.preview(s.state) or preview).will_change
    # confirmed: it binds, recorded in the command and in the event's reading
    s.execute(command)
    note = s.memory.records(kinds=["procedural"])[-1]
    bound = [d for d in note.payload["directions"] if d["axis"] == "exclusion"]
    assert bound == [
        {
            **bound[0],
            "value": "revolutionary",
            "do": False,
            "note": "suggested by local: qwen2.5",
        }
    ]
    assert s.inputs[-1]["suggested"][0]["value"] == "revolutionary"
    reply = next(e for e in s.events() if e.type == "CEO_STANDUP_RESPONSE")
    assert reply.payload["reading"]["suggested"][0]["axis"] == "exclusion"
    assert reply.payload["reading"]["unread"] == []


def test_the_player_who_does_not_confirm_binds_only_what_the_reader_read(new_session, server):
    server.set_payload(
        answering({"part": 1, "axis": "exclusion", "do": False, "words": "revolutionary"})
    )
    s = at_standup(new_session)
    command, _line = suggested(s, server, StandupReply(REPLY))
    assert command.suggested
    s.execute(StandupReply(REPLY))  # the words as typed: the suggestion was declined
    note = s.memory.records(kinds=["procedural"])[-1]
    assert [d["axis"] for d in note.payload["directions"]] == ["audience"]
    assert "suggested" not in s.inputs[-1]


@pytest.mark.parametrize(
    ("placement", "why"),
    [
        # words the player never wrote (the model's own), and a part of a word
        (
            {"part": 1, "axis": "claim", "do": False, "words": "revolutionary claims"},
            "words that are not yours",
        ),
        (
            {"part": 1, "axis": "exclusion", "do": False, "words": "revolution"},
            "words that are not yours",
        ),
        # an axis outside the enum, and one a span cannot fill
        (
            {"part": 1, "axis": "vibe", "do": False, "words": "revolutionary"},
            "an axis outside the list",
        ),
        (
            {"part": 1, "axis": "price", "do": True, "words": "revolutionary"},
            "an axis outside the list",
        ),
        # something to leave out, offered as something to do: never the opposite
        ({"part": 1, "axis": "exclusion", "do": True, "words": "revolutionary"}, "leave out"),
        ({"part": 4, "axis": "exclusion", "do": False, "words": "revolutionary"}, "no part 4"),
        # whole words of the player's that name nothing
        ({"part": 1, "axis": "exclusion", "do": False, "words": "keep away from"}, "names nothing"),
    ],
)
def test_an_invalid_placement_is_discarded_and_the_part_stays_unread(
    new_session, server, placement, why
):
    server.set_payload(answering(placement))
    s = at_standup(new_session)
    command, line = suggested(s, server, StandupReply(REPLY))
    assert command.suggested == ()
    assert why in line and f"“{UNREAD}” stays unread" in line
    preview = command.preview(s.state)
    assert preview is not None and preview.unread == (UNREAD,)


def test_a_model_that_places_nothing_leaves_the_part_unread(new_session, server):
    server.set_payload(answering({"part": 1, "axis": "none", "do": True, "words": "word"}))
    s = at_standup(new_session)
    command, line = suggested(s, server, StandupReply(REPLY))
    assert command.suggested == () and line == f"“{UNREAD}” stays unread."


def test_a_model_that_times_out_leaves_the_part_unread_in_one_line(new_session, server):
    server.set_payload(
        answering({"part": 1, "axis": "exclusion", "do": False, "words": "revolutionary"})
    )
    server.set_default("hang")
    s = at_standup(new_session)
    command, line = suggested(
        s, server, StandupReply(REPLY), agent_request_timeout=0.5, agent_max_retries=0
    )
    server.release_hangs()
    assert command.suggested == ()
    assert line.startswith("No suggestion (local: ") and f"“{UNREAD}” stays unread." in line
    assert "\n" not in line
    s.execute(command)  # the words go on as the reader read them: nothing lost
    assert s.state.standup_answered


def test_the_offline_game_never_asks(new_session, monkeypatch):
    s = at_standup(new_session)

    def no_call(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the simulation tier asked a model")

    monkeypatch.setattr(Router, "call", no_call)
    command = StandupReply(REPLY)
    assert s.suggest(command) == (command, "")


def test_a_rejection_carries_its_suggestion_through_the_redo_and_replays_without_a_model(
    new_session, server
):
    said = "start with law firms and hire a barista for the launch"
    server.set_payload(answering({"part": 1, "axis": "scope", "do": True, "words": "a barista"}))
    s = new_session(pitch=PITCH)
    s.give(RunStage)
    command, line = suggested(s, server, Reject(said))
    # the words as the reader cuts a value: the article off
    assert [x.value for x in command.suggested] == ["barista"], line
    preview = command.preview(s.state)
    assert preview is not None and preview.unread == ()
    assert "centre the work on barista (suggested by local: qwen2.5)" in preview.will_change
    s.execute(command)  # the redo runs on the simulation tier
    rejected = next(e for e in s.events() if e.type == "ARTIFACT_REJECTED")
    assert "centre the work on barista" in rejected.payload["binding"]
    s.give(Approve)
    s.give(Decide, "B")
    report = verify(s.conn, s.state.run_id)
    assert report.ok and report.mode == "simulation", report.first_difference


def test_the_request_carries_the_enums_and_the_checks_hold_without_them():
    reading = read_text(REPLY, source="standup", period="month")
    parts = offerable(reading)
    placements = schema(reading.text, parts)["properties"]["placements"]
    assert placements["minItems"] == placements["maxItems"] == 1  # one answer for each part
    anything, leave_out = (shape["properties"] for shape in placements["items"]["anyOf"])
    assert anything["axis"]["enum"][-1] == "none" and "price" not in anything["axis"]["enum"]
    assert leave_out["axis"]["enum"] == ["exclusion", "claim"]
    assert leave_out["do"] == {"const": False}  # never the opposite, in the grammar too
    # the words: runs of the part the reader would cut as a value, never part of a word nor a
    # run that starts or ends with a small word
    assert anything["words"]["enum"] == ["word", "word revolutionary", "revolutionary"]
    assert anything["part"]["enum"] == [1]
    # what a server that ignores the grammar may send, judged one placement at a time
    kept, dropped = check(
        {
            "placements": [
                {"part": 1, "axis": "exclusion", "do": False, "words": " the word revolutionary "},
                {"part": 1, "axis": "claim", "do": False, "words": "revolutionary"},
            ]
        },
        reading.text,
        parts,
        "foundry: gpt-5-mini",
    )
    assert [k.value for k in kept] == ["word revolutionary"] and dropped == [
        "a second placement of part 1"
    ]


def test_a_recorded_suggestion_binds_only_where_it_fits_the_words():
    reading = read_text(REPLY, source="standup", period="month")
    [part] = offerable(reading)
    at = REPLY.index("revolutionary")
    good = Suggestion(
        part.start, part.end, "vague", "claim", False, at, at + 13, "revolutionary", "x"
    )
    assert "-claim:revolutionary" in with_suggestions(reading, [good]).summary()
    moved = Suggestion(part.start, part.end, "vague", "claim", False, 0, 5, "speak", "x")
    assert with_suggestions(reading, [moved]).summary() == reading.summary()
    record = StandupReply(REPLY, suggested=(good,)).record()
    assert from_record(record) == StandupReply(REPLY, suggested=(good,))
    record["suggested"][0]["axis"] = "price"
    with pytest.raises(SaveError, match="not one it may take"):
        from_record(record)


def test_simulate_json_shows_the_suggestion_in_the_reading_and_binds_nothing(
    tmp_path, monkeypatch, capsys, server
):
    """Headless: the reading --json gives carries the model's placement, marked, and the one
    line; a script confirms nothing, so the rejection binds what the reader read."""
    from tests.routing.helpers import local_env
    from worldforge_tui.cli import main

    server.set_payload(answering({"part": 1, "axis": "scope", "do": True, "words": "a barista"}))
    local_env(monkeypatch, server.url)
    monkeypatch.setenv("AGENT_REQUEST_TIMEOUT", "30")
    model_tier_ready().result()
    said = "start with law firms and hire a barista for the launch"
    argv = ["simulate", "--save-dir", str(tmp_path), "--pitch", PITCH, "--reject", f"1:{said}"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    [reading] = out["readings"]
    assert [u["words"] for u in reading["unread"]] == ["hire a barista for the launch"]
    [placed] = reading["suggested"]
    assert (placed["axis"], placed["value"], placed["by"]) == (
        "scope",
        "barista",
        "local: qwen2.5",
    )
    assert reading["suggested_line"].startswith("Suggested by local: qwen2.5: “barista” as scope")
    assert out["binds_nothing"][0]["parts"] == ["hire a barista for the launch"]
    rejected = next(s for s in out["stages"] if s.get("redos"))
    assert rejected["redos"] == 1


def test_a_dont_on_people_a_channel_or_a_theme_is_a_thing_to_leave_out():
    """As the reader reads a negated segment: never the opposite, and never nothing."""
    reading = read_text(REPLY, source="standup", period="month")
    kept, _dropped = check(
        {"placements": [{"part": 1, "axis": "audience", "do": False, "words": "revolutionary"}]},
        reading.text,
        offerable(reading),
        "local: m",
    )
    assert [(k.axis, k.do, k.value) for k in kept] == [("exclusion", False, "revolutionary")]
    bound = with_suggestions(reading, kept)
    assert "-exclusion:revolutionary" in bound.summary() and bound.unread == []


def test_the_models_own_text_never_reaches_the_line(server, new_session):
    """Markup, terminal escapes or a secret in a model's answer are discarded, never echoed."""
    server.set_payload(
        answering(
            {"part": 1, "axis": "\x1b[31m[b]sk-live-123", "do": False, "words": "revolutionary"},
        )
    )
    s = at_standup(new_session)
    command, first = suggested(s, server, StandupReply(REPLY))
    assert command.suggested == () and "an axis outside the list" in first
    server.set_payload(
        answering({"part": 1, "axis": "claim", "do": False, "words": "[/]\x1b]0;pwn\x07"})
    )
    command, second = suggested(s, server, StandupReply(REPLY))
    assert command.suggested == () and "words that are not yours" in second
    for line in (first, second):
        assert not any(bad in line for bad in ("\x1b", "[/]", "[b]", "sk-live", "pwn"))


def test_an_own_answer_carries_a_confirmed_suggestion_into_the_decision(new_session, server):
    from engine.session.commands import DecideOwn

    server.set_payload(
        answering({"part": 1, "axis": "claim", "do": False, "words": "revolutionary"})
    )
    s = new_session(pitch=PITCH)
    s.give(RunStage)
    s.give(Approve)
    said = "the first one. keep away from the word revolutionary"
    command, line = suggested(s, server, DecideOwn(said))
    assert [(x.axis, x.value) for x in command.suggested] == [("claim", "revolutionary")], line
    preview = command.preview(s.state)
    assert preview is not None and "Suggested by local: qwen2.5" in preview.says
    assert "never claim revolutionary (suggested by local: qwen2.5)" in preview.says
    assert "revolutionary" not in (DecideOwn(said).preview(s.state) or preview).says
    s.execute(command)
    decision = next(e for e in s.events() if e.type == "CEO_DECISION")
    claims = [d for d in decision.payload["directions"] if d["axis"] == "claim"]
    assert [(d["value"], d["note"]) for d in claims] == [
        ("revolutionary", "suggested by local: qwen2.5")
    ]
    assert verify(s.conn, s.state.run_id).ok


def test_a_standing_order_is_never_offered_to_the_model(new_session, server):
    """ "freeze hiring" binds as an order at the next fork: only the part nothing places is asked."""
    server.set_payload(answering({"part": 1, "axis": "none", "do": True, "words": "cake"}))
    s = at_standup(new_session)
    suggested(s, server, StandupReply("freeze hiring, and bake a cake for the team"))
    [asked] = [r for r in server.state.requests if r.body and r.path.endswith("completions")]
    user = asked.body["messages"][-1]["content"]
    assert "1. “bake a cake for the team”" in user and "2." not in user
    assert "“freeze hiring”" not in user
