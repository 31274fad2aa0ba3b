"""Replay: re-derive a run from its recorded inputs and check it matches the stored events and state.

Simulation runs are re-played on the simulation tier; runs served by a model are re-played with the
replay tier serving the recorded model outputs, so a live run can be checked offline.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

from pydantic import BaseModel

from engine.config import Settings
from engine.errors import SaveError
from engine.routing import Router
from engine.session.api import GameSession, refuse_old_rules
from engine.session.commands import Record
from engine.session.events import Event, list_events, strip_keys, strip_timing
from engine.session.founding import READING_FIELDS
from engine.session.saves import load_run
from worldforge_savedb.db import connect

_TIER_TAG = re.compile(r" \[(simulation|local|foundry|replay)\]$")
ROUTING_KEYS = {"served_by", "model", "attempts", "usage", "fallback_reason", "raw_text", "runtime"}
# Where a memory was kept (the local store, Cosmos, Cosmos down) is not what the run did: a run
# backed by Cosmos re-derives on the local store, so these labels and the backend's notices
# (MEMORY_BACKEND) stay outside what verify compares (issue 26).
STORAGE_KEYS = {"store", "origin"}
STORAGE_EVENTS = {"MEMORY_BACKEND"}


class ReplayReport(BaseModel):
    run_id: str
    ok: bool
    steps: int
    events_checked: int
    mode: str
    first_difference: str | None = None


# What only a model call can say (the replay tier serves the recorded answers, not the model's
# fallbacks or its context window): left out of a replay's comparison.
MODEL_ONLY = frozenset({"ROUTE_FALLBACK", "BRIEF_TRIMMED"})


def router_for(stored: list[Event]) -> tuple[str, Router]:
    """The router a re-derivation uses: the simulation tier, or, for a run that tried a model, the
    replay tier serving the recorded model outputs (so a live run re-derives offline)."""
    recorded = {e.payload["raw_text"] for e in stored if e.payload.get("raw_text")}
    # A run that tried a model (even one where every call fell back) carries tier labels, fallback
    # reasons and ROUTE_FALLBACK events the simulation cannot reproduce: compare it in replay mode.
    tried_model = any(e.type == "ROUTE_FALLBACK" for e in stored) or (
        bool(stored) and stored[0].payload.get("runtime", "simulation") != "simulation"
    )
    if not (recorded or tried_model):
        return "simulation", Router(Settings(demo_mode="simulation"))
    replay_map: dict[str, str] = {}
    for e in stored:
        key, raw = e.payload.get("call_key"), e.payload.get("raw_text")
        if e.type == "STAGE_EXECUTED" and raw:
            key = f"{e.payload['stage_id']}/attempt-{e.payload['attempt']}"
        if key and raw:
            replay_map[key] = raw
    return "replay", Router(Settings(demo_mode="simulation"), replay=replay_map)


@contextmanager
def founded(run_id: str, inputs: list[Record], router: Router) -> Iterator[GameSession]:
    """The run founded again from its recorded start in a save of its own in memory (nothing
    touches the run's save), closed when done."""
    if not inputs or inputs[0].get("cmd") != "start":
        raise SaveError(f"run {run_id!r} has no recorded start")
    start = inputs[0]
    mem = connect(":memory:")
    try:
        yield GameSession.start_venture(
            pitch=start["pitch"],
            name=start["name"],
            archetype=start["archetype"],
            seed=start["seed"],
            reading={k: start.get(k) for k in READING_FIELDS},  # absent in older saves
            currency=start.get("currency") or "USD",  # a start from before it kept dollars
            router=router,
            conn=mem,
            run_id=run_id,
        )
    finally:
        mem.close()


def verify(conn: sqlite3.Connection, run_id: str) -> ReplayReport:
    state, inputs = load_run(conn, run_id)
    refuse_old_rules(state)
    stored = list_events(conn, run_id)
    mode, router = router_for(stored)
    with founded(run_id, inputs, router) as session:
        for step in inputs[1:]:
            session.apply_recorded(step)
        fresh = list_events(session.conn, run_id)
        keys = (ROUTING_KEYS if mode == "replay" else set()) | STORAGE_KEYS

        def norm(events: list[Event]) -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = []
            for e in events:
                if (mode == "replay" and e.type in MODEL_ONLY) or e.type in STORAGE_EVENTS:
                    continue
                c = strip_keys(e.comparable(), keys)
                if mode == "replay":  # the tier label differs by design: the replay tier served it
                    c["message"] = _TIER_TAG.sub("", c["message"])
                c["id"] = len(out) + 1  # ids shift with the events left out above
                out.append(c)
            return out

        a, b = norm(stored), norm(fresh)
        diff = None
        for x, y in zip(a, b, strict=False):
            if x != y:
                fields = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
                if "payload" in fields:
                    px, py = x.get("payload", {}), y.get("payload", {})
                    fields += [
                        f"payload.{k}" for k in sorted(set(px) | set(py)) if px.get(k) != py.get(k)
                    ]
                diff = (
                    f"event {x['id']} ({x['type']}) differs from the re-derived one ({y['type']}): "
                    + ", ".join(fields)
                )
                break
        if diff is None and len(a) != len(b):
            diff = f"stored {len(a)} events, re-derived {len(b)}"
        if diff is None:
            s1 = strip_keys(strip_timing(asdict(state)), keys)
            s2 = strip_keys(strip_timing(asdict(session.state)), keys)
            if s1 != s2:
                diff = "final state differs from the re-derived state"
        return ReplayReport(
            run_id=run_id,
            ok=diff is None,
            steps=len(inputs),
            events_checked=len(a),
            mode=mode,
            first_difference=diff,
        )
