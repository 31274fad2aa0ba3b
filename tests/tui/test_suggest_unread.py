"""The words the game could not read go to the configured model before the player confirms
(issue 43: model tiers may help, never decide alone): with a real loopback model as the local
tier, a rejection's unread part comes back as a suggestion marked with its model, binds only
once confirmed and carries its model in the bound direction; Esc during the call brings the words
back unchanged; a model that fails or never answers leaves the reading as read, with its one
line; on the simulation tier no model is asked."""

from __future__ import annotations

import json
from typing import Any

from textual.widgets import Input

from engine.config import Settings
from engine.routing import Router
from engine.workers.suggest import SYSTEM
from tests.servers.fixtures import MODEL_PITCH, MODEL_SEED
from tests.servers.openai_server import FakeOpenAI
from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.widgets.action_bar import ActionBar

SAID = "speak to law firms. keep away from the word revolutionary"
PLACED = {"part": 1, "axis": "exclusion", "do": False, "words": "revolutionary"}


def asks(body: dict[str, Any]) -> bool:
    """Whether a chat request is the suggestion call (not a worker's)."""
    return str(body["messages"][0]["content"]).startswith(SYSTEM[:40])


def model_server(factory: Any, artifact: dict[str, Any], **kwargs: Any) -> FakeOpenAI:
    """A loopback model that places the unread part and writes the worker's artifact."""

    def payload(body: dict[str, Any]) -> str:
        if asks(body):
            return json.dumps({"placements": [PLACED]})
        if "speaking at a standup" in body["messages"][0]["content"]:
            return json.dumps({"line": "Heard the call; I will fold it into this week's work."})
        return json.dumps(artifact)

    server: FakeOpenAI = factory("ollama", payload=payload, **kwargs)
    return server


def local_settings(server: FakeOpenAI, **extra: object) -> Settings:
    return Settings.from_values(
        {
            "demo_mode": "local",
            "local_agent_base_url": server.url,
            "local_agent_model": "qwen2.5",
            "agent_request_timeout": 60,
            **extra,
        }
    )


def local_router(server: FakeOpenAI) -> Router:
    return Router(local_settings(server))


def suggestion_calls(server: FakeOpenAI) -> int:
    return sum(1 for r in server.chat_requests if r.body is not None and asks(r.body))


async def reject_with(app: WorldForgeApp, pilot: Any, said: str) -> None:
    await pilot.press("r")
    await settle(app, pilot)
    assert app.screen.__class__.__name__ == "TextPromptScreen"
    app.screen.query_one(Input).value = said
    await pilot.press("enter")


async def test_the_model_places_an_unread_part_and_it_binds_once_confirmed(
    tmp_path, fake_openai_factory, first_artifact
):
    server = model_server(fake_openai_factory, first_artifact)
    app = WorldForgeApp(
        pitch=MODEL_PITCH, seed=MODEL_SEED, save_dir=tmp_path, router=local_router(server)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        await reject_with(app, pilot, SAID)
        await settle(app, pilot)
        assert suggestion_calls(server) == 1
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        shown = text_of(app, ".dialog-title")
        assert "Suggested by local: qwen2.5" in shown
        assert "leave out revolutionary (suggested by local: qwen2.5)" in shown
        assert app.session.state.stage.redos == 0  # asking recorded nothing
        await pilot.press("y")
        await settle(app, pilot)
        assert app.session.state.stage.redos == 1
        rejected = next(e for e in app.session.events() if e.type == "ARTIFACT_REJECTED")
        assert "leave out revolutionary" in rejected.payload["binding"]
        bound = [
            d
            for note in app.session.memory.records()
            for d in (note.payload or {}).get("directions", [])
            if d.get("value") == "revolutionary"
        ]
        assert bound and all(
            d["do"] is False and d["note"] == "suggested by local: qwen2.5" for d in bound
        )
        # recorded with the command, so a replay binds it again without asking any model
        [reject] = [i for i in app.session.inputs if i["cmd"] == "reject"]
        assert [x["value"] for x in reject["suggested"]] == ["revolutionary"]


async def test_a_standup_reply_is_offered_too(tmp_path, fake_openai_factory, first_artifact):
    server = model_server(fake_openai_factory, first_artifact)
    app = WorldForgeApp(
        pitch=MODEL_PITCH, seed=MODEL_SEED, save_dir=tmp_path, router=local_router(server)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("1")
        await settle(app, pilot)
        assert app.snap.standup and app.snap.can.get("standup_reply")
        await pilot.press("t")
        await settle(app, pilot)
        app.screen.query_one(Input).value = SAID
        await pilot.press("enter")
        await settle(app, pilot)
        assert suggestion_calls(server) == 1
        assert "Suggested by local: qwen2.5" in text_of(app, ".dialog-title")
        await pilot.press("y")
        await settle(app, pilot)
        note = app.session.memory.records(kinds=["procedural"])[-1]
        bound = [d for d in (note.payload or {})["directions"] if d["axis"] == "exclusion"]
        assert [(d["value"], d["do"], d["note"]) for d in bound] == [
            ("revolutionary", False, "suggested by local: qwen2.5")
        ]


async def test_escape_while_the_model_is_asked_brings_the_words_back(
    tmp_path, fake_openai_factory, first_artifact
):
    server = model_server(fake_openai_factory, first_artifact, stream_piece=2)
    app = WorldForgeApp(
        pitch=MODEL_PITCH, seed=MODEL_SEED, save_dir=tmp_path, router=local_router(server)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        server.state.stream_delay = 0.2  # the model answers slowly, two characters at a time
        await reject_with(app, pilot, SAID)
        for _ in range(2000):  # the call is in flight: its thinking line shows
            if "about the words it could not read" in (
                app.main.query_one(ActionBar).thinking or ""
            ):
                break
            await pilot.pause(0.01)
        else:
            raise AssertionError(text_of(app, ".dialog-title"))
        assert app.busy == "suggest"
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "TextPromptScreen"
        assert app.screen.query_one(Input).value == SAID
        assert app.session.state.stage.redos == 0
        assert suggestion_calls(server) == 1


async def test_a_model_that_never_answers_times_out_and_the_reading_goes_on(
    tmp_path, fake_openai_factory, first_artifact
):
    server = model_server(fake_openai_factory, first_artifact)
    router = local_router(server)
    app = WorldForgeApp(pitch=MODEL_PITCH, seed=MODEL_SEED, save_dir=tmp_path, router=router)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        # from here a model that writes no first token is given up on after half a second
        router.update_settings(local_settings(server, agent_first_token_timeout=0.5))
        server.script("hang")  # the suggestion call: no answer
        await reject_with(app, pilot, SAID)
        await settle(app, pilot)
        server.release_hangs()
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        shown = text_of(app, ".dialog-title")
        assert "No suggestion (local: silent (no first token in" in shown
        assert "Will change: speak to law firms." in shown
        assert app.session.state.stage.redos == 0


async def test_on_the_simulation_tier_no_model_is_asked(tmp_path, fake_openai_factory, monkeypatch):
    server = fake_openai_factory("ollama", payload=lambda body: json.dumps({"placements": []}))
    router = Router(Settings(demo_mode="simulation", local_agent_base_url=server.url))
    app = WorldForgeApp(pitch=MODEL_PITCH, seed=MODEL_SEED, save_dir=tmp_path, router=router)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        asked: list[object] = []  # the session's own suggest, watched: the TUI never calls it
        suggest = app.session.suggest
        monkeypatch.setattr(
            app.session, "suggest", lambda command: asked.append(command) or suggest(command)
        )
        await reject_with(app, pilot, SAID)
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        shown = text_of(app, ".dialog-title")
        assert "Binds nothing: “keep away from the word revolutionary”" in shown
        assert "Suggested by" not in shown and "No suggestion" not in shown
        assert asked == [] and server.chat_requests == []


async def test_a_model_that_fails_leaves_the_reading_as_read_with_its_line(
    tmp_path, fake_openai_factory, first_artifact
):
    server = model_server(fake_openai_factory, first_artifact)
    app = WorldForgeApp(
        pitch=MODEL_PITCH, seed=MODEL_SEED, save_dir=tmp_path, router=local_router(server)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        server.script(*["server_error"] * 6)  # the model fails however often it is asked
        await reject_with(app, pilot, SAID)
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "ConfirmScreen"
        shown = text_of(app, ".dialog-title")
        assert "No suggestion (" in shown
        assert "“keep away from the word revolutionary” stays unread" in shown
        assert "Will change: speak to law firms." in shown
        await pilot.press("y")
        await settle(app, pilot)
        assert app.session.state.stage.redos == 1
        [reject] = [i for i in app.session.inputs if i["cmd"] == "reject"]
        assert "suggested" not in reject
