"""How the TUI keeps Python's cyclic garbage collector out of a keypress.

A collection runs inside whatever allocated past its threshold, so its cost lands on a key. A
full pass walks every tracked object that is not frozen: after boot that was the engine, the
board and Textual's render caches (each cached line holds seven small caches), 25-80 ms, and
with the default young threshold (700 objects) a key that allocates ~20k objects also paid a
dozen young passes whose survivors filled the old generation again. What this module sets:

- `settle()` freezes what is alive now (called once the engine is loaded and once the first
  venture is open: modules, the session, the board live as long as the app);
- the survivors of every full pass are frozen as it ends (a `gc.callbacks` hook), so the next
  full pass walks only what is newer, never the same long-lived objects again;
- the young threshold is YOUNG objects, so a key's short-lived objects mostly die before a pass
  and fewer are promoted (the older thresholds stay Python's);
- a frozen object that later becomes cyclic garbage (a screen alive at a freeze, then closed) is
  not reclaimed while frozen: `reclaim()` thaws everything and collects it once, when another
  venture opens (a step the player already waits through), so what a long session can hold on
  to is bounded by one venture's worth.

Only the TUI calls this, while its app runs (`install` as it starts, `uninstall` as it exits);
the headless path keeps Python's defaults.
"""

from __future__ import annotations

import gc
import threading

YOUNG = 2000  # gen-0 threshold (Python's default 700): fewer, slightly larger young passes


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """gc callback: right after a full pass every unfrozen object is alive; freeze them."""
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()


_DEFAULT_YOUNG: list[int] = []  # the threshold install() replaced, for uninstall()
_USERS: list[object] = []  # the apps running with these settings (tests run two at once)


def install(user: object = None) -> None:
    """Tune the collector while `user` (the app) runs; idempotent per user."""
    young, middle, old = gc.get_threshold()
    if _freeze_survivors not in gc.callbacks:
        _DEFAULT_YOUNG[:] = [young]
        gc.callbacks.append(_freeze_survivors)
    if not any(u is user for u in _USERS):
        _USERS.append(user)
    gc.set_threshold(YOUNG, middle, old)


def uninstall(user: object = None) -> None:
    """`user` exited: once no app runs, hand the collector back as it was (a test process runs
    on after its apps)."""
    _USERS[:] = [u for u in _USERS if u is not user]
    if not _USERS and _freeze_survivors in gc.callbacks:
        gc.callbacks.remove(_freeze_survivors)
        _young, middle, old = gc.get_threshold()
        gc.set_threshold(_DEFAULT_YOUNG[0] if _DEFAULT_YOUNG else 700, middle, old)


# `reclaim` runs on the session's worker thread while the screen thread may `settle`: a freeze
# between its thaw and its collection would freeze the garbage it came to collect.
_HEAP = threading.Lock()


def settle() -> None:
    """Freeze what is alive now: it lives as long as the app (called at boot and first venture)."""
    with _HEAP:
        gc.freeze()


def reclaim() -> int:
    """Thaw every frozen object, collect the garbage among them, freeze the survivors again; the
    number of objects collected. A full pass over the whole heap: call it only where the player
    is already waiting (a venture opening)."""
    with _HEAP:
        gc.unfreeze()
        collected = gc.collect()
        gc.freeze()
    return collected
