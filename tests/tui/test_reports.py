"""A command's result is reported by the typed handler its action row names, and the app is composed
of plain parts (no mixins, no typing shim re-declaring the app's members)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import worldforge_tui
from memory.models import ForgetReport, PruneReport
from worldforge_tui import actions, reports
from worldforge_tui.app import WorldForgeApp


def test_every_report_a_row_names_is_a_handler_and_every_handler_is_named():
    named = {row.report for row in actions.ACTIONS if row.report}
    # a prompt whose words a model may be asked about names the report that goes on to confirm
    named |= {
        row.prompt.suggested for row in actions.ACTIONS if row.prompt and row.prompt.suggested
    }
    assert named == set(reports.REPORTS)


def test_each_handler_takes_its_result_as_one_type_and_refuses_another():
    """A prune report handed to the export handler is a bug said at once, not a report read as
    empty (the old chain read `getattr(result, "eligible_ids", [])`)."""
    prune = PruneReport(status="dry_run", eligible_ids=["mem-1"], deleted_count=0)
    with pytest.raises(TypeError, match="expected a Path, got PruneReport"):
        reports.exported(object(), prune)
    with pytest.raises(TypeError, match="expected a PruneReport, got ForgetReport"):
        reports.pruned(object(), ForgetReport(run_id="r", deleted=1, compacted=False))
    assert reports.expect(Path("a.md"), Path) == Path("a.md")


def test_the_app_is_one_textual_app_composed_of_plain_parts():
    from textual.app import App

    assert WorldForgeApp.__mro__[1] is App  # no mixin between the app and Textual's App
    package = Path(worldforge_tui.__file__).parent
    assert not (package / "host.py").exists()
    for name in ("controller", "player_actions", "live_writing", "read_only"):
        module = __import__(f"worldforge_tui.{name}", fromlist=["_"])
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and cls.__name__ != "LiveTick":
                assert not issubclass(cls, App), cls
