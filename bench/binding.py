"""Bench: does memory bind the work? Typed directions through every steering input, checked.

A suite of player directions written for this bench (all eleven axes; through fork choices, own
answers, rejection reasons and standup replies; 24 pitches; seeds 21-68, none of the tuned 7-14)
is played on the simulation tier. Each input is read into directions (engine.language.steering) and
written as a binding note; the figures:

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
- `sweep`: DRIFT and flaw rates over `balance`-style ventures (always approving) on other seeds.

Run: `.venv/bin/python -m bench.binding --json [--sweep 32]`
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

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
        self.by_axis: Counter[str] = Counter()
        self.by_axis_ok: Counter[str] = Counter()
        self.by_kind: Counter[str] = Counter()
        self.misses: list[dict[str, Any]] = []
        self.pitches: set[str] = set()
        self.seeds: set[int] = set()


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
            if note.payload:
                _withhold_probe(s, note.id, tally)
    if s.state.pending_event is not None:
        s.give(AnswerEvent, s.state.pending_event.default or "A")
        return
    s.give(RunStage)
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
    _judge_redo(redo, before, before_flaws, named, tally)
    for d in named:
        tally.by_kind["rejection"] += 1
        _count(tally, "rejection", d, redo)


def _fork_phase(
    s: Any, n: int, seed: int, slots: dict[str, str], pending: list, tally: Tally
) -> None:
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


def play_one(pitch: str, seed: int, save: Path, tally: Tally) -> None:
    """One venture of the script: every input's directions checked on the work that follows."""
    s = _session(pitch, seed, save)
    _CURRENT["session"] = s  # `_seeded` rebuilds stages from this venture's state
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
        s.close()


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
        )

    clean = simulate_artifact(run.role, **common)
    tally.c["compliant_artifacts"] += 1
    tally.c["compliant_drift"] += int(judge(clean).drift)
    for d in binding.directions:
        if not _applicable(run.role, d, clean):
            continue
        bent = simulate_artifact(run.role, drift=d, **common)
        r = judge(bent)
        tally.c["seeded"] += 1
        tally.c["seeded_caught"] += int(r.drift and any(v["axis"] == d.axis for v in r.violations))


def _judge_redo(
    redo: Any, before: dict[str, Any], before_flaws: set[str], named: list[Any], tally: Tally
) -> None:
    from engine.game.adherence import FIELDS, check
    from engine.language.artifact_text import PRICE_SAID, prose
    from engine.writing.realise import FREE_PERIOD

    tally.c["redos"] += 1
    if not named:
        return
    after = redo.artifact
    honoured = not check(redo.role, after, named)
    allowed = {"summary", "follows_decision", "memory_writes"}
    for d in named:
        allowed |= set(FIELDS.get(d.axis, {}).get(redo.role, ()))
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
            if d.axis in ("claim", "tone"):
                allowed.add(k)
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


_CURRENT: dict[str, Any] = {}


def sweep(n: int, first_seed: int = 101) -> dict[str, Any]:
    """DRIFT and flaw rates over ventures that always approve (balance-style), other seeds."""
    from engine.game.models import ARCHETYPES

    stages = drift = flawed = 0
    kinds: Counter[str] = Counter()
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
            try:
                path = format(seed % 256, "08b").replace("0", "A").replace("1", "B")
                while s.state.phase != "ended":
                    st = s.state
                    if st.phase == "brief":
                        s.give(RunStage)
                        if s.state.current is None:  # the event answered first ended the run
                            continue
                        r = s.state.current.rubric
                        stages += 1
                        drift += int(r.drift)
                        flawed += int(bool(r.flaws))
                        kinds.update(f["kind"] for f in r.flaws)
                    elif st.phase == "gate":
                        s.give(Approve)
                    else:
                        s.give(Decide, path[st.stage.number - 1])
            finally:
                s.close()
    return {
        "ventures": n,
        "seeds": f"{first_seed}-{first_seed + n - 1}",
        "stages": stages,
        "drift_rate": round(drift / max(1, stages), 3),
        "flaw_rate": round(flawed / max(1, stages), 3),
        "flaw_kinds": dict(kinds),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench.binding", description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--ventures", type=int, default=len(PITCHES))
    ap.add_argument("--sweep", type=int, default=16, help="ventures in the DRIFT/flaw sweep")
    args = ap.parse_args(argv)
    tally = Tally()
    started = time.perf_counter()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.ventures):
            pitch = PITCHES[i % len(PITCHES)]
            seed = 21 + 2 * i
            save = Path(tmp) / f"v{i}"
            play_one(pitch, seed, save, tally)
    c = tally.c
    out = {
        "suite": {
            "directions": c["directions"],
            "by_input": dict(tally.by_kind),
            "by_axis": dict(tally.by_axis),
            "pitches": len(tally.pitches),
            "seeds": sorted(tally.seeds),
        },
        "honoured": round(c["honoured_clean"] / max(1, c["checked_clean"]), 4),
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
        "sweep": sweep(args.sweep) if args.sweep else None,
        "seconds": round(time.perf_counter() - started, 1),
        "load_1min_at_start": round(load, 2),
    }
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
