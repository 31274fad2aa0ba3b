"""Regular expressions compiled the first time they are used, not when their module is imported.

Python compiles a pattern in pure Python (~1 ms for one of the big alternations a reader uses),
and a process pays for every module-level `re.compile` it imports: 188 patterns, about 15 % of a
`worldforge simulate` process's instructions, most of them for text the venture never reads (a
Chinese pitch, a model's reasoning tags, a CEO's free-text price). `Pattern` is a drop-in for the
module-level constant: the same methods, compiled once on first call, then shared.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any


class Pattern:
    """`re.compile(source, flags)`, deferred to the first search, match, sub, split or findall."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, source: str, flags: int | re.RegexFlag = 0) -> None:
        self.pattern = source
        self.flags = int(flags)
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.fullmatch(text, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.compiled.sub(repl, text, count)

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(text, maxsplit)

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled.findall(text, pos, endpos)

    def finditer(
        self, text: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text, pos, endpos)

    def __repr__(self) -> str:
        return f"Pattern({self.pattern!r}, {self.flags})"


# C0 controls except tab/newline, DEL, C1 controls, and bidi overrides that can reorder a line:
# what no text shown on a terminal or written to a report may carry as it is.
CONTROLS = Pattern("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
