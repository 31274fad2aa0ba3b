"""Crash safety: SIGKILL the headless game at random points (the kills inside an open write
transaction are in test_crash_in_transaction.py, so the two run on both test workers).

Each chain is one save dir that accumulates ventures across kills; two chains run side by side so
the children and the checks share the two cores. After every kill `check_after_kill` proves the save
opens, passes integrity_check, kept every acknowledged event, replay-verifies, and resumes to the end.
"""

from __future__ import annotations

import queue
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.reliability.crash import Zygote, check_after_kill, on_zygote

CHAINS = 6
RANDOM_KILLS_PER_CHAIN = 8


@pytest.fixture(scope="module")
def window(zygotes: queue.Queue[Zygote], tmp_path_factory: pytest.TempPathFactory) -> float:
    """The kill window: one whole venture as long as it takes on this machine now (load varies),
    timed by playing one to the end on each zygote at once, as the chains then play side by
    side (once for every chain: each chain timed its own before)."""
    root = tmp_path_factory.mktemp("calibrate")

    def one(zygote: Zygote, n: int) -> float:
        started = time.monotonic()
        zygote.run(root / f"save-{n}", 99 + n, root / f"calibrate-{n}.log", ventures=1)
        return time.monotonic() - started

    with ThreadPoolExecutor(max_workers=2) as pool:
        times = list(pool.map(lambda n: on_zygote(zygotes, lambda z: one(z, n)), range(2)))
    return sum(times) / len(times)


def _chain(zygote: Zygote, root: Path, chain: int, window: float) -> dict[str, int]:
    rng = random.Random(1000 + chain)
    save_dir = root / f"chain-{chain}"
    tally = {"tried": 0, "survived": 0, "runs_checked": 0, "acks": 0, "mid_game": 0}
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


def test_random_sigkills_lose_nothing(tmp_path, zygotes, window):
    with ThreadPoolExecutor(max_workers=2) as pool:
        tallies = list(
            pool.map(
                lambda c: on_zygote(zygotes, lambda z: _chain(z, tmp_path, c, window)),
                range(CHAINS),
            )
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
