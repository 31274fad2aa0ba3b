"""Rows of the replay log: engine events turned into cleaned, pre-formatted, categorised entries.

Pure Python (no textual) so the conversion can run on whichever thread appended the event and the
rules for which tab shows what are testable on their own.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import SupportsIndex, SupportsInt

from worldforge_tui.text.safe_text import one_line

CAT_WORKERS = 1
CAT_KNOWLEDGE = 2
CAT_MEMORY = 4

TABS: tuple[tuple[str, str, int], ...] = (
    ("events", "Events", 0),
    ("workers", "Workers & tools", CAT_WORKERS),
    ("knowledge", "Knowledge", CAT_KNOWLEDGE),
    ("memory", "Memory writes", CAT_MEMORY),
)
TAB_MASKS = {tab_id: mask for tab_id, _, mask in TABS}

WORKER_TYPES = frozenset(
    {
        "STAGE_BRIEFED",
        "STAGE_EXECUTED",
        "ARTIFACT_REJECTED",
        "ARTIFACT_APPROVED",
        "ROUTE_FALLBACK",
        "BRIEF_TRIMMED",
        "WORLD_DESIGNED",
        "ORG_CHARTERED",
        "ANTAGONIST_FORGED",
        "ANTAGONIST_MOVE",
        "WORLD_ADAPTED",
        "AGENT_STANDUP",
        "ANTAGONIST_ESCALATED",
        "SETTINGS_CHANGED",
    }
)
WORKER_KEYS = frozenset({"served_by", "tools_called", "attempts", "fallback_reason"})
KNOWLEDGE_KEYS = ("iq_hits", "knowledge_hits", "knowledge")

TYPE_WIDTH, ACTOR_WIDTH = 20, 13
MESSAGE_LIMIT = 300


def payload_dict(payload: object) -> dict[str, object]:
    """The payload as a dict whatever shape it arrived in (dict, JSON text, None, junk)."""
    if isinstance(payload, dict):
        return payload
    if isinstance(payload, (str, bytes)):
        try:
            loaded = json.loads(payload)
        except (ValueError, TypeError):
            return {"text": payload if isinstance(payload, str) else repr(payload)}
        return loaded if isinstance(loaded, dict) else {"value": loaded}
    return {} if payload is None else {"value": payload}


def categories(event_type: str, payload: dict[str, object]) -> int:
    """Bit mask of the log tabs (besides Events, which shows all) this event belongs to."""
    mask = 0
    if event_type in WORKER_TYPES or not WORKER_KEYS.isdisjoint(payload):
        mask |= CAT_WORKERS
    if event_type.startswith("KNOWLEDGE") or any(payload.get(key) for key in KNOWLEDGE_KEYS):
        mask |= CAT_KNOWLEDGE
    if event_type.startswith("MEMORY_") or payload.get("memory_written"):
        mask |= CAT_MEMORY
    return mask


_NO_PAYLOAD: dict[str, object] = {}  # shared by every row without one (read, never written)


@dataclass(slots=True)
class LogEntry:
    """One replay-log row: the event's fields, cleaned, plus the formatted line and tab mask.

    Lean, as the log holds up to 100k of them: the message is the end of the formatted line
    (`text[msg_at:]`), not a second copy, and the filter lower-cases the line when it scans."""

    id: int
    day: int
    type: str
    actor: str
    payload: dict[str, object]
    ts: str
    cats: int
    text: str
    msg_at: int  # where the message starts in `text`

    @property
    def message(self) -> str:
        return self.text[self.msg_at :]


def head(event_id: int, day: int) -> str:
    """The id and game-day columns that start every row (their length places the styled columns)."""
    return f"{event_id:>6} d{day:<4} "


def _int(value: object, default: int = 0) -> int:
    if not isinstance(value, str | bytes | SupportsInt | SupportsIndex):
        return default  # what int() refuses with a TypeError
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


_KIND_ID = re.compile(
    r"\b(user_profile|chat_summary|procedural|semantic|preference|context)"
    r" memory\b|\b(user_profile|chat_summary)\b"
)


_NOTE_ID = re.compile(r"\b(?:sem|mem)-[0-9a-f]{6,}\b")


def readable(message: str) -> str:
    """An event's message as a row shows it: no rule ids (a parenthesised `(role.rule)`, a leading `role.rule:`),
    file paths or memory kind names (`chat_summary memory written` reads `stage summary
    written`); the payload, in the inspector, keeps them all."""
    from engine.views.render import prose  # the engine loads after the first frame
    from memory.models import kind_words

    def words(m: re.Match[str]) -> str:
        return kind_words(m.group(1) or m.group(2))

    return " ".join(_NOTE_ID.sub("", _KIND_ID.sub(words, prose(message))).split()).lstrip(": ")


def entry_from_event(event: object) -> LogEntry:
    """Convert an engine `Event` (or any object/dict with its fields) into a `LogEntry`; never raises."""
    if isinstance(event, dict):
        get = event.get
        raw_day = event.get("game_day", event.get("day"))
    else:

        def get(key: str, default: object = None) -> object:
            return getattr(event, key, default)

        raw_day = getattr(event, "game_day", None)
    payload = payload_dict(get("payload"))
    event_id = _int(get("id"))
    day = _int(raw_day)
    event_type = one_line(get("type") or "EVENT", 40)
    actor = one_line(get("actor") or "", 30).replace("_", " ")  # a role id: strategy_lead
    message = readable(one_line(get("message") or "", MESSAGE_LIMIT))
    served = payload.get("served_by")
    if isinstance(served, str) and served:
        model = payload.get("model")
        label = (
            f"{served}: {model}" if isinstance(model, str) and model and model != served else served
        )
        if label not in message:
            message = f"{message} ← {one_line(label, 60)}"
    columns = (
        f"{head(event_id, day)}{event_type:<{TYPE_WIDTH}.{TYPE_WIDTH}} "
        f"{actor:<{ACTOR_WIDTH}.{ACTOR_WIDTH}} "
    )
    return LogEntry(
        event_id,
        day,
        event_type,
        actor,
        payload or _NO_PAYLOAD,
        str(get("ts") or "")[:40],
        categories(event_type, payload),
        columns + message,
        len(columns),
    )


def in_tab(entry: LogEntry, tab: str) -> bool:
    """True if the entry is shown under the tab (unknown tabs show everything)."""
    mask = TAB_MASKS.get(tab, 0)
    return mask == 0 or bool(entry.cats & mask)


def payload_text(entry: LogEntry) -> str:
    """Pretty JSON of the entry for the payload inspector (the caller cleans it before display)."""
    body = {
        "id": entry.id,
        "type": entry.type,
        "actor": entry.actor,
        "game_day": entry.day,
        "ts": entry.ts,
        "message": entry.message,
        "payload": entry.payload,
    }
    return json.dumps(body, indent=2, ensure_ascii=False, default=repr)


class EventInbox:
    """Where engine events wait for the replay log: filled from any thread (the session's worker
    calls `put` from the engine's listener), drained on the UI thread by the log's flush timer.

    A plain object, not a widget, so the worker thread never touches the widget tree.
    """

    def __init__(self) -> None:
        self.entries: deque[LogEntry] = deque()  # append/popleft are atomic: no lock needed

    def put(self, event: object) -> None:
        """Convert one event (on the calling thread) and queue it."""
        self.entries.append(entry_from_event(event))

    def put_many(self, events: Iterable[object]) -> None:
        self.entries.extend(entry_from_event(event) for event in events)
