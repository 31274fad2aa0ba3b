"""Text without slips: over a sweep of 24 ventures (pitches, seeds, founders, fork paths, a
rejection, an own answer and a standup reply each), every string a player reads (the board's
Story pane at every step, the receipts, the memory rows, the replay log rows, the end card, the
exported report, the CLI's `simulate` output) is checked for a wrong article, a plural after
every/each, a doubled word or stem, doubled punctuation and internal ids (tests/slips.py)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.config import Settings
from engine.game.rules import RULES
from engine.play.headless import Plan, next_command
from engine.routing import Router
from engine.session.api import GameSession
from engine.views.render import render_artifact, shipped
from engine.views.report import render_report
from tests.slips import slips
from worldforge_tui.cli import main
from worldforge_tui.replay_entries import entry_from_event
from worldforge_tui.screens.end import report_card
from worldforge_tui.widgets.memory_pane import record_prompt
from worldforge_tui.widgets.receipt_pane import receipt_content
from worldforge_tui.widgets.story_pane import story_content

PITCHES = (
    "Meal kits for night-shift nurses",
    "Repair bookings for independent bike shops",
    "Bookkeeping for freelance illustrators",
    "Allergen-free bakery boxes for schools",
    "Route planning for rural couriers",
    "Tutoring marketplace for adult learners",
    "Seed subscriptions for urban gardeners",
    "Inventory tracking for small breweries",
)
ARCHETYPES = ("builder", "seller", "designer", "operator")
REJECTIONS = ("The audience is far too broad", "price it at $27 a month", "cut the jargon")
OWN = ("Go with paid ads but keep the price low", "Neither: interview ten customers first")
REPLIES = ("Keep it plain and name the customer", "No discounts this month")
VENTURES = 24
CLI_EVERY = 4  # the CLI's own output, for every fourth venture (each plays the venture again)
IDS = frozenset(RULES)


def plan_for(i: int) -> tuple[Plan, list[str]]:
    """The venture's plan, and the same as `simulate` options."""
    path = "".join("AB"[(i >> k) & 1] for k in range(8))
    options = {
        "decide": path,
        "reject": [f"{1 + i % 3}:{REJECTIONS[i % len(REJECTIONS)]}"],
        "decide_own": [f"{4 + i % 2}:{OWN[i % len(OWN)]}"],
        "standup_reply": [f"{2 + i % 3}:{REPLIES[i % len(REPLIES)]}"],
    }
    argv = ["--choose", path]
    for flag, name in (
        ("--reject", "reject"),
        ("--own", "decide_own"),
        ("--reply", "standup_reply"),
    ):
        for said in options[name]:
            argv += [flag, said]
    return Plan.from_cli(options), argv


def venture_texts(i: int, tmp_path) -> list[tuple[str, str]]:
    """(where, text) for everything venture `i` shows a player, step by step."""
    pitch, seed, archetype = PITCHES[i % len(PITCHES)], 100 + i, ARCHETYPES[i % 4]
    plan, argv = plan_for(i)
    session = GameSession.start_venture(
        pitch=pitch,
        seed=seed,
        archetype=archetype,
        save_dir=tmp_path / f"v{i}",
        router=Router(Settings()),
    )
    texts: list[tuple[str, str]] = []
    given: Counter[tuple[str, str]] = Counter()
    try:
        while True:
            snap = session.snapshot()
            texts.append(("board", story_content(snap).plain))
            texts.append(("receipt", receipt_content(snap.last_receipt, snap.memory_store).plain))
            texts += [("note", record_prompt(r, False, snap.day).plain) for r in snap.memory]
            if session.state.phase == "ended":
                break
            kind, said = next_command(session, plan, given)
            session.give(kind, said)
        texts.append(("end card", report_card(snap).plain))
        texts.append(("report", render_report(session.read_model())))
        rows = [entry_from_event(e) for e in session.events()]  # each column on its own
        texts += [("log", f"{row.actor}: {row.message}") for row in rows]
    finally:
        session.close()
    if i % CLI_EVERY == 0:
        cli = ["simulate", "--pitch", pitch, "--seed", str(seed), "--archetype", archetype]
        texts.append(("cli", json.dumps([*cli, "--save-dir", str(tmp_path / f"c{i}"), *argv])))
    return texts


@pytest.fixture(scope="module")
def swept(tmp_path_factory) -> list[tuple[int, str, str]]:
    tmp = tmp_path_factory.mktemp("sweep")
    return [(i, where, text) for i in range(VENTURES) for where, text in venture_texts(i, tmp)]


def test_the_checker_names_each_slip_the_players_met():
    met = {
        "only a operator founder gets this option": "article",
        "Every replies problem gets a cause written down": "agreement",
        "Consolidation consolidated: sem-bb3b03543c5c": "doubled word",
        "call it EarPiece.; then ship": "doubled punctuation",
        "CEO chose 'Full time' at YOU (founder.full_time)": "rule id",
        "day 0 · user_profile · active · local-sqlite": "memory kind",
        "Merged into sem-bb3b03543c5c": "note id",
        "the the busiest nurses": "doubled word",
    }
    for text, kind in met.items():
        assert any(found.startswith(kind) for found in slips(text, IDS)), (text, slips(text, IDS))
    clean = [
        "only an operator founder gets this option",
        "Every problem with replies gets a cause written down",
        "a user, an hour, a one-off, an MVP, a European launch, every business, each has one",
        "Merged three notes into one: Pipeline Partners watch the price.",
        "Wait… then ship. Price: $29 a month; 3.5 months of runway.",
    ]
    for text in clean:
        assert slips(text, IDS) == [], text


def test_a_sweep_of_ventures_shows_no_slip_and_no_internal_id(swept, capsys):
    found = []
    for i, where, text in swept:
        shown = text
        if where == "cli":  # the CLI line is the argv; its output is what is checked
            assert main(json.loads(text)) == 0
            out = capsys.readouterr()
            shown = out.out + out.err
        found += [f"venture {i} {where}: {slip}" for slip in slips(shown, IDS)]
    assert len({i for i, _, _ in swept}) == VENTURES
    assert found == []


def test_the_report_lists_an_artifacts_fields_in_the_boards_order(tmp_path):
    """The save keeps a payload's keys sorted: the report once listed an artifact's fields
    alphabetically by key while the board listed them as the worker's contract orders them."""
    session = GameSession.start_venture(
        pitch=PITCHES[0], seed=7, save_dir=tmp_path, router=Router(Settings())
    )
    board: dict[str, list[str]] = {}
    given: Counter[tuple[str, str]] = Counter()
    try:
        while session.state.phase != "ended":
            snap = session.snapshot()
            if snap.phase == "gate" and snap.current is not None:
                sid = snap.stages[snap.stage_index].id
                board[sid] = [b.label for b in render_artifact(snap.current.artifact)]
            kind, said = next_command(session, Plan(), given)
            session.give(kind, said)
        exported = shipped(session.events())
        gated = [s.id for s in session.state.stages if s.score is not None]
    finally:
        session.close()
    # a venture of 7 to 9 stages; one that ends in a stage's run never shows its gate
    assert set(board) <= set(gated) and len(board) >= 7
    for sid, labels in board.items():  # what the report renders (artifact_markdown)
        assert [b.label for b in render_artifact(exported[sid]["artifact"])] == labels, sid
