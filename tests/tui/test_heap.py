"""The TUI's collector settings (worldforge_tui.heap): full passes leave nothing for the next one
to walk again, and what was frozen is collected when another venture opens."""

from __future__ import annotations

import gc
import weakref

from worldforge_tui import heap


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cyclic collector frees it


def test_a_full_pass_freezes_its_survivors() -> None:
    heap.install()
    heap.install()  # idempotent: one hook
    assert gc.callbacks.count(heap._freeze_survivors) == 1
    assert gc.get_threshold()[0] == heap.YOUNG
    kept = [Node() for _ in range(50)]
    before = gc.get_freeze_count()
    gc.collect()
    assert gc.get_objects(generation=2) == []  # everything alive was frozen as the pass ended
    assert gc.get_freeze_count() >= before + len(kept)


def test_reclaim_collects_a_cycle_that_died_frozen() -> None:
    heap.install()
    node = Node()
    gone = weakref.ref(node)
    heap.settle()  # alive at a freeze (a screen open while the survivors were frozen)
    del node
    gc.collect()
    assert gone() is not None  # frozen: a full pass does not see it
    assert heap.reclaim() >= 1
    assert gone() is None


def test_uninstall_hands_the_collector_back() -> None:
    young = gc.get_threshold()[0]
    heap.uninstall()
    before = gc.get_threshold()
    heap.install()
    assert gc.get_threshold()[0] == heap.YOUNG and heap._freeze_survivors in gc.callbacks
    heap.uninstall()
    assert gc.get_threshold() == before and heap._freeze_survivors not in gc.callbacks
    if young == heap.YOUNG:  # as the earlier tests left it
        heap.install()


async def test_the_app_tunes_the_collector_only_while_it_runs(tmp_path) -> None:
    from worldforge_tui.app import WorldForgeApp

    heap.uninstall()
    before = gc.get_threshold()
    app = WorldForgeApp(save_dir=tmp_path, auto_run=False)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert heap._freeze_survivors in gc.callbacks
    assert heap._freeze_survivors not in gc.callbacks and gc.get_threshold() == before
