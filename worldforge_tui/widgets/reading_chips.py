"""The reading of words as they are typed, before they bind: the words with each direction's span
highlighted (the selected chip's brighter), a chip per direction (axis · do / don't · value), and
each unread part marked with why (its typed reason and teach-back). Read off the key path: a
pause in typing (debounced) reads the words on a worker thread; a newer reading replaces an
older one, never the other way round. Corrections live in `worldforge_tui.chip_edits`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual import work
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from engine.errors import GameError
from worldforge_tui import actions
from worldforge_tui.chip_edits import Chips, label
from worldforge_tui.text.safe_text import clean, first_line, one_line

if TYPE_CHECKING:
    from engine.language.directions import Direction
    from engine.language.steering import Read

DEBOUNCE = 0.15  # seconds of quiet typing before the words are read
SHOWN_WORDS = 240  # the words shown above the chips (the field holds them all)
UNREAD_SHOWN = 3


def _flat(words: str) -> str:
    """A piece of the typed words, inert and on one line, its spaces kept (pieces join up)."""
    return clean(words, None).replace("\n", " ⏎ ")


class ReadingChips(Static):
    """The chip row under a prompt that reads its words (`reader`: the command's own reading)."""

    DEFAULT_CSS = """
    ReadingChips { height: auto; max-height: 20vh; overflow-y: auto; padding: 0 1; margin: 1 0 0 0;
                   background: $boost; }
    """

    class Shown(Message):
        """A reading of `text` came back (or the one line why it could not be read)."""

        def __init__(self, text: str, read: Read | None, error: str) -> None:
            super().__init__()
            self.text, self.read, self.error = text, read, error

    def __init__(
        self, reader: Callable[[str], Read], *, chips: Chips | None = None, id: str | None = None
    ) -> None:
        super().__init__("", id=id)
        self.reader = reader
        self.chips = chips or Chips()
        self.text = ""
        self.read_for: str | None = None  # the words the chips show the reading of
        self._read: Read | None = None
        self._error = ""
        self._timer: Timer | None = None

    def typed(self, text: str) -> None:
        """The words changed: read them after a pause (each key restarts the wait)."""
        self.text = text
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self._read_now)

    def _read_now(self) -> None:
        self._timer = None
        if not self.text.strip():
            self.post_message(self.Shown(self.text, None, ""))
            return
        self._reading(self.text)

    @work(thread=True, exclusive=True, group="reading", exit_on_error=False)
    def _reading(self, text: str) -> None:
        try:
            self.post_message(self.Shown(text, self.reader(text), ""))
        except GameError as err:  # bad input: its one line, in place of the chips
            self.post_message(self.Shown(text, None, first_line(err)))

    def on_reading_chips_shown(self, message: ReadingChips.Shown) -> None:
        if message.text != self.text:
            return  # an older reading, overtaken by typing
        self._read, self._error = message.read, message.error
        self.chips.show(list(message.read.directions) if message.read else [])
        self.read_for = message.text
        self.redraw()

    def correct(self, what: str) -> str:
        """A chip key: select the previous / next chip, change its axis, flip it, drop it."""
        if what in ("prev", "next"):
            self.chips.select(-1 if what == "prev" else 1)
            said = ""
        else:
            said = {
                "axis": self.chips.change_axis,
                "flip": self.chips.flip,
                "drop": self.chips.drop,
            }[what]()
        self.redraw()
        return said

    def confirmed(self) -> list[Direction] | None:
        """What binds if the words are sent now (None: the reading, as read)."""
        return self.chips.confirmed() if self.read_for == self.text else None

    # ---- drawing -------------------------------------------------------------------------
    def redraw(self) -> None:
        self.update(self.content_now())

    def content_now(self) -> Content:
        if self._error:
            return Content.assemble(("✖ ", "$error bold"), one_line(self._error, 200))
        if self._read is None:
            return Content.assemble(("The reading shows here as you type.", "$foreground-muted"))
        # what to correct first, then why a part binds nothing, then the words with the spans
        # (on a short screen the row scrolls and the first lines are the ones seen)
        lines = [self._chip_line(), self._keys(), *self._unread_lines(), self._words()]
        return Content("\n").join(line for line in lines if line.plain)

    def _words(self) -> Content:
        """The words, each direction's span underlined (the selected one reversed), each unread
        part struck through."""
        text = self.read_for or ""
        shown = text[:SHOWN_WORDS]
        marks: list[tuple[int, int, str]] = []
        for n, chip in enumerate(self.chips.chips):
            d = chip.read
            if d.start is None or d.end is None or d.start >= len(shown):
                continue
            style = "$success" if chip.now is not None else "$foreground-muted strike"
            if n == self.chips.selected:
                style += " reverse"
            marks.append((d.start, min(d.end, len(shown)), style + " underline"))
        for p in self._read.parts if self._read else []:
            if p.start < len(shown):
                marks.append((p.start, min(p.end, len(shown)), "$warning strike"))
        parts: list[str | tuple[str, str]] = []
        at = 0
        for start, end, style in sorted(marks):
            if start < at:
                continue  # overlapping marks: the first wins
            parts.append(_flat(shown[at:start]))
            parts.append((_flat(shown[start:end]), style))
            at = end
        parts.append(_flat(shown[at:]) + ("…" if len(text) > SHOWN_WORDS else ""))
        return Content.assemble(("Read: ", "bold"), *parts)

    def _chip_line(self) -> Content:
        option = self._read.option if self._read else None
        shown_key = {"A": "fork.option_a", "B": "fork.option_b"}.get(option or "")
        shown = (
            f"[{actions.live_key(self.app, shown_key)}]" if shown_key else option
        )  # the key the fork shows
        picks = "Picks both options" if option == "both" else f"Picks option {shown}"
        if not self.chips.chips:
            if option:
                return Content.assemble((f"{picks}; nothing else binds.", "$success"))
            return Content.assemble(("No direction read yet: nothing binds.", "$warning"))
        parts: list[str | tuple[str, str]] = [(f"{picks}, and: ", "$success")] if option else []
        for n, chip in enumerate(self.chips.chips):
            picked = n == self.chips.selected
            if chip.now is None:
                words, style = f"dropped: {label(chip.read)}", "$foreground-muted strike"
            else:
                words = label(chip.now) + (" ✎" if chip.changed else "")
                style = "$success" if chip.now.do else "$error"
            parts.append((f" {one_line(words, 60)} ", style + (" reverse bold" if picked else "")))
            parts.append(" ")
        return Content.assemble(*parts)

    def _unread_lines(self) -> list[Content]:
        read = self._read
        if read is None:
            return []
        out = []
        if "price_amount" in read.unclear:  # asked on Enter, never guessed: said before it
            say = f": say “{read.in_books}”" if read.in_books else ": write it with figures"
            out.append(
                Content.assemble(
                    ("? asked ", "$warning bold"),
                    f"a price the books cannot take as written{say}.",
                )
            )
        told = {p.words for p in read.parts}
        for p in read.parts[:UNREAD_SHOWN]:
            from engine.language.reader.vocab import vocab  # loaded with the reading shown

            labels = vocab().reason_labels  # words.json, beside each reason's teach-back
            why = labels.get(p.reason, p.reason.replace("_", " ") or "binds nothing")
            out.append(
                Content.assemble(
                    ("✖ unread ", "$warning bold"),
                    f"“{one_line(p.words, 60)}”: {why}. ",
                    (one_line(p.teach_back, 160), "$foreground-muted"),
                )
            )
        for words in [u for u in read.unread if u not in told][:UNREAD_SHOWN]:
            out.append(
                Content.assemble(
                    ("✖ unread ", "$warning bold"), f"“{one_line(words, 60)}”: binds nothing."
                )
            )
        return out

    def _keys(self) -> Content:
        key = partial(actions.live_key, self.app)
        keys = (
            f"{key('reading.prev')}/{key('reading.next')} select · {key('reading.axis')} axis · "
            f"{key('reading.flip')} do/don't · {key('reading.drop')} drop"
        )
        return Content.assemble((keys, "$foreground-muted"))
