"""The status bar says where memory lives: nothing for the save file, a pill for Cosmos DB and a
warning pill while the local store stands in for it."""

from __future__ import annotations

import pytest

from engine.config import Settings
from engine.routing import Router
from tests.cosmos.conftest import KEY
from tests.tui.conftest import settle, text_of
from worldforge_tui.app import WorldForgeApp


async def test_no_memory_pill_for_the_save_file(tmp_path):
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert not app.screen.query_one("#status-memory").display


async def test_memory_pill_warns_while_cosmos_is_down(tmp_path):
    settings = Settings(
        demo_mode="simulation",
        memory_backend="cosmos",
        azure_cosmos_endpoint="https://127.0.0.2:9",
        azure_cosmos_key=KEY,
    )
    app = WorldForgeApp(
        pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path, router=Router(settings)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert app.screen.query_one("#status-memory").display
        assert "memory: local (cosmos down)" in text_of(app, "#status-memory")


@pytest.mark.slow
async def test_memory_pill_names_cosmos(config, tmp_path):
    settings = Settings(
        demo_mode="simulation",
        memory_backend="cosmos",
        azure_cosmos_endpoint=config.endpoint,
        azure_cosmos_key=KEY,
        azure_cosmos_database=config.database,
    )
    app = WorldForgeApp(
        pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path, router=Router(settings)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert "memory: azure-cosmos" in text_of(app, "#status-memory")
