"""Read a JSON object that is still being written: what a streamed answer says so far.

For display only (the artifact is validated once the whole answer is in). Completed fields are
kept, a string value still being written shows as far as it goes, and anything else unfinished (a
key, a number, a literal) is left out until it completes.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

_PARTIAL_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{0,3})?$")
_DELIMS = frozenset(",}] \n\r\t")


def _closers(stack: list[list[str]]) -> str:
    return "".join("}" if frame[0] == "{" else "]" for frame in reversed(stack))


def _open_string(body: str) -> str:
    """A string's text so far, minus a trailing escape that is not complete."""
    if (len(body) - len(body.rstrip("\\"))) % 2:  # an odd run of backslashes opens an escape
        return body[:-1]
    m = _PARTIAL_ESCAPE.search(body)
    if m and m.group(1) is not None:
        head = body[: m.start()]
        if (len(head) - len(head.rstrip("\\"))) % 2 == 0:
            return head
    return body


def partial_reach(text: str) -> tuple[Any, int]:
    """The first JSON object in `text` as far as it is written (None before one has begun), and
    how many characters of `text` it shows: a token beyond that (in a key, a number or a literal
    not yet complete) is not on screen yet."""
    start = text.find("{")
    if start < 0:
        return None, 0
    scan = _Scan(text[start:])
    value = scan.run()
    return value, (start + scan.reach if value is not None else 0)


class _Scan:
    """One pass over an object being written: a stack of open containers, each with what it
    expects next (key | colon | value | comma), and the longest prefix that closes into JSON."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.stack: list[list[str]] = []  # [opener, expecting]
        self.best: str | None = None
        self.in_str = False
        self.str_is_key = False
        self.str_start = 0
        self.whole: Any = None
        self.complete = False
        self.best_end = 0  # characters of `s` that `best` holds
        self.reach = 0  # characters of `s` the value returned shows

    def run(self) -> Any:
        i: int | None = 0
        while i is not None and i < len(self.s):
            i = self._in_string(i) if self.in_str else self._outside(i)
        return self.whole if self.complete else self._so_far()

    def _in_string(self, i: int) -> int:
        c = self.s[i]
        if c == "\\":
            return i + 2
        if c == '"':
            self.in_str = False
            frame = self.stack[-1]
            if frame[0] == "{" and frame[1] == "key":
                frame[1] = "colon"
            else:
                frame[1] = "comma"
                self._keep(i + 1)
        return i + 1

    def _outside(self, i: int) -> int | None:
        """The next index to read, or None to stop (the object closed, or it cannot go on)."""
        c = self.s[i]
        top = self.stack[-1] if self.stack else None
        if c in "{[":
            if top is not None:
                top[1] = "comma"
            self.stack.append([c, "key" if c == "{" else "value"])
            self._keep(i + 1)
        elif c in "}]":
            return self._close(i)
        elif c == '"':
            self.in_str = True
            self.str_is_key = top is not None and top[0] == "{" and top[1] == "key"
            self.str_start = i
        elif c == ":" and top is not None:
            top[1] = "value"
        elif c == "," and top is not None:
            top[1] = "key" if top[0] == "{" else "value"
        elif c not in " \n\r\t:,":
            return self._literal(i, top)
        return i + 1

    def _close(self, i: int) -> int | None:
        if not self.stack:
            return None
        self.stack.pop()
        if not self.stack:  # the object is whole: parse it as written
            with contextlib.suppress(ValueError):
                self.whole, self.complete = json.loads(self.s[: i + 1]), True
                self.reach = i + 1
            return None
        self._keep(i + 1)
        return i + 1

    def _literal(self, i: int, top: list[str] | None) -> int | None:
        """A number or a literal: complete only once a delimiter follows it."""
        j = i
        while j < len(self.s) and self.s[j] not in _DELIMS:
            j += 1
        if j == len(self.s):
            return None
        if top is not None:
            top[1] = "comma"
        self._keep(j)
        return j

    def _keep(self, end: int) -> None:
        """`s[:end]` closes into JSON: the longest such prefix so far."""
        self.best = self.s[:end] + _closers(self.stack)
        self.best_end = end

    def _so_far(self) -> Any:
        """The open string shown as far as it goes, else the longest prefix that closes."""
        candidates: list[tuple[str, int]] = []
        if self.in_str and not self.str_is_key and self.stack:
            s, at = self.s, self.str_start
            body = _open_string(s[at + 1 :])
            candidates.append(
                (s[:at] + '"' + body + '"' + _closers(self.stack), at + 1 + len(body))
            )
        if self.best is not None:
            candidates.append((self.best, self.best_end))
        for candidate, reach in candidates:
            try:
                value = json.loads(candidate)
            except ValueError:
                continue
            self.reach = reach
            return value
        return None
