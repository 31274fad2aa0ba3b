"""Every action-bar button works by mouse: each phase's buttons are clicked and do what they say."""

from __future__ import annotations

from tests.tui.conftest import settle
from worldforge_tui import actions
from worldforge_tui.app import WorldForgeApp

PITCH = "Meal kits for night-shift nurses"


async def click(app, pilot, button_id: str) -> None:
    button = app.main.query_one(f"#{button_id}")
    assert button.display and not button.disabled, f"{button_id} is not clickable"
    assert await pilot.click(f"#{button_id}"), f"{button_id} was not under the pointer"
    await pilot.pause()


async def prompt_opens_and_cancels(app, pilot, button_id: str) -> None:
    await click(app, pilot, button_id)
    assert app.screen.__class__.__name__ == "TextPromptScreen", button_id
    await pilot.press("escape")
    await pilot.pause()
    assert app.screen.__class__.__name__ == "MainScreen"


async def test_every_button_of_every_phase_works_by_mouse(tmp_path):
    app = WorldForgeApp(pitch=PITCH, seed=7, save_dir=tmp_path)
    clicked: set[str] = set()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        await prompt_opens_and_cancels(app, pilot, "btn-reject")
        await click(app, pilot, "btn-approve")
        await settle(app, pilot)
        assert app.snap.phase == "fork"
        clicked |= {"btn-reject", "btn-approve"}

        await prompt_opens_and_cancels(app, pilot, "btn-own")
        await click(app, pilot, "btn-option-b")
        await settle(app, pilot)
        assert app.session.state.stages[0].decision.option == "B"
        assert app.snap.phase == "brief" and app.snap.standup_open
        clicked |= {"btn-own", "btn-option-b"}

        await prompt_opens_and_cancels(app, pilot, "btn-reply")
        await click(app, pilot, "btn-run")
        await settle(app, pilot)
        assert app.snap.phase == "gate" and app.snap.stage_index == 1
        clicked |= {"btn-reply", "btn-run"}

        await click(app, pilot, "btn-approve")
        await settle(app, pilot)
        await click(app, pilot, "btn-option-a")
        await settle(app, pilot)
        assert app.session.state.stages[1].decision.option == "A"
        clicked.add("btn-option-a")

        for _ in range(40):  # on to a waiting event: its answers are buttons too
            if app.snap.pending_event is not None or app.snap.phase == "ended":
                break
            shown = {"gate": "btn-approve", "fork": "btn-option-a", "brief": "btn-run"}
            await click(app, pilot, shown[app.snap.phase])
            await settle(app, pilot)
        assert app.snap.pending_event is not None
        await click(app, pilot, "btn-event-b")
        await settle(app, pilot)
        assert app.snap.pending_event is None
        clicked |= {"btn-event-a", "btn-event-b"}  # (a and b are one row each of one command)
    assert clicked == {row.button for row in actions.button_rows()}
