"""What each session command does to the game, inside that command's one transaction.

A step gets a `Step`: the working state plus the writers it may use (events, memories, game days).
The session (engine/session/api.py) does everything around it: input checks, model calls, the
transaction, rollback, listeners. Steps never call a model and never touch the save file directly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from engine.game import flaws, orders, pending, rules, shape
from engine.game.antagonist import move
from engine.game.decision import apply_decision, economics_delta
from engine.game.dilemmas import pose
from engine.game.economy import TUNING, advance_days, defeat_at, stage_outcome
from engine.game.endings import finish
from engine.game.models import (
    Dilemma,
    Directive,
    GameState,
    Receipt,
    StageDecision,
    StageRun,
    StandupTurn,
    WorldEvent,
)
from engine.game.pricing import charge_named_price
from engine.game.said import (
    WordsRead,
    decided,
    fork_directions,
    how_it_reads,
    on_top,
    read_rejection,
    read_reply,
    replaced_lines,
)
from engine.game.said import read_own_answer as read_answer
from engine.game.world import adapt_pending, restate_goal
from engine.game.world_events import draw, open_event, resolve_choice
from engine.language.directions import Direction, fold, payload
from engine.language.grammar import capitals, count
from engine.routing import RouteResult
from engine.routing.types import brief_trims
from engine.session.events import Event, EventType, Payload, make_event
from engine.views.fork_words import (
    OwnAnswerView,
    decision_summary,
    mark_cards,
    next_brief,
    own_answer_binds,
    own_answer_view,
)
from engine.writing.outcomes import consequence_line, landed_line, shipped_note
from memory.contract import MemoryBackend
from memory.models import Author, Kind, NewNote
from worldforge_textkit import clip, content_words

if TYPE_CHECKING:  # the readers load when a player's words are read, not in every venture
    from engine.language.reader.pick import Interpretation
    from engine.language.steering import Amends, Read

E = EventType


class MemoryNote(TypedDict):
    """A memory a step wrote, as its MEMORY_WRITTEN event and the receipt show it."""

    id: str
    kind: str
    status: str
    origin: str
    text: str
    store: str
    directions: NotRequired[list[str]]  # the typed directions it binds, as lines


class Step:
    """One command's working state and writers; its events are kept until the session commits."""

    def __init__(
        self,
        state: GameState,
        memory: MemoryBackend,
        *,
        next_event_id: int,
        runtime: str,
        store_label: Callable[[], str],
        log: bool = True,
    ) -> None:
        self.state = state
        self.log = log  # False: events are counted, not built (an exploring session keeps no log)
        self.memory = memory
        self.runtime = runtime
        self._store_label = store_label
        self.next_event_id = next_event_id
        self.events: list[Event] = []

    @property
    def store_label(self) -> str:
        return self._store_label()

    def emit(
        self,
        type_: EventType,
        actor: str,
        message: str,
        payload: Payload | Callable[[], Payload] | None = None,
    ) -> None:
        """Queue one event with the run's next id (written with the step's transaction). A
        payload that is costly to build (a whole receipt or rubric as a dict) can be given as a
        function: it is called only when the step logs (an exploring session logs nothing)."""
        st = self.state
        if self.log:
            body = payload() if callable(payload) else payload
            self.events.append(
                make_event(st.run_id, self.next_event_id, type_, actor, message, body, st.day)
            )
        self.next_event_id += 1

    def remember(
        self,
        kind: Kind,
        text: str,
        *,
        author: Author,
        importance: float = 5.0,
        axis: str | None = None,
        stage_id: str | None = None,
        payload: dict[str, Any] | None = None,
    ) -> MemoryNote:
        """Write one memory at today's game date and log it; returns what the receipt shows."""
        rec = self.memory.remember(
            NewNote(
                kind,
                text,
                author=author,
                game_day=self.state.day,
                importance=importance,
                axis=axis,
                stage_id=stage_id,
                payload=payload,
            )
        )
        info: MemoryNote = {
            "id": rec.id,
            "kind": rec.kind,
            "status": rec.status,
            "origin": rec.origin,
            "text": rec.text,
            "store": self.store_label,
        }
        if rec.payload and rec.payload.get("directions"):
            info["directions"] = [Direction.from_dict(d).line() for d in rec.payload["directions"]]
        self.emit(
            E.MEMORY_WRITTEN, "memory", f"{rec.kind} memory written: {clip(rec.text, 80)}", info
        )
        return info

    def days(self, days: int) -> None:
        """Let game days pass; each threat-arc escalation of the rival is logged."""
        st = self.state
        for arc, bite in advance_days(st, days):
            self.emit(
                E.ANTAGONIST_ESCALATED,
                st.antagonist.name,
                f"{st.antagonist.name} escalates to {arc}",
                {"arc": arc, "bite": bite},
            )


def _end_event(step: Step) -> None:
    o = step.state.outcome
    assert o is not None
    shown = {k: v for k, v in asdict(o).items() if k != "day"}  # the event has its own day
    message = f"{o.result.upper()}: {o.reason}"
    step.emit(E.RUN_ENDED, "system", message, {**shown, "economics": step.state.economics.shown()})


def note_memory_backend(step: Step) -> None:
    """Log any change of where memory lives (Cosmos DB down: the local store serves; back)."""
    for message, detail in step.memory.drain_notices():
        step.emit(E.MEMORY_BACKEND, "memory", message, detail)


def check_end(step: Step) -> None:
    """After every step: a defeat (from stage 3 on) or the last stage ends the venture (once)."""
    st = step.state
    if st.outcome is not None and st.phase != "ended":
        st.phase = "ended"
        _end_event(step)
        return
    if st.phase == "ended":
        return
    hit = defeat_at(st.economics, st.stage_index)
    if hit:
        st.outcome = finish(st, hit[0], hit[1])
    elif st.stage_index >= len(st.stages):
        st.outcome = finish(st, None, None)
    else:
        return
    st.phase = "ended"
    st.dilemma = None
    st.pending_event = None
    _end_event(step)


def found(step: Step) -> None:
    """The founding events: company, org, rival, world, and the founder's profile memory."""
    st = step.state
    f = st.founder
    step.emit(
        E.RUN_STARTED,
        "system",
        f"{f.company} founded: {clip(f.pitch, 80)}",
        {
            "pitch": f.pitch,
            "company": f.company,
            "archetype": f.archetype,
            "seed": st.seed,
            "customer": f.customer,
            "offering": f.offering,  # what the player confirmed ("" = as read from the pitch)
            "place": f.place,
            "problem": f.problem,
            "runtime": step.runtime,
        },
    )
    step.emit(
        E.ORG_CHARTERED,
        "orgdesigner",
        f"Org chartered: {len(st.org)} roles",
        {
            "org": list(st.org),
            "monthly_burn_usd": st.economics.monthly_burn_usd,
        },
    )
    a = st.antagonist
    step.emit(E.ANTAGONIST_FORGED, "antagonist", f"Rival forged: {a.name}", a)
    step.emit(
        E.WORLD_DESIGNED,
        "narrator",
        "Eight stages designed",
        {
            "stages": [
                {"id": s.id, "beat": s.beat, "owner_role": s.owner_role, "worker": s.worker_title}
                for s in st.stages
            ]
        },
    )
    step.remember(
        "user_profile",
        f"Founder ({f.archetype}) is building {f.company} for {f.customer}: {clip(f.pitch, 280)}",
        author="system",
        importance=8,
    )


def record_run(step: Step, run: StageRun, result: RouteResult) -> StageRun:
    """A worker's attempt lands: days pass, its notes are guarded into memory, the gate opens."""
    st = step.state
    stage = st.stage
    assert stage is not None
    stage.status = "active"
    step.days(int(TUNING["days_per_stage"] if run.attempt == 1 else 0))
    for due in flaws.come_due(st):  # an approved mistake's cost shows up now
        step.emit(E.FLAW_SURFACED, "narrator", due["line"], due)
    if run.attempt == 1:
        for landed in pending.land_due(st):  # a decision's later effect, shown pending, lands
            before, after = landed.pop("numbers")
            landed["text"] = landed_line(landed["decided"], st.founder.company, before, after)
            step.emit(E.DECISION_LANDED, "narrator", landed["text"], landed)
    step.emit(
        E.STAGE_BRIEFED,
        stage.worker_id,
        f"{stage.beat}: {stage.worker_title} briefed (attempt {run.attempt})",
        lambda: {
            "stage_id": stage.id,
            "goal": stage.goal,
            "attempt": run.attempt,
            "directive": st.directive,
            "memory_injected": run.memory_injected,
        },
    )
    _fallbacks(step, result, stage_id=stage.id)
    dispositions = []
    for req in run.artifact.get("memory_writes") or []:
        d = step.memory.worker_write(
            req, worker=stage.worker_id, stage_id=stage.id, game_day=st.day
        )
        dispositions.append(d.to_dict())
        if d.status != "rejected" and d.memory_id:
            note = step.memory.get(d.memory_id).text  # the row says what the note holds
            step.emit(
                E.MEMORY_WRITTEN,
                stage.worker_id,
                f"worker note {d.status}: {clip(note, 80)}",
                {"disposition": d.to_dict(), "store": step.store_label, "author": "worker"},
            )
    run.memory_dispositions = dispositions
    r = run.rubric
    step.emit(
        E.STAGE_EXECUTED,
        stage.worker_id,
        f"{stage.beat} shipped by {stage.worker_title}: score {r.final}"
        + (" DRIFT" if r.drift else "")
        + f" [{result.served_by}]",
        lambda: {
            "stage_id": stage.id,
            "attempt": run.attempt,
            "score": r.final,
            "drift": r.drift,
            "rubric": r,
            "served_by": result.served_by,
            "model": result.model,
            "fallback_reason": result.fallback_reason,
            "attempts": list(result.attempts),
            "iq_hits": [{"source": h["source"], "origin": h["origin"]} for h in run.knowledge_hits],
            "memory_injected": run.memory_injected,
            "tools_called": run.tools_called,
            "usage": result.usage,
            "artifact": run.artifact,
            "raw_text": result.raw_text,
            "memory_dispositions": dispositions,
            "changes": run.changes,
        },
    )
    stage.score, stage.drift = r.final, r.drift
    st.current = run
    st.phase = "gate"
    return run


def _fallbacks(step: Step, result: RouteResult, **where: str) -> None:
    """Each tier a routed call fell back from, logged (`where`: the stage it worked for), and a
    brief the router cut to fit the serving model's context window."""
    for fb in result.fallbacks:
        message = f"{fb.from_tier} → {fb.to_tier}: {clip(fb.reason, 100)}"
        step.emit(E.ROUTE_FALLBACK, "router", message, {**where, **asdict(fb)})
    for trimmed in brief_trims(result.adaptations):
        left_out, window = trimmed
        message = (
            f"brief trimmed to fit {result.model}'s {window:,}-token window: "
            f"{count(left_out, 'recalled line')} left out"
        )
        step.emit(
            E.BRIEF_TRIMMED,
            "router",
            message,
            {
                **where,
                "tier": result.served_by,
                "model": result.model,
                "left_out": left_out,
                "window_tokens": window,
            },
        )


def _adapt_pending(step: Step, *, lens: bool = False) -> None:
    """The pending stages adapt to the newest binding (logged when any did; after a fork, with
    the next stage's goal as the lens they now read through)."""
    st = step.state
    adapted = adapt_pending(st)
    if adapted:
        extra = {"lens": st.stages[st.stage_index + 1].goal} if lens else {}
        message = f"{count(len(adapted), 'pending stage')} adapted"
        step.emit(E.WORLD_ADAPTED, "narrator", message, {"stage_ids": adapted, **extra})


def approve(step: Step) -> Dilemma:
    """The artifact ships: the stage's outcome lands in the numbers and the fork is posed."""
    st = step.state
    stage, run = st.stage, st.current
    assert stage is not None and run is not None
    stage.status = "approved"
    outcome = stage_outcome(st, stage.owner_role, run.rubric.final)
    planted = flaws.plant(st, stage, run.rubric.flaws)
    st.rejected = None
    step.emit(
        E.ARTIFACT_APPROVED,
        "ceo",
        f"{stage.beat} approved (score {run.rubric.final})"
        + (f" with {count(len(planted), 'known flaw')}" if planted else ""),
        {
            "stage_id": stage.id,
            "score": run.rubric.final,
            "drift": run.rubric.drift,
            "flaws": [f["kind"] for f in run.rubric.flaws],
            **outcome,
        },
    )
    step.remember(
        "chat_summary",
        shipped_note(
            stage.beat,
            stage.title,
            stage.worker_title,
            run.rubric.final,
            stage.redos,
            st.day,
            st.founder.company,
            clip(stage.base_goal, 160),
        ),
        author="system",
        importance=4,
        stage_id=stage.id,
    )
    st.dilemma = posed = pose(st, stage)
    mark_cards(st, posed, stage.id, in_force(step))
    step.emit(
        E.DILEMMA_POSED,
        "narrator",
        f"{posed.title} {clip(posed.prompt, 90)}",
        posed,
    )
    st.phase = "fork"
    return posed


def in_force(step: Step) -> list[Direction]:
    """The directions that bind now, folded from the live binding notes."""
    live = step.memory.records(kinds=["procedural"], statuses=["provisional", "active"])
    return fold(live).directions


def reject(step: Step, reason: str, amends: Amends | None = None) -> None:
    """The reason becomes binding memory (its typed directions as the note's payload, as the
    player amended the reading) and the stage goes back to its worker."""
    st = step.state
    stage = st.stage
    assert stage is not None
    read = read_rejection(st, reason, amends)
    mem, reading, replaced = _bind_said(
        step, reason, read, f"CEO rejected the {stage.beat} artifact: {reason}", stage.id, amends
    )
    st.rejected = st.current.artifact if st.current else None
    aud = next((d.value for d in read.directions if d.axis == "audience"), None)
    if aud:
        st.niche = capitals(aud)  # shown as the customer; the recalled note binds the work
    step.emit(
        E.ARTIFACT_REJECTED,
        "ceo",
        f"{stage.beat} rejected: {clip(reason, 80)}",
        {
            "stage_id": stage.id,
            "reason": reason,
            "memory_id": mem["id"],
            "redo": stage.redos + 1,
            "reading": reading,
            "directions": [d.to_dict() for d in read.directions],
            "binding": [d.line() for d in read.directions],
            "replaced": replaced,
            "notes": read.notes,
        },
    )
    stage.redos += 1
    step.days(int(TUNING["days_per_redo"]))
    st.current = None
    st.phase = "brief"


def _bind_said(
    step: Step,
    said: str,
    read: Read,
    note: str,
    stage_id: str | None = None,
    amends: Amends | None = None,
) -> tuple[MemoryNote, WordsRead, list[str]]:
    """A rejection reason (`stage_id`: the stage it sends back) or a standup reply (none) binds:
    a named price is charged, the words become the newest binding note (its typed directions as
    the payload, replaced slot by slot; a standup reply without any supersedes the last reply),
    and the directive, on top of the standing fork decision, never instead of it: the rule id and
    the decision's words stay, the new words are added. Returns the note, how the words read and
    which binding directions they replace (for the receipt)."""
    st = step.state
    source: Literal["rejection", "standup"] = "standup" if stage_id is None else "rejection"
    replaced = replaced_lines(in_force(step), read.directions)
    charge_named_price(st.economics, read.directions)
    mem = step.remember(
        "procedural",
        note,
        author="ceo",
        importance=9,
        axis="standup" if source == "standup" and not read.directions else None,
        stage_id=stage_id,
        payload=payload(read.directions, source=source, said=said)
        if read.directions or source == "rejection"
        else None,
    )
    # how the words read, from the one reading (nothing re-reads them)
    reading = how_it_reads(read, amends.suggested if amends else ())
    new = Directive(
        memory_id=mem["id"],
        source=source,
        text=said,
        keywords=content_words(said)[:8],
        stage_id=stage_id,
        game_day=st.day,
        reading=dict(reading) if read.directions or source == "rejection" else None,
    )
    st.directive = on_top(st.directive, new)
    return mem, reading, replaced


def decide(step: Step, key: str, own_text: str | None, amends: Amends | None = None) -> Receipt:
    """The rule fires: before → after numbers, org change, binding memory, the rival's answer,
    hardening, pending stages adapted, and the receipt. `amends`: what the player added to the
    reading of their own answer (engine.language.steering.Amends)."""
    st = step.state
    stage, dilemma = st.stage, st.dilemma
    assert stage is not None and dilemma is not None
    interpreted = reading = None
    if own_text is None:
        opt = next(o for o in dilemma.options if o.key == key)
        rule_id, text, matched = opt.rule_id, opt.text, "option"
        directions = fork_directions(st, dilemma, stage.id, rule_id, None, None, in_force(step))
    else:
        reading, rule_id, interpreted, directions = read_own_answer(st, own_text, amends)
        text, matched = own_text, reading.matched_by
    replaced = replaced_lines(in_force(step), directions)
    named = next((d.value for d in directions if d.axis == "audience"), None)
    niche = named or (reading.niche if reading is not None else None)
    if niche:
        st.niche = capitals(niche)  # shown as the customer; the recalled note binds
    rule = rules.RULES[rule_id]
    summary = decision_summary(rule_id, dilemma, reading)
    step.emit(
        E.CEO_DECISION,
        "ceo",
        f"CEO chose: {clip(text, 90)}",
        lambda: {
            "stage_id": stage.id,
            "option": key,
            "text": text,
            "rule_id": rule_id,
            "custom": own_text is not None,
            "matched_by": matched,
            "interpreted": interpreted,
            "directions": [d.to_dict() for d in directions],
        },
    )
    done = apply_decision(st, dilemma, rule_id, stage.id, directions)
    before, after, org_delta, governed = done.before, done.after, done.org_delta, done.governed
    if governed:  # the receipt explains what happened, blocked hire included
        step.emit(E.ORDER_APPLIED, "system", governed[0], {"stage_id": stage.id, "lines": governed})
    summary = consequence_line(summary, st.founder.company, before, after, done.later)
    stage.decision = StageDecision(
        rule_id=rule_id,
        option=key,
        text=text,
        interpreted=dict(interpreted) if interpreted is not None else None,
        variant=dilemma.variant,
        title=dilemma.title,
    )
    stage.status = "decided"
    mem = step.remember(
        "procedural",
        f"CEO chose '{clip(text, 200)}' at {stage.beat} ({rule_id}): {summary}",
        author="ceo",
        importance=9,
        axis=rule.axis,
        stage_id=stage.id,
        payload=payload(
            directions,
            source="own" if own_text is not None else "decision",
            rule_id=rule_id,
            said=text,
        ),
    )
    st.directive = decided(rule, text, memory_id=mem["id"], stage_id=stage.id, day=st.day)
    receipt = Receipt(
        stage_id=stage.id,
        rule_id=rule_id,
        option=key,
        decided=text,
        summary=summary,
        principle=rule.principle,
        economics_delta=economics_delta(before, after),
        before=before,
        after=after,
        org_delta=org_delta,
        memory_written=[dict(mem)],
        matched_by=matched,
        notes=governed,
        effect_line=done.effect_line,
        later=done.later,
        next_brief=next_brief(st, directions, rule_id, text, replaced),
    )
    step.emit(E.CONSEQUENCE_APPLIED, "system", f"{rule_id}: {summary}", receipt)
    mv = move(st, rule_id, stage.id)
    st.moves.append(mv)
    step.emit(E.ANTAGONIST_MOVE, st.antagonist.name, mv.narrative, mv)
    final = st.stage_index + 1 >= len(st.stages)  # the last fork: the closing weeks follow
    step.days(int(TUNING["days_per_fork"] + (TUNING["days_after_final"] if final else 0)))
    report = step.memory.harden(game_day=st.day)
    step.emit(
        E.MEMORY_HARDENED,
        "memory",
        f"Hardening: {len(report.promoted)} promoted, {len(report.archived)} archived, "
        f"{len(report.superseded)} superseded",
        report.to_dict,
    )
    _adapt_pending(step, lens=True)
    st.receipts.append(receipt)
    st.dilemma = None
    st.current = None
    st.standup, st.standup_answered = [], False
    st.stage_index += 1
    st.phase = "brief"
    if st.stage_index < len(st.stages):
        reshape(step, stage.id)
        world_event(step, stage.id)
    return receipt


def read_own_answer(
    st: GameState, text: str, amends: Amends | None = None
) -> tuple[Interpretation, str, OwnAnswerView, list[Direction]]:
    """How an own answer at the fork reads, as the confirm shows it and the decision applies it:
    the reading, the rule it is costed as, what it will do in words, and the directions it binds
    (engine/game/said.py reads, engine/views/fork_words.py words). Pure: nothing is written."""
    assert st.dilemma is not None
    reading, rule_id, binds = read_answer(st, text, amends)
    view = own_answer_view(reading, st.dilemma, text, costed_as=rule_id)
    return reading, rule_id, own_answer_binds(view, binds, st), binds


def reshape(step: Step, after_stage: str) -> None:
    """The venture's change of shape after this fork, if the company's state draws one: a stage
    added next, with its fork, or one still to come skipped (engine.game.shape)."""
    st = step.state
    kind = shape.draw(st, after_stage)
    if kind is None:
        return
    done = shape.reshape(st, kind, after_stage)
    step.emit(
        E.VENTURE_RESHAPED,
        "world",
        done.line,
        {
            **asdict(done),
            "stages": [s.id for s in st.stages],
            "pending": [dict(p) for p in st.pending],
        },
    )


def world_event(step: Step, after_stage: str) -> None:
    """The seeded event between two stages: applied now, or waiting for the CEO's small choice."""
    st = step.state
    kind = draw(st, after_stage)
    if kind is None:
        return
    ev = open_event(st, kind, after_stage)
    if ev.options:
        st.pending_event = ev
        opts = " / ".join(f"{o.key}: {o.text}" for o in ev.options)
        step.emit(
            E.WORLD_EVENT,
            "world",
            f"{ev.title}: {ev.text} Choose {opts} (default {ev.default})",
            ev,
        )
    else:
        st.world_events.append(ev)
        step.emit(E.WORLD_EVENT, "world", f"{ev.title}: {ev.text} ({ev.effect_line})", ev)
        restate_goal(st)  # the next goal's numbers are the ones the event left


def answer_event(step: Step, key: str, *, by_default: bool = False) -> WorldEvent:
    """The CEO's answer to the waiting event (or its default, when the next stage runs first)."""
    st = step.state
    ev = st.pending_event
    assert ev is not None
    resolve_choice(st, ev, key)
    st.pending_event = None
    st.world_events.append(ev)
    restate_goal(st)  # the next goal's numbers are the ones the answer left
    chosen = next(o.text for o in ev.options if o.key == key)
    who = "default" if by_default else "ceo"
    step.emit(
        E.WORLD_EVENT_RESOLVED,
        who,
        f"{ev.title}: {chosen} ({ev.effect_line})",
        {**asdict(ev), "by_default": by_default},
    )
    return ev


def record_standup(step: Step, turns: list[StandupTurn], results: list[RouteResult]) -> None:
    """Three workers' standup lines (and any fallbacks their calls took) join the log."""
    st = step.state
    for res in results:
        _fallbacks(step, res)
    for i, (t, res) in enumerate(zip(turns, results, strict=True)):
        step.emit(
            E.AGENT_STANDUP,
            t.role,
            f"{t.speaker}: {clip(t.line, 100)}",
            {
                **asdict(t),
                "call_key": f"{st.receipts[-1].stage_id}/standup-{i}",
                "raw_text": res.raw_text,
                "model": res.model,
            },
        )
    st.standup = turns


def standup_reply(step: Step, text: str, amends: Amends | None = None) -> MemoryNote:
    """The CEO's standup reply becomes the newest binding direction."""
    st = step.state
    read = read_reply(st, text, amends)
    mem, reading, replaced = _bind_said(
        step, text, read, f"CEO replied at the standup: {text}", None, amends
    )
    given = orders.read_orders(text)
    st.orders = given
    st.standup_answered = True
    step.emit(
        E.CEO_STANDUP_RESPONSE,
        "ceo",
        f"CEO: {clip(text, 90)}",
        {
            "text": text,
            "memory": mem,
            "orders": given,
            "reading": reading,
            "binding": [d.line() for d in read.directions],
            "replaced": replaced,
        },
    )
    _adapt_pending(step)
    return mem


def settings_changed(step: Step, info: Mapping[str, str]) -> None:
    """A routing change, logged in the run (modes and labels only, never a key)."""
    step.emit(
        E.SETTINGS_CHANGED,
        "ceo",
        f"Routing {info['demo_mode']}/{info['agent_routing']}: next call → {info['pill']}",
        info,
    )
