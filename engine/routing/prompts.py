"""What the router adds to a worker's prompts: the artifact's JSON Schema (stated once) and the re-ask."""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from engine.routing.extract import OutputError
from engine.routing.types import RouteRequest

if TYPE_CHECKING:
    from pydantic import BaseModel

REASK_ECHO_CHARS = 4000
_STATE = "Reply with exactly one JSON object and nothing else. It must validate against this JSON Schema:"


@functools.lru_cache(maxsize=64)
def schema_block(model: type[BaseModel]) -> tuple[dict[str, Any], str, tuple[str, str]]:
    """The artifact's JSON Schema, the system-prompt section stating it, and its two JSON spellings.

    Cached per model class: pydantic schema generation is slow and the schema never changes.
    """
    schema = model.model_json_schema()
    compact = json.dumps(schema, separators=(",", ":"))
    text = _STATE + "\n" + compact
    return schema, text, (compact, json.dumps(schema))


def system_prompt(req: RouteRequest) -> tuple[dict[str, Any], str]:
    """The schema and the system prompt with the schema stated once (the engine may already have).
    A request's own schema (binding directions compiled in) is stated instead of the model's."""
    bound = req.bound_schema() if req.bound_schema is not None else None
    if bound is not None:
        compact = json.dumps(bound, separators=(",", ":"))
        if compact in req.system:
            return bound, req.system
        return bound, f"{req.system}\n\n{_STATE}\n{compact}"
    schema, text, spellings = schema_block(req.contract())
    if any(s in req.system for s in spellings):
        return schema, req.system
    return schema, f"{req.system}\n\n{text}"


def reask(failure: OutputError) -> str:
    """The re-ask line: quotes the validation error so the model can fix exactly that."""
    return (
        f"Your previous answer was rejected ({failure.label}): {failure.detail[:600]}. "
        "Reply again with only one JSON object that fixes these errors and validates against "
        "the schema."
    )


def reask_turns(answer: str | None, failure: OutputError | str) -> list[dict[str, str]]:
    """The bad answer (clipped) and one user turn quoting why it was rejected: a validation
    error, or (a string) the binding directions a valid answer broke."""
    line = reask(failure) if isinstance(failure, OutputError) else drift_reask(failure)
    return [
        {"role": "assistant", "content": (answer or "")[:REASK_ECHO_CHARS]},
        {"role": "user", "content": line},
    ]


def drift_reask(broken: str) -> str:
    """The re-ask for a valid answer that broke a binding direction: it names the direction."""
    return (
        f"Your previous answer broke the CEO's binding direction ({broken[:600]}). Reply again "
        "with only one JSON object that keeps every binding direction and validates against the "
        "schema."
    )
