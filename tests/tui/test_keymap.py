"""User keymap: binding ids remapped from keymap.json; a broken file is reported, never fatal."""

from __future__ import annotations

import json

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
    (isolated_home / "keymap.json").write_text(json.dumps({"gate.approve": "y"}),
                                               encoding="utf-8")
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.snap.phase == "gate"
        await pilot.press("y")
        await settle(app, pilot)
        assert app.snap.phase == "fork"
