"""What the app says when a command's result comes back: one typed handler per kind of result,
named by the `report` of the command's action row (`worldforge_tui.actions`).

A handler is given the command's result as the worker returned it and takes it as the one type its
command returns (`expect`): a result of another type is a bug, raised, never read as empty. The app
loads this module with the first result (it imports the engine's result types).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from engine.language import grammar
from engine.session.without import WithoutEach
from memory.models import ConsolidationResult, ForgetReport, PruneReport
from worldforge_tui.player_actions import Asked
from worldforge_tui.screens.dialogs import InspectorScreen
from worldforge_tui.widgets.memory_pane import MemoryPane

if TYPE_CHECKING:
    from worldforge_tui.app import WorldForgeApp

T = TypeVar("T")
Report = Callable[["WorldForgeApp", object], None]


def expect(result: object, kind: type[T]) -> T:
    """The result as the type its command returns (TypeError for any other)."""
    if not isinstance(result, kind):
        raise TypeError(f"expected a {kind.__name__}, got {type(result).__name__}")
    return result


def exported(app: WorldForgeApp, result: object) -> None:
    """The report file: named, or offered as a download in a browser (the file is the server's)."""
    path = expect(result, Path)
    if app.is_web:
        app.deliver_text(path, save_filename=path.name, mime_type="text/markdown")
        app.notify(f"Report {path.name} offered for download.", title="Exported", markup=False)
    else:
        app.notify(f"Report written to {path}", title="Exported", markup=False)


def pruned(app: WorldForgeApp, result: object) -> None:
    """The prune dry run: how many notes would go, and how many of them to the archive."""
    report = expect(result, PruneReport)
    deleted, archived = len(report.eligible_ids), len(report.archived_ids)
    kept = (  # expired notes that bind, profile the founder or matter: archived, kept
        f", {archived} of them to the archive (binding, a founder profile or important)"
        if archived
        else ""
    )
    app.notify(  # the notes' ids are the store's, never the player's words
        f"Prune dry run: {grammar.count(deleted + archived, 'memory')} would go (past "
        f"their expiry day){kept}. Nothing was changed.",
        title="Memory",
        markup=False,
    )


def consolidated(app: WorldForgeApp, result: object) -> None:
    outcome = expect(result, ConsolidationResult)
    app.main.query_one(MemoryPane).clear_marks()
    merged = len(outcome.source_memory_ids)
    said = {
        "consolidated": f"Merged {grammar.count(merged, 'note')} into one reviewed note.",
        "already_consolidated": "Those notes are already merged into a reviewed note.",
    }
    app.notify(said.get(outcome.status, "Memory consolidated."), title="Memory", markup=False)


def what_if(app: WorldForgeApp, result: object) -> None:
    """Each stage the note binds, re-derived without it, in a dialog (nothing was recorded)."""
    derived = expect(result, WithoutEach)
    app.push_screen(InspectorScreen("What if they forgot this note?", "\n".join(derived.lines())))


def forgot_note(app: WorldForgeApp, result: object) -> None:
    expect(result, ForgetReport)
    app.notify("Forgot the note: the next brief is built without it.", title="Memory")


def forgot_memories(app: WorldForgeApp, result: object) -> None:
    report = expect(result, ForgetReport)
    app.notify(
        f"Forgot {grammar.count(report.deleted, 'memory')} of this run.",
        title="Memory",
        markup=False,
    )


def suggested(app: WorldForgeApp, result: object) -> None:
    """A model's suggestions for a command's unread words: the confirm goes on with them, or
    with the one line that says why there are none (Esc: the words go back to their prompt)."""
    app.player.suggested(expect(result, Asked))


# By the name an action row's `report` (or its prompt's `suggested`) gives.
REPORTS: dict[str, Report] = {
    fn.__name__: fn
    for fn in (exported, pruned, consolidated, what_if, forgot_note, forgot_memories, suggested)
}
