"""The game session: the one command API every front end uses (CLI, TUI, tests, benchmarks).

Each command does its slow work (model calls) before touching the save file, then changes the state
and persists it with its events and memories in one transaction; on any error the transaction rolls
back and the state is reloaded from the last committed step, so nothing is half-written.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import rules
from engine.agents import run_worker
from engine.antagonist import move
from engine.config import load_settings
from engine.dilemmas import pose
from engine.economy import TUNING, advance_days, defeat_reason, stage_outcome
from engine.errors import GameError, InputError
from engine.events import Event, EventType, insert_events, list_events, make_event, next_event_id
from engine.founding import cloud_memory_for, found_state, knowledge_for, validate_start
from engine.logs import log_event, logged_command
from engine.models import (
    Directive,
    GameState,
    Outcome,
    Receipt,
    StageDecision,
)
from engine.routing import Router, RouteResult
from engine.savefile import open_save
from engine.saves import RunSummary, list_runs, load_run, resolve_save_dir, save_run, unique_run_id
from engine.simulate import APPLY
from engine.standup import run_standup
from engine.text import (
    MAX_REASON_CHARS,
    clean_text,
    clip,
    content_words,
)
from engine.world import adapt_pending
from memory.db import db_path, transaction
from memory.store import MemoryStore

if TYPE_CHECKING:
    from engine.snapshot import Snapshot

MAX_REDOS = 2
E = EventType


class GameSession:
    """One venture in one save file. Not thread-safe: one command at a time (the TUI runs commands
    in a single worker group)."""

    def __init__(self, conn: sqlite3.Connection, state: GameState, inputs: list[dict[str, Any]], *,
                 router: Router, knowledge: Any, save_dir: Path, memory: MemoryStore | None = None):
        self.conn = conn
        self.state = state
        self.inputs = inputs
        self.router = router
        self.knowledge = knowledge
        self.save_dir = save_dir
        self.memory = memory or MemoryStore(conn, state.run_id, cloud=cloud_memory_for(router.settings))
        self._listeners: list[Callable[[Event], None]] = [log_event]
        self._pending: list[Event] = []
        self._lock = threading.RLock()
        self._next_id: int | None = None

    # ---------------------------------------------------------------- construction
    @classmethod
    def start_venture(cls, *, pitch: str, name: str | None = None, archetype: str = "builder",
                      seed: int = 7, save_dir: str | Path | None = None, router: Router | None = None,
                      knowledge: Any = None, conn: sqlite3.Connection | None = None,
                      run_id: str | None = None) -> GameSession:
        """Found a company: validate input, charter the org, forge the rival, design the world."""
        start = validate_start(pitch, name, archetype, seed)
        directory = resolve_save_dir(save_dir)
        own_conn = conn is None
        conn = conn or open_save(db_path(directory))
        try:
            run_id = run_id or unique_run_id(conn, start.base_run_id())
            settings = load_settings() if router is None else router.settings
            router = router or Router(settings)
            knowledge = knowledge or knowledge_for(settings)
            state = found_state(start, run_id)
            session = cls(conn, state, [], router=router, knowledge=knowledge, save_dir=directory)
            session._commit(start.record(), session._found)
            return session
        except BaseException:
            if own_conn:
                conn.close()
            raise

    @classmethod
    def load(cls, run_id: str, *, save_dir: str | Path | None = None, router: Router | None = None,
             knowledge: Any = None) -> GameSession:
        directory = resolve_save_dir(save_dir)
        conn = open_save(db_path(directory), create=False) if db_path(directory).exists() else None
        if conn is None:
            raise GameError(f"no saves in {directory}")
        try:
            state, inputs = load_run(conn, run_id)
            settings = load_settings() if router is None else router.settings
            router = router or Router(settings)
            return cls(conn, state, inputs, router=router,
                       knowledge=knowledge or knowledge_for(settings), save_dir=directory)
        except BaseException:
            conn.close()
            raise

    @staticmethod
    def list_runs(save_dir: str | Path | None = None) -> list[RunSummary]:
        path = db_path(resolve_save_dir(save_dir))
        if not path.exists():
            return []
        conn = open_save(path, create=False)
        try:
            return list_runs(conn)
        finally:
            conn.close()

    def close(self) -> None:
        self.conn.close()

    # ---------------------------------------------------------------- plumbing
    def add_listener(self, fn: Callable[[Event], None]) -> None:
        self._listeners.append(fn)

    def events(self, after_id: int = 0) -> list[Event]:
        return list_events(self.conn, self.state.run_id, after_id)

    def _emit(self, st: GameState, type_: EventType, actor: str, message: str,
              payload: dict[str, Any] | None = None) -> Event:
        if self._next_id is None:
            self._next_id = next_event_id(self.conn, st.run_id)
        event = make_event(st.run_id, self._next_id, type_, actor, message, payload, st.day)
        self._next_id += 1
        self._pending.append(event)
        return event

    def _commit(self, record: dict[str, Any] | None, step: Callable[[GameState], Any]) -> Any:
        """Run `step` on the state inside one transaction; on failure reload the last committed state."""
        with self._lock:
            work = self.state
            self._pending = []
            try:
                with transaction(self.conn):
                    result = step(work)
                    self._check_end(work)
                    inputs = self.inputs + ([record] if record else [])
                    insert_events(self.conn, self._pending)
                    save_run(self.conn, work, inputs)
            except BaseException:
                self._pending = []
                self._next_id = None
                self.state = load_run(self.conn, work.run_id)[0] if self.inputs else work
                raise
            self.inputs = inputs
            events, self._pending = self._pending, []
        self.memory.flush_cloud()
        for event in events:
            for fn in list(self._listeners):
                fn(event)
        return result

    def _remember(self, st: GameState, kind: str, text: str, *, author: str, importance: float = 5.0,
                  axis: str | None = None, stage_id: str | None = None) -> dict[str, Any]:
        rec = self.memory.remember(kind, text, author=author, game_day=st.day,  # type: ignore[arg-type]
                                   importance=importance, axis=axis, stage_id=stage_id)
        info = {"id": rec.id, "kind": rec.kind, "status": rec.status, "origin": rec.origin,
                "text": rec.text, "store": self.memory_store_label()}
        self._emit(st, E.MEMORY_WRITTEN, "memory", f"{rec.kind} memory written: {clip(rec.text, 80)}", info)
        return info

    def memory_store_label(self) -> str:
        label = getattr(self.memory, "store_label", None)
        return label() if callable(label) else "local-sqlite"

    def _check_end(self, st: GameState) -> None:
        if st.outcome is not None and st.phase != "ended":
            st.phase = "ended"
            self._end_event(st)
            return
        if st.phase == "ended":
            return
        reason = defeat_reason(st.economics)
        if reason:
            st.outcome = Outcome(result="defeat", reason=reason, day=st.day)
        elif st.stage_index >= len(st.stages):
            st.outcome = Outcome(result="victory", day=st.day,
                                 reason="The ownership question is settled and the company is solvent.")
        else:
            return
        st.phase = "ended"
        st.dilemma = None
        self._end_event(st)

    def _end_event(self, st: GameState) -> None:
        o = st.outcome
        assert o is not None
        self._emit(st, E.RUN_ENDED, "system", f"{o.result.upper()}: {o.reason}",
                   {"result": o.result, "reason": o.reason, "economics": st.economics.numbers()})

    def _days(self, st: GameState, days: int) -> None:
        for arc, bite in advance_days(st, days):
            self._emit(st, E.ANTAGONIST_ESCALATED, st.antagonist.name,
                       f"{st.antagonist.name} escalates to {arc}", {"arc": arc, "bite": bite})

    def can(self, action: str) -> bool:
        st = self.state
        return {
            "run_stage": st.phase == "brief",
            "approve": st.phase == "gate",
            "reject": st.phase == "gate" and st.stage is not None and st.stage.redos < MAX_REDOS,
            "decide": st.phase == "fork",
            "decide_own": st.phase == "fork",
            "standup_reply": st.phase == "brief" and bool(st.standup) and not st.standup_answered,
        }.get(action, False)

    def _require(self, action: str, phase: str) -> None:
        if self.state.phase == "ended":
            raise GameError("the venture has ended; start a new one with `n`")
        if self.state.phase != phase:
            needed = {"brief": "run the stage first", "gate": "approve or reject the artifact first",
                      "fork": "choose at the fork first"}
            raise GameError(f"cannot {action} now: {needed.get(self.state.phase, self.state.phase)}")

    # ---------------------------------------------------------------- founding
    def _found(self, st: GameState) -> None:
        f = st.founder
        self._emit(st, E.RUN_STARTED, "system", f"{f.company} founded: {clip(f.pitch, 80)}",
                   {"pitch": f.pitch, "company": f.company, "archetype": f.archetype, "seed": st.seed,
                    "customer": f.customer, "runtime": self.router.runtime_label()})
        self._emit(st, E.ORG_CHARTERED, "orgdesigner", f"Org chartered: {len(st.org)} roles",
                   {"org": [w.model_dump() for w in st.org],
                    "monthly_burn_usd": st.economics.monthly_burn_usd})
        a = st.antagonist
        self._emit(st, E.ANTAGONIST_FORGED, "antagonist", f"Rival forged: {a.name}", a.model_dump())
        self._emit(st, E.WORLD_DESIGNED, "narrator", "Eight stages designed",
                   {"stages": [{"id": s.id, "beat": s.beat, "owner_role": s.owner_role,
                                "worker": s.worker_title} for s in st.stages]})
        self._remember(st, "user_profile", f"Founder ({f.archetype}) is building {f.company} for "
                       f"{f.customer}: {clip(f.pitch, 280)}", author="system", importance=8)

    # ---------------------------------------------------------------- stage
    @logged_command
    def run_stage(self) -> Any:
        """The stage's worker runs (model call first, then one transaction to persist)."""
        self._require("run the stage", "brief")
        with self._lock:
            st = self.state
            stage = st.stage
            assert stage is not None
            run, result = run_worker(st, stage, attempt=stage.redos + 1, router=self.router,
                                     memory=self.memory, knowledge=self.knowledge, directive=st.directive)
        return self._commit({"cmd": "run_stage"}, lambda work: self._record_run(work, run, result))

    def _record_run(self, st: GameState, run: Any, result: RouteResult) -> Any:
        stage = st.stage
        assert stage is not None
        stage.status = "active"
        self._days(st, int(TUNING["days_per_stage"] if run.attempt == 1 else 0))
        self._emit(st, E.STAGE_BRIEFED, stage.worker_id,
                   f"{stage.beat}: {stage.worker_title} briefed (attempt {run.attempt})",
                   {"stage_id": stage.id, "goal": stage.goal, "attempt": run.attempt,
                    "directive": st.directive.model_dump() if st.directive else None,
                    "memory_injected": run.memory_injected})
        for fb in result.fallbacks:
            self._emit(st, E.ROUTE_FALLBACK, "router", f"{fb.from_tier} → {fb.to_tier}: {clip(fb.reason, 100)}",
                       {"stage_id": stage.id, **fb.model_dump()})
        dispositions = []
        for req in run.artifact.get("memory_writes") or []:
            d = self.memory.worker_write(req, worker=stage.worker_id, stage_id=stage.id, game_day=st.day)
            dispositions.append(d.model_dump())
            if d.status != "rejected":
                self._emit(st, E.MEMORY_WRITTEN, stage.worker_id,
                           f"worker note {d.status}: {d.memory_id}",
                           {"disposition": d.model_dump(), "store": self.memory_store_label(), "author": "worker"})
        run.memory_dispositions = dispositions
        r = run.rubric
        self._emit(st, E.STAGE_EXECUTED, stage.worker_id,
                   f"{stage.beat} shipped by {stage.worker_title}: score {r.final}"
                   + (" DRIFT" if r.drift else "") + f" [{result.served_by}]",
                   {"stage_id": stage.id, "attempt": run.attempt, "score": r.final, "drift": r.drift,
                    "rubric": r.model_dump(), "served_by": result.served_by, "model": result.model,
                    "fallback_reason": result.fallback_reason,
                    "attempts": [a.model_dump() for a in result.attempts],
                    "iq_hits": [{"source": h["source"], "origin": h["origin"]} for h in run.knowledge_hits],
                    "memory_injected": run.memory_injected, "tools_called": run.tools_called,
                    "usage": result.usage.model_dump(), "artifact": run.artifact,
                    "raw_text": result.raw_text, "memory_dispositions": dispositions})
        stage.score, stage.drift = r.final, r.drift
        st.current = run
        st.phase = "gate"
        return run

    @logged_command
    def approve(self) -> Any:
        self._require("approve", "gate")
        return self._commit({"cmd": "approve"}, self._approve)

    def _approve(self, st: GameState) -> Any:
        stage, run = st.stage, st.current
        assert stage is not None and run is not None
        stage.status = "approved"
        outcome = stage_outcome(st, stage.owner_role, run.rubric.final)
        self._emit(st, E.ARTIFACT_APPROVED, "ceo", f"{stage.beat} approved (score {run.rubric.final})",
                   {"stage_id": stage.id, "score": run.rubric.final, "drift": run.rubric.drift, **outcome})
        self._remember(st, "chat_summary", f"Stage {stage.beat} '{stage.title}' shipped by "
                       f"{stage.worker_title} (score {run.rubric.final}/100). Goal: {clip(stage.goal, 160)}",
                       author="system", importance=4, stage_id=stage.id)
        st.dilemma = pose(st, stage)
        self._emit(st, E.DILEMMA_POSED, "narrator", f"{st.dilemma.title} {clip(st.dilemma.prompt, 90)}",
                   st.dilemma.model_dump())
        st.phase = "fork"
        return st.dilemma

    @logged_command
    def reject(self, reason: str) -> Any:
        """Reject with a reason: it becomes binding memory and the worker redoes the stage."""
        self._require("reject", "gate")
        reason = clean_text(reason, field="reason", max_chars=MAX_REASON_CHARS)
        stage = self.state.stage
        assert stage is not None
        if stage.redos >= MAX_REDOS:
            raise GameError(f"no redos left for {stage.beat} ({MAX_REDOS} used): approve it to go on")
        self._commit({"cmd": "reject", "reason": reason}, lambda st: self._reject(st, reason))
        if self.state.phase == "ended":  # the redo's days can end the venture (a defeat)
            return None
        return self.run_stage()

    def _reject(self, st: GameState, reason: str) -> None:
        stage = st.stage
        assert stage is not None
        mem = self._remember(st, "procedural", f"CEO rejected the {stage.beat} artifact: {reason}",
                             author="ceo", importance=9, axis=f"redo:{stage.id}", stage_id=stage.id)
        st.directive = Directive(memory_id=mem["id"], source="rejection", text=reason,
                                 keywords=content_words(reason)[:8], stage_id=stage.id, game_day=st.day)
        self._emit(st, E.ARTIFACT_REJECTED, "ceo", f"{stage.beat} rejected: {clip(reason, 80)}",
                   {"stage_id": stage.id, "reason": reason, "memory_id": mem["id"],
                    "redo": stage.redos + 1})
        stage.redos += 1
        self._days(st, int(TUNING["days_per_redo"]))
        st.current = None
        st.phase = "brief"

    # ---------------------------------------------------------------- fork
    @logged_command
    def decide(self, choice: str) -> Receipt:
        self._require("decide", "fork")
        key = str(choice).strip().upper()
        key = {"1": "A", "2": "B"}.get(key, key)
        if key not in ("A", "B"):
            raise InputError(f"choose A or B (or 1 or 2), not {str(choice)[:20]!r}")
        receipt = self._commit({"cmd": "decide", "choice": key}, lambda st: self._decide(st, key, None))
        self._after_decision()
        return receipt

    @logged_command
    def decide_own(self, text: str) -> Receipt:
        self._require("decide", "fork")
        text = clean_text(text, field="own answer", max_chars=MAX_REASON_CHARS)
        receipt = self._commit({"cmd": "decide_own", "text": text}, lambda st: self._decide(st, "own", text))
        self._after_decision()
        return receipt

    def _decide(self, st: GameState, key: str, own_text: str | None) -> Receipt:
        stage, dilemma = st.stage, st.dilemma
        assert stage is not None and dilemma is not None
        if own_text is None:
            opt = next(o for o in dilemma.options if o.key == key)
            rule_id, text, matched = opt.rule_id, opt.text, "option"
        else:
            rule_id = rules.match_own_answer(own_text, tuple(o.rule_id for o in dilemma.options))
            text, matched = own_text, ("keywords" if rule_id != "custom.default" else "custom")
        rule = rules.RULES[rule_id]
        self._emit(st, E.CEO_DECISION, "ceo", f"CEO chose: {clip(text, 90)}",
                   {"stage_id": stage.id, "option": key, "text": text, "rule_id": rule_id,
                    "custom": own_text is not None, "matched_by": matched})
        before, after, org_delta, _delta = rules.apply_rule(st, rule_id, stage.id)
        stage.decision = StageDecision(rule_id=rule_id, option=key, text=text)
        stage.status = "decided"
        mem = self._remember(st, "procedural", f"CEO chose '{clip(text, 200)}' at {stage.beat} "
                             f"({rule_id}): {rule.summary}", author="ceo", importance=9,
                             axis=None if rule_id == "custom.default" else rule.axis, stage_id=stage.id)
        keywords = list(rule.keywords) + [w for w in content_words(text) if w not in rule.keywords]
        st.directive = Directive(memory_id=mem["id"], source="decision", rule_id=rule_id, text=text,
                                 keywords=keywords[:8], stage_id=stage.id, game_day=st.day)
        nxt = st.stages[st.stage_index + 1] if st.stage_index + 1 < len(st.stages) else None
        receipt = Receipt(stage_id=stage.id, rule_id=rule_id, option=key, decided=text,
                          summary=rule.summary, principle=rule.principle,
                          economics_delta={k: round(after.numbers()[k] - before.numbers()[k], 2)
                                           for k in before.numbers()},
                          before=before, after=after, org_delta=org_delta, memory_written=[mem],
                          matched_by=matched,
                          next_brief=({"stage_id": nxt.id, "worker": nxt.worker_title,
                                       "binding": f"Binding ({rule_id}): {APPLY.get(rule_id, clip(text, 120))}"}
                                      if nxt else None))
        self._emit(st, E.CONSEQUENCE_APPLIED, "system", f"{rule_id}: {rule.summary}", receipt.model_dump())
        mv = move(st, rule_id, stage.id)
        st.moves.append(mv)
        self._emit(st, E.ANTAGONIST_MOVE, st.antagonist.name, mv.narrative, mv.model_dump())
        self._days(st, int(TUNING["days_per_fork"]))
        report = self.memory.harden(game_day=st.day)
        self._emit(st, E.MEMORY_HARDENED, "memory",
                   f"Hardening: {len(report.promoted)} promoted, {len(report.archived)} archived, "
                   f"{len(report.superseded)} superseded", report.model_dump())
        adapted = adapt_pending(st, text)
        if adapted:
            self._emit(st, E.WORLD_ADAPTED, "narrator", f"{len(adapted)} pending stages adapted",
                       {"stage_ids": adapted, "lens": st.stages[st.stage_index + 1].goal})
        st.receipts.append(receipt)
        st.dilemma = None
        st.current = None
        st.standup, st.standup_answered = [], False
        st.stage_index += 1
        st.phase = "brief"
        return receipt

    def _after_decision(self) -> None:
        """The standup: three workers react (their own model calls), then it is persisted."""
        if self.state.phase == "ended" or not self.state.receipts:
            return
        receipt = self.state.receipts[-1]
        with self._lock:
            turns, results = run_standup(self.state, receipt, router=self.router, memory=self.memory,
                                         knowledge=self.knowledge)
        self._commit({"cmd": "standup"}, lambda st: self._record_standup(st, turns, results))

    def _record_standup(self, st: GameState, turns: list[Any], results: list[RouteResult]) -> None:
        for res in results:
            for fb in res.fallbacks:
                self._emit(st, E.ROUTE_FALLBACK, "router", f"{fb.from_tier} → {fb.to_tier}: {clip(fb.reason, 100)}",
                           fb.model_dump())
        for i, (t, res) in enumerate(zip(turns, results, strict=True)):
            self._emit(st, E.AGENT_STANDUP, t.role, f"{t.speaker}: {clip(t.line, 100)}",
                       {**t.model_dump(), "call_key": f"{st.receipts[-1].stage_id}/standup-{i}",
                        "raw_text": res.raw_text, "model": res.model})
        st.standup = turns

    @logged_command
    def standup_reply(self, text: str) -> dict[str, Any]:
        if not self.can("standup_reply"):
            raise GameError("there is no standup waiting for a reply")
        text = clean_text(text, field="reply", max_chars=MAX_REASON_CHARS)
        return self._commit({"cmd": "standup_reply", "text": text}, lambda st: self._reply(st, text))

    def _reply(self, st: GameState, text: str) -> dict[str, Any]:
        mem = self._remember(st, "procedural", f"CEO replied at the standup: {text}", author="ceo",
                             importance=9, axis="standup")
        st.directive = Directive(memory_id=mem["id"], source="standup", text=text,
                                 keywords=content_words(text)[:8], game_day=st.day)
        st.standup_answered = True
        self._emit(st, E.CEO_STANDUP_RESPONSE, "ceo", f"CEO: {clip(text, 90)}", {"text": text, "memory": mem})
        adapted = adapt_pending(st, text)
        if adapted:
            self._emit(st, E.WORLD_ADAPTED, "narrator", f"{len(adapted)} pending stages adapted",
                       {"stage_ids": adapted})
        return mem

    def note_settings_change(self, settings: Any) -> dict[str, Any]:
        """Record a routing change in the run's log (no secrets: modes and labels only)."""
        info = {"demo_mode": settings.demo_mode, "agent_routing": settings.agent_routing,
                "runtime": self.router.runtime_label(), "pill": self.router.pill()}
        self._commit({"cmd": "settings", **info}, lambda st: self._settings(st, info))
        return info

    def _settings(self, st: GameState, info: dict[str, Any]) -> None:
        self._emit(st, E.SETTINGS_CHANGED, "ceo",
                   f"Routing {info['demo_mode']}/{info['agent_routing']}: next call → {info['pill']}",
                   info)

    # ---------------------------------------------------------------- views
    def snapshot(self) -> Snapshot:
        """Everything a front end draws, in one model (loaded on first use: headless runs never draw)."""
        from engine.snapshot import build_snapshot

        return build_snapshot(self)

    def export_report(self, path: str | Path | None = None) -> Path:
        from engine.report import write_report

        return write_report(self, path)
