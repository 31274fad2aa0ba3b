"""Headless play: one driver that plays a venture from a fork path, rejections and own answers.

Used by `worldforge simulate`, `worldforge balance`, the benches and the tests, so they all play
the game the same way the TUI does (through the session API).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import InputError
from engine.game.economy import MAX_REDOS
from engine.game.world import STAGE_IDS, resolve_stage
from engine.language.text import MAX_REASON_CHARS, clean_text
from engine.play import careful
from engine.session import commands
from engine.session.api import GameSession
from engine.session.commands import Kind
from engine.session.events import count_by_type
from engine.views.render import artifact_markdown, shipped
from engine.views.served import served_summary

FORKS = len(STAGE_IDS)


def parse_path(path: str) -> str:
    """`A`/`B` letters, one per fork; a single letter applies to every fork."""
    p = (path or "").strip().upper()
    if not p or any(c not in "AB" for c in p):
        raise InputError(f"--choose takes letters A and B only, e.g. ABBA... (got {path[:20]!r})")
    if len(p) == 1:
        return p * FORKS
    if len(p) != FORKS:
        raise InputError(f"--choose needs 1 or {FORKS} letters, got {len(p)}")
    return p


def parse_stage_pairs(items: list[str], flag: str) -> list[tuple[str, str]]:
    """`STAGE:TEXT` pairs, stage as id, beat or number."""
    out = []
    for item in items or []:
        if ":" not in item:
            raise InputError(
                f"{flag} takes STAGE:TEXT, e.g. {flag} 2:'too vague' (got {item[:30]!r})"
            )
        stage, text = item.split(":", 1)
        out.append((resolve_stage(stage), text))
    return out


def parse_event_answers(items: list[str]) -> dict[str, str]:
    """`A`/`B` (every event) or `STAGE:A` (the event after that stage), as for --event."""
    out: dict[str, str] = {}
    for item in items:
        where, _, key = item.rpartition(":")
        key = key.strip().upper()
        if key not in ("A", "B"):
            raise InputError(
                f"--event takes A, B or STAGE:A|B, e.g. --event 3:B (got {item[:30]!r})"
            )
        out[resolve_stage(where) if where else "*"] = key
    return out


@dataclass
class Plan:
    """What the CEO will do at each gate and fork of a headless venture."""

    path: str = "A" * FORKS
    rejects: dict[str, list[str]] = field(default_factory=dict)
    owns: dict[str, str] = field(default_factory=dict)
    # standup replies, by the stage whose fork the standup follows
    replies: dict[str, str] = field(default_factory=dict)
    # answers to between-stage events' small choices, by the stage the event follows ("*": all);
    # an event without an answer here takes its default when the next stage runs
    events: dict[str, str] = field(default_factory=dict)
    # forks and event choices by engine.play.careful's stated policy instead of `path` and defaults
    careful: bool = False

    @classmethod
    def from_cli(cls, given: Mapping[str, Any]) -> Plan:
        """The plan from `worldforge simulate`'s options, keyed by the command each gives
        (engine.session.commands.flags()); text is cleaned as the session cleans it."""
        flags = commands.flags()

        def said(name: str) -> list[tuple[str, str]]:
            option = flags[name].option
            return [
                (sid, clean_text(text, field=f"{option} for {sid}", max_chars=MAX_REASON_CHARS))
                for sid, text in parse_stage_pairs(list(given.get(name) or []), option)
            ]

        plan = cls(
            path=parse_path(str(given.get("decide") or "A")),
            events=parse_event_answers(list(given.get("answer_event") or [])),
        )
        plan.replies.update(said("standup_reply"))
        for sid, reason in said("reject"):
            plan.rejects.setdefault(sid, []).append(reason)
        plan.owns.update(said("decide_own"))
        for sid, reasons in plan.rejects.items():
            if len(reasons) > MAX_REDOS:
                raise InputError(
                    f"at most {MAX_REDOS} rejections per stage ({sid} has {len(reasons)})"
                )
        return plan


def play(session: GameSession, plan: Plan) -> None:
    """Drive the session to its end following the plan, one command at a time."""
    while session.state.phase != "ended":
        kind, said = next_command(session, plan)
        session.give(kind, said)


def next_command(session: GameSession, plan: Plan) -> tuple[Kind[object], str]:
    """The command the plan gives now, and what the CEO says with it ("" for nothing)."""
    st = session.state
    stage = st.stage
    assert stage is not None
    if st.phase == "brief":
        done = st.stages[st.stage_index - 1].id if st.stage_index else None
        if done in plan.replies and session.can("standup_reply"):
            return commands.StandupReply, plan.replies[done]
        ev = st.pending_event
        answer = plan.events.get(ev.after_stage, plan.events.get("*")) if ev else None
        if answer is None and plan.careful:
            answer = careful.event_choice(st)
        return (commands.AnswerEvent, answer) if answer else (commands.RunStage, "")
    if st.phase == "gate":
        reasons = plan.rejects.get(stage.id, [])
        if stage.redos < len(reasons):
            return commands.Reject, reasons[stage.redos]
        return commands.Approve, ""
    if stage.id in plan.owns:
        return commands.DecideOwn, plan.owns[stage.id]
    return commands.Decide, careful.fork_choice(st) if plan.careful else plan.path[stage.number - 1]


def routing(session: GameSession) -> dict[str, Any]:
    """Who served this process's model calls and every fallback the run logged (see
    `engine.views.served`)."""
    fallbacks = [e.payload for e in session.events() if e.type == "ROUTE_FALLBACK"]
    served = session.router.status().get("served") or {}
    return served_summary(session.router.runtime_label(), served, fallbacks)


def summary(session: GameSession) -> dict[str, Any]:
    """The `simulate --json` object."""
    st = session.state
    served: Counter[str] = Counter()
    events = session.events()
    for e in events:
        if e.type == "STAGE_EXECUTED":
            served[e.payload.get("served_by", "?")] += 1
    work = shipped(events)
    return {
        "run_id": st.run_id,
        "seed": st.seed,
        "outcome": {
            "result": st.outcome.result,
            "reason": st.outcome.reason,
            "day": st.outcome.day,
            "stage": st.outcome.stage,
            "ending": st.outcome.ending,
        }
        if st.outcome
        else None,
        "score": {
            "points": st.outcome.score,
            "grade": st.outcome.grade,
            "ending": st.outcome.ending,
            "title": st.outcome.title,
        }
        if st.outcome
        else None,
        "economics": st.economics.shown(),
        "world_events": [
            {
                "after_stage": e.after_stage,
                "kind": e.kind,
                "title": e.title,
                "choice": e.choice,
                "effect": e.effect_line,
            }
            for e in st.world_events
        ],
        "rival": {
            "name": st.antagonist.name,
            "personality": st.antagonist.personality,
            "moves": [
                {
                    "stage_id": m.stage_id,
                    "metric": m.target_metric,
                    "change": m.metric_delta,
                    "reaction": m.reaction,
                }
                for m in st.moves
            ],
        },
        "org": [w.title for w in st.org if w.active],
        "stages": [
            {
                "id": s.id,
                "beat": s.beat,
                "worker": s.worker_title,
                "score": s.score,
                "drift": s.drift,
                "redos": s.redos,
                "flaws": [
                    f["kind"] for f in (work.get(s.id, {}).get("rubric") or {}).get("flaws") or []
                ],
                "verdict": [
                    v["line"]
                    for v in (work.get(s.id, {}).get("rubric") or {}).get("violations") or []
                ],
                "shipped": artifact_markdown(work[s.id]["artifact"]) if s.id in work else [],
                "decision": {
                    "rule_id": s.decision.rule_id,
                    "option": s.decision.option,
                    **({"interpreted": s.decision.interpreted} if s.decision.interpreted else {}),
                }
                if s.decision
                else None,
            }
            for s in st.stages
        ],
        "dilemmas": [
            {
                "stage_id": s.id,
                "title": s.decision.title,
                "variant": s.decision.variant,
                "rule_id": s.decision.rule_id,
                "effect": r.effect_line,
            }
            for s, r in zip([s for s in st.stages if s.decision], st.receipts, strict=True)
            if s.decision
        ],
        "events": count_by_type(session.conn, st.run_id),
        "memory": session.memory.counts(),
        "served_by": dict(sorted(served.items())),
        "routing": routing(session),
    }
