"""Run the router's own code through the fault catalogue and score each cell as failoverbench does.

Three set-ups: "local" (one local model at the faulty endpoint, nothing behind it but the
simulation), "local+fb" (local only as the public catalogue sets a system up: the role's model at
the faulty endpoint, the general local model on the same server as its fallback model, then the
simulation) and "hybrid" (one local model at the faulty endpoint, Foundry at a healthy one).
The fault is played on the scenario's model only, as the public wall plays it. Game defaults throughout,
with every time (the catalogue's waits and the router's deadline, limits and rest) scaled by one
factor so a run takes seconds. Verdicts: pass (rescued, every check clean), partial (rescued, an
advisory check failed), safe (not rescued, but bounded, labelled and every required check clean),
fail. Two checks are ours and required everywhere: the call ended by AGENT_REQUEST_TIMEOUT + 0.1 s,
and the cause was named (its label in the trace, its words in the fallback reason). A local-only
cell that no router could pass with one model (the catalogue's `one_model`: the fault is played on
every attempt at it) says so and why, and the tally says how many one model can pass at most.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from engine.config import Settings
from engine.routing.errors import WORDS
from engine.routing.faults.catalogue import DEPARTURES, SCENARIOS, Check, Scenario
from engine.routing.faults.server import CANONICAL_TEXT, FaultAnswer, FaultServer, Hit
from engine.routing.router import Router
from engine.routing.types import RouteRequest, RouteResult

Setup = Literal["local", "local+fb", "hybrid"]
SETUPS: tuple[Setup, ...] = ("local", "local+fb", "hybrid")
Verdict = Literal["pass", "partial", "safe", "fail"]
PRIMARY = "fb-primary"
FALLBACK = "fb-ok"  # the public catalogue's fallback model, on the faulty server (local+fb)
CLOUD = "fb-cloud"
DEADLINE_SLACK = 0.1
PROMPT = "Explain in sixty words why a gateway earns trust only when its provider misbehaves."
SIMULATED = {"answer": "(the simulation's answer)"}


@dataclass
class Cell:
    """One scenario through one set-up: the verdict, what the player saw, and every check."""

    scenario: str
    title: str
    setup: Setup
    verdict: Verdict
    served_by: str
    seen: str  # what the player reads: the fallback reason, or who answered
    seconds: float
    primary_attempts: int
    fallback_attempts: int
    checks: dict[str, str] = field(default_factory=dict)  # id -> ok | FAIL | n/a | info
    one_model: str = ""  # local only: why no router passes it with one model ("" when one can)


def settings_for(
    setup: Setup, primary: str, cloud: str | None, scale: float, **extra: Any
) -> Settings:
    """Game defaults, the tiers pointed at the fault servers, every time scaled by `scale`."""
    defaults = Settings()
    values: dict[str, Any] = {
        "demo_mode": "live" if setup == "hybrid" else "local",
        "local_agent_base_url": primary,
        "local_agent_model": PRIMARY,
        "agent_request_timeout": defaults.agent_request_timeout * scale,
        "agent_first_token_timeout": defaults.agent_first_token_timeout * scale,
        "agent_stream_idle_timeout": defaults.agent_stream_idle_timeout * scale,
        "agent_cooldown_seconds": defaults.agent_cooldown_seconds * scale,
    }
    if setup == "local+fb":  # the strategist's own model, the general one as its fallback
        values.update(local_strategist_model=PRIMARY, local_agent_model=FALLBACK)
    if setup == "hybrid":
        values.update(foundry_base_url=cloud, foundry_api_key="fault-test", strategist_model=CLOUD)
    values.update(extra)
    return Settings(**values)


def request(key: str) -> RouteRequest:
    return RouteRequest(
        role="strategist",
        system="You answer for the fault catalogue.",
        user=PROMPT,
        contract=lambda: FaultAnswer,
        call_key=f"faults/{key}",
        max_output_tokens=300,
    )


def _rescued(result: RouteResult) -> bool:
    out = result.output
    return result.served_by in ("local", "foundry") and out.get("answer") == CANONICAL_TEXT


def _truncated_success(result: RouteResult) -> bool:
    out = result.output
    return result.served_by in ("local", "foundry") and out.get("answer") != CANONICAL_TEXT


def _seen(result: RouteResult) -> str:
    """What the player reads: the fallback reason, or who answered (and what it rode out)."""
    if result.fallback_reason:
        who = (
            f"{result.served_by}: {result.model}" if result.model != "simulation" else "simulation"
        )
        return f"{who} (fallback: {result.fallback_reason})"
    rode = [
        WORDS.get((a.error or "").split(":")[0], "")
        for a in result.attempts
        if a.outcome in ("error", "invalid")
    ]
    rode += [a.split(":")[0].replace("_", " ") for a in result.adaptations if a.startswith("skip")]
    after = f" (after {', '.join(dict.fromkeys(w for w in rode if w))})" if any(rode) else ""
    return f"{result.served_by}: {result.model}{after}"


def _named(scn: Scenario, results: list[RouteResult]) -> bool:
    """The cause was named: its label in the attempt trace, and its words wherever a call fell."""
    if scn.label is None:
        return all(
            bool(r.fallback_reason) == (r.served_by == "simulation" or bool(r.fallbacks))
            for r in results
        )
    words = WORDS.get(scn.label, scn.label)
    traced = any(
        (a.error or "").startswith(scn.label) or words in (a.error or "")
        for r in results
        for a in r.attempts
    )
    fell = [r for r in results if r.fallback_reason]
    return traced and all(
        words in (r.fallback_reason or "") or "breaker open" in (r.fallback_reason or "")
        for r in fell
    )


class _Run:
    """What one scenario produced, for its checks."""

    def __init__(self, scn: Scenario, setup: Setup, scale: float, budget: float) -> None:
        self.scn = scn
        self.setup = setup
        self.scale = scale
        self.budget = budget
        self.results: list[RouteResult] = []
        self.elapsed: list[float] = []
        self.starts: list[float] = []
        self.primary: list[Hit] = []
        self.fallback: list[Hit] = []
        self.alive: bool | None = None

    def check(self, c: Check) -> bool:
        """Judge one of the scenario's checks (`CHECKS` holds a judge per kind)."""
        judge = CHECKS.get(c.kind)
        if judge is None:
            raise ValueError(f"unknown check kind {c.kind}")
        return judge(self, c)

    def outage_split(self) -> tuple[list[RouteResult], list[tuple[RouteResult, float]]]:
        """A sequence's results started during the 60 s outage, and those after it (with start)."""
        outage = 60.0 * self.scale
        pairs = list(zip(self.results, self.starts, strict=True))
        return [r for r, t in pairs if t < outage], [(r, t) for r, t in pairs if t >= outage]


def _no_hang(run: _Run, c: Check) -> bool:
    limit = (run.scn.sequence[2] if run.scn.sequence else run.scn.max_wall_s) * run.scale
    return all(e <= limit for e in run.elapsed)


def _within(run: _Run, c: Check) -> bool:
    first = run.primary[0].t if run.primary else 0.0
    return sum(1 for h in run.primary if h.t - first <= c.window_s * run.scale) <= c.value


def _no_prefill_masking(run: _Run, c: Check) -> bool:
    masked = any(h.last_role == "assistant" for h in run.fallback)
    return not (run.results[0].served_by == "simulation" and masked)


def _recovered(run: _Run, c: Check) -> bool:
    outage = 60.0 * run.scale
    return any(
        r.served_by == "local" and r.model == PRIMARY and t <= outage + c.value * run.scale
        for r, t in run.outage_split()[1]
    )


# One judge per check kind (rules as data): what a scenario's run must show.
CHECKS: dict[str, Callable[[_Run, Check], bool]] = {
    "no_hang": _no_hang,
    "seq_no_hang": _no_hang,
    "complete": lambda run, c: _rescued(run.results[0]),
    "no_truncated_success": lambda run, c: not any(_truncated_success(r) for r in run.results),
    "attempts_primary_min": lambda run, c: len(run.primary) >= c.value,
    "attempts_primary_max": lambda run, c: len(run.primary) <= c.value,
    "attempts_primary_eq": lambda run, c: len(run.primary) == c.value,
    "first_gap_min_s": lambda run, c: (
        len(run.primary) >= 2 and run.primary[1].t - run.primary[0].t >= c.value * run.scale
    ),
    "max_attempts_within": _within,
    "wall_max_s": lambda run, c: max(run.elapsed) <= c.value * run.scale,
    "alive_after": lambda run, c: bool(run.alive),
    "fallback_used": lambda run, c: bool(run.fallback),
    "reported_model_is_fallback": lambda run, c: (
        (run.results[0].served_by, run.results[0].model)
        == (("foundry", CLOUD) if run.setup == "hybrid" else ("local", FALLBACK))
    ),
    "usage_present": lambda run, c: run.results[0].usage.tokens_in > 0,
    "no_prefill_masking": _no_prefill_masking,
    "seq_served_during_outage": lambda run, c: all(_rescued(r) for r in run.outage_split()[0]),
    "seq_recovered_within_s": _recovered,
    "seq_probe_discipline": lambda run, c: True,
}


def run_scenario(
    scn: Scenario,
    setup: Setup,
    primary: FaultServer,
    cloud: FaultServer | None,
    scale: float,
    **extra: Any,
) -> Cell:
    """One cell: a fresh router (its own breaker and memo) against the servers playing `scn`."""
    from engine.routing.router import model_tier_ready

    model_tier_ready().result()  # the client's import is not the fault under test: load it first
    settings = settings_for(setup, primary.url, cloud.url if cloud else None, scale, **extra)
    run = _Run(scn, setup, scale, settings.agent_request_timeout)
    primary.use(scn.id, primary_model=PRIMARY)
    if cloud is not None:
        cloud.use("ok")
    router = Router(settings, caps_cache=False)
    count, interval = (scn.sequence[0], scn.sequence[1] * scale) if scn.sequence else (1, 0.0)
    origin = time.monotonic()
    for i in range(count):
        if i:
            time.sleep(max(0.0, origin + i * interval - time.monotonic()))
        run.starts.append(time.monotonic() - origin)
        t0 = time.perf_counter()
        run.results.append(router.call(request(f"{scn.id}/{i}"), lambda: SIMULATED))
        run.elapsed.append(time.perf_counter() - t0)
    hits = primary.hits
    run.primary = [h for h in hits if h.model == PRIMARY]
    run.fallback = [h for h in hits if h.model != PRIMARY] + (cloud.hits if cloud else [])
    if any(c.kind == "alive_after" for c in scn.checks):
        primary.use("ok")
        if cloud is not None:
            cloud.use("ok")
        alive = router.call(request(f"{scn.id}/alive"), lambda: SIMULATED)
        run.alive = _rescued(alive)
    return _score(run)


def _score(run: _Run) -> Cell:
    scn = run.scn
    checks: dict[str, str] = {}
    required_ok = advisory_ok = True
    for c in scn.checks:
        if c.requires_fallback and run.setup == "local":
            checks[c.id] = "n/a"
            continue
        ok = run.check(c)
        if c.informational:
            checks[c.id] = "info:" + ("yes" if ok else "no")
            continue
        checks[c.id] = "ok" if ok else "FAIL"
        if not ok:
            if c.severity == "required":
                required_ok = False
            else:
                advisory_ok = False
    deadline_ok = all(e <= run.budget + DEADLINE_SLACK for e in run.elapsed)
    named_ok = _named(scn, run.results)
    checks["deadline"] = "ok" if deadline_ok else "FAIL"
    checks["cause_named"] = "ok" if named_ok else "FAIL"
    truncated = any(_truncated_success(r) for r in run.results)
    result = run.results[0]
    if scn.ideal == "error":
        reason = result.fallback_reason or ""
        rescued = result.served_by == "simulation" and WORDS["content_filtered"] in reason
        routed_round = result.served_by != "simulation"
    else:
        rescued = all(_rescued(r) for r in run.results)
        routed_round = False
    verdict: Verdict
    if not (required_ok and deadline_ok and named_ok) or truncated:
        verdict = "fail"
    elif rescued:
        verdict = "pass" if advisory_ok else "partial"
    elif routed_round:
        verdict = "partial"
    else:
        verdict = "safe"
    return Cell(
        scenario=scn.id,
        title=scn.title,
        setup=run.setup,
        verdict=verdict,
        served_by=result.served_by,
        seen=_seen(result),
        seconds=round(max(run.elapsed), 3),
        primary_attempts=len(run.primary),
        fallback_attempts=len(run.fallback),
        checks=checks,
        one_model=scn.one_model if run.setup == "local" else "",
    )


def run_catalogue(
    setups: Iterable[Setup] = SETUPS,
    *,
    scale: float = 0.1,
    only: Iterable[str] | None = None,
) -> list[Cell]:
    """Every scenario (or `only` these ids) through each set-up, on fresh loopback servers."""
    wanted = set(only) if only else None
    cells: list[Cell] = []
    with (
        FaultServer(scale=scale) as primary,
        FaultServer(scale=scale, reject_prefill=True) as cloud,
    ):
        for setup in setups:
            for scn in SCENARIOS:
                if wanted is None or scn.id in wanted:
                    cells.append(
                        run_scenario(
                            scn, setup, primary, cloud if setup == "hybrid" else None, scale
                        )
                    )
    return cells


def tally(cells: Iterable[Cell]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for c in cells:
        row = out.setdefault(c.setup, {"pass": 0, "partial": 0, "safe": 0, "fail": 0})
        row[c.verdict] += 1
    return out


def as_json(cells: list[Cell], scale: float) -> dict[str, Any]:
    return {
        "scale": scale,
        "departures": list(DEPARTURES),
        "tally": tally(cells),
        "passable": {s: _passable(cells, s) for s in dict.fromkeys(c.setup for c in cells)},
        "cells": [asdict(c) for c in cells],
    }


def render(cells: list[Cell], scale: float) -> str:
    """The scorecard as text: one row per scenario, a column per set-up, then the tally."""
    setups = list(dict.fromkeys(c.setup for c in cells))
    by = {(c.scenario, c.setup): c for c in cells}
    ids = list(dict.fromkeys(c.scenario for c in cells))
    lines = [
        (
            "fault catalogue: failoverbench v0.1's 16 faults on the bundled loopback server, the "
            f"router's own code, game defaults, every time ×{scale:g}"
        ),
        f"{'':4} {'scenario':<36} " + " ".join(f"{s:<8}" for s in setups) + "  what the player saw",
    ]
    for sid in ids:
        row = [by[(sid, s)] for s in setups if (sid, s) in by]
        last = row[-1]
        lines.append(
            f"{sid:<4} {last.title[:36]:<36} "
            + " ".join(f"{c.verdict:<8}" for c in row)
            + f"  {f'({last.setup}) ' if len(row) > 1 else ''}{last.seen[:90]}"
        )
        for c in row:
            if c is not last and c.seen != last.seen:
                lines.append(f"{'':<43}{' ' * 9 * len(row)}({c.setup}) {c.seen[:90]}")
            failed = [k for k, v in c.checks.items() if v == "FAIL"]
            if failed:
                lines.append(f"       {c.setup}: failed {', '.join(failed)}")
            if c.one_model:
                lines.append(f"       {c.setup}: cannot pass with one model: {c.one_model}")
    lines.extend(f"departs from the public catalogue: {d}" for d in DEPARTURES)
    for setup, counts in tally(cells).items():
        line = (
            f"{setup}: {counts['pass']} pass, {counts['partial']} partial, "
            f"{counts['safe']} safe, {counts['fail']} fail"
        )
        out_of_reach = [c.scenario for c in cells if c.setup == setup and c.one_model]
        if out_of_reach:
            line += (
                f" ({len(out_of_reach)} cannot pass with one model: "
                f"{', '.join(out_of_reach)}; at most {_passable(cells, setup)} can)"
            )
        lines.append(line)
    return "\n".join(lines)


def _passable(cells: list[Cell], setup: str) -> int:
    """How many of a set-up's scenarios some router could pass (those one model can)."""
    return sum(1 for c in cells if c.setup == setup and not c.one_model)
