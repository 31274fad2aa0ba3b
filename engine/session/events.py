"""Typed events: the append-only replay log of a run, stored in the save file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from worldforge_savedb.db import register_schema, transaction
from worldforge_savedb.records import Record
from worldforge_textkit.scrub import scrub, scrub_obj


class EventType(StrEnum):
    RUN_STARTED = "RUN_STARTED"
    ORG_CHARTERED = "ORG_CHARTERED"
    ANTAGONIST_FORGED = "ANTAGONIST_FORGED"
    WORLD_DESIGNED = "WORLD_DESIGNED"
    STAGE_BRIEFED = "STAGE_BRIEFED"
    STAGE_EXECUTED = "STAGE_EXECUTED"
    ARTIFACT_REJECTED = "ARTIFACT_REJECTED"
    ARTIFACT_APPROVED = "ARTIFACT_APPROVED"
    DILEMMA_POSED = "DILEMMA_POSED"
    CEO_DECISION = "CEO_DECISION"
    CONSEQUENCE_APPLIED = "CONSEQUENCE_APPLIED"
    MEMORY_WRITTEN = "MEMORY_WRITTEN"
    MEMORY_HARDENED = "MEMORY_HARDENED"
    MEMORY_PRUNED = "MEMORY_PRUNED"
    ANTAGONIST_MOVE = "ANTAGONIST_MOVE"
    ANTAGONIST_ESCALATED = "ANTAGONIST_ESCALATED"
    WORLD_ADAPTED = "WORLD_ADAPTED"
    ROUTE_FALLBACK = "ROUTE_FALLBACK"
    BRIEF_TRIMMED = "BRIEF_TRIMMED"  # a brief cut to fit a local model's context window
    AGENT_STANDUP = "AGENT_STANDUP"
    CEO_STANDUP_RESPONSE = "CEO_STANDUP_RESPONSE"
    SETTINGS_CHANGED = "SETTINGS_CHANGED"
    MEMORY_BACKEND = "MEMORY_BACKEND"
    FLAW_SURFACED = "FLAW_SURFACED"  # an approved mistake's later cost comes due
    DECISION_LANDED = "DECISION_LANDED"  # a decision's later effect lands (engine.game.pending)
    ORDER_APPLIED = "ORDER_APPLIED"  # a standing order from the CEO changed a consequence
    WORLD_EVENT = "WORLD_EVENT"  # a seeded happening between stages
    WORLD_EVENT_RESOLVED = "WORLD_EVENT_RESOLVED"  # the CEO's answer to an event's small choice
    VENTURE_RESHAPED = "VENTURE_RESHAPED"  # a stage added after a fork, or one skipped
    RUN_ENDED = "RUN_ENDED"


@dataclass(eq=False, repr=False)
class Event(Record):
    """One replay-log entry; built by `make_event` (scrubbed) or read back from the save."""

    id: int
    run_id: str
    ts: str
    game_day: int
    type: str
    actor: str
    message: str
    payload: dict[str, Any] = field(default_factory=dict)

    def comparable(self) -> dict[str, Any]:
        """The event minus its run id and wall-clock metadata (timestamps, latencies), for
        determinism checks."""
        kept = {k: v for k, v in vars(self).items() if k not in ("run_id", "ts")}
        return {**kept, "payload": strip_timing(self.payload)}


_TIMING_KEYS = {"ts", "ms", "latency_ms", "latency_s", "elapsed_ms"}


def strip_keys(value: Any, keys: set[str] | frozenset[str]) -> Any:
    """A copy of JSON-like data without the named keys, at any depth."""
    if isinstance(value, dict):
        return {k: strip_keys(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [strip_keys(v, keys) for v in value]
    return value


def strip_timing(value: Any) -> Any:
    """Drop wall-clock metadata (timestamps, latencies) before comparing runs."""
    return strip_keys(value, _TIMING_KEYS)


def _ensure(conn: sqlite3.Connection) -> None:
    conn.execute("""CREATE TABLE IF NOT EXISTS events (
        run_id TEXT NOT NULL, id INTEGER NOT NULL, ts TEXT NOT NULL, game_day INTEGER NOT NULL,
        type TEXT NOT NULL, actor TEXT NOT NULL, message TEXT NOT NULL, payload TEXT NOT NULL,
        PRIMARY KEY (run_id, id)) WITHOUT ROWID""")


register_schema("events", _ensure)


# What an event's payload is given as: JSON-like data, or a record (a dataclass: its fields), which
# the scrub copies into plain data once (scrub_obj) instead of asdict copying it first.
Payload = Mapping[str, object] | Record


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def next_event_id(conn: sqlite3.Connection, run_id: str) -> int:
    row = conn.execute(
        "SELECT COALESCE(MAX(id), 0) FROM events WHERE run_id=?", (run_id,)
    ).fetchone()
    return int(row[0]) + 1


def make_event(
    run_id: str,
    event_id: int,
    type: str,
    actor: str,
    message: str,
    payload: Payload | None = None,
    game_day: int = 0,
) -> Event:
    """Build one event with its message and payload scrubbed of secrets (nothing written yet)."""
    return Event(
        id=event_id,
        run_id=run_id,
        ts=now_iso(),
        game_day=game_day,
        type=str(type),
        actor=actor,
        message=scrub(message),
        payload=scrub_obj(payload or {}),
    )


def insert_events(conn: sqlite3.Connection, events: list[Event]) -> None:
    """Write built events in one statement; joins any open transaction."""
    with transaction(conn):
        conn.executemany(
            "INSERT INTO events VALUES (?,?,?,?,?,?,?,?)",
            [
                (
                    e.run_id,
                    e.id,
                    e.ts,
                    e.game_day,
                    e.type,
                    e.actor,
                    e.message,
                    json.dumps(e.payload, ensure_ascii=False, sort_keys=True),
                )
                for e in events
            ],
        )


def list_events(conn: sqlite3.Connection, run_id: str, after_id: int = 0) -> list[Event]:
    sql = "SELECT * FROM events WHERE run_id=? AND id>? ORDER BY id"
    return [  # the table's columns are the event's fields
        Event(**{**dict(r), "payload": json.loads(r["payload"])})
        for r in conn.execute(sql, (run_id, after_id))
    ]


def count_by_type(conn: sqlite3.Connection, run_id: str) -> dict[str, int]:
    return {
        r[0]: r[1]
        for r in conn.execute(
            "SELECT type, COUNT(*) FROM events WHERE run_id=? GROUP BY type ORDER BY type",
            (run_id,),
        )
    }


def forget_run(conn: sqlite3.Connection, run_id: str) -> int:
    """Delete a run's events (right to deletion); the memory package deletes the rest."""
    with transaction(conn):
        return conn.execute("DELETE FROM events WHERE run_id=?", (run_id,)).rowcount
