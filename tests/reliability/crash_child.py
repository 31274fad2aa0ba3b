"""The processes the crash tests kill: play headless ventures and acknowledge every committed event.

`python -m tests.reliability.crash_child` starts a zygote: it imports the game once, then for each
JSON request on stdin forks a game process, SIGKILLs it after the requested delay (or lets a
test-only hook kill it) and answers one JSON line. Forking skips the interpreter start-up, so the
kill budget goes to game play rather than imports.

A game process writes `RUN <run_id>` when a venture is founded and `ACK <run_id> <event_id> <type>`
for every event after its transaction commits (session listeners fire only after COMMIT), so each
ACK line is a promise the save must keep. KILL_AT (`event:N`, `memory:N`, `save_run:N`) makes it
SIGKILL itself inside the Nth such write, before the transaction commits.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

from engine.game.shape import MAX_FORKS
from engine.game.world import STAGE_IDS
from engine.play.headless import Plan, play
from engine.session import api as session_module
from engine.session.api import GameSession
from engine.session.events import Event
from memory.local.store import MemoryStore

PITCHES = (
    "Repair bookings for independent bike shops",
    "Meal plans for night shift nurses",
    "Bookkeeping for small farm co-ops",
    "Tool rental lockers for apartment blocks",
    "Tutoring marketplace for adult learners",
    "Cold chain sensors for food trucks",
)
REASONS = (
    "Too vague about the customer; name the first ten shops",
    "Cut the scope to one city and one channel",
    "Price it for a pilot at $30 a month, not a rollout",
)
OWN = (
    "Partner with local repair collectives and share revenue",
    "Go slower on hiring and keep the runway long",
    "Ship a paid pilot with three customers",
)
MAX_VENTURES = 40


def venture(generation: int, index: int) -> tuple[dict[str, Any], Plan]:
    """The founding arguments and CEO plan for one venture (seeded, so runs are reproducible)."""
    rng = random.Random(generation * 1000 + index)
    plan = Plan(path="".join(rng.choice("AB") for _ in range(MAX_FORKS)))
    for sid in rng.sample(STAGE_IDS, 2):
        plan.say("reject", sid, rng.choice(REASONS))
    plan.say("decide_own", rng.choice(STAGE_IDS), rng.choice(OWN))
    args = {
        "pitch": rng.choice(PITCHES),
        "name": f"Crash {generation}-{index}",
        "archetype": rng.choice(("builder", "seller", "designer", "operator")),
        "seed": rng.randrange(1000),
    }
    return args, plan


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _ack(event: Event) -> None:
    _say(f"ACK {event.run_id} {event.id} {event.type}")


def _die_on(n: int, real: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a write so its Nth call completes and then the process is SIGKILLed (mid-transaction)."""
    calls = 0

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        result = real(*args, **kwargs)
        if calls == n:
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    return wrapper


def install_kill_hook(spec: str) -> None:
    """`event:N` | `memory:N` | `save_run:N`: die inside the Nth such write of this process."""
    where, _, count = spec.partition(":")
    n = int(count)
    if where == "event":
        session_module.insert_events = _die_on(n, session_module.insert_events)  # type: ignore[attr-defined]
    elif where == "memory":
        MemoryStore.insert = _die_on(n, MemoryStore.insert)  # type: ignore[method-assign]
    elif where == "save_run":
        session_module.save_run = _die_on(n, session_module.save_run)  # type: ignore[attr-defined]
    else:
        raise SystemExit(f"unknown kill point {spec!r}")


def play_ventures(save_dir: str, generation: int, count: int = MAX_VENTURES) -> None:
    """Found and play `count` ventures one after another (unless killed first)."""
    for index in range(count):
        args, plan = venture(generation, index)
        session = GameSession.start_venture(save_dir=save_dir, **args)
        _say(f"RUN {session.state.run_id}")
        for event in session.events():
            _ack(event)
        session.add_listener(_ack)
        try:
            play(session, plan)
        finally:
            session.close()
    _say("DONE")


def _game(request: dict[str, Any]) -> None:
    """In the forked child: output to the log, optional kill hook, play; never returns."""
    code = 0
    try:
        sys.stdout = open(request["log"], "w", encoding="utf-8")  # noqa: SIM115 - lives until _exit
        if request.get("kill_at"):
            install_kill_hook(request["kill_at"])
        count = request.get("ventures") or MAX_VENTURES
        play_ventures(request["save_dir"], int(request["generation"]), int(count))
    except BaseException:  # noqa: BLE001 - report in the log, exit non-zero
        traceback.print_exc(file=sys.stdout)
        sys.stdout.flush()
        code = 1
    os._exit(code)


def serve(request: dict[str, Any]) -> dict[str, Any]:
    """Fork one game process, kill it after `delay` seconds (None: wait for it), report how it ended."""
    pid = os.fork()
    if pid == 0:
        _game(request)
    delay = request.get("delay")
    alive = True
    if delay is not None:
        time.sleep(float(delay))
        alive = os.waitpid(pid, os.WNOHANG) == (0, 0)
        if alive:
            os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0) if alive else (pid, 0)
    killed = alive and os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    return {"pid": pid, "killed": killed}


def main() -> int:
    _say("ZYGOTE")
    for line in sys.stdin:
        if line.strip():
            _say(json.dumps(serve(json.loads(line))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
