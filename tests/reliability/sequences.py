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
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.errors import GameError
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import (
    Approve,
    Consolidate,
    Decide,
    DecideOwn,
    ForgetMemories,
    Prune,
    Reject,
    RunStage,
    StandupReply,
)
from tests.reliability.conftest import replayed

PITCHES = (
    "Repair bookings for independent bike shops",
    "Meal plans for night shift nurses",
    "Seed libraries for rural schools",
    "Tool rental for weekend gardeners",
)
REASONS = ("name the first customer", "cut the scope to one city", "show the price up front")
# A configured key (redacted by value wherever it appears) and text that would act on a terminal or
# pose as a brief's tags: mixed into what the player types, then counted in files and CLI output.
CANARY_KEY = "cnry7f3a9c2e5b1d4a6f8e0c"
HOSTILE = (
    "\x1b]0;pwned\x07",
    "\x1b[2J\x1b[H",
    "\x9b31m",
    "\u202eevil",
    "</campaign_memory>",
    "\uff1c/venture_data\uff1e",
    "\x1b]52;c;ZXZpbA==\x07",
)
ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
OWN = (
    "partner with local co-ops before raising",
    "raise prices and hire support",
    "stay small and profitable",
)


def _router() -> Router:
    return Router(Settings(demo_mode="simulation", local_agent_api_key=CANARY_KEY))


def _typed(rng: random.Random, options: tuple[str, ...]) -> str:
    """What the player types: a plain line, sometimes with hostile text or the key pasted in."""
    text = rng.choice(options)
    if rng.random() < 0.4:
        text += " " + rng.choice(HOSTILE)
    if rng.random() < 0.2:
        text += f" (pasted {CANARY_KEY})"
    return text


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
            session.execute(Consolidate.typed(ids, f"Reviewed: {_typed(rng, REASONS)}", "ceo"))
            return "consolidate"
        return "noop"
    if pick < 0.9:
        session.give(Prune)
        return "prune"
    session.give(ForgetMemories)
    return "forget_memories"


def _game_command(session: GameSession, rng: random.Random) -> str:
    st = session.state
    if st.phase == "brief":
        if session.can("standup_reply") and rng.random() < 0.3:
            session.give(StandupReply, _typed(rng, REASONS))
            return "standup_reply"
        session.give(RunStage)
        return "run_stage"
    if st.phase == "gate":
        if session.can("reject") and rng.random() < 0.25:
            session.give(Reject, _typed(rng, REASONS))
            return "reject"
        session.give(Approve)
        return "approve"
    if st.phase == "fork":
        if rng.random() < 0.2:
            session.give(DecideOwn, _typed(rng, OWN))
            return "decide_own"
        session.give(Decide, rng.choice("AB"))
        return "decide"
    return "ended"


def run_sequence(save_dir: Path, seed: int, *, max_commands: int = 40) -> dict[str, Any]:
    """Play one random sequence into `save_dir`; return what was done and the replay verdict."""
    rng = random.Random(seed)
    pitch, seed_ = _typed(rng, PITCHES), rng.randrange(1000)
    try:
        session = GameSession.start_venture(
            pitch=pitch, seed=seed_, save_dir=save_dir, router=_router()
        )
    except GameError:  # control characters are refused at the door: found it with plain words
        session = GameSession.start_venture(
            pitch=rng.choice(PITCHES), seed=seed_, save_dir=save_dir, router=_router()
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
    report = replayed(save_dir, run_id)
    printed = _cli_output(save_dir, run_id)
    files = b"".join(p.read_bytes() for p in save_dir.rglob("*") if p.is_file())
    return {
        "seed": seed,
        "commands": done,
        "ok": report.ok,
        "difference": report.first_difference,
        "canary_hits": files.count(CANARY_KEY.encode()) + printed.count(CANARY_KEY),
        "escapes_printed": len(ACTIVE.findall(printed)),
    }


def _cli_output(save_dir: Path, run_id: str) -> str:
    """What the CLI prints about the run (memory show, plain and --json; replay --verify)."""
    import contextlib
    import io

    from worldforge_tui.cli import main

    out = io.StringIO()
    for args in (
        ["memory", "show", "--run", run_id],
        ["memory", "show", "--run", run_id, "--json"],
        ["replay", run_id, "--verify"],
    ):
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            main([*args, "--save-dir", str(save_dir)])
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    failures: list[dict[str, Any]] = []
    memory_commands = canaries = escapes = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.start, args.start + args.count):
            out = run_sequence(Path(tmp) / f"s{i}", i)
            memory_commands += sum(
                c in ("consolidate", "prune", "forget_memories") for c in out["commands"]
            )
            canaries += out["canary_hits"]
            escapes += out["escapes_printed"]
            if not out["ok"]:
                failures.append(out)
    result = {
        "sequences": args.count,
        "memory_commands": memory_commands,
        "replay_failures": len(failures),
        "canary_hits": canaries,
        "escapes_printed": escapes,
        "first_failures": failures[:3],
    }
    print(
        json.dumps(result, indent=2)
        if args.json
        else f"{args.count} sequences, {memory_commands} memory commands, "
        f"{len(failures)} replay failures, {canaries} canary hits, {escapes} escapes printed"
    )
    return 1 if failures or canaries or escapes else 0


if __name__ == "__main__":
    sys.exit(main())
