"""User keymap: binding ids remapped from keymap.json; a broken file is reported, never fatal."""

from __future__ import annotations

import json

from textual.widgets import Button

from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp
from worldforge_tui.keymap import load_keymap


def test_load_keymap_valid_missing_and_broken(tmp_path):
    assert load_keymap(tmp_path) == ({}, None)
    (tmp_path / "keymap.json").write_text(json.dumps({"gate.approve": "y"}), encoding="utf-8")
    assert load_keymap(tmp_path) == ({"gate.approve": "y"}, None)
    (tmp_path / "keymap.json").write_text("{nope", encoding="utf-8")
    keymap, problem = load_keymap(tmp_path)
    assert keymap == {} and "ignored" in problem and "\n" not in problem
    (tmp_path / "keymap.json").write_text(json.dumps({"gate.approve": "\x1b"}), encoding="utf-8")
    assert load_keymap(tmp_path)[0] == {}


async def test_rebound_approve_key_plays(tmp_path, isolated_home):
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "keymap.json").write_text(json.dumps({"gate.approve": "y"}), encoding="utf-8")
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        await pilot.press("y")
        await settle(app, pilot)
        assert app.snap.phase == "fork"


async def test_rebind_shows_everywhere_and_unknown_ids_are_reported_once(tmp_path, isolated_home):
    from worldforge_tui.screens.help import keys_content

    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "keymap.json").write_text(
        json.dumps({"gate.approve": "y", "fork.option_a": "7", "gate.aprove": "x", "no.such": "z"}),
        encoding="utf-8",
    )
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(app, pilot)
        board = app.main
        assert str(board.query_one("#btn-approve", Button).label) == "Approve [y]"
        assert "y approve" in str(board.query_one("#action-hint").render())
        assert "y" in keys_content(app.key_of).plain.split("Approve the artifact")[0][-12:]
        titles = [c.title for c in app.get_system_commands(board)]
        assert "Approve artifact (y)" in titles
        assert any(
            b.binding.id == "gate.approve" and k == "y" for k, b in board.active_bindings.items()
        )
        warned = [n.message for n in app._notifications if "keymap.json" in n.message]
        assert len(warned) == 1 and "gate.aprove" in warned[0] and "no.such" in warned[0]
        await pilot.press("a")  # the old key no longer approves
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        await pilot.press("y")
        await settle(app, pilot)
        assert app.snap.phase == "fork"
        assert str(board.query_one("#btn-option-a", Button).label).startswith("[7] ")
        await pilot.press("7")
        await settle(app, pilot)
        assert app.session.state.stages[0].decision.option == "A"
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Approve the artifact" in str(app.screen.query_one("#help-keys").render())


async def test_notices_name_the_live_keys_after_a_rebind(tmp_path, isolated_home):
    """With help moved to F5 and new venture to 'v', the unknown-id notice and the empty load
    dialog say F5 and v, not the defaults ? and n."""
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "keymap.json").write_text(
        json.dumps({"app.help": "f5", "app.new": "v", "no.such": "z"}), encoding="utf-8"
    )
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        warned = [n.message for n in app._notifications if "keymap.json" in n.message]
        assert len(warned) == 1 and "(ignored; F5 lists every id)" in warned[0], warned
        await pilot.press("escape")  # the new-venture form that opens by itself
        await pilot.press("l")
        await settle(app, pilot)
        said = str(app.screen.query_one("#load-empty").render())
        assert said == "No saved ventures yet: press v for a new one."


async def test_a_web_visitor_sees_nothing_of_the_host(tmp_path, isolated_home, monkeypatch):
    """Served in a browser: the help names no host path and a notification loses the host's
    paths, its name and process ids."""
    from engine.session.lease import HOST

    monkeypatch.setattr(WorldForgeApp, "is_web", property(lambda self: True))
    app = WorldForgeApp(save_dir=tmp_path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        app.notify(
            f"run r1 is open in another window (pid 4242 on {HOST}); see {isolated_home}",
            markup=False,
        )
        await pilot.pause()
        last = list(app._notifications)[-1].message
        assert "4242" not in last and HOST not in last and str(isolated_home) not in last
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        text = " ".join(str(w.render()) for w in app.screen.query("Static, Label"))
        assert "server's config dir" in text and str(isolated_home) not in text
