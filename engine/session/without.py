"""What if they forgot this? One stage of a run re-derived in the simulator with one memory note
withheld, beside the same stage re-derived with it: the brief's binding lines, the artifact's
fields, the score and DRIFT, before → after (`worldforge replay RUN --without NOTE_ID`, and the
memory pane's key).

The run itself is never changed: its recorded inputs are re-played into an in-memory database
(as `replay --verify` does, with a model's recorded outputs served back for the stages before),
and the stage is then briefed twice by the simulation tier, with and without the note.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from pydantic import BaseModel, Field

from engine.config import Settings
from engine.errors import SaveError
from engine.game.models import GameState, StageRun
from engine.language import grammar
from engine.language.directions import Binding, Direction
from engine.routing import Router
from engine.session.api import GameSession, refuse_old_rules
from engine.session.commands import Record
from engine.session.events import list_events
from engine.session.replay import founded, router_for
from engine.session.saves import load_run
from engine.views.render import render_artifact
from engine.workers.agents import gather_context, run_worker
from worldforge_textkit import clip

LIVE = ("provisional", "active")
_RULE_ID = re.compile(r" \([a-z_]+\.[a-z_]+\)")  # "at YOU (<rule id>):" → "at YOU:"


class Side(BaseModel):
    """One derivation of the stage: what bound its brief, what it made, how the gate judged it."""

    binding: list[str] = Field(default_factory=list)
    recalled: list[str] = Field(default_factory=list)  # the memory ids recalled into the brief
    artifact: dict[str, Any] = Field(default_factory=dict)
    score: int = 0
    drift: bool = False
    violations: list[str] = Field(default_factory=list)
    flaws: list[str] = Field(default_factory=list)


class FieldChange(BaseModel):
    field: str
    before: list[str]
    after: list[str]


class WithoutReport(BaseModel):
    """The two derivations and their difference, in words a player reads."""

    run_id: str
    note_id: str
    note: str
    stage_id: str
    stage: int
    beat: str
    attempt: int
    worker: str
    reached_brief: bool
    mode: str
    with_note: Side
    without_note: Side
    brief_gone: list[str] = Field(default_factory=list)
    brief_new: list[str] = Field(default_factory=list)
    fields: list[FieldChange] = Field(default_factory=list)

    @property
    def same(self) -> bool:
        """Whether withholding the note changes nothing the player can see."""
        return not (
            self.brief_gone
            or self.brief_new
            or self.fields
            or self.with_note.score != self.without_note.score
            or self.with_note.drift != self.without_note.drift
        )

    def lines(self) -> list[str]:
        """The diff as text (the CLI prints it, the app shows it)."""
        w, wo = self.with_note, self.without_note
        head = f"Stage {self.stage} {self.beat} ({self.worker}), attempt {self.attempt}"
        out = [f"{head}, re-derived in the simulator without the note “{self.note}”"]
        if not self.reached_brief:
            out.append("This note reached no part of that brief: nothing binds differently.")
        if self.same:
            out.append("Without it nothing changes: the same brief, work, score and verdict.")
        out.append("Brief, binding directions:")
        out += [f"  − {x}" for x in self.brief_gone] + [f"  + {x}" for x in self.brief_new]
        if not (self.brief_gone or self.brief_new):
            out.append("  unchanged")
        if not wo.binding:
            out.append("  without it: none recalled, no binding direction for this work")
        if self.note_id in w.recalled:
            others = len([x for x in wo.recalled if x not in w.recalled])
            instead = (
                f"; {others} other note{'s' * (others != 1)} recalled instead" if others else ""
            )
            out.append(f"Brief, recalled memory: this note is no longer recalled{instead}")
        out.append(f"Score: {w.score} → {wo.score}")
        out.append(f"Gate: {_drift(w)} → {_drift(wo)}")
        if self.fields:
            out.append("What the work says, with the note → without it:")
            for f in self.fields:
                out.append(f"  {f.field}:")
                out += [f"    − {x}" for x in f.before if x not in f.after]
                out += [f"    + {x}" for x in f.after if x not in f.before]
        else:
            out.append("The work is the same without it.")
        out.append("The run itself is unchanged (this was re-derived in memory).")
        return out


def _recorded(conn: sqlite3.Connection, run_id: str) -> tuple[GameState, list[Record], str, Router]:
    """The run as saved, its recorded inputs, and the router that re-derives it (and its mode)."""
    state, inputs = load_run(conn, run_id)
    refuse_old_rules(state)
    mode, router = router_for(list_events(conn, run_id))
    return state, inputs, mode, router


def _drift(s: Side) -> str:
    return "; ".join(s.violations) if s.violations else ("DRIFT" if s.drift else "no DRIFT")


def _side(run: StageRun) -> Side:
    binding = Binding(directions=[Direction.from_dict(b) for b in run.binding])
    return Side(
        binding=binding.lines(),
        recalled=[str(x.get("id")) for x in run.memory_injected],
        artifact=run.artifact,
        score=run.rubric.final,
        drift=run.rubric.drift,
        violations=[str(v.get("line", "")) for v in run.rubric.violations],
        flaws=[f.get("note", f.get("kind", "")) for f in run.rubric.flaws],
    )


def _blocks(artifact: dict[str, Any]) -> dict[str, list[str]]:
    return {b.label: b.lines for b in render_artifact(artifact)}


def _fields(before: dict[str, Any], after: dict[str, Any]) -> list[FieldChange]:
    a, b = _blocks(before), _blocks(after)
    labels = list(a) + [k for k in b if k not in a]
    return [
        FieldChange(field=k, before=a.get(k, []), after=b.get(k, []))
        for k in labels
        if a.get(k, []) != b.get(k, [])
    ]


def without(
    conn: sqlite3.Connection, run_id: str, note_id: str, *, stage: int | None = None
) -> WithoutReport:
    """Re-derive a stage of the run with `note_id` withheld. Which stage: the first one run after
    the note was written whose brief it reached (else the first run while it was live); with
    `stage`, the first run of that stage while the note was live. Bad input raises SaveError
    with one line; the save is only read."""
    state, inputs, mode, router = _recorded(conn, run_id)
    note_id = clip(note_id.strip(), 80)
    if stage is not None and not any(s.number == stage for s in state.stages):
        raise SaveError(f"no stage {stage} in run {run_id} (stages 1 to {len(state.stages)})")
    with founded(run_id, inputs, router) as session:
        look = _Look()
        for i, step in enumerate(inputs[1:], start=1):
            brief = step.get("cmd") == "run_stage" and session.state.phase == "brief"
            if brief and look.target(session, note_id, stage, i):
                return _derive(session, run_id, note_id, mode, look.reached)
            session.apply_recorded(step)
        look.seen = look.seen or note_id in {r.id for r in session.memory.records()}
    if look.first_live is not None:  # live, but it reached no brief: the first run while live
        return _at(conn, run_id, note_id, mode, router, inputs, look.first_live)
    raise SaveError(look.why_not(run_id, note_id, stage))


class WithoutEach(BaseModel):
    """Each stage a note binds, re-derived without it (the memory pane's what-if key)."""

    note_id: str
    reports: list[WithoutReport] = Field(default_factory=list)
    bound: bool = True  # False: the note bound no stage, so its first reach is shown instead

    def lines(self) -> list[str]:
        """One block per stage, the stages it binds named first."""
        if not self.reports:
            return []
        if self.bound:
            where = ", ".join(f"{r.stage} {r.beat}" for r in self.reports)
            out = [f"This note binds {grammar.count(len(self.reports), 'stage')}: {where}."]
        else:
            out = ["This note binds no stage's work; the first brief it reached:"]
        for r in self.reports:
            out += ["", *r.lines()]
        return out


def without_each(
    conn: sqlite3.Connection, run_id: str, note_id: str, *, limit: int = 8
) -> WithoutEach:
    """Every stage whose brief the note's directions bound (the first run of each, at most
    `limit`), each re-derived without it, as `without(…, stage=N)` does for one; a note that bound
    no stage gets `without`'s choice (the first brief it reached). Only reads the save."""
    _state, inputs, mode, router = _recorded(conn, run_id)
    note_id = clip(note_id.strip(), 80)
    bound: list[int] = []  # the input index of the first brief of each stage the note binds
    with founded(run_id, inputs, router) as session:
        stages: set[int] = set()
        for i, step in enumerate(inputs[1:], start=1):
            here = session.state.stage
            brief = step.get("cmd") == "run_stage" and session.state.phase == "brief"
            fresh = brief and here is not None and here.number not in stages
            if fresh and len(bound) < limit and _binds(session, note_id):
                assert here is not None
                bound.append(i)
                stages.add(here.number)
            session.apply_recorded(step)
    if not bound:
        return WithoutEach(note_id=note_id, reports=[without(conn, run_id, note_id)], bound=False)
    reports = [_at(conn, run_id, note_id, mode, router, inputs, i, reached=True) for i in bound]
    return WithoutEach(note_id=note_id, reports=reports)


def _binds(session: GameSession, note_id: str) -> bool:
    """Whether one of the note's directions binds this stage's brief (recalled, not superseded)."""
    st = session.state
    assert st.stage is not None
    ctx = gather_context(st, st.stage, session.memory, session.knowledge)
    return any(d.memory_id == note_id for d in ctx.binding.directions)


class _Look:
    """The search for the stage to re-derive, and why there is none."""

    def __init__(self) -> None:
        self.seen = self.reached = False
        self.ran: set[int] = set()
        self.first_live: int | None = None

    def target(self, session: GameSession, note_id: str, stage: int | None, i: int) -> bool:
        here = session.state.stage
        assert here is not None
        self.ran.add(here.number)
        notes = {r.id: r for r in session.memory.records()}
        self.seen = self.seen or note_id in notes
        if note_id not in notes or notes[note_id].status not in LIVE:
            return False
        if stage is not None and here.number != stage:
            return False
        self.reached = _reaches(session, note_id)
        if stage is not None:
            return True
        if not self.reached and self.first_live is None:
            self.first_live = i
        return self.reached

    def why_not(self, run_id: str, note_id: str, stage: int | None) -> str:
        if not self.seen:
            return f"no note {note_id!r} in run {run_id} (the memory pane lists its notes' ids)"
        if stage is not None and stage not in self.ran:
            return f"stage {stage} was never run in run {run_id}"
        if stage is not None:
            return f"note {note_id} was not live when stage {stage} ran (written later, or gone)"
        return f"no stage ran in run {run_id} while note {note_id} was live"


def _reaches(session: GameSession, note_id: str) -> bool:
    """Whether the note reaches this stage's brief (as a binding note or a recalled line)."""
    st = session.state
    assert st.stage is not None
    ctx = gather_context(st, st.stage, session.memory, session.knowledge)
    return note_id in ctx.binding.note_ids or any(
        x.get("id") == note_id for x in ctx.memory_injected
    )


def _at(
    conn: sqlite3.Connection,
    run_id: str,
    note_id: str,
    mode: str,
    router: Router,
    inputs: list[Record],
    index: int,
    *,
    reached: bool = False,
) -> WithoutReport:
    """Re-play the run up to input `index` (a run_stage) and derive that stage both ways."""
    with founded(run_id, inputs, router) as session:
        for step in inputs[1:index]:
            session.apply_recorded(step)
        return _derive(session, run_id, note_id, mode, reached)


def _derive(
    session: GameSession, run_id: str, note_id: str, mode: str, reached: bool
) -> WithoutReport:
    """The stage in the simulator, briefed with every note and with `note_id` withheld."""
    st = session.state
    stage = st.stage
    assert stage is not None
    sim = Router(Settings(demo_mode="simulation"))
    note = next(r for r in session.memory.records() if r.id == note_id)
    common: dict[str, Any] = {
        "attempt": stage.redos + 1,
        "router": sim,
        "memory": session.memory,
        "knowledge": session.knowledge,
        "directive": st.directive,
    }
    with_run, _ = run_worker(st, stage, **common)
    without_run, _ = run_worker(st, stage, withhold=frozenset({note_id}), **common)
    w, wo = _side(with_run), _side(without_run)
    return WithoutReport(
        run_id=run_id,
        note_id=note_id,
        note=clip(_RULE_ID.sub("", note.text), 120),
        stage_id=stage.id,
        stage=stage.number,
        beat=stage.beat,
        attempt=stage.redos + 1,
        worker=stage.worker_title,
        reached_brief=reached,
        mode="simulation" if mode == "simulation" else "simulation (earlier stages: recorded)",
        with_note=w,
        without_note=wo,
        brief_gone=[x for x in w.binding if x not in wo.binding],
        brief_new=[x for x in wo.binding if x not in w.binding],
        fields=_fields(w.artifact, wo.artifact),
    )
