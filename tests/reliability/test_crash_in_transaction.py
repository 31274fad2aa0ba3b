"""Crash safety inside a write: SIGKILL the headless game inside an open write transaction (after
the Nth event row, memory row or run-row write); the save keeps the last committed step. Apart
from the random kills (test_crash_safety.py) so the two modules run on both test workers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.reliability.crash import Zygote, check_after_kill, on_zygote

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
                lambda a: on_zygote(zygotes, lambda z: _inside(z, tmp_path, *a)),
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
