"""Balance's explorer plays each option's sub-tree from the fork in turn (the save rolled back to a
savepoint, the state to a copy) instead of replaying every path from day 0. Each path it reports
must be exactly what a saved venture played from scratch along that path gets, and a fork point
that lets one option's sub-tree leak into the other's (memory or state) must show here."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from engine.game.shape import MAX_FORKS
from engine.play.balance import PITCH, PathRow, _row, expand, explore
from engine.play.headless import Plan, play
from engine.session.api import GameSession

# Two sub-trees of up to seven forks (128 paths of MAX_FORKS letters each, branched at forks 3 to
# 9: a venture that gains a stage has nine forks), with victories and defeats; on seed 113 two thirds of the designer's ventures end before their last fork (a row
# that stands for every path sharing its prefix).
SUBTREES = [(8, "operator", "AB"), (113, "designer", "AB")]

_honest = GameSession.mark


def _fast(seed: int, archetype: str, prefix: str) -> dict[str, PathRow]:
    return {r["path"]: r for r in expand(explore(seed, archetype, prefix=prefix))}


def _sample(paths: list[str]) -> list[str]:
    """Every eighth path, the last three choices turning over: 16 of 128, each choice of every
    fork taken by half of them."""
    ordered = sorted(paths)
    return [ordered[8 * i + i % 8] for i in range(len(ordered) // 8)]


def _plain(new_session: Any, seed: int, archetype: str, path: str, prefix: str) -> dict[str, Any]:
    """The row of one path played plainly: a saved venture (log, saves, standups) from day 0."""
    s = new_session(pitch=PITCH, seed=seed, archetype=archetype, name="Balance Co")
    play(s, Plan(path=path))
    return {**_row(s, prefix, archetype, seed), "path": path}


def _leaky_memory(session: Any) -> Callable[[], None]:
    """A fork point that keeps what the first option's sub-tree wrote to memory: the second
    option's reads it."""
    back = _honest(session)

    def leaky() -> None:
        session.conn.execute("RELEASE fork")  # the sub-tree's writes stay in the save
        session.conn.execute("SAVEPOINT fork")  # so the honest rollback undoes none of them
        back()

    return leaky


def _leaky_state(session: Any) -> Callable[[], None]:
    """A fork point that takes the state back to a shallow copy: its stages, receipts and economy
    are the objects the first option's sub-tree changed."""
    shallow = copy.copy(session.state)
    back = _honest(session)

    def leaky() -> None:
        back()
        session.state = shallow

    return leaky


def test_every_branched_path_is_the_path_played_from_day_0(new_session, monkeypatch):
    for seed, archetype, prefix in SUBTREES:
        fast = _fast(seed, archetype, prefix)
        assert len(fast) == 2 ** (MAX_FORKS - len(prefix)) and {
            r["result"] for r in fast.values()
        } == {"victory", "defeat"}
        picked = _sample(list(fast))
        plain = {p: _plain(new_session, seed, archetype, p, fast[p]["prefix"]) for p in picked}
        assert {p: fast[p] for p in picked} == plain, next(p for p in picked if fast[p] != plain[p])
        # the comparison sees a leak: sharing memory or state with a sibling changes some of
        # these paths (or trips the engine's own checks)
        for leaky in (_leaky_memory, _leaky_state):
            monkeypatch.setattr(GameSession, "mark", leaky)
            try:
                leaked = _fast(seed, archetype, prefix)
            except AssertionError:
                continue
            finally:
                monkeypatch.setattr(GameSession, "mark", _honest)
            assert {p: leaked[p] for p in picked} != plain, leaky.__name__
