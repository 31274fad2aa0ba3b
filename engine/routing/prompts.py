"""What the router adds to a worker's prompts: the artifact's JSON Schema (stated once) and the re-ask."""

from __future__ import annotations

import functools
import json
from typing import Any

from pydantic import BaseModel

from engine.routing.extract import OutputError
from engine.routing.types import RouteRequest

REASK_ECHO_CHARS = 4000


@functools.lru_cache(maxsize=64)
def schema_block(model: type[BaseModel]) -> tuple[dict[str, Any], str, tuple[str, str]]:
    """The artifact's JSON Schema, the system-prompt section stating it, and its two JSON spellings.

    Cached per model class: pydantic schema generation is slow and the schema never changes.
    """
    schema = model.model_json_schema()
    compact = json.dumps(schema, separators=(",", ":"))
    text = (
        "Reply with exactly one JSON object and nothing else. It must validate against this "
        "JSON Schema:\n" + compact
    )
    return schema, text, (compact, json.dumps(schema))


def system_prompt(req: RouteRequest) -> tuple[dict[str, Any], str]:
    """The schema and the system prompt with the schema stated once (the engine may already have)."""
    schema, text, spellings = schema_block(req.schema_model)
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


def reask_turns(answer: str | None, failure: OutputError) -> list[dict[str, str]]:
    """The bad answer (clipped) and one user turn quoting why it was rejected."""
    return [
        {"role": "assistant", "content": (answer or "")[:REASK_ECHO_CHARS]},
        {"role": "user", "content": reask(failure)},
    ]
