"""Crash safety: SIGKILL the headless game at random points and inside open write transactions.

Each chain is one save dir that accumulates ventures across kills; two chains run side by side so
the children and the checks share the two cores. After every kill `check_after_kill` proves the save
opens, passes integrity_check, kept every acknowledged event, replay-verifies, and resumes to the end.
"""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import pytest

from tests.reliability.crash import Zygote, check_after_kill

CHAINS = 6
RANDOM_KILLS_PER_CHAIN = 8
# Deterministic kills inside a transaction: after the Nth event row, memory row or run-row write.
T = TypeVar("T")
IN_TRANSACTION = (
    "event:1",
    "event:7",
    "event:57",
    "event:130",
    "memory:1",
    "memory:20",
    "save_run:1",
    "save_run:9",
    "save_run:25",
)


@pytest.fixture(scope="module")
def zygotes():
    """Two forking game launchers handed out one per task, so two games share the two cores."""
    pool: queue.Queue[Zygote] = queue.Queue()
    made = [Zygote(), Zygote()]
    for z in made:
        pool.put(z)
    yield pool
    for z in made:
        z.close()


def _on_zygote(pool: queue.Queue[Zygote], task: Callable[[Zygote], T]) -> T:
    zygote = pool.get()
    try:
        return task(zygote)
    finally:
        pool.put(zygote)


def _chain(zygote: Zygote, root: Path, chain: int) -> dict[str, int]:
    rng = random.Random(1000 + chain)
    save_dir = root / f"chain-{chain}"
    tally = {"tried": 0, "survived": 0, "runs_checked": 0, "acks": 0, "mid_game": 0}
    # The kill window is one whole venture as long as it takes on this machine now (load varies),
    # timed by playing one to the end in a save of its own.
    started = time.monotonic()
    zygote.run(
        root / f"calibrate-{chain}", chain * 100 + 99, root / f"calibrate-{chain}.log", ventures=1
    )
    window = time.monotonic() - started
    for k in range(RANDOM_KILLS_PER_CHAIN):
        log = root / f"chain-{chain}-{k}.log"
        outcome = zygote.run(save_dir, chain * 100 + k, log, delay=rng.uniform(0.0, window))
        if not outcome.killed:  # the child finished on its own before the signal: not a kill point
            continue
        tally["tried"] += 1
        acks = sum(len(v) for v in outcome.acks.values())
        tally["acks"] += acks
        tally["mid_game"] += acks > 0
        tally["runs_checked"] += len(check_after_kill(save_dir, outcome, in_transaction=False))
        tally["survived"] += 1
    return tally


def test_random_sigkills_lose_nothing(tmp_path, zygotes):
    with ThreadPoolExecutor(max_workers=2) as pool:
        tallies = list(
            pool.map(lambda c: _on_zygote(zygotes, lambda z: _chain(z, tmp_path, c)), range(CHAINS))
        )
    tried = sum(t["tried"] for t in tallies)
    survived = sum(t["survived"] for t in tallies)
    print(
        f"\nrandom kills survived/tried: {survived}/{tried}; acknowledged events "
        f"{sum(t['acks'] for t in tallies)}; runs checked {sum(t['runs_checked'] for t in tallies)}"
    )
    assert tried >= CHAINS * RANDOM_KILLS_PER_CHAIN // 2  # most kills land before the game ends
    assert survived == tried
    assert sum(t["mid_game"] for t in tallies) >= tried // 2  # mid-game, not at start-up


def _inside(zygote: Zygote, root: Path, index: int, spec: str) -> tuple[str, bool, int]:
    save_dir = root / f"inside-{index}"
    outcome = zygote.run(save_dir, 900 + index, root / f"inside-{index}.log", kill_at=spec)
    assert outcome.killed, f"{spec}: the child was not killed inside a transaction"
    checked = check_after_kill(save_dir, outcome, in_transaction=True)
    return spec, outcome.killed, len(checked)


def test_kills_inside_a_write_transaction_leave_the_last_committed_step(tmp_path, zygotes):
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(
            pool.map(
                lambda a: _on_zygote(zygotes, lambda z: _inside(z, tmp_path, *a)),
                enumerate(IN_TRANSACTION),
            )
        )
    print(
        f"\nin-transaction kills survived/tried: {sum(1 for r in results if r[1])}/{len(results)}"
        f"; runs checked per kill {[n for _, _, n in results]}"
    )
    assert all(killed for _, killed, _ in results)
    # a kill at the very first event leaves no run at all; every other kill leaves one to resume
    assert all(
        n >= 1 for spec, _, n in results if spec not in ("event:1", "memory:1", "save_run:1")
    )
