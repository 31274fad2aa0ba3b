"""What the player's memory commands (consolidate, prune, forget the memories) do to a run.

They are steps like the game's (engine/session/steps.py): the session records each as a command of the run
and runs it inside one transaction, so `replay --verify` re-applies them at the same point and the
briefs after them are re-derived with the same memory. A store refusal (unknown id, a source
already consolidated) becomes one InputError line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from engine.errors import InputError
from engine.language.grammar import count
from engine.session.events import EventType
from engine.session.steps import Step
from memory.models import ConsolidationResult, ForgetReport, PruneReport

E = EventType
T = TypeVar("T")


def _refusal(fn: Callable[[], T]) -> T:
    try:
        return fn()
    except ValueError as err:
        raise InputError(
            str(err).strip().splitlines()[0]
            if str(err).strip()
            else "the memory store refused the command"
        ) from None


def consolidate(step: Step, sources: list[str], summary: str, reviewer: str) -> ConsolidationResult:
    """Fold the marked notes into one reviewed semantic note (the CEO is the reviewer)."""
    st = step.state
    res = _refusal(
        lambda: step.memory.consolidate(
            sources, summary=summary, reviewer=reviewer, game_day=st.day
        )
    )
    if res.status == "consolidated":
        step.emit(
            E.MEMORY_WRITTEN,
            "ceo",
            f"semantic memory {res.semantic_memory_id} consolidated",
            {
                "id": res.semantic_memory_id,
                "kind": "semantic",
                "source_ids": res.source_memory_ids,
                "reviewer": res.reviewer,
                "store": step.store_label,
            },
        )
    return res


def prune(step: Step) -> PruneReport:
    """Apply the retention rule at today's game date: expired notes go (deleted, or archived
    when binding, a founder profile or important)."""
    rep = step.memory.prune(game_day=step.state.day, dry_run=False)
    if rep.deleted_count or rep.archived_ids:
        step.emit(E.MEMORY_PRUNED, "ceo", pruned_line(rep), rep.to_dict())
    return rep


def pruned_line(rep: PruneReport) -> str:
    """'2 memories pruned', '1 memory pruned (1 deleted, …)': what a prune did or would do."""
    deleted, archived = len(rep.eligible_ids), len(rep.archived_ids)
    line = f"{count(deleted + archived, 'memory')} pruned"
    if archived:
        line += f" ({deleted} deleted, {archived} archived)"
    return line


def forget_memories(step: Step) -> ForgetReport:
    """Delete every memory of the run; the game goes on without its binding direction."""
    rep = step.memory.forget_run(compact=False)
    step.emit(
        E.MEMORY_PRUNED,
        "ceo",
        f"{'the one memory' if rep.deleted == 1 else f'all {rep.deleted} memories'} of the run forgotten",
        {"forgotten": rep.deleted, "operation": "forget_memories"},
    )
    return rep


def forget_note(step: Step, memory_id: str) -> ForgetReport:
    """Delete one note of the run: the next brief drops exactly the directions it carried (the
    others stand; a direction it had replaced does not come back). One line for an id the run
    does not hold."""
    try:
        rec = step.memory.get(memory_id)
    except KeyError:
        raise InputError(
            f"no note {memory_id} in this run (see `worldforge memory show`)"
        ) from None
    rep = step.memory.forget_note(memory_id, game_day=step.state.day)
    directions = (rec.payload or {}).get("directions") or []
    step.emit(
        E.MEMORY_PRUNED,
        "ceo",
        f"note {memory_id} forgotten ({count(len(directions), 'direction')} it bound)",
        {"forgotten": rep.deleted, "operation": "forget_note", "id": memory_id, "kind": rec.kind},
    )
    return rep


def delete_reports(save_dir: Path, run_id: str) -> list[Path]:
    """Delete the run's exported reports in the save dir's `reports/` (named by the opaque run id)."""
    from glob import escape as glob_escape  # only forgetting a run deletes reports

    folder = Path(save_dir) / "reports"
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for path in sorted(folder.glob(f"{glob_escape(run_id)}-day*.md")):
        try:
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed
