"""Replay-log rows: categorised into tabs, cleaned, and robust to junk events."""

from __future__ import annotations

import json

from worldforge_tui.replay_entries import (
    CAT_KNOWLEDGE,
    CAT_MEMORY,
    CAT_WORKERS,
    entry_from_event,
    in_tab,
    payload_text,
)


def ev(**kw):
    base = {
        "id": 1,
        "run_id": "r",
        "ts": "t",
        "game_day": 3,
        "type": "CEO_DECISION",
        "actor": "ceo",
        "message": "chose A",
        "payload": {},
    }
    base.update(kw)
    return base


def test_stage_executed_is_worker_and_knowledge_and_names_served_by():
    entry = entry_from_event(
        ev(
            type="STAGE_EXECUTED",
            actor="strategist",
            message="shipped",
            payload={"served_by": "local", "model": "qwen2.5", "iq_hits": [{"origin": "local"}]},
        )
    )
    assert entry.cats & CAT_WORKERS and entry.cats & CAT_KNOWLEDGE
    assert not entry.cats & CAT_MEMORY
    assert "local: qwen2.5" in entry.text


def test_memory_written_in_memory_tab_only():
    entry = entry_from_event(ev(type="MEMORY_WRITTEN"))
    assert in_tab(entry, "memory") and in_tab(entry, "events")
    assert not in_tab(entry, "workers") and not in_tab(entry, "knowledge")


def test_hostile_message_cleaned_to_one_line():
    entry = entry_from_event(ev(message="[bold]x[/]\n\x1b[2Jboom" + "y" * 20_000))
    assert "\x1b" not in entry.text and "\n" not in entry.text
    assert entry.text.count("[bold]x[/]") == 1
    assert len(entry.message) <= 300


def test_junk_event_never_raises():
    entry = entry_from_event({"id": "nope", "payload": "not json", "type": None})
    assert entry.id == 0 and entry.type == "EVENT" and entry.payload == {"text": "not json"}
    assert entry_from_event(object()).type == "EVENT"


def test_object_events_and_json_payloads():
    class E:
        id, game_day, type, actor, message, ts = 9, 4, "ROUTE_FALLBACK", "router", "fell", "t"
        payload = json.dumps({"fallback_reason": "timeout"})

    entry = entry_from_event(E())
    assert entry.id == 9 and entry.day == 4 and entry.cats & CAT_WORKERS
    body = json.loads(payload_text(entry))
    assert body["payload"]["fallback_reason"] == "timeout"
