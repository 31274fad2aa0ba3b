"""A phase clock that times the server, not our own thread.

An attempt's first-token and idle limits end the read when the server says nothing for too long.
With `asyncio.timeout` the verdict came in the same loop turn the clock ran out: when the router's
thread had been starved (a busy CPU, a long parse holding the GIL, a blocked callback), the
server's tokens were already in the socket, read by the loop in that very turn, and the task that
would have taken them was cancelled first. A healthy server was called stalled (and three such
calls opened its breaker) for a pause that was ours.

`Phase` gives its verdict READ_TURNS loop turns after its time: whatever the server sent before
the limit is read first (a token pushes the clock on, `reschedule`), and a server that truly sent
nothing is ended a few microseconds later. (The first-token watch, which polls, leaves our own
pauses out of its count instead: `engine.routing.router._Watch`.)
"""

from __future__ import annotations

import asyncio
from types import TracebackType

# Loop turns between a clock running out and its verdict: data the loop read in the late turn
# reaches the stream's reader (socket, transport, event, task) within these.
READ_TURNS = 3


class Phase:
    """`asyncio.timeout_at` for a stream's phases, whose verdict waits READ_TURNS loop turns past
    its time (`when`, on the loop's clock; None: no limit). Used the same way: `async with`,
    `reschedule`, `expired`; the block ends with TimeoutError when the phase ran out."""

    def __init__(self, when: float | None) -> None:
        self._timeout = asyncio.timeout_at(None)
        self._when = when
        self._handle: asyncio.Handle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def __aenter__(self) -> Phase:
        self._loop = asyncio.get_running_loop()
        await self._timeout.__aenter__()
        self.reschedule(self._when)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._drop()
        await self._timeout.__aexit__(exc_type, exc, tb)  # raises TimeoutError if it ran out

    def reschedule(self, when: float | None) -> None:
        """Move the phase's end (None: no end), as `asyncio.Timeout.reschedule`."""
        self._drop()
        self._when = when
        if self._timeout.expired():
            return  # the verdict is given: the block is ending
        self._timeout.reschedule(None)
        if when is not None and self._loop is not None:
            self._handle = self._loop.call_at(when, self._due, READ_TURNS)

    def expired(self) -> bool:
        return self._timeout.expired()

    def _due(self, turns: int) -> None:
        assert self._loop is not None
        if turns:
            self._handle = self._loop.call_soon(self._due, turns - 1)
            return
        self._handle = None
        self._timeout.reschedule(self._loop.time())  # ends the block now

    def _drop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
