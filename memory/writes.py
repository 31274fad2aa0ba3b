"""The write policy, once for every backend: what a framework or worker write does to a run's notes.

A framework, CEO or system write (`remember`) reinforces the live note of its kind with the same
words, else becomes a new note (binding decisions always do). A worker write (`worker_write`)
passes the stateless guards (`memory.guards.check_request`), then reinforces an exact
restatement, else supersedes the newest live near-duplicate from its own stage, else is refused
past the stage cap, else is written provisional. Every outcome leaves one content-free audit row.

Each backend gives the policy a `NoteRepository`: the few reads and writes it needs, done the
backend's own way (SQL for the save file, queries and ETag-conditional replaces for Cosmos DB).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from memory.guards import (
    NEAR_DUPLICATE,
    CleanWrite,
    check_payload,
    check_request,
    check_write,
    clean,
    similarity,
)
from memory.models import (
    Author,
    Kind,
    MemoryRecord,
    MemoryWriteRequest,
    Status,
    WriteDisposition,
)
from textkit import normalise

LIVE = ("provisional", "active")


class NoteRepository(Protocol):
    """What a backend provides the write policy (one run's notes)."""

    def transaction(self) -> AbstractContextManager[Any]:
        """One write's reads and writes together (a no-op where the service has none)."""
        ...

    def restatement(self, norm: str, kind: Kind) -> MemoryRecord | None:
        """The earliest live note of `kind` whose normalised words are `norm`."""
        ...

    def worker_context(
        self, norm: str, stage_id: str
    ) -> tuple[MemoryRecord | None, list[MemoryRecord]]:
        """(the earliest live worker-kind note with these words, every worker note of the stage
        in any status, newest first): one read where the backend can."""
        ...

    def reinforce(
        self, rec: MemoryRecord, importance: float, expires_day: int | None
    ) -> MemoryRecord:
        """Count one more restatement: the higher importance, the later expiry; the new record."""
        ...

    def rewrite(self, rec: MemoryRecord, w: CleanWrite, *, expires_day: int, game_day: int) -> None:
        """Replace a near-duplicate's text and kind with the new write's."""
        ...

    def insert(self, **fields: Any) -> MemoryRecord:
        """A new note with the next id of the run (the fields of `CleanWrite.note`)."""
        ...

    def audit(
        self,
        operation: str,
        memory_ids: Sequence[str],
        reason: str,
        *,
        game_day: int | None,
        ts: str | None = None,
    ) -> None:
        """One content-free audit row."""
        ...


def remember(
    repo: NoteRepository,
    kind: Kind,
    text: str,
    *,
    author: Author,
    game_day: int,
    importance: float,
    stage_id: str | None,
    axis: str | None,
    source_ids: Sequence[str],
    status: Status,
    expires_day: int | None,
    payload: dict[str, Any] | None = None,
) -> MemoryRecord:
    """Framework, CEO and system writes; procedural (binding) only from the CEO or system.
    `payload` is a binding note's structured content (scrubbed like the text)."""
    body, weight, axis_key = check_write(kind, text, author, status, importance, axis)
    payload = check_payload(payload)
    with repo.transaction():
        if kind != "procedural":
            same = repo.restatement(normalise(body), kind)
            if same is not None:
                rec = repo.reinforce(same, weight, expires_day)
                repo.audit("remember", [rec.id], "reinforced", game_day=game_day)
                return rec
        rec = repo.insert(
            kind=kind,
            text=body,
            status=status,
            author=author,
            importance=weight,
            game_day=int(game_day),
            expires_day=expires_day,
            source_ids=[clean(s, limit=64) for s in source_ids],
            stage_id=stage_id,
            axis=axis_key,
            payload=payload,
        )
        repo.audit("remember", [rec.id], f"written-{kind}", game_day=game_day, ts=rec.ts)
    return rec


def worker_write(
    repo: NoteRepository,
    req: MemoryWriteRequest | dict[str, Any],
    *,
    worker: str,
    stage_id: str,
    game_day: int,
    stage_cap: int,
) -> WriteDisposition:
    """Apply every guard to one worker request and say exactly what happened to it."""
    checked = check_request(req)
    with repo.transaction():
        if not isinstance(checked, CleanWrite):
            reason, kind = checked
            repo.audit("worker_write", [], "rejected-" + reason.split(":")[0], game_day=game_day)
            return WriteDisposition(status="rejected", reason=reason, kind=kind)
        d = _place(
            repo,
            checked,
            worker=clean(worker, limit=64),
            stage_id=stage_id,
            game_day=int(game_day),
            stage_cap=stage_cap,
        )
        suffix = ("-" + d.reason.split(":")[0]) if d.status == "rejected" and d.reason else ""
        repo.audit(
            "worker_write",
            [d.memory_id] if d.memory_id else [],
            d.status + suffix,
            game_day=game_day,
        )
    return d


def _place(
    repo: NoteRepository,
    w: CleanWrite,
    *,
    worker: str,
    stage_id: str,
    game_day: int,
    stage_cap: int,
) -> WriteDisposition:
    """Reinforce, supersede, refuse past the cap, or write: the first that applies."""
    expires = game_day + w.ttl_days
    same, own = repo.worker_context(normalise(w.text), stage_id)
    if same is not None:
        repo.reinforce(same, w.importance, expires)
        return w.reinforced(same.id, same.kind)
    for rec in own:
        if rec.status in LIVE and similarity(rec.text, w.text) >= NEAR_DUPLICATE:
            repo.rewrite(rec, w, expires_day=expires, game_day=game_day)
            return w.superseded(rec.id)
    if len(own) >= stage_cap:
        return w.over_cap(stage_cap)
    rec = repo.insert(**w.note(worker=worker, stage_id=stage_id, game_day=game_day))
    return WriteDisposition(status="written", memory_id=rec.id, kind=w.kind)
