"""A reading's chips and the player's corrections to them, before the words bind (pure: no
textual, so every correction is tested without a screen).

Each direction the reader found is a chip (axis · do / don't · value). The player may change a
chip's axis (cycling through the axes its value could take, from the engine's enum: a thing to
do takes the axes that name what to do, a thing to leave out the two that leave out; a figure
keeps its axis), flip its do / don't (what to do becomes a thing to leave out, and back to the axis
it had), or drop it. A correction is kept by the chip it was made on (its first axis, value and
where its words start), so typing on re-reads the words and keeps the corrections still standing.
What binds is `Chips.confirmed()`: None when nothing was corrected (the reading binds as read).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.language.directions import AXES

if TYPE_CHECKING:
    from engine.language.directions import Axis, Direction

FIGURES = ("price", "number", "timeline")  # an amount of its own: the axis stays
LEAVE_OUT = ("exclusion", "claim")  # the axes that bind a don't
TO_DO = tuple(a for a in AXES if a not in FIGURES + LEAVE_OUT)
UNDO = "scope"  # what a thing left out becomes when flipped, if it was never another axis

Key = tuple[str, str, int | None]


def polarity(d: Direction) -> str:
    return "do" if d.do else "don't"


def label(d: Direction) -> str:
    """The chip's words: axis · do / don't · value ("audience · do · head chefs")."""
    value = d.line().split(" ", 1)[1] if d.axis in FIGURES else d.value
    return f"{d.axis} · {polarity(d)} · {value}"


def next_axis(d: Direction) -> Direction | None:
    """The next axis its value could take (None: a figure keeps its axis)."""
    if d.axis in FIGURES:
        return None
    ring = TO_DO if d.do else LEAVE_OUT
    at = ring.index(d.axis) if d.axis in ring else -1
    axis: Axis = ring[(at + 1) % len(ring)]  # type: ignore[assignment]
    return replace(d, axis=axis, note=None)


def flipped(d: Direction, was: str | None) -> Direction | None:
    """Do becomes don't (a thing to leave out) and back, to the axis it had (`was`), else the
    work's scope (None: a figure binds as said; drop it instead)."""
    if d.axis in FIGURES:
        return None
    if d.do:
        return replace(d, axis="exclusion", do=False, note=None)
    axis: Axis = was if was in TO_DO else UNDO  # type: ignore[assignment]
    return replace(d, axis=axis, do=True, note=None)


@dataclass
class Chip:
    """One direction as read, and what the player made of it (None: dropped)."""

    read: Direction
    now: Direction | None
    was: str | None = None  # the axis it had before it was flipped to a don't

    @property
    def changed(self) -> bool:
        """Whether the player made it bind otherwise than read (dropped, or another axis or
        do / don't: an axis cycled round to where it began is no change)."""
        return self.now is None or self.now.to_dict() != self.read.to_dict()

    @property
    def key(self) -> Key:
        return (self.read.axis, self.read.value.lower(), self.read.start)


class Chips:
    """The chips of the words as last read, the selected one, and the corrections made."""

    def __init__(self) -> None:
        self.chips: list[Chip] = []
        self.selected = 0
        self._kept: dict[Key, Chip] = {}  # corrections, by the chip they were made on

    def show(self, directions: list[Direction]) -> None:
        """A new reading of the words: its chips, each with the correction still standing."""
        self.chips = []
        for d in directions:
            chip = Chip(d, d)
            kept = self._kept.get(chip.key)
            self.chips.append(kept if kept is not None else chip)
        self.selected = min(self.selected, max(0, len(self.chips) - 1))

    @property
    def current(self) -> Chip | None:
        return self.chips[self.selected] if self.chips else None

    def select(self, step: int) -> None:
        if self.chips:
            self.selected = (self.selected + step) % len(self.chips)

    def _set(self, chip: Chip, now: Direction | None, was: str | None) -> None:
        chip.now, chip.was = now, was
        self._kept[chip.key] = chip

    def change_axis(self) -> str:
        """Cycle the selected chip's axis; the one line to show when it cannot ("" when done)."""
        chip = self.current
        if chip is None or chip.now is None:
            return "No direction selected." if chip is None else "That one is dropped."
        new = next_axis(chip.now)
        if new is None:
            return f"A {chip.now.axis} keeps its axis: drop it, or say it again."
        self._set(chip, new, chip.was)
        return ""

    def flip(self) -> str:
        """Flip the selected chip's do / don't; the one line when it cannot ("" when done)."""
        chip = self.current
        if chip is None or chip.now is None:
            return "No direction selected." if chip is None else "That one is dropped."
        new = flipped(chip.now, chip.was)
        if new is None:
            return f"A {chip.now.axis} binds as said: drop it, or say it again."
        self._set(chip, new, chip.now.axis if chip.now.do else None)
        return ""

    def drop(self) -> str:
        """Drop the selected chip (pressed again: bring it back)."""
        chip = self.current
        if chip is None:
            return "No direction selected."
        self._set(chip, None if chip.now is not None else chip.read, None)
        return ""

    def confirmed(self) -> list[Direction] | None:
        """What binds: the chips as corrected (None when nothing was: the reading binds)."""
        if not any(c.changed for c in self.chips):
            return None
        return [c.now for c in self.chips if c.now is not None]
