"""What happened since the CEO's last decision, with its numbers, for the Story pane.

Read from the run's own events (the replay log's rows), so the story says exactly what the log
records, dated by game day: the rival's answer, its escalations, a world event, a blocked hire, an
approved flaw's cost coming due. Only the rows after the newest decision count, so an event from an
earlier stage is never shown as new. Pure Python (no textual).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.game.economy import METER_NAMES
from worldforge_tui.text.safe_text import one_line

if TYPE_CHECKING:
    from worldforge_tui.replay_entries import LogEntry

# The rows that start a new chapter of consequences (the CEO decided), and the ones that are one.
SINCE = frozenset({"CEO_DECISION"})
SHOWN = frozenset(
    {
        "ORDER_APPLIED",
        "ANTAGONIST_MOVE",
        "ANTAGONIST_ESCALATED",
        "WORLD_EVENT",
        "WORLD_EVENT_RESOLVED",
        "FLAW_SURFACED",
        "DECISION_LANDED",
    }
)
LOOK_BACK = 400  # rows: a chapter has a few dozen at most


@dataclass(frozen=True, slots=True)
class Consequence:
    day: int
    kind: str  # rival, event, flaw, order
    text: str


def _changes(changes: object) -> str:
    """'velocity -3, strain +6' from a {field: delta} payload, in the board's names."""
    if not isinstance(changes, dict):
        return ""
    shown = []
    for field, value in changes.items():
        try:
            amount = float(value)
        except (TypeError, ValueError):
            continue
        if amount:
            shown.append(f"{METER_NAMES.get(str(field), str(field).replace('_', ' '))} {amount:+g}")
    return ", ".join(shown)


def _one(entry: LogEntry) -> Consequence | None:
    payload = entry.payload if isinstance(entry.payload, dict) else {}
    kind = entry.type
    if kind == "ANTAGONIST_MOVE":
        text = one_line(payload.get("narrative") or entry.message, 300)
        delta = payload.get("threat_delta")
        if isinstance(delta, (int, float)) and delta:
            text += f" Threat {delta:+g}."
        return Consequence(entry.day, "rival", text)
    if kind == "ANTAGONIST_ESCALATED":
        bite = _changes(payload.get("bite"))
        return Consequence(
            entry.day, "rival", one_line(entry.message, 200) + (f" ({bite})" if bite else "")
        )
    if kind == "WORLD_EVENT":
        if payload.get("options"):  # waiting for the CEO's answer: the story shows its card
            return None
        return Consequence(entry.day, "event", _event_text(payload, entry.message))
    if kind == "WORLD_EVENT_RESOLVED":
        options = payload.get("options")
        chosen = next(
            (
                o.get("text")
                for o in (options if isinstance(options, list) else [])
                if isinstance(o, dict) and o.get("key") == payload.get("choice")
            ),
            "",
        )
        how = " (its default, as the stage ran first)" if payload.get("by_default") else ""
        text = _event_text(
            payload, entry.message, answer=f"you answered “{one_line(chosen, 120)}”{how}"
        )
        return Consequence(entry.day, "event", text)
    if kind == "FLAW_SURFACED":
        return Consequence(entry.day, "flaw", one_line(payload.get("line") or entry.message, 300))
    if kind == "DECISION_LANDED":
        return Consequence(entry.day, "later", one_line(entry.message, 300))
    if kind == "ORDER_APPLIED":
        lines = payload.get("lines") or [entry.message]
        said = lines if isinstance(lines, Iterable) else [lines]
        return Consequence(entry.day, "order", one_line(" ".join(map(str, said)), 300))
    return None


def _event_text(payload: dict[str, object], fallback: str, answer: str = "") -> str:
    title = one_line(payload.get("title"), 120)
    text = one_line(payload.get("text"), 300)
    effect = one_line(payload.get("effect_line"), 200)
    if not title:
        return one_line(fallback, 300)
    said = f"{title}: {text}" + (f" — {answer}" if answer else "")
    return f"{said} → {effect}" if effect else said


def since_last_decision(entries: Sequence[LogEntry]) -> list[Consequence]:
    """The consequences logged after the newest CEO decision (all of them before the first one),
    oldest first."""
    found: list[Consequence] = []
    for entry in reversed(entries[-LOOK_BACK:]):
        if entry.type in SINCE:
            break
        if entry.type in SHOWN:
            one = _one(entry)
            if one is not None:
                found.append(one)
    found.reverse()
    return found
