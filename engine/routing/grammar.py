"""The schema a local server's grammar can carry, and the shape enforcement is known for.

Local runtimes turn `response_format`'s schema into a grammar (llama.cpp and Ollama a GBNF, vLLM
xgrammar or outlines, LM Studio llama.cpp's or MLX's). None of them can say "never these words" or
"some item matches": `not`, `contains` and their kin are passed over by some, refused by others,
and a schema a converter chokes on is silently swapped for plain JSON by llama-cpp-python (the
answer then misses required fields). So a local request carries the schema without them; the
system prompt still states the whole schema, and the gate's check (`RouteRequest.judge`) judges
every binding direction on the answer, with one re-ask naming what broke.

A shape is what enforcement is known for: the contract and the keywords its schema uses where
(not their values, which change with every direction). An answer that misses required fields
under a schema the server was to enforce marks that shape advisory for the deployment; that shape
is then sent as the contract's plain schema, which the grammar carries.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from worldforge_textkit.json_types import JsonObject

# Keywords a grammar cannot carry (JSON Schema 2020-12 applicators and assertions with no
# grammar reading); `allOf` goes too unless it composes objects (llama.cpp's one use of it).
IGNORED = frozenset(
    {
        "not",
        "contains",
        "minContains",
        "maxContains",
        "if",
        "then",
        "else",
        "dependentRequired",
        "dependentSchemas",
        "uniqueItems",
        "propertyNames",
        "patternProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
    }
)
MAX_ADVISORY_SHAPES = 32  # per deployment: the oldest is forgotten beyond this


def carried(schema: JsonObject) -> JsonObject:
    """A copy of `schema` without what a grammar passes over, and without the `$defs` only those
    parts referred to."""
    out: JsonObject = _strip(copy.deepcopy(schema))
    defs = out.get("$defs")
    if isinstance(defs, dict):
        used = _refs(out, defs)
        out["$defs"] = {k: v for k, v in defs.items() if k in used}
        if not out["$defs"]:
            del out["$defs"]
    return out


def _strip(node: Any) -> Any:
    if isinstance(node, list):
        return [_strip(x) for x in node]
    if not isinstance(node, dict):
        return node
    out: JsonObject = {}
    for key, value in node.items():
        if key in IGNORED:
            continue
        if key == "allOf" and not all(
            isinstance(p, dict) and ("properties" in p or "$ref" in p) for p in value or ()
        ):
            continue
        # property names and $defs names are data, not keywords: keep them, strip their schemas
        out[key] = (
            {k: _strip(v) for k, v in value.items()}
            if key in ("properties", "$defs") and isinstance(value, dict)
            else _strip(value)
        )
    return out


def _refs(schema: JsonObject, defs: JsonObject) -> set[str]:
    """The `$defs` names reachable from the schema outside `$defs` (following refs inside them)."""
    found: set[str] = set()
    todo = [v for k, v in schema.items() if k != "$defs"]
    while todo:
        node = todo.pop()
        if isinstance(node, list):
            todo.extend(node)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref.rsplit("/", 1)[-1]
                if name not in found and name in defs:
                    found.add(name)
                    todo.append(defs[name])
            todo.extend(node.values())
    return found


def shape(name: str, schema: JsonObject) -> str:
    """The schema's shape: the contract's name and a digest of which keywords sit where (values
    left out: a new price or audience is the same shape)."""
    marks = sorted(_marks(schema, ""))
    digest = hashlib.sha1(json.dumps(marks).encode(), usedforsecurity=False).hexdigest()[:10]
    return f"{name}:{digest}"


def _marks(node: Any, path: str) -> set[str]:
    out: set[str] = set()
    if isinstance(node, list):
        for item in node:
            out |= _marks(item, path + "[]")
    elif isinstance(node, dict):
        for key, value in node.items():
            if key in ("properties", "$defs") and isinstance(value, dict):
                for name, sub in value.items():
                    out |= _marks(sub, f"{path}/{name}")
            elif key not in ("description", "title", "examples", "default"):
                out.add(f"{path}:{key}")
                out |= _marks(value, f"{path}.{key}")
    return out
