"""One window of the stress test: open (or found) a run, watch it if another process holds it, play
a few steps and acknowledge each committed one (`ack RUN N`: the run holds at least N inputs).

`python -m tests.reliability.stress_window SAVE_DIR RUN|new SEED STEPS`
"""

from __future__ import annotations

import random
import sys
import time

from engine.config import Settings
from engine.errors import GameError
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage

PITCHES = (
    "Repair bookings for independent bike shops",
    "Meal plans for night shift nurses",
    "Tool rental lockers for apartment blocks",
)


def main(save_dir: str, run: str, seed: int, steps: int) -> int:
    rng = random.Random(seed)
    router = Router(Settings(demo_mode="simulation"))
    try:
        if run == "new":
            s = GameSession.start_venture(
                pitch=rng.choice(PITCHES), seed=seed, save_dir=save_dir, router=router
            )
        else:
            s = GameSession.load(run, save_dir=save_dir, router=router)
    except GameError as err:
        print("refused", type(err).__name__, str(err)[:80], flush=True)
        return 0
    run_id = s.state.run_id
    print("run", run_id, len(s.inputs), flush=True)
    try:
        if s.read_only:
            for _ in range(5):  # watch; take over when the holder is gone
                s.refresh()
                if s.try_take_over():
                    break
                time.sleep(0.1)
            if s.read_only:
                print("watched", run_id, flush=True)
                return 0
        for _ in range(steps):
            phase = s.state.phase
            if phase == "ended":
                break
            if phase == "brief":
                s.give(RunStage)
            elif phase == "gate":
                s.give(Approve)
            else:
                s.give(Decide, rng.choice("AB"))
            print("ack", run_id, len(s.inputs), flush=True)
    except GameError as err:
        print("refused", type(err).__name__, str(err)[:80], flush=True)
    finally:
        s.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
