"""Read a JSON object that is still being written: what a streamed answer says so far.

For display only (the artifact is validated once the whole answer is in). Completed fields are
kept, a string value still being written shows as far as it goes, and anything else unfinished (a
key, a number, a literal) is left out until it completes.
"""

from __future__ import annotations

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


def partial_json(text: str) -> Any:  # noqa: C901 - one scanner state machine, kept whole
    """The first JSON object in `text` as far as it is written; None before one has begun."""
    start = text.find("{")
    if start < 0:
        return None
    s = text[start:]
    stack: list[list[str]] = []  # [opener, expecting]: key | colon | value | comma
    best: str | None = None
    in_str = False
    str_is_key = False
    str_start = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if in_str:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_str = False
                frame = stack[-1]
                if frame[0] == "{" and frame[1] == "key":
                    frame[1] = "colon"
                else:
                    frame[1] = "comma"
                    best = s[: i + 1] + _closers(stack)
            i += 1
            continue
        if c in " \n\r\t":
            i += 1
            continue
        top = stack[-1] if stack else None
        if c in "{[":
            if top is not None:
                top[1] = "comma"
            stack.append([c, "key" if c == "{" else "value"])
            best = s[: i + 1] + _closers(stack)
        elif c in "}]":
            if not stack:
                break
            stack.pop()
            if not stack:
                try:
                    return json.loads(s[: i + 1])
                except ValueError:
                    break
            best = s[: i + 1] + _closers(stack)
        elif c == '"':
            in_str = True
            str_is_key = top is not None and top[0] == "{" and top[1] == "key"
            str_start = i
        elif c == ":":
            if top is not None:
                top[1] = "value"
        elif c == ",":
            if top is not None:
                top[1] = "key" if top[0] == "{" else "value"
        else:  # a number or a literal: complete only once a delimiter follows it
            j = i
            while j < n and s[j] not in _DELIMS:
                j += 1
            if j == n:
                break
            if top is not None:
                top[1] = "comma"
            best = s[:j] + _closers(stack)
            i = j
            continue
        i += 1
    candidates = []
    if in_str and not str_is_key and stack:
        candidates.append(
            s[:str_start] + '"' + _open_string(s[str_start + 1 :]) + '"' + _closers(stack)
        )
    if best is not None:
        candidates.append(best)
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    return None
