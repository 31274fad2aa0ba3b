"""Structured output from model text: strip reasoning, take fenced or first balanced JSON, validate.

One shared pipeline for every tier (the original pasted its extractor five times). It never
"completes" truncated JSON: a cut-off answer is reported as truncated so the router can re-ask. On the
unconstrained rungs (json_object, prompt-only) a closed but slightly wrong JSON value (trailing commas,
single quotes, True/None, raw newlines) is repaired with `json-repair`, and the step says so.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from worldforge_savedb.records import Record
from worldforge_textkit.patterns import Pattern

if TYPE_CHECKING:  # pydantic loads when a model's answer is parsed, never on the simulation path
    from pydantic import BaseModel, ValidationError

_CLOSED = Pattern(r"<(think|thinking|reasoning)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_OPEN = Pattern(r"<(think|thinking|reasoning)\b[^>]*>", re.IGNORECASE)
_STRAY_CLOSE = Pattern(r"^.*?</(think|thinking|reasoning)\s*>", re.IGNORECASE | re.DOTALL)
_FENCE = Pattern(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n(.*?)```", re.DOTALL)
_MAX_CANDIDATES = 8


class OutputError(Exception):
    """Model text that yields no valid artifact; `label` names why (truncated, no_json, invalid…)."""

    def __init__(self, label: str, detail: str, *, missing: bool = False) -> None:
        super().__init__(f"{label}: {detail}")
        self.label = label
        self.detail = detail
        self.missing = missing  # a required field was absent (a schema the server did not hold)


@dataclass(eq=False, repr=False)
class Extraction(Record):
    """A parsed artifact (validated, as JSON) plus which pipeline steps fired."""

    output: dict[str, Any]
    steps: list[str] = field(default_factory=list)


def strip_reasoning(text: str) -> tuple[str, list[str]]:
    """Remove <think>/<thinking>/<reasoning> blocks; an unclosed one means the answer was cut off."""
    steps: list[str] = []
    out = _CLOSED.sub("", text)
    if out != text:
        steps.append("think_stripped")
    if _OPEN.search(out):
        raise OutputError("truncated_reasoning", "reasoning block never closed")
    # Some templates open the block in the prompt, so only the closing tag arrives.
    stray = _STRAY_CLOSE.match(out)
    if stray:
        out = out[stray.end() :]
        steps.append("think_stripped")
    return out, steps


def _balanced_end(text: str, start: int) -> int | None:
    """Index just past the JSON value opening at `start`, respecting strings; None if unbalanced."""
    depth = 0
    in_str = False
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _first_open(text: str, pos: int = 0) -> int | None:
    """Where the first JSON object or array at or after `pos` opens (None: none does)."""
    starts = [i for i in (text.find("{", pos), text.find("[", pos)) if i >= 0]
    return min(starts) if starts else None


def json_candidates(text: str) -> tuple[list[Any], bool]:
    """Top-level JSON values found in text, in order; the flag says an opened value never closed."""
    found: list[Any] = []
    stripped = text.strip()
    if stripped:
        try:
            return [json.loads(stripped)], False
        except ValueError:
            pass
    truncated = False
    pos = 0
    while len(found) < _MAX_CANDIDATES:
        start = _first_open(text, pos)
        if start is None:
            break
        end = _balanced_end(text, start)
        if end is None:
            truncated = True
            pos = start + 1
            continue
        try:
            found.append(json.loads(text[start:end]))
            pos = end
        except ValueError:
            pos = start + 1
    return found, truncated and not found


def _short_errors(exc: ValidationError, limit: int = 6) -> str:
    parts = []
    for err in exc.errors()[:limit]:
        loc = ".".join(str(p) for p in err.get("loc", ())) or "(root)"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    more = len(exc.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


_BOUNDS = {
    "greater_than_equal": "ge",
    "less_than_equal": "le",
    "greater_than": "gt",
    "less_than": "lt",
    "too_long": "max_length",
}


def clamp_to_limits(value: Any, exc: ValidationError) -> tuple[Any, list[str]] | None:
    """A copy of `value` with each out-of-range number or over-long list/string brought to its
    schema limit (servers do not enforce minimum/maximum); None when any other error remains."""
    import copy

    fixed = copy.deepcopy(value)
    done: list[str] = []
    for err in exc.errors():
        bound = _BOUNDS.get(err.get("type", ""))
        loc = err.get("loc", ())
        if bound is None or not loc:
            return None
        parent = fixed
        for part in loc[:-1]:
            try:
                parent = parent[part]
            except (KeyError, IndexError, TypeError):
                return None
        key = loc[-1]
        limit = (err.get("ctx") or {}).get(bound)
        try:
            current = parent[key]
        except (KeyError, IndexError, TypeError):
            return None
        if bound == "max_length" and isinstance(current, list | str) and isinstance(limit, int):
            parent[key] = current[:limit]
        elif isinstance(current, int | float) and isinstance(limit, int | float):
            step = 1 if isinstance(current, int) and isinstance(limit, int) else 1e-9
            parent[key] = {"ge": limit, "le": limit, "gt": limit + step, "lt": limit - step}[bound]
        else:
            return None
        done.append(".".join(str(p) for p in loc))
    return fixed, done


def repaired_json(body: str) -> tuple[Any, int] | None:
    """`body`'s first JSON value repaired (value, number of repairs), when it is closed: a value
    that never closes is truncated, and json-repair would silently complete it."""
    start = _first_open(body)
    end = None if start is None else _balanced_end(body, start)
    if start is None or end is None:
        return None
    import json_repair

    try:
        value, actions = json_repair.repair_json(body[start:end], return_objects=True, logging=True)
    except (ValueError, TypeError, RecursionError):
        return None
    if not isinstance(value, dict | list) or not value:
        return None
    return value, max(1, len(actions))


def parse_artifact(
    text: str | None,
    model: type[BaseModel],
    *,
    finish_reason: str | None = None,
    clamp: bool = False,
    repair: bool = False,
) -> Extraction:
    """Run the pipeline on one answer and return it validated by `model` (dumped as JSON), or raise
    OutputError.
    With `clamp`, values beyond a schema limit are brought to it (a step labelled clamped:…); with
    `repair` (the unconstrained rungs), closed JSON with small slips is repaired (json_repaired:N)."""
    from pydantic import ValidationError

    if text is None or not text.strip():
        if finish_reason == "length":
            raise OutputError("truncated", "empty answer at the token limit")
        raise OutputError("empty", "no text in the answer")
    body, steps = strip_reasoning(text)
    fences = _FENCE.findall(body)
    if fences:
        body = fences[-1][1]
        steps.append("fence_extracted")
    candidates, truncated = json_candidates(body)
    if repair and finish_reason != "length" and not any(_valid(model, c) for c in candidates):
        repaired = repaired_json(body)
        if repaired is not None and _valid(model, repaired[0]):
            candidates = [repaired[0]]
            steps = [*steps, f"json_repaired:{repaired[1]}"]
    if not candidates:
        if truncated or finish_reason == "length":
            raise OutputError("truncated", "the JSON value never closed")
        raise OutputError("no_json", "no JSON object in the answer")
    first_error: ValidationError | None = None
    for value in candidates:
        try:
            output = model.model_validate(value)
        except ValidationError as exc:
            first_error = first_error or exc
            fixed = clamp_to_limits(value, exc) if clamp else None
            if fixed is None:
                continue
            try:
                output = model.model_validate(fixed[0])
            except ValidationError:
                continue
            steps = steps + [f"clamped:{loc}" for loc in fixed[1]]
        if finish_reason == "length":
            raise OutputError("truncated", "the answer hit the token limit")
        return Extraction(output=output.model_dump(mode="json"), steps=steps)
    assert first_error is not None
    missing = any(e.get("type") == "missing" for e in first_error.errors())
    raise OutputError("invalid", _short_errors(first_error), missing=missing)


def _valid(model: type[BaseModel], value: Any) -> bool:
    from pydantic import ValidationError

    try:
        model.model_validate(value)
    except ValidationError:
        return False
    return True


def has_reasoning(delta: dict[str, Any]) -> bool:
    """Whether a stream delta carries reasoning in a separate field (Ollama, llama.cpp)."""
    return any(
        isinstance(v, str) and v for v in (delta.get("reasoning"), delta.get("reasoning_content"))
    )
