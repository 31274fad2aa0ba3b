"""A whole venture played by keys only: reject with a reason, approve, options, own answer, reply."""

from __future__ import annotations

import pytest

from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.replay_log import ReplayLog

MAX_KEYS = 60


async def type_text(pilot, text: str) -> None:
    await pilot.press(*[("space" if ch == " " else ch) for ch in text])


async def test_full_venture_by_keys(tmp_path):
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate" and app.snap.current.served_by == "simulation"
        assert "Score" in text_of(app, "#story-body")

        # reject with a reason: the worker redoes the stage with it as binding direction
        await pilot.press("r")
        await type_text(pilot, "name the nurse")
        await pilot.press("enter")
        await settle(app, pilot)
        stage = app.session.state.stages[0]
        assert stage.redos == 1 and app.snap.phase == "gate"
        assert app.session.state.directive.source == "rejection"
        # the story's binding line is what memory recalled for the redo, in words
        binding = [ln for ln in text_of(app, "#story-body").splitlines() if "Binding:" in ln]
        assert binding and "nurse" in binding[0] and "(" not in binding[0]  # no rule id

        await pilot.press("a")
        await settle(app, pilot)
        assert app.snap.phase == "fork" and "Fork:" in text_of(app, "#story-body")
        await pilot.press("a")  # not possible at the fork: refused with a notice, state unchanged
        await settle(app, pilot)
        assert app.snap.phase == "fork"

        await pilot.press("1")
        await settle(app, pilot)
        receipt = text_of(app, "#receipt-body")
        assert "You decided" in receipt and "Consequence applied" in receipt
        assert "Workers learned" in receipt and "BINDING" in receipt and "Next brief" in receipt
        assert "treasury" in receipt and "→" in receipt
        assert app.snap.standup_open  # the standup waits for a reply or `g`

        await pilot.press("t")
        await type_text(pilot, "keep it simple")
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session.state.directive.source == "standup"
        assert app.snap.phase == "brief"  # the reply binds the next stage; it does not run it
        assert not app.snap.standup_open
        await pilot.press("g")
        await settle(app, pilot)
        assert app.snap.phase == "gate"

        decided = answered = 1
        for _ in range(MAX_KEYS):  # bounded: a venture is 7 stages of at most a few keys each
            if app.snap.phase == "ended":
                break
            phase = app.snap.phase
            if phase == "gate":
                await pilot.press("a")
            elif phase == "fork" and decided == 3:
                await pilot.press("o")
                await type_text(pilot, "partner with hospital unions")
                await pilot.press("enter")
                await settle(app, pilot)
                assert app.screen.__class__.__name__ == "ConfirmScreen"  # the reading, shown first
                assert app.snap.phase == "fork"  # nothing committed yet
                await pilot.press("y")
                decided += 1
            elif phase == "fork":
                await pilot.press("2" if decided % 2 else "1")
                decided += 1
            elif phase == "brief" and app.snap.pending_event is not None:
                await pilot.press("g")  # refused: an event is never answered for the player
                await settle(app, pilot)
                assert app.snap.pending_event is not None and app.snap.phase == "brief"
                await pilot.press("1")
                answered += 1
            elif phase == "brief":
                await pilot.press("g")
            else:
                pytest.fail(f"unexpected phase {phase!r} while playing on")
            await settle(app, pilot)
        else:
            pytest.fail(f"the venture did not end within {MAX_KEYS} key presses")

        state = app.session.state
        assert state.outcome is not None
        assert answered > 1  # at least one event waited, and the player answered it
        options = [s.decision.option for s in state.stages if s.decision is not None]
        assert "own" in options and "A" in options and "B" in options
        assert app.screen.__class__.__name__ == "EndScreen"
        card = text_of(app, "#end-card")
        assert state.outcome.result.upper() in card and "Decisions" in card

        await pilot.press("e")  # export from the end screen
        await settle(app, pilot)
        (report,) = (tmp_path / "reports").glob("*.md")  # the one report, where export writes it
        first_line = report.read_text(encoding="utf-8").splitlines()[0]
        assert first_line.startswith("# ") and first_line.endswith(": report card")

        log = app.main.query_one(ReplayLog)
        log.flush()
        ids = [e.id for e in log.entries if e.id]
        assert ids == [e.id for e in app.session.events()]
