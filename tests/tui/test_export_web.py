"""Export in a browser (textual-serve): the report is offered to the browser as a download."""

from __future__ import annotations

from tests.tui.conftest import settle
from worldforge_tui.app import WorldForgeApp


async def test_export_offers_a_download_when_served(tmp_path, monkeypatch):
    monkeypatch.setattr(WorldForgeApp, "is_web", property(lambda self: True))
    offered: list[tuple[object, dict]] = []
    app = WorldForgeApp(pitch="Meal kits for night-shift nurses", seed=7, save_dir=tmp_path)
    monkeypatch.setattr(app, "deliver_text", lambda path, **kw: offered.append((path, kw)))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
    assert len(offered) == 1
    path, options = offered[0]
    (report,) = (tmp_path / "reports").glob("*.md")  # the report export wrote
    assert path == report and options["save_filename"] == report.name
