"""What a view reads of a session: its read model (state, allowed commands, store label, memory,
events). GameSession.read_model builds one; a view never holds the session."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from engine.game.models import GameState
    from memory.models import MemoryRecord


class Logged(Protocol):
    """An event of the run's log as a view reads it (engine.session.events.Event is one)."""

    @property
    def type(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, object]: ...


@dataclass(frozen=True, eq=False, kw_only=True)
class ReadModel:
    """The state (shared, never mutated by a view), each player command and whether it may run
    now, where the memory is kept and the run's records, and the event log, read on demand."""

    state: GameState
    allowed: dict[str, bool]
    store_label: str
    memory: list[MemoryRecord]
    memory_counts: dict[str, int]
    events: Callable[[], Sequence[Logged]]
