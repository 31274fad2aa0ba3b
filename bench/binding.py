"""Bench: does memory bind the work? Typed directions through every steering input, checked.

A suite of player directions written for this bench (all eleven axes; through fork choices, own
answers, rejection reasons and standup replies; 24 pitches) is played on the simulation tier over
64 ventures on seeds 201, 203, … 327 (`--ventures`, `--first-seed`; none of them tuned on). Each
input is read into directions (engine.language.steering) and written as a binding note; the figures:

- `honoured_per_direction` / `honoured_per_artifact`: on every artifact that ships no seeded
  mistake (the worker's own seeded draw, engine.game.flaws.draw; a redo keeps its attempt's), each
  recalled direction it can carry checked by the gate, and whether every one of them holds (the
  whole artifact, AgentIF's instruction-level rate).
- `honoured_n_stages_later`: the same check by how many stages after a direction first bound
  (N = 1 the next artifact … 7), while its note lives (PrefEval's curve over turns).
- `seeded_in_every_field`: each exclusion and claim to avoid said in each field of the compliant
  artifact in turn (headline, body, each list, a channel, a key result, the subject): caught share.
- `fork_options`: options whose content, folded on top of what binds, takes out a direction the
  CEO named, and of those the ones whose card does not say "replaces your …" (should be 0).
- `replay_without`: `replay --without` on each venture's first standup note and first fork
  decision: diffs whose changed fields are all ones the note's directions shape (a decision's rule
  also its revenue plan), and withheld prices still stated (should be 0).

- `honoured`: of the directions an input bound, the share the next artifact that can carry them
  honours (the gate's own check, engine.game.adherence.check). Counted over artifacts that ship
  no seeded mistake (`honoured_all` counts those too: a seeded DRIFT breaks a direction on purpose).
- `redos`: of rejections, the share whose redo honours every named direction, changes no field the
  reason did not name (besides summary and follows_decision, and prices restated everywhere), and
  adds no flaw the rejected attempt did not have (`new_flaws`).
- `seeded_drift`: for every applicable direction of every checked artifact, the same artifact built
  with a seeded DRIFT on that direction: the share the gate flags as DRIFT naming that axis; and
  `compliant_drift`: DRIFT flags on the compliant artifacts (should be 0).
- `withheld`: the same brief rebuilt with the input's note withheld: binding lines that still come
  from that note (should be 0), and the share of its directions the counterfactual artifact no
  longer carries by accident of content (reported, not a target).
- `sweep`: DRIFT and flaw rates over `balance`-style ventures (always approving) on other seeds
  (101 onwards, `--sweep-first-seed`), with the per-direction, per-artifact and N-stages figures of what forks bound.

Run: `.venv/bin/python -m bench.binding --json [--ventures 64] [--sweep 64] [--corpus]`;
`--show-misses` lists on stderr every whole-artifact miss and every seeded DRIFT not caught,
grouped by cause (what the work did, with the fields the gate read), for the script, the sweep
and the corpus (`--corpus-first-seed`: the corpus ventures on other seeds).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.corpus import Part
from engine.play.headless import letter
from engine.session.commands import (
    AnswerEvent,
    Approve,
    Decide,
    DecideOwn,
    Reject,
    RunStage,
    StandupReply,
)

PITCHES = (
    "Scheduling for solo mobile dog groomers",
    "Meal kits for night-shift nurses at big city hospitals",
    "Crop rotation planner for small organic farms",
    "Bookkeeping for hair salons",
    "Repair bookings for independent bike shops",
    "Luxury cat hotels for travelling owners",
    "Tutoring marketplace for rural high school students",
    "Invoice chasing for freelance illustrators",
    "Inventory alerts for neighbourhood pharmacies",
    "Shift swaps for hospital porters",
    "Booking software for yoga studios",
    "Fleet maintenance logs for delivery cyclists",
    "Allergy-safe lunch boxes for primary schools",
    "Wedding photo delivery for small studios",
    "Tool rental for community gardens",
    "Language exchange for retired teachers",
    "Energy audits for family bakeries",
    "Client notes for mobile physiotherapists",
    "Seed swaps for balcony gardeners",
    "Route planning for school bus drivers",
    "Menu costing for food trucks",
    "Waitlists for busy dentists",
    "Feedback forms for local museums",
    "Volunteer rotas for animal shelters",
)
# (stage number, kind, text): kind is reject (that stage's gate), reply (the standup after that
# stage's fork), own (that stage's fork in own words) or fork (A/B at that stage).
SCRIPT: tuple[tuple[int, str, str], ...] = (
    (1, "reject", "Speak to {cust_one}, not chains; leave out franchises"),
    (1, "own", "Go all in, full time, and launch by week 3"),
    (1, "reply", "Price it at ${p1} a month and sell through partner referrals"),
    (2, "reject", "Mention {feature} and drop the 'guaranteed' line"),
    (2, "fork", "A"),
    (2, "reply", "Call it {name}; keep the tone plain, no jargon"),
    (3, "reject", "Too broad. Price it at ${p5} a {per}"),
    (3, "fork", "B"),
    (3, "reply", "Focus on {cust_one} who work alone; leave {segment} alone"),
    (4, "reject", "The price is wrong: make it ${p2} a month, and launch in {place} first"),
    (4, "own", "Focus on {cust_one}, drop {segment}, and launch in week 4"),
    (4, "reply", "Also speak to {cust_two} {competitor} ignores"),
    (5, "reject", "Sell through linkedin, not paid ads, and keep churn under 4%"),
    (5, "reply", "Keep the burn under ${burn} a month and break even by month 10"),
    (6, "reject", "No guarantees, we cannot back them; price it under ${p3} a month"),
    (6, "own", "Both"),
    (6, "reply", "Support should answer through whatsapp and the pilot opens in week 5"),
    (7, "reject", "Keep churn under 3% and say {feature} up front"),
    (7, "fork", "A"),
    (7, "reply", "Not yet: price at ${p4} a month, and never mention {segment}"),
    (8, "reject", "Leave out {segment} entirely and drop the 'guaranteed' line"),
)
ONE = {  # a narrower customer per pitch, and a segment to leave out
    "Scheduling for solo mobile dog groomers": ("solo groomers", "salons"),
}


def _slots(pitch: str, seed: int) -> dict[str, str]:
    from engine.language.pitch import read_pitch

    p = read_pitch(pitch)
    cust = p.customer or "customers"
    one, seg = ONE.get(pitch, (f"independent {cust}", "big chains"))
    base = 20 + (seed * 7) % 60
    return {
        "cust_one": one,
        "segment": seg,
        "feature": "a weekly summary email",
        "name": f"{p.offering.split()[0].title() if p.offering else 'Ledger'}ly",
        "p1": str(base),
        "p2": str(base + 7),
        "p3": str(base + 15),
        "p4": str(base + 3),
        "p5": str(max(5, base // 4)),
        "per": ("visit", "session", "box", "order")[seed % 4],  # a price per thing bought
        "burn": f"{40000 + seed * 100:,}",
        "place": ("Leeds", "north Bristol", "the Northern Quarter", "Glasgow")[seed % 4],
        "cust_two": f"busy {cust}",  # a second audience, defined by a competitor it names
        "competitor": ("Northwind", "Brightpath", "Acme Bookings", "Tallyhouse")[seed % 4],
    }


def _session(pitch: str, seed: int, save: Path) -> Any:
    from engine.config import Settings
    from engine.routing import Router
    from engine.session.api import GameSession

    return GameSession.start_venture(
        pitch=pitch, seed=seed, save_dir=save, router=Router(Settings(demo_mode="simulation"))
    )


def _applicable(role: str, d: Any, art: dict[str, Any]) -> bool:
    from engine.game.adherence import applies

    return applies(role, d, art)


class Tally:
    def __init__(self) -> None:
        self.c: Counter[str] = Counter()
        self.by_n: Counter[int] = Counter()  # directions checked N stages after they bind
        self.by_n_ok: Counter[int] = Counter()
        self.by_axis: Counter[str] = Counter()
        self.by_axis_ok: Counter[str] = Counter()
        self.by_kind: Counter[str] = Counter()
        self.misses: list[dict[str, Any]] = []
        self.shown: list[dict[str, Any]] = []  # every whole-artifact miss, for --show-misses
        self.pitches: set[str] = set()
        self.seeds: set[int] = set()


def _drawn(s: Any) -> bool:
    """Whether the stage's first attempt, about to run, ships a seeded mistake (the same seeded
    draw the worker makes: engine.game.flaws.draw); a redo never does."""
    from engine.game import flaws
    from engine.workers.agents import gather_context

    st = s.state
    stage = st.stage
    if stage is None or stage.redos:
        return False
    ctx = gather_context(st, stage, s.memory, s.knowledge)
    return flaws.draw(st, stage, 1, bound=bool(ctx.binding.directions)) is not None


def _binds_from(d: Any, numbers: dict[str, int]) -> int:
    """The first stage a direction binds: a fork's from the next stage, a reply's or a
    rejection's from the stage it was given at."""
    n = numbers.get(d.stage or "", 0)
    return n + 1 if d.source in ("decision", "own") else n


def _numbers(st: Any) -> dict[str, int]:
    """Each stage's number in this venture, by id (a stage a change of shape added has an id
    with no number in it, and the stages after it are numbered anew)."""
    return {stage.id: stage.number for stage in st.stages}


def observe(run: Any, seeded: bool, tally: Tally, numbers: dict[str, int]) -> None:
    """One artifact that ships no seeded mistake: is every recalled direction honoured (the whole
    artifact), and each one N stages after it first bound (the curve). `numbers`: the venture's
    stage numbers by id."""
    from engine.game.adherence import applies, check, citation_misses, copy_misses
    from engine.language.directions import Direction

    if seeded:
        tally.c["artifacts_seeded"] += 1
        return
    recalled = [Direction.from_dict(b) for b in run.binding]
    live = [d for d in recalled if applies(run.role, d, run.artifact)]
    broken = {(v.axis, v.direction) for v in check(run.role, run.artifact, live)}
    cites = citation_misses(run.role, run.artifact, live)
    named = tuple(d.value for d in recalled if d.axis == "competitor")
    tally.c["competitors_recalled"] += len(named)
    copy = copy_misses(run.role, run.artifact, (*_rivals(), *named))
    n_here = numbers[run.stage_id]
    tally.c["artifacts"] += 1
    tally.c["artifacts_whole"] += int(not broken and not cites and not copy)
    tally.c["artifacts_cited"] += int(bool(run.artifact.get("cites")))
    tally.c["citation_misses"] += len(cites)
    tally.c["copy_misses"] += len(copy)
    for v in [*cites, *copy][: max(0, 24 - len(tally.misses))]:
        tally.misses.append({"gate": v.line, "stage": run.stage_id, "role": run.role})
    for d in live:
        ok = (d.axis, d.line()) not in broken
        tally.c["recalled"] += 1
        tally.c["recalled_ok"] += int(ok)
        n = n_here - _binds_from(d, numbers) + 1
        if 1 <= n <= 7:
            tally.by_n[n] += 1
            tally.by_n_ok[n] += int(ok)
    if broken and len(tally.misses) < 24:
        tally.misses.append({"whole": sorted(x[1] for x in broken), "stage": run.stage_id})
    gone = [v for v in check(run.role, run.artifact, live) if (v.axis, v.direction) in broken]
    for v in [*gone, *cites, *copy]:
        tally.shown.append(_shown(run, v))


def _shown(run: Any, v: Any) -> dict[str, Any]:
    """One broken direction of one artifact, with where it was checked and what those fields
    say (the pitch, the stage and attempt, the binding as it was recalled): `--show-misses`."""
    from engine.game.adherence import FIELDS

    s = _CURRENT.get("session")
    fields = FIELDS.get(v.axis, {}).get(run.role, ())
    return {
        "cause": cause(v.axis, v.did),
        "pitch": s.state.founder.pitch if s is not None else "",
        "stage": run.stage_id,
        "role": run.role,
        "attempt": run.attempt,
        "line": v.line,
        "binding": [f"{b.get('axis')}: {b.get('value')} ({b.get('source')})" for b in run.binding],
        "fields": {f: json.dumps(run.artifact.get(f))[:240] for f in fields},
    }


_QUOTED = re.compile(r"“[^”]*”|\$[\d,.]+|\b\d[\d,.]*\b|\bmem-\d+")


def cause(axis: str, did: str) -> str:
    """A miss's cause, its axis and what the work did with the quoted words and figures taken
    out ("price: price … a month"), so misses group by cause rather than by phrasing."""
    return f"{axis}: {_QUOTED.sub('…', did)}"


def show_misses(tally: Tally, out: Any = sys.stderr, per_cause: int = 3) -> None:
    """The whole-artifact misses grouped by cause, most frequent first, with a few examples."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for m in tally.shown:
        groups.setdefault(m["cause"], []).append(m)
    for key, ms in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"{len(ms):4d}  {key}", file=out)
        for m in ms[:per_cause]:
            print(f"      {m['pitch'][:60]} · {m['stage']} {m['role']} #{m['attempt']}", file=out)
            print(f"        {m['line'][:200]}", file=out)
            print(f"        binding: {'; '.join(m['binding'])[:300]}", file=out)
            for f, val in m["fields"].items():
                print(f"        {f} = {val}", file=out)


def _rivals() -> tuple[str, ...]:
    """The venture's rival, whose name customer copy never carries."""
    s = _CURRENT.get("session")
    return (s.state.antagonist.name,) if s is not None else ()


def fork_cards(s: Any, tally: Tally) -> None:
    """At a fork: each option whose content would take out a direction the CEO named (folding it
    on top of what binds now) must say so on its card ("replaces your …")."""
    from types import SimpleNamespace

    from engine.game.said import fork_directions
    from engine.language.composition import ceo_named
    from engine.language.directions import fold, payload
    from engine.session.steps import in_force

    st = s.state
    step = SimpleNamespace(memory=s.memory)
    live = s.memory.records(kinds=["procedural"], statuses=["provisional", "active"])
    now = in_force(step)
    for o in st.dilemma.options:
        bound = fork_directions(st, st.dilemma, st.stage.id, o.rule_id, None, None, now)
        note = SimpleNamespace(
            id="~option",
            kind="procedural",
            game_day=10**6,
            stage_id=st.stage.id,
            payload=payload(bound, source="decision", rule_id=o.rule_id),
        )
        after = {(d.axis, d.value) for d in fold([*live, note]).directions}
        gone = [d for d in now if ceo_named(d) and (d.axis, d.value) not in after]
        tally.c["fork_options"] += 1
        for d in gone:
            restated = any(x.axis == d.axis and d.value in x.value for x in bound)
            said = "replaces your" in o.binds and (d.value in o.binds or d.line() in o.binds)
            tally.c["fork_replaces"] += 1
            tally.c["fork_replaces_unsaid"] += int(not said and not restated)
            if not said and not restated and len(tally.misses) < 30:
                tally.misses.append({"fork": o.rule_id, "card": o.binds, "gone": d.line()})


def _check_direction(run: Any, d: Any) -> bool:
    from engine.game.adherence import check

    return not check(run.role, run.artifact, [d])


def _withhold_probe(s: Any, note_id: str, tally: Tally) -> None:
    """Rebuild the brief the next worker gets with the note withheld: no line may come from it."""
    from engine.workers.agents import binding_section, gather_context

    st = s.state
    stage = st.stage
    if stage is None:
        return
    ctx = gather_context(st, stage, s.memory, s.knowledge, withhold=frozenset({note_id}))
    left = [d for d in ctx.binding.directions if d.memory_id == note_id]
    tally.c["withheld_notes"] += 1
    tally.c["withheld_lines_left"] += len(left) + binding_section(ctx.binding).count(note_id)
    full = gather_context(st, stage, s.memory, s.knowledge)
    tally.c["withheld_note_recalled"] += int(note_id in full.binding.note_ids)


def _note_directions(s: Any) -> tuple[Any, list[Any]]:
    from engine.language.directions import Direction

    note = s.memory.records(kinds=["procedural"])[-1]
    return note, [Direction.from_dict(x) for x in (note.payload or {}).get("directions") or []]


def _brief_phase(s: Any, n: int, slots: dict[str, str], pending: list, tally: Tally) -> None:
    for num, kind, text in SCRIPT:
        if num == n - 1 and kind == "reply" and s.can("standup_reply"):
            s.give(StandupReply, text.format(**slots))
            note, named = _note_directions(s)
            pending.extend(("reply", d, n) for d in named)
            _CURRENT.setdefault("notes", []).append(note.id)
            if note.payload:
                _withhold_probe(s, note.id, tally)
    if s.state.pending_event is not None:
        s.give(AnswerEvent, s.state.pending_event.default or "A")
        return
    seeded = _CURRENT["seeded"] = _drawn(s)
    s.give(RunStage)
    observe(s.state.current, seeded, tally, _numbers(s.state))
    _judge(s.state.current, pending, tally, seed_drift=True)


def _gate_phase(s: Any, n: int, slots: dict[str, str], tally: Tally) -> None:
    reasons = [t for num, k, t in SCRIPT if num == n and k == "reject"]
    run = s.state.current
    if not reasons or s.state.stage.redos:
        s.give(Approve)
        return
    before, before_flaws = run.artifact, {f["kind"] for f in run.rubric.flaws}
    s.give(Reject, reasons[0].format(**slots))
    _note, named = _note_directions(s)
    redo = s.state.current
    if redo is None:  # the redo's days ended the venture
        return
    observe(
        redo, bool(_CURRENT.get("seeded")), tally, _numbers(s.state)
    )  # keeps what it was not told
    _judge_redo(redo, before, before_flaws, named, tally)
    for d in named:
        tally.by_kind["rejection"] += 1
        _count(tally, "rejection", d, redo)


def _fork_phase(
    s: Any, n: int, seed: int, slots: dict[str, str], pending: list, tally: Tally
) -> None:
    fork_cards(s, tally)
    own = [t for num, k, t in SCRIPT if num == n and k == "own"]
    fork = [t for num, k, t in SCRIPT if num == n and k == "fork"]
    if own:
        s.give(DecideOwn, own[0].format(**slots))
        kind = "own"
    else:
        s.give(Decide, fork[0] if fork else ("A" if (n + seed) % 2 else "B"))
        kind = "fork"
    note, named = _note_directions(s)
    pending.extend((kind, d, n + 1) for d in named)
    if note.payload and s.state.phase != "ended":
        _withhold_probe(s, note.id, tally)
        if kind == "fork":
            _CURRENT.setdefault("decisions", []).append(note.id)


def play_one(pitch: str, seed: int, save: Path, tally: Tally) -> None:
    """One venture of the script: every input's directions checked on the work that follows."""
    s = _session(pitch, seed, save)
    _CURRENT["session"] = s  # `_seeded` rebuilds stages from this venture's state
    _CURRENT["notes"] = []
    _CURRENT["decisions"] = []
    slots = _slots(pitch, seed)
    tally.pitches.add(pitch)
    tally.seeds.add(seed)
    pending: list[tuple[str, Any, int]] = []  # (kind, direction, given before stage n)
    try:
        while s.state.phase != "ended":
            n = s.state.stage.number
            if s.state.phase == "brief":
                _brief_phase(s, n, slots, pending, tally)
            elif s.state.phase == "gate":
                _gate_phase(s, n, slots, tally)
            else:
                _fork_phase(s, n, seed, slots, pending, tally)
    finally:
        run_id = s.state.run_id
        s.close()
    for note_id in [*_CURRENT["notes"][:1], *_CURRENT["decisions"][:1]]:
        without_probe(save, run_id, note_id, tally)


def without_probe(save: Path, run_id: str, note_id: str, tally: Tally) -> None:
    """`replay --without NOTE`: the stage re-derived without the note may change only the fields
    the note's directions shape (as a redo may: `allowed_fields`; a fork decision's rule also
    sets the revenue plan's growth), and states none of its prices."""
    from engine.errors import SaveError
    from engine.language.artifact_text import prose, stated_prices
    from engine.language.directions import Direction
    from engine.session.without import without
    from worldforge_savedb.db import connect, db_path

    conn = connect(db_path(save), create=False, readonly=True)
    try:
        rec = next((r for r in _memory_rows(conn, run_id) if r[0] == note_id), None)
        named = [Direction.from_dict(x) for x in (rec[1] if rec else [])]
        ruled = bool(rec and rec[2])
        try:
            rep = without(conn, run_id, note_id)
        except SaveError:
            return
    finally:
        conn.close()
    w, wo = rep.with_note.artifact, rep.without_note.artifact
    role = _role_of(w)
    changed = {k for k in set(w) | set(wo) if w.get(k) != wo.get(k)}
    allowed = allowed_fields(role, w, named) | ({"financial_plan"} if ruled else set())
    extra = changed - allowed if role else set()
    tally.c["without_diffs"] += 1
    tally.c["without_limited"] += int(not extra)
    for d in named:
        if d.axis == "price" and d.amount:
            unit = d.unit if d.period == "unit" else None
            kept = any(abs(a - d.amount) < 0.01 for a, _ in stated_prices(prose(wo), unit))
            tally.c["without_price_still_stated"] += int(kept)
    if extra and len(tally.misses) < 30:
        tally.misses.append({"without": note_id, "stage": rep.stage_id, "extra": sorted(extra)})


_MARKS = {  # a field only that role's work has
    "target_audience": "strategist",
    "hero_headline": "designer",
    "subject": "marketer",
    "nps_plan": "ops",
}


def _role_of(art: dict[str, Any]) -> str:
    """The role whose work this is, from its fields (a venture may hand a stage to another role's
    worker: engine.game.world.HANDOVERS, so the stage's beat does not say it)."""
    return next((r for k, r in _MARKS.items() if k in art), "")


def _memory_rows(conn: Any, run_id: str) -> list[tuple[str, list[Any], str | None]]:
    """The run's notes as (id, the directions of its payload, the rule id a decision's has)."""
    rows = conn.execute("SELECT id, payload FROM memories WHERE run_id = ?", (run_id,)).fetchall()
    out = []
    for mid, raw in rows:
        payload = json.loads(raw) if raw else {}
        out.append((mid, (payload or {}).get("directions") or [], (payload or {}).get("rule_id")))
    return out


def _count(tally: Tally, kind: str, d: Any, run: Any) -> None:
    ok = _check_direction(run, d)
    tally.c["directions"] += 1
    tally.by_axis[d.axis] += 1
    tally.by_axis_ok[d.axis] += int(ok)
    seeded = any(f["kind"] in ("ignores_decision", "wrong_audience") for f in run.rubric.flaws)
    tally.c["honoured_all"] += int(ok)
    if not seeded:
        tally.c["checked_clean"] += 1
        tally.c["honoured_clean"] += int(ok)
        if not ok and len(tally.misses) < 12:
            tally.misses.append(
                {"kind": kind, "direction": d.line(), "role": run.role, "stage": run.stage_id}
            )


def _judge(run: Any, pending: list[tuple[str, Any, int]], tally: Tally, seed_drift: bool) -> None:
    """Every pending direction this artifact can carry is counted on it (its next artifact)."""
    from engine.language.directions import Binding, Direction

    ids = {(b.get("axis"), b.get("value")) for b in run.binding}
    keep = []
    for kind, d, _at in pending:
        if not _applicable(run.role, d, run.artifact):
            keep.append((kind, d, _at))
            continue
        if (d.axis, d.value) not in ids:
            tally.c["superseded_before_checked"] += 1
            continue
        tally.by_kind[kind] += 1
        _count(tally, kind, d, run)
    pending[:] = keep
    if seed_drift:
        _seeded(run, Binding(directions=[Direction.from_dict(b) for b in run.binding]), tally)


def _seeded(run: Any, binding: Any, tally: Tally) -> None:
    """Build this stage again with a seeded DRIFT on each applicable direction; the gate must flag
    every one (naming its axis), and the compliant build must carry no DRIFT."""
    from engine.game.adherence import FIELDS
    from engine.game.rubric import evaluate
    from engine.writing.simulate import simulate_artifact

    s = _CURRENT["session"]
    st = s.state
    stage = next(x for x in st.stages if x.id == run.stage_id)
    common = {
        "founder": st.founder,
        "stage": stage,
        "binding": binding,
        "economics": st.economics,
        "seed": st.seed,
        "attempt": run.attempt,
    }
    customer = next((d.value for d in binding.directions if d.axis == "audience"), None)
    customer = customer or st.founder.customer

    def judge(art: dict[str, Any]) -> Any:
        return evaluate(
            run.role,
            art,
            goal=stage.goal,
            founder_keywords=st.founder.keywords,
            binding=binding,
            customer=customer,
            rivals=_rivals(),
        )

    clean = simulate_artifact(run.role, **common)
    tally.c["compliant_artifacts"] += 1
    tally.c["compliant_drift"] += int(judge(clean).drift)
    _seeded_fields(run.role, clean, binding, tally)
    _seeded_citations(run.role, clean, binding, judge, tally)
    for d in binding.directions:
        if not _applicable(run.role, d, clean):
            continue
        bent = simulate_artifact(run.role, drift=d, **common)
        r = judge(bent)
        caught = r.drift and any(v["axis"] == d.axis for v in r.violations)
        tally.c["seeded"] += 1
        tally.c["seeded_caught"] += int(caught)
        if not caught:
            fields = FIELDS.get(d.axis, {}).get(run.role, ())
            tally.shown.append(
                {
                    "cause": f"seeded {d.axis} not caught",
                    "pitch": st.founder.pitch,
                    "stage": run.stage_id,
                    "role": run.role,
                    "attempt": run.attempt,
                    "line": f"seeded: {d.line()}; flagged: {[v['axis'] for v in r.violations]}",
                    "binding": [x.line() for x in binding.directions],
                    "fields": {f: json.dumps(bent.get(f))[:240] for f in fields},
                }
            )


def _seeded_fields(role: str, clean: dict[str, Any], binding: Any, tally: Tally) -> None:
    """Each exclusion and claim to avoid, said in each field of the compliant artifact in turn
    (title, headline, body, a list item, a channel, a key result, the subject): the gate must
    flag every one."""
    import copy

    from engine.game.adherence import check
    from engine.language.directions import GENERIC_CLAIM

    for d in binding.directions:
        if d.axis not in ("exclusion", "claim") or d.value == GENERIC_CLAIM:
            continue
        for k, v in clean.items():
            if k in ("follows_decision", "memory_writes", "url", "cites", "financial_plan"):
                continue
            bent = copy.deepcopy(clean)
            bent[k] = _said_in(v, d.value)
            tally.c["seeded_fields"] += 1
            tally.c["seeded_fields_caught"] += int(
                any(x.axis == d.axis for x in check(role, bent, [d]))
            )


def _seeded_citations(
    role: str, clean: dict[str, Any], binding: Any, judge: Any, tally: Tally
) -> None:
    """The compliant artifact with each citation taken out in turn, one citing a note that binds
    nothing, and the rival's name in its customer copy: the gate must flag every one (DRIFT)."""
    import copy

    from engine.language.composition import CUSTOMER_COPY

    bents: list[dict[str, Any]] = []
    for i in range(len(clean.get("cites") or [])):
        bent = copy.deepcopy(clean)
        del bent["cites"][i]
        bents.append(bent)
    if clean.get("cites"):
        bent = copy.deepcopy(clean)
        bent["cites"][0]["notes"].append("mem-99999")
        bents.append(bent)
    for f in CUSTOMER_COPY.get(role, ())[:1]:
        for rival in _rivals():
            bent = copy.deepcopy(clean)
            bent[f] = _said_in(bent[f], rival)
            bents.append(bent)
    for bent in bents:
        tally.c["seeded_citations"] += 1
        tally.c["seeded_citations_caught"] += int(judge(bent).drift)


def _said_in(v: object, value: str) -> object:
    """A field's value with `value` said in it (a sentence, a list item, a record's text)."""
    if isinstance(v, str):
        return f"{v} Also {value}."
    if isinstance(v, list) and v and isinstance(v[0], dict):
        first = dict(v[0])
        key = next(k for k, x in first.items() if isinstance(x, str | list))
        first[key] = _said_in(first[key], value)
        return [first, *v[1:]]
    if isinstance(v, list):
        return [*v, f"Also {value}"]
    return v


def _judge_redo(
    redo: Any, before: dict[str, Any], before_flaws: set[str], named: list[Any], tally: Tally
) -> None:
    from engine.game.adherence import check

    tally.c["redos"] += 1
    if not named:
        return
    after = redo.artifact
    honoured = not check(redo.role, after, named)
    allowed = allowed_fields(redo.role, before, named)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    extra = changed - allowed
    new = {f["kind"] for f in redo.rubric.flaws} - before_flaws
    tally.c["redo_named"] += 1
    tally.c["redo_new_flaws"] += len(new)
    exact = honoured and not extra and not new
    tally.c["redo_exact"] += int(exact)
    if not exact and len(tally.misses) < 24:
        tally.misses.append(
            {
                "redo": [d.line() for d in named],
                "honoured": honoured,
                "extra_fields": sorted(extra),
                "new_flaws": sorted(new),
            }
        )


def allowed_fields(role: str, before: dict[str, Any], named: list[Any]) -> set[str]:
    """The fields directions may change: where their axes live, where a price is stated, where
    the named thing or people are said (the summary and how the work follows its binding
    always)."""
    from engine.game.adherence import FIELDS
    from engine.language.artifact_text import PRICE_SAID, prose, said
    from engine.writing.realise import FREE_PERIOD

    allowed = {"summary", "follows_decision", "memory_writes", "cites"}  # cites follow the binding
    for d in named:
        allowed |= set(FIELDS.get(d.axis, {}).get(role, ()))
        if d.axis == "number":
            allowed |= {"financial_plan", "gtm_channels"}
        if d.axis == "price":
            allowed.add("financial_plan")  # the plan's revenue is its customers at the price
        if d.axis == "scope":
            allowed |= {
                "features",
                "retention_loops",
                "churn_drivers",
                "support_workflow",
                "gtm_channels",
                "okrs_q1",
            }
        for k, v in before.items():
            text = prose({k: v})
            if d.axis == "price" and (PRICE_SAID.search(text) or FREE_PERIOD.search(text)):
                allowed.add(k)
            if (
                d.axis in ("exclusion", "claim", "audience", "tone")
                and d.value.lower() in text.lower()
            ):
                allowed.add(k)
            if d.axis == "audience":
                allowed.add(k)  # the customer's name is restated wherever it appears
            if d.axis in ("exclusion", "claim") and said(text, d.value):
                allowed.add(k)
            if d.axis in ("claim", "tone"):
                allowed.add(k)
    return allowed


_CURRENT: dict[str, Any] = {}


def play_corpus(
    pitch: str, texts: dict[str, list[str]], seed: int, save: Path, tally: Tally
) -> None:
    """One venture of a corpus pitch (its `build` part only): its labelled standup replies at the
    standups, rejection reasons at the gates and own answers at the forks, in file order; an input
    the game asks about instead of binding (engine.errors.InputError) is skipped."""
    from engine.errors import InputError

    s = _session(pitch, seed, save)
    _CURRENT["session"] = s  # the rival whose name customer copy never carries, the pitch
    queue = {k: list(v) for k, v in texts.items()}
    try:
        while s.state.phase != "ended":
            st = s.state
            if st.phase == "brief":
                if s.can("standup_reply") and queue["standup"]:
                    try:
                        s.give(StandupReply, queue["standup"].pop(0))
                    except InputError:
                        tally.c["corpus_asked"] += 1
                    continue
                if st.pending_event is not None:
                    s.give(AnswerEvent, st.pending_event.default or "A")
                    continue
                seeded = _CURRENT["seeded"] = _drawn(s)
                s.give(RunStage)
                if s.state.current is not None:
                    observe(s.state.current, seeded, tally, _numbers(s.state))
            elif st.phase == "gate":
                if queue["rejection"] and not st.stage.redos and s.can("reject"):
                    try:
                        s.give(Reject, queue["rejection"].pop(0))
                    except InputError:
                        tally.c["corpus_asked"] += 1
                        continue
                    if s.state.current is not None and s.state.phase == "gate":
                        observe(
                            s.state.current,
                            bool(_CURRENT.get("seeded")),
                            tally,
                            _numbers(s.state),
                        )
                    continue
                s.give(Approve)
            else:
                fork_cards(s, tally)
                if queue["own"]:
                    try:
                        s.give(DecideOwn, queue["own"].pop(0))
                        continue
                    except InputError:
                        tally.c["corpus_asked"] += 1
                s.give(Decide, "A" if (st.stage.number + seed) % 2 else "B")
    finally:
        s.close()


def corpus(
    first_seed: int = 401, tally: Tally | None = None, part: Part = "build"
) -> dict[str, Any]:
    """The figures over one part of the corpus (the `build` part unless the held-out part is asked
    for by name, to report: its misses are counted, never listed): one venture per pitch, seeds
    from 401 (`tally` keeps what was seen, for --show-misses)."""
    from bench.corpus import directions

    by_pitch: dict[str, dict[str, list[str]]] = {}
    for r in directions(part):
        q = by_pitch.setdefault(r["pitch"], {"standup": [], "rejection": [], "own": []})
        if r.get("source") in q:
            q[r["source"]].append(r["text"])
    tally = tally if tally is not None else Tally()
    with tempfile.TemporaryDirectory() as tmp:
        for i, (pitch, texts) in enumerate(sorted(by_pitch.items())):
            play_corpus(pitch, texts, first_seed + i, Path(tmp) / f"c{i}", tally)
    c = tally.c
    return {
        "ventures": len(by_pitch),
        "seeds": f"{first_seed}-{first_seed + len(by_pitch) - 1}",
        "inputs_asked_about": c["corpus_asked"],
        "honoured_per_direction": round(c["recalled_ok"] / max(1, c["recalled"]), 4),
        "honoured_per_artifact": round(c["artifacts_whole"] / max(1, c["artifacts"]), 4),
        "artifacts_without_a_seeded_mistake": c["artifacts"],
        "honoured_n_stages_later": {
            str(n): round(tally.by_n_ok[n] / tally.by_n[n], 4) for n in sorted(tally.by_n)
        },
        "fork_options_replacing_unsaid": c["fork_replaces_unsaid"],
        "part": part,
        "misses": tally.misses[:12] if part == "build" else len(tally.misses),
    }


def sweep(n: int, first_seed: int = 101, seen: Tally | None = None) -> dict[str, Any]:
    """DRIFT and flaw rates over ventures that always approve (balance-style), other seeds
    (`seen` keeps what was seen, for --show-misses)."""
    from engine.game.models import ARCHETYPES

    stages = drift = flawed = 0
    kinds: Counter[str] = Counter()
    seen = seen if seen is not None else Tally()  # every artifact's recalled directions
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(n):
            seed = first_seed + i
            arch = list(ARCHETYPES)[i % len(ARCHETYPES)]
            from engine.config import Settings
            from engine.routing import Router
            from engine.session.api import GameSession

            s = GameSession.start_venture(
                pitch=PITCHES[i % len(PITCHES)],
                seed=seed,
                archetype=arch,
                save_dir=Path(tmp) / str(i),
                router=Router(Settings(demo_mode="simulation")),
            )
            _CURRENT["session"] = s
            try:
                path = format(seed % 256, "08b").replace("0", "A").replace("1", "B")
                while s.state.phase != "ended":
                    st = s.state
                    if st.phase == "brief":
                        if st.pending_event is not None:
                            s.give(AnswerEvent, st.pending_event.default or "A")
                            continue
                        seeded = _drawn(s)
                        s.give(RunStage)
                        if s.state.current is None:  # the event answered first ended the run
                            continue
                        observe(s.state.current, seeded, seen, _numbers(s.state))
                        r = s.state.current.rubric
                        stages += 1
                        drift += int(r.drift)
                        flawed += int(bool(r.flaws))
                        kinds.update(f["kind"] for f in r.flaws)
                    elif st.phase == "gate":
                        s.give(Approve)
                    else:
                        s.give(Decide, letter(path, st.stage.number - 1))
            finally:
                s.close()
    return {
        "ventures": n,
        "seeds": f"{first_seed}-{first_seed + n - 1}",
        "stages": stages,
        "drift_rate": round(drift / max(1, stages), 3),
        "flaw_rate": round(flawed / max(1, stages), 3),
        "flaw_kinds": dict(kinds),
        "honoured_per_direction": round(seen.c["recalled_ok"] / max(1, seen.c["recalled"]), 4),
        "honoured_per_artifact": round(seen.c["artifacts_whole"] / max(1, seen.c["artifacts"]), 4),
        "artifacts_without_a_seeded_mistake": seen.c["artifacts"],
        "honoured_n_stages_later": {
            str(n): round(seen.by_n_ok[n] / seen.by_n[n], 4) for n in sorted(seen.by_n)
        },
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench.binding", description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--ventures", type=int, default=64, help="ventures the script plays")
    ap.add_argument("--first-seed", type=int, default=201, help="seeds first, +2, +4, …")
    ap.add_argument("--sweep", type=int, default=16, help="ventures in the DRIFT/flaw sweep")
    ap.add_argument("--corpus", action="store_true", help="also one venture per corpus pitch")
    ap.add_argument(
        "--sweep-first-seed", type=int, default=101, help="the sweep's first seed (then +1, …)"
    )
    ap.add_argument(
        "--corpus-first-seed", type=int, default=401, help="the corpus ventures' first seed"
    )
    ap.add_argument(
        "--corpus-part",
        choices=("build", "heldout"),
        default="build",
        help="the corpus part played (heldout: to report, never to tune; its misses are not listed)",
    )
    ap.add_argument(
        "--show-misses",
        action="store_true",
        help="list every whole-artifact miss on stderr, grouped by cause, with examples",
    )
    args = ap.parse_args(argv)
    tally = Tally()
    started = time.perf_counter()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.ventures):
            pitch = PITCHES[i % len(PITCHES)]
            seed = args.first_seed + 2 * i
            save = Path(tmp) / f"v{i}"
            play_one(pitch, seed, save, tally)
    c = tally.c
    seen, read = Tally(), Tally()  # the sweep's and the corpus's
    out = {
        "suite": {
            "directions": c["directions"],
            "by_input": dict(tally.by_kind),
            "by_axis": dict(tally.by_axis),
            "pitches": len(tally.pitches),
            "seeds": sorted(tally.seeds),
        },
        "honoured": round(c["honoured_clean"] / max(1, c["checked_clean"]), 4),
        "honoured_per_direction": round(c["recalled_ok"] / max(1, c["recalled"]), 4),
        "honoured_per_artifact": {
            "artifacts": c["artifacts"],
            "every_direction_honoured": round(c["artifacts_whole"] / max(1, c["artifacts"]), 4),
            "left_out_seeded_mistakes": c["artifacts_seeded"],
        },
        "honoured_n_stages_later": {
            str(n): {
                "checked": tally.by_n[n],
                "honoured": round(tally.by_n_ok[n] / tally.by_n[n], 4),
            }
            for n in sorted(tally.by_n)
        },
        "seeded_in_every_field": {
            "seeded": c["seeded_fields"],
            "caught": round(c["seeded_fields_caught"] / max(1, c["seeded_fields"]), 4),
        },
        "citations": {
            "artifacts_citing": c["artifacts_cited"],
            "citation_misses": c["citation_misses"],
            "customer_copy_misses": c["copy_misses"],
            "competitors_recalled": c["competitors_recalled"],
            "seeded": c["seeded_citations"],
            "caught": round(c["seeded_citations_caught"] / max(1, c["seeded_citations"]), 4),
        },
        "fork_options": {
            "options": c["fork_options"],
            "replace_a_named_direction": c["fork_replaces"],
            "without_saying_so": c["fork_replaces_unsaid"],
        },
        "replay_without": {
            "diffs": c["without_diffs"],
            "limited_to_the_notes_fields": round(
                c["without_limited"] / max(1, c["without_diffs"]), 4
            ),
            "withheld_price_still_stated": c["without_price_still_stated"],
        },
        "honoured_all": round(c["honoured_all"] / max(1, c["directions"]), 4),
        "honoured_by_axis": {
            a: round(tally.by_axis_ok[a] / tally.by_axis[a], 3) for a in sorted(tally.by_axis)
        },
        "redos": {
            "named": c["redo_named"],
            "fixed_exactly": round(c["redo_exact"] / max(1, c["redo_named"]), 4),
            "new_flaws": c["redo_new_flaws"],
        },
        "seeded_drift": {
            "seeded": c["seeded"],
            "caught": round(c["seeded_caught"] / max(1, c["seeded"]), 4),
        },
        "compliant_drift": {"artifacts": c["compliant_artifacts"], "drift": c["compliant_drift"]},
        "withheld": {
            "notes": c["withheld_notes"],
            "binding_lines_left": c["withheld_lines_left"],
            "recalled_when_not_withheld": c["withheld_note_recalled"],
        },
        "superseded_before_checked": c["superseded_before_checked"],
        "misses": tally.misses,
        "sweep": sweep(args.sweep, args.sweep_first_seed, seen) if args.sweep else None,
        "corpus": (
            corpus(args.corpus_first_seed, tally=read, part=args.corpus_part)
            if args.corpus
            else None
        ),
        "seconds": round(time.perf_counter() - started, 1),
        "load_1min_at_start": round(load, 2),
    }
    if args.show_misses:
        shown = [("script", tally), ("sweep", seen)]
        if args.corpus_part == "build":  # the held-out part's misses are never listed
            shown.append(("corpus", read))
        for name, t in shown:
            print(f"== {name}: {len(t.shown)} broken directions", file=sys.stderr)
            show_misses(t)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(
            f"honoured {out['honoured']:.1%} of {c['checked_clean']} directions; redos exact "
            f"{out['redos']['fixed_exactly']:.1%} ({c['redo_new_flaws']} new flaws); seeded DRIFT "
            f"caught {out['seeded_drift']['caught']:.1%}; compliant DRIFT {c['compliant_drift']}; "
            f"binding lines after withholding {c['withheld_lines_left']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
