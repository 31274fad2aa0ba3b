"""Headless play: one driver that plays a venture from a fork path, rejections and own answers.

Used by `worldforge simulate`, `worldforge balance`, the benches and the tests, so they all play
the game the same way the TUI does (through the session API).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from engine.errors import InputError
from engine.game.said import read_rejection, read_reply
from engine.game.shape import MAX_FORKS
from engine.game.world import resolve_stage
from engine.language.text import MAX_REASON_CHARS, clean_text
from engine.play import careful, policies
from engine.session import commands
from engine.session.api import GameSession
from engine.session.commands import Kind
from engine.session.events import count_by_type
from engine.views.render import artifact_markdown, shipped
from engine.views.served import Served, served_summary
from worldforge_savedb.records import Record
from worldforge_textkit import clip
from worldforge_textkit.numbers import books

if TYPE_CHECKING:
    from engine.game.models import GameState
    from engine.language.directions import Source
    from engine.session.events import Event


def parse_path(path: str, option: str = "--choose") -> str:
    """`A`/`B` letters, one per fork in order; a single letter applies to every fork. A venture
    has as many forks as its stages (engine.game.shape: one may be added or skipped), so a path
    may be shorter than the forks played: the forks past its end take A (`letter`)."""
    p = (path or "").strip().upper()
    if not p or any(c not in "AB" for c in p):
        raise InputError(f"{option} takes letters A and B only, e.g. ABBA... (got {path[:20]!r})")
    if len(p) > MAX_FORKS:
        raise InputError(f"{option} takes at most {MAX_FORKS} letters, got {len(p)}")
    return p * MAX_FORKS if len(p) == 1 else p


def letter(path: str, fork: int) -> str:
    """The path's letter at fork `fork` (0 for the first): A past the path's end."""
    return path[fork] if fork < len(path) else "A"


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


def parse_choices(items: list[str], flag: str) -> list[tuple[str, str]]:
    """`A`/`B` (every stage: "*") or `STAGE:A` (that stage), as for --event."""
    out = []
    for item in items:
        where, _, key = item.rpartition(":")
        key = key.strip().upper()
        if key not in ("A", "B"):
            raise InputError(f"{flag} takes A, B or STAGE:A|B, e.g. {flag} 3:B (got {item[:30]!r})")
        out.append((resolve_stage(where) if where else "*", key))
    return out


Said = dict[str, dict[str, list[str]]]  # command name -> stage id ("*": every stage) -> in order


@dataclass(eq=False, repr=False)
class Plan(Record):
    """What the CEO will say at each gate, fork and standup of a headless venture: by player
    command (engine.session.commands), by stage, in order. A command of the brief between two
    stages (a standup reply, an event's answer) is planned under the stage it follows."""

    path: str = "A"  # the letter at each fork in order where nothing else is planned (A past it)
    said: Said = field(default_factory=dict)
    # forks and event choices by engine.play.careful's stated policy instead of `path` and defaults
    careful: bool = False
    # forks and event choices by a player of the skill ladder (engine.play.policies): random,
    # greedy (the careful CEO) or lookahead; "" follows `path` and the events' defaults
    policy: str = ""
    # stop (InputError, exit 2) before giving words any part of which binds nothing
    strict_reading: bool = False

    @classmethod
    def from_cli(cls, given: Mapping[str, Any]) -> Plan:
        """The plan from `worldforge simulate`'s options, keyed by the command each gives
        (engine.session.commands.flags()), read as each option's form says; text is cleaned as
        the session cleans it."""
        plan = cls()
        for name, flag in commands.flags().items():
            value = given.get(name)
            if flag.form == "path":
                plan.path = parse_path(str(value or flag.default or "A"), flag.option)
                continue
            items = [str(v) for v in value or []]
            if flag.form == "choice":
                pairs = parse_choices(items, flag.option)
            else:
                pairs = [
                    (
                        sid,
                        clean_text(
                            text, field=f"{flag.option} for {sid}", max_chars=MAX_REASON_CHARS
                        ),
                    )
                    for sid, text in parse_stage_pairs(items, flag.option)
                ]
            by_stage = plan.said.setdefault(name, {}) if pairs else {}
            for sid, text in pairs:
                by_stage.setdefault(sid, []).append(text)
            for sid, texts in by_stage.items():
                if len(texts) > flag.most:
                    where = "every stage" if sid == "*" else sid
                    raise InputError(
                        f"{flag.option} at most {flag.most} time{'s' * (flag.most > 1)} "
                        f"for {where} (got {len(texts)})"
                    )
        return plan

    def say(self, name: str, stage: str, text: str) -> Plan:
        """Plan one more thing to say with the command called `name` at `stage` ("*": every)."""
        self.said.setdefault(name, {}).setdefault(stage, []).append(text)
        return self


# What the careful CEO (engine.play.careful) says, by command, where the plan names nothing.
CAREFUL: dict[str, Callable[[GameState], str | None]] = {
    "answer_event": careful.event_choice,
    "decide": careful.fork_choice,
}


class Planned(TypedDict):
    """Where a planned text was given: its option and the stage it was said for."""

    option: str
    stage_id: str | None
    stage: str | None  # "4:SEARCH"


class Unbound(Planned):
    """A planned text's parts that bind nothing (what the TUI would have confirmed first)."""

    parts: list[str]
    why: list[str]  # each part's teach-back: why it binds nothing, how to say it ("" if none)


# What each player of the skill ladder says, by policy and command.
POLICY_ANSWERS = {name: policies.answers(name) for name in policies.POLICIES}


def play(
    session: GameSession, plan: Plan, readings: list[dict[str, object]] | None = None
) -> list[Unbound]:
    """Drive the session to its end following the plan, one command at a time (what the plan
    says for a stage is given in order, from where the venture stands). Returns what the TUI
    would have confirmed first and a script cannot: each planned text part of which binds
    nothing (the reading's unread parts), by option and stage, in the order said. `readings`
    collects each worded input's reading (its directions with the words they came from, its
    unread parts); with `plan.strict_reading` words any part of which binds nothing stop the
    venture before they are given (InputError). Money is read and written in the books'
    currency throughout."""
    with books(session.state.founder.currency):
        given: Counter[tuple[str, str]] = Counter()
        unbound: list[Unbound] = []
        while session.state.phase != "ended":
            kind, said = next_command(session, plan, given)
            missed = binds_nothing(session.state, kind, said)
            if kind.flag is not None and said:
                sid = _planned_under(kind, session.state)
                where = next((s for s in session.state.stages if s.id == sid), None)
                at: Planned = {
                    "option": kind.flag.option,
                    "stage_id": where.id if where else None,
                    "stage": f"{where.number}:{where.beat}" if where else None,
                }
                if readings is not None and (read := reading_of(session.state, kind, said)):
                    readings.append(
                        {**at, "said": said, **read, **suggested_for(session, kind, said)}
                    )
                if missed:
                    parts, whys = [p for p, _ in missed], [w for _, w in missed]
                    unbound.append({**at, "parts": parts, "why": whys})
                    if plan.strict_reading:
                        why = f". {whys[0]}" if whys[0] else ": say it so it binds, or leave it out"
                        raise InputError(
                            f"{at['option']} {at['stage'] or ''}: “{clip(parts[0], 80)}” binds "
                            f"nothing (--strict-reading){why}"
                        )
            session.give(kind, said)
        return unbound


_SOURCES: dict[str, Source] = {
    "reject": "rejection",
    "standup_reply": "standup",
    "decide_own": "own",
}


def _conflicts(state: GameState, source: str, said: str) -> dict[str, object]:
    """What the words would conflict with in what binds now, with the smallest fix (what the
    TUI's confirm shows first): each minimal conflicting set and the directions to drop."""
    if source == "rejection":
        new = read_rejection(state, said).directions
    elif source == "standup":
        new = read_reply(state, said).directions
    else:
        from engine.language.steering import read_directions

        new = read_directions(said, source="own").directions
    return commands.binding_conflicts(state, new).to_dict()


def reading_of(state: GameState, kind: Kind[object], said: str) -> dict[str, object] | None:
    """How the words of a rejection, a standup reply or an own answer read (None for other
    commands): the command's own reading, the one that binds (the rival called so is named, a
    relative price resolved), each direction with its span and words, the parts read as nothing,
    whether the reader asks."""
    if _SOURCES.get(kind.name) is None:
        return None
    from engine.language.steering import structured

    given = structured(said)
    if given is not None:  # directions given as data are bound as given, never read
        return {"given": [d.to_dict(leave_out=("source", "said")) for d in given], "unread": []}
    try:
        command = kind.from_said(said)
    except InputError:
        return None
    if not isinstance(command, commands.Worded):
        return None
    r = command.read(state)
    # the parts that bind nothing as the session binds the reading: the reader's unread parts
    # and a direction the books cannot hold (a price in another currency), each with its
    # teach-back
    held = {(p.start, p.end) for p in r.parts}
    return {
        "repair": _conflicts(state, _SOURCES[kind.name], said),
        "directions": [
            {
                "axis": d.axis,
                "do": d.do,
                "value": d.value,
                **({"amount": d.amount, "op": d.op} if d.amount is not None else {}),
                **({"key": d.key} if d.key else {}),
                "span": [d.start, d.end] if d.start is not None else None,
                "words": r.text[d.start : d.end] if d.start is not None else "",
            }
            for d in r.directions
            if (d.start, d.end) not in held
        ],
        "unread": [
            {
                "words": p.words,
                "why": p.reason,
                "teach_back": p.teach_back,
                "span": [p.start, p.end],
            }
            for p in r.parts
        ],
        **({"picks": r.option} if r.option else {}),  # an own answer's option
        "asked": r.asked or None,
    }


def suggested_for(session: GameSession, kind: Kind[object], said: str) -> dict[str, Any]:
    """What a model tier suggests for the unread parts of the words (engine.workers.suggest),
    for the reading --json shows: each placement marked with its model, and its one line. A
    script confirms nothing, so they bind nothing here (give them as structured directions to
    bind them). {} when no model was asked (the simulation tier, words that read whole)."""
    try:
        command = kind.from_said(said)
    except InputError:
        return {}
    if not isinstance(command, commands.Worded):
        return {}
    got, line = session.suggest(command)
    if not line:
        return {}
    return {"suggested": [s.to_dict() for s in got.suggested], "suggested_line": line}


def binds_nothing(state: GameState, kind: Kind[object], said: str) -> list[tuple[str, str]]:
    """The parts of `said` that bind nothing, each with why (its teach-back, "" if none), read
    as the command's confirmation reads them ([] for a command without words, or words it
    refuses: giving them says why)."""
    if not said:
        return []
    try:
        preview = kind.from_said(said).preview(state)
    except InputError:
        return []
    if preview is None:
        return []
    return list(zip(preview.unread, preview.why or [""] * len(preview.unread), strict=True))


def next_command(
    session: GameSession, plan: Plan, given: Counter[tuple[str, str]] | None = None
) -> tuple[Kind[object], str]:
    """The command the plan gives now, and what the CEO says with it ("" for nothing), read off
    the command list: of the player commands allowed now, in list order, the first the plan says
    something for at this stage (`given` counts what was said already); else the first the plan's
    policy answers (the careful CEO, or the path's letter for a "path" option); else the first
    that takes no words (run the stage, approve)."""
    st = session.state
    given = Counter() if given is None else given
    now = [kind for kind in commands.player() if kind.allowed(st)]
    for kind in now:
        where = _planned_under(kind, st)
        by_stage = plan.said.get(kind.name, {})
        texts = by_stage.get(where or "", []) if where else []
        if given[(kind.name, where or "")] < len(texts):
            given[(kind.name, where or "")] += 1
            return kind, texts[given[(kind.name, where or "")] - 1]
        if "*" in by_stage and where:
            return kind, by_stage["*"][0]
    for kind in now:
        said = _policy(plan, kind, st)
        if said is not None:
            return kind, said
    return next(kind for kind in now if kind.flag is None), ""


def _planned_under(kind: Kind[object], st: GameState) -> str | None:
    """The stage a plan names for the command now: the one it follows for a command of the
    brief (None before the first stage), else the current stage."""
    if kind.phases == ("brief",):
        return st.stages[st.stage_index - 1].id if st.stage_index else None
    return st.stage.id if st.stage is not None else None


def _policy(plan: Plan, kind: Kind[object], st: GameState) -> str | None:
    if plan.policy and kind.name in POLICY_ANSWERS[plan.policy]:
        return POLICY_ANSWERS[plan.policy][kind.name](st)
    if plan.careful and kind.name in CAREFUL:
        return CAREFUL[kind.name](st)
    if kind.flag is not None and kind.flag.form == "path" and st.stage is not None:
        return letter(plan.path, st.stage_index)
    return None


def routing(session: GameSession, events: list[Event] | None = None) -> Served:
    """Who served this process's model calls and every fallback the run logged (see
    `engine.views.served`); `events`: the run's events when the caller has read them already."""
    logged = session.events() if events is None else events
    fallbacks = [e.payload for e in logged if e.type == "ROUTE_FALLBACK"]
    served = session.router.status().get("served") or {}
    return served_summary(session.router.runtime_label(), served, fallbacks)


def _graded(shipped: Mapping[str, object], key: str, field: str) -> list[object]:
    """`field` of each item the shipped work's rubric lists under `key` (flaws, violations)."""
    rubric = shipped.get("rubric") or {}
    items = rubric.get(key) if isinstance(rubric, dict) else None
    return [item[field] for item in items or []]


def _pick(obj: object, *names: str) -> dict[str, Any]:
    """These attributes of `obj` under their own names (one object of the summary)."""
    return {name: getattr(obj, name) for name in names}


def summary(session: GameSession) -> dict[str, Any]:
    """The `simulate --json` object."""
    with books(session.state.founder.currency):
        st, o = session.state, session.state.outcome
        served: Counter[str] = Counter()
        events = session.events()
        for e in events:
            if e.type == "STAGE_EXECUTED":
                served[e.payload.get("served_by", "?")] += 1
        work = shipped(events)
        return {
            "run_id": st.run_id,
            "seed": st.seed,
            "currency": st.founder.currency,  # the books' (economics stay in the `_usd` fields)
            "outcome": _pick(o, "result", "reason", "day", "stage", "ending") if o else None,
            "score": {"points": o.score, **_pick(o, "grade", "ending", "title")} if o else None,
            "economics": st.economics.shown(),
            "world_events": [
                {**_pick(e, "after_stage", "kind", "title", "choice"), "effect": e.effect_line}
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
            "reshaped": [r.line for r in st.reshaped],  # stages added or skipped, and why
            "org": [w.title for w in st.org if w.active],
            "stages": [
                {
                    "id": s.id,
                    "beat": s.beat,
                    "worker": s.worker_title,
                    "handover": s.handover,
                    "score": s.score,
                    "drift": s.drift,
                    "redos": s.redos,
                    "flaws": _graded(work.get(s.id, {}), "flaws", "kind"),
                    "verdict": _graded(work.get(s.id, {}), "violations", "line"),
                    "shipped": artifact_markdown(work[s.id]["artifact"]) if s.id in work else [],
                    "decision": {
                        **_pick(s.decision, "rule_id", "option"),
                        **(
                            {"interpreted": s.decision.interpreted}
                            if s.decision.interpreted
                            else {}
                        ),
                    }
                    if s.decision
                    else None,
                }
                for s in st.stages
            ],
            "dilemmas": [
                {
                    "stage_id": s.id,
                    **_pick(s.decision, "title", "variant", "rule_id"),
                    "effect": r.effect_line,
                }
                for s, r in zip([s for s in st.stages if s.decision], st.receipts, strict=True)
                if s.decision
            ],
            "events": count_by_type(session.conn, st.run_id),
            "memory": session.memory.counts(),
            "served_by": dict(sorted(served.items())),
            "routing": routing(session, events),
        }
