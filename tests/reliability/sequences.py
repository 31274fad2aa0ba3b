"""Random game + memory command sequences, each checked with `replay --verify`.

Each sequence founds a venture in a fresh save dir and issues random commands the way a player
would from either front end: the game's (run the stage, approve, reject, decide, own answer,
standup reply) and the memory pane's or CLI's (consolidate marked notes, prune, forget the
memories), sometimes closing and reopening the run between commands. Then it re-derives the run
from its recorded commands and compares. Run as a script for the report's figure:

    .venv/bin/python -m tests.reliability.sequences --count 200 --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.errors import GameError
from engine.replay import verify
from engine.routing import Router
from engine.session import GameSession

PITCHES = (
    "Repair bookings for independent bike shops",
    "Meal plans for night shift nurses",
    "Seed libraries for rural schools",
    "Tool rental for weekend gardeners",
)
REASONS = ("name the first customer", "cut the scope to one city", "show the price up front")
OWN = (
    "partner with local co-ops before raising",
    "raise prices and hire support",
    "stay small and profitable",
)


def _router() -> Router:
    return Router(Settings(demo_mode="simulation"))


def _memory_command(session: GameSession, rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.5:
        notes = [
            r.id
            for r in session.memory.records(statuses=["provisional", "active"])
            if r.kind in ("preference", "context", "chat_summary")
        ]
        if len(notes) >= 2:
            ids = rng.sample(notes, rng.randint(2, min(4, len(notes))))
            session.consolidate(ids, summary=f"Reviewed: {rng.choice(REASONS)}", reviewer="ceo")
            return "consolidate"
        return "noop"
    if pick < 0.9:
        session.prune()
        return "prune"
    session.forget_memories()
    return "forget_memories"


def _game_command(session: GameSession, rng: random.Random) -> str:
    st = session.state
    if st.phase == "brief":
        if session.can("standup_reply") and rng.random() < 0.3:
            session.standup_reply(rng.choice(REASONS))
            return "standup_reply"
        session.run_stage()
        return "run_stage"
    if st.phase == "gate":
        if session.can("reject") and rng.random() < 0.25:
            session.reject(rng.choice(REASONS))
            return "reject"
        session.approve()
        return "approve"
    if st.phase == "fork":
        if rng.random() < 0.2:
            session.decide_own(rng.choice(OWN))
            return "decide_own"
        session.decide(rng.choice("AB"))
        return "decide"
    return "ended"


def run_sequence(save_dir: Path, seed: int, *, max_commands: int = 40) -> dict[str, Any]:
    """Play one random sequence into `save_dir`; return what was done and the replay verdict."""
    rng = random.Random(seed)
    session = GameSession.start_venture(
        pitch=rng.choice(PITCHES), seed=rng.randrange(1000), save_dir=save_dir, router=_router()
    )
    run_id = session.state.run_id
    done: list[str] = []
    try:
        for _ in range(rng.randint(5, max_commands)):
            if session.state.phase == "ended":
                break
            try:
                if rng.random() < 0.25:
                    done.append(_memory_command(session, rng))
                else:
                    done.append(_game_command(session, rng))
            except GameError as err:  # a refusal (e.g. no redos left) is part of play
                done.append(f"refused:{str(err)[:40]}")
            if rng.random() < 0.1:  # close the window and reopen the run
                session.close()
                session = GameSession.load(run_id, save_dir=save_dir, router=_router())
                done.append("reopen")
    finally:
        session.close()
    from engine.savefile import open_save
    from memory.db import db_path

    conn = open_save(db_path(save_dir), create=False)
    try:
        report = verify(conn, run_id)
    finally:
        conn.close()
    return {"seed": seed, "commands": done, "ok": report.ok, "difference": report.first_difference}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    failures: list[dict[str, Any]] = []
    memory_commands = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.start, args.start + args.count):
            out = run_sequence(Path(tmp) / f"s{i}", i)
            memory_commands += sum(
                c in ("consolidate", "prune", "forget_memories") for c in out["commands"]
            )
            if not out["ok"]:
                failures.append(out)
    result = {
        "sequences": args.count,
        "memory_commands": memory_commands,
        "replay_failures": len(failures),
        "first_failures": failures[:3],
    }
    print(
        json.dumps(result, indent=2)
        if args.json
        else f"{args.count} sequences, {memory_commands} memory commands, "
        f"{len(failures)} replay failures"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
