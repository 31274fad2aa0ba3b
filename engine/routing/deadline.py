"""One deadline per player action, shared by every model call the action makes.

A player action (approve, reject, decide, reply) can make several model calls: a rejection's
redo, a decision's three standup lines. Each call used to get AGENT_REQUEST_TIMEOUT of its own, so
one decision against a slow model took three deadlines, and Esc ended only the call in flight. The
session now starts one `ActionDeadline` per action and hands it to the router for the action's
length (`Router.acting`): every call ends by the action's deadline, and a cancel stays set until
the action ends, so the calls after the cancelled one never start. A tier that hangs therefore
costs at most one deadline per action: once it is spent, the action's later calls go straight to
the simulation floor, labelled "out of time".
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


@dataclass(frozen=True, eq=False)
class ActionDeadline:
    """When the player's action must be done by (a `time.monotonic()` instant) and whether the
    player cancelled it (Esc, from any thread)."""

    ends_at: float
    cancelled: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def start(cls, seconds: float) -> ActionDeadline:
        """A deadline `seconds` from now."""
        return cls(time.monotonic() + seconds)

    def cut(self, call_deadline: float) -> float:
        """A call's own deadline, cut to the action's."""
        return min(call_deadline, self.ends_at)

    def cancel(self) -> None:
        self.cancelled.set()

    def is_cancelled(self) -> bool:
        return self.cancelled.is_set()
