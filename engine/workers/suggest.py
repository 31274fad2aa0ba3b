"""A model tier asked to place what the reader could not: a constrained choice, never a decision.

With a local or Foundry model configured, the unread parts of a rejection or a standup reply
(engine.language.suggested.offerable: the reader's typed reasons kept) go to the model through
the router as one structured call: for each part an axis from the reader's enum or none,
do / don't, and words that must be a span of the part (the JSON Schema carries the axes and the
part's spans as enums, so a server whose grammar holds the schema can only answer with them).
The answer is checked all the same (`engine.language.suggested.check`: a server may ignore the
grammar): what does not hold is discarded and said so. The call shares the action's deadline
and cancel (engine.routing.deadline) and is labelled by who served it. Nothing is bound here:
the front end shows the suggestion, marked with its model, and the command that carries it binds
it only when the player confirms; the command records it, so replay never asks a model. The
offline game (the simulation tier) never asks: with no model, no timely or valid answer, a part
stays unread with its reason, and the one line says why.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.language.fence import DATA_RULE, data_block
from engine.language.grammar import join_prose
from engine.language.reader.reads import Part, Reading
from engine.language.suggested import AXES, LEAVE_OUT, NONE, Suggestion, check, offerable, spans
from engine.routing import Role, Router, RouteRequest
from worldforge_savedb.records import FrozenRecord
from worldforge_textkit import clip

if TYPE_CHECKING:
    from pydantic import BaseModel

MAX_ENUM_SPANS = 240  # beyond this many spans the words are checked, not enumerated
MAX_OUTPUT_TOKENS = 300


@dataclass(frozen=True, eq=False, repr=False)
class Offer(FrozenRecord):
    """What asking gave: the checked suggestions and one line for the player (empty when no
    model was asked: nothing to say)."""

    suggestions: tuple[Suggestion, ...] = ()
    line: str = ""


@functools.cache
def placements_contract() -> type[BaseModel]:
    """The answer's shape, `Placements` (pydantic, built only when a model is asked). Loose on
    purpose: each placement is judged on its own (`check`), so one bad one loses only itself."""
    from pydantic import BaseModel, Field

    class Placement(BaseModel):
        part: int
        axis: str = Field(max_length=40)
        do: bool = True
        words: str = Field(max_length=400)

    class Placements(BaseModel):
        placements: list[Placement] = Field(default_factory=list, max_length=10)

    return Placements


def schema(text: str, parts: Sequence[Part]) -> dict[str, object]:
    """The JSON Schema the request carries: the part's number, the axis and the words as enums,
    one placement for each part, and an axis that only leaves things out only with do false."""
    words = [w for p in parts for w in spans(text, p)]
    said: dict[str, object] = {"type": "string", "maxLength": 400}
    if 0 < len(words) <= MAX_ENUM_SPANS:
        said = {"type": "string", "enum": list(dict.fromkeys(words))}

    def placement(axes: list[str], do: dict[str, object]) -> dict[str, object]:
        return {
            "type": "object",
            "properties": {
                "part": {"type": "integer", "enum": list(range(1, len(parts) + 1))},
                "axis": {"type": "string", "enum": axes},
                "do": do,
                "words": said,
            },
            "required": ["part", "axis", "do", "words"],
            "additionalProperties": False,
        }

    return {
        "type": "object",
        "properties": {
            "placements": {
                "type": "array",
                "minItems": len(parts),
                "maxItems": len(parts),
                "items": {
                    "anyOf": [
                        placement(
                            [a for a in AXES if a not in LEAVE_OUT] + [NONE], {"type": "boolean"}
                        ),
                        placement([a for a in AXES if a in LEAVE_OUT], {"const": False}),
                    ]
                },
            }
        },
        "required": ["placements"],
        "additionalProperties": False,
    }


SYSTEM = (
    "You help a game read what its player, a company's CEO, wrote to the AI workers. The game's "
    "reader could not place some parts of it. For each numbered part, choose the one axis it "
    "sets, or none when no axis fits:\n"
    + "\n".join(f"- {axis}: {meaning}" for axis, meaning in AXES.items())
    + f"\n- {NONE}: the part sets none of these\n"
    "words: copy the fewest words of that part that hold the value, exactly as written; never "
    "words of your own. do: false when the player says to avoid or leave the thing out. Exactly "
    "one placement for each part. Answer as JSON "
    '{"placements": [{"part": 1, "axis": "…", "do": true, "words": "…"}]}. ' + DATA_RULE
)


def request(reading: Reading, parts: Sequence[Part], role: Role, call_key: str) -> RouteRequest:
    """The structured call that asks for the parts' placements."""
    listed = "\n".join(
        f"{n}. “{clip(p.words, 200)}” (unread: {p.reason or 'no axis'})"
        for n, p in enumerate(parts, 1)
    )
    return RouteRequest(
        role=role,
        system=SYSTEM,
        user=data_block(
            "venture_data", f"What the CEO wrote: {clip(reading.text, 600)}\nParts:\n{listed}"
        ),
        contract=placements_contract,
        call_key=call_key,
        max_output_tokens=MAX_OUTPUT_TOKENS,
        on_cancel="floor",  # Esc: no suggestion, the words are still the player's to give
        bound_schema=lambda: schema(reading.text, parts),
    )


def offer(
    router: Router,
    reading: Reading,
    *,
    role: Role,
    call_key: str,
    placed: Callable[[str], bool] = lambda words: False,
) -> Offer:
    """Ask the router's model tier to place the reading's unread parts (see the module
    docstring), but those `placed` says something else places (a standing order). No model
    tier, or nothing to place: nothing is asked (an empty Offer)."""
    parts = [p for p in offerable(reading) if not placed(p.words)]
    if not parts or router.runtime_label() == "replay" or not router.plan(role):
        return Offer()
    result = router.call(request(reading, parts, role, call_key), lambda: {"placements": []})
    quoted = join_prose([f"“{clip(p.words, 60)}”" for p in parts])
    stays = "stays unread" if len(parts) == 1 else "stay unread"
    if result.served_by not in ("local", "foundry"):
        why = result.fallback_reason or "no model answered"
        return Offer((), f"No suggestion ({clip(why, 120)}): {quoted} {stays}.")
    by = f"{result.served_by}: {result.model}"
    kept, dropped = check(result.output, reading.text, parts, by)
    lines = []
    if kept:
        lines.append(
            f"Suggested by {by}: " + "; ".join(s.words() for s in kept) + " (binds if you confirm)."
        )
    if dropped:
        lines.append(f"Discarded from {by}: {'; '.join(dropped[:3])}.")
    if not kept:
        lines.append(f"{quoted} {stays}.")
    return Offer(tuple(kept), " ".join(lines))
