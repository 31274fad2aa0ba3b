"""JSON as the code holds it, named once.

`JsonObject` is a JSON object read by key without a check, because a schema or the code that
built it knows its shape: a worker's artifact (validated by its role's model), a JSON Schema, a
request or response body. Its values stay `Any`; the name says which idea a `dict` is, and a
stricter type can replace it here, in one place. Where a value is only passed along, the code
says `object` instead.
"""

from __future__ import annotations

from typing import Any, TypeAlias

JsonObject: TypeAlias = dict[str, Any]
