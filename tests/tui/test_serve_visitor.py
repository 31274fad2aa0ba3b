"""Served in a browser (`worldforge serve`): the settings screen and the event inspector show a
visitor nothing of the host (no host path, no URL the server set), only what the visitor typed."""

from __future__ import annotations

import json
import socket

from textual.widgets import Input, Label, Static

from engine.config import Settings, config_dir
from engine.routing import Router
from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.screens.dialogs import InspectorScreen
from worldforge_tui.screens.settings import SERVER_SET, SettingsScreen


def closed_port_url() -> str:
    """A loopback URL nothing listens on (a model server that is down)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}/v1"


def shown_text(screen) -> str:
    parts = [str(w.render()) for w in screen.query("Static, Label")]
    parts += [f"{w.value} {w.placeholder}" for w in screen.query(Input)]
    return "\n".join(parts)


async def test_served_settings_show_no_host_url_and_keep_it_when_left_blank(
    tmp_path, isolated_home, monkeypatch
):
    monkeypatch.setattr(WorldForgeApp, "is_web", property(lambda self: True))
    host_url = closed_port_url()
    port = host_url.rsplit(":", 1)[1].split("/")[0]
    start = Settings.from_values(
        {"demo_mode": "local", "local_agent_base_url": host_url, "local_agent_model": "tiny"}
    )
    router = Router(start)
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    app.router = router
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        field = screen.query_one("#set-local_agent_base_url", Input)
        assert field.value == "" and field.placeholder == SERVER_SET
        await pilot.click("#settings-copy")  # the .env block, as a visitor may see it
        await pilot.pause()
        await pilot.press("ctrl+t")  # a test against the host's (down) server
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.probe_rows and any(not row["ok"] for row in screen.probe_rows)
        said = shown_text(screen)
        assert "LOCAL_AGENT_BASE_URL=<server URL>" in said
        assert port not in said and "127.0.0.1" not in said and str(isolated_home) not in said
        typed = "http://127.0.0.1:9/v1"  # what the visitor types is shown back to them
        field.value = typed
        await pilot.click("#settings-copy")
        await pilot.pause()
        assert f"LOCAL_AGENT_BASE_URL={typed}" in str(screen.query_one("#settings-env").render())
        field.value = ""  # left blank: the server's URL stays as it was
        kept = screen.current()
        assert kept is not None and kept.local_agent_base_url == host_url


async def test_unserved_settings_show_the_url_as_before(tmp_path, isolated_home):
    host_url = closed_port_url()
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    app.router = Router(Settings.from_values({"local_agent_base_url": host_url}))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("s")
        await pilot.pause()
        assert app.screen.query_one("#set-local_agent_base_url", Input).value == host_url


async def test_served_inspector_shows_placeholders_for_host_paths(
    tmp_path, isolated_home, monkeypatch
):
    monkeypatch.setattr(WorldForgeApp, "is_web", property(lambda self: True))
    saves = tmp_path / "saves"
    payload = {
        "db": str(saves / "r1.sqlite"),
        "keymap": str(config_dir() / "keymap.json"),
        "endpoint": "http://127.0.0.1:8080/v1",
        "note": "kept as it is",
    }
    app = WorldForgeApp(save_dir=saves)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await app.push_screen(InspectorScreen("#3 SETTINGS_CHANGED · day 2", json.dumps(payload)))
        await pilot.pause()
        body = str(app.screen.query_one("#inspector-body", Static).render())
        assert "<save dir>/r1.sqlite" in body and "dir>/keymap.json" in body
        assert "<server URL>" in body and "kept as it is" in body
        assert str(tmp_path) not in body and "8080" not in body
        title = str(app.screen.query_one(".dialog-title", Label).render())
        assert "SETTINGS_CHANGED" in title
