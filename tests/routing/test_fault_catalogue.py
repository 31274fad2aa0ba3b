"""The sixteen catalogue faults against our loopback fault server, in both set-ups.

Each cell asserts the catalogue's verdict for the router's own code and the words the player reads.
Times are scaled (×0.15: the catalogue's waits and the router's limits alike); every check bounds
from below or is generous from above, so a saturated CPU slows a cell without flipping it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.routing.faults.catalogue import BY_ID, SCENARIOS
from engine.routing.faults.scorecard import FALLBACK, run_scenario
from engine.routing.faults.server import FaultServer

SCALE = 0.15
LONG = "fb-long"  # the large-context model S12 falls back to (on the same faulty server)

# local only: pass wherever a retry on the same endpoint (or waiting) rescues; else a labelled,
# bounded fall to the simulation. hybrid (Foundry healthy behind): every scenario passes.
LOCAL = {
    "S01": "pass",
    "S02": "safe",
    "S03": "pass",
    "S04": "safe",
    "S05": "pass",
    "S06": "safe",
    "S07": "pass",
    "S08": "safe",  # every attempt is cut, as the public catalogue plays it
    "S09": "safe",
    "S10": "pass",
    "S11": "pass",
    "S12": "safe",
    "S13": "pass",
    "S14": "safe",
    "S15": "safe",
    "S16": "safe",
}
# local only as the public catalogue sets a system up: the general local model on the same
# server is the role model's fallback model. Every cell passes: a model silent in a call lets the
# other model on its server answer in the same call, and a slow first token fails over to it at
# the first-token limit (a model on the same server counts as another model to go to).
LOCAL_FB = dict.fromkeys(LOCAL, "pass")
# What the player reads when the call did not come from the faulty endpoint (story pill, receipt,
# --json and the log all carry this same fallback reason).
WORDS = {
    "S02": "local: rate-limited",
    "S04": "local: overloaded (503",
    "S06": "local: silent (no first token",
    "S07": "local: silent (no first token",
    "S08": "local: cut mid-answer",
    "S09": "local: stalled mid-answer (silent for",
    "S12": "local: context too long",
    "S13": "local: refused by the content filter (Error code: 400 - Your request was rejected",
    "S14": "local: cut mid-answer",
    "S15": "local: overloaded",
    "S16": "local: overloaded (503",
}


def _verdict_holds(cell, expected: str) -> bool:
    """The expected verdict, or one that differs only by a wall-clock bound (wall_max_s) that a
    saturated CPU can stretch: the behaviour behind it is asserted separately (who served, why)."""
    if cell.verdict == expected:
        return True
    timed = {c.id for c in BY_ID[cell.scenario].checks if c.kind == "wall_max_s"}
    failed = {k for k, v in cell.checks.items() if v == "FAIL"}
    return bool(failed) and failed <= timed


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[FaultServer, FaultServer]]:
    with (
        FaultServer(scale=SCALE) as primary,
        FaultServer(scale=SCALE, reject_prefill=True) as cloud,
    ):
        yield primary, cloud


@pytest.mark.parametrize("sid", [s.id for s in SCENARIOS])
def test_local_only(servers, sid):
    primary, _ = servers
    cell = run_scenario(BY_ID[sid], "local", primary, None, SCALE)
    assert _verdict_holds(cell, LOCAL[sid]), cell
    assert cell.checks["deadline"] == "ok" and cell.checks["cause_named"] == "ok"
    # the scenarios one model cannot pass are exactly those the catalogue says so of, and why
    assert cell.one_model == BY_ID[sid].one_model
    assert (LOCAL[sid] == "safe") == bool(cell.one_model), sid
    if sid == "S15":  # the model's own recovery needs no fallback model: judged here too
        assert cell.checks["recovered"] == "ok", cell.checks
    if LOCAL[sid] == "safe" or sid == "S13":
        assert cell.served_by == "simulation"
        assert WORDS[sid] in cell.seen, cell.seen
    else:
        assert cell.seen.startswith("local: fb-primary"), cell.seen


@pytest.mark.parametrize("sid", [s.id for s in SCENARIOS])
def test_local_with_foundry_behind(servers, sid):
    primary, cloud = servers
    cell = run_scenario(BY_ID[sid], "hybrid", primary, cloud, SCALE)
    assert _verdict_holds(cell, "pass"), cell
    if sid in WORDS:
        assert WORDS[sid] in cell.seen, cell.seen
        # a refusal is final: nothing is sent to Foundry to route round it
        assert cell.served_by == ("simulation" if sid == "S13" else "foundry")
    else:
        assert cell.seen.startswith("local: fb-primary"), cell.seen


@pytest.mark.parametrize("sid", [s.id for s in SCENARIOS])
def test_local_with_a_fallback_model_on_the_same_server(servers, sid):
    """The role's model fails as the scenario says; the general local model (LOCAL_AGENT_MODEL)
    on the same server answers in its place, labelled with the first model's fault."""
    primary, _ = servers
    cell = run_scenario(BY_ID[sid], "local+fb", primary, None, SCALE)
    assert _verdict_holds(cell, LOCAL_FB[sid]), cell
    assert cell.checks["deadline"] == "ok" and cell.checks["cause_named"] == "ok"
    if sid == "S13":  # a refusal is final: no other model is asked to route round it
        assert cell.served_by == "simulation" and cell.fallback_attempts == 0
        assert WORDS[sid] in cell.seen, cell.seen
    elif sid in WORDS:
        assert cell.seen.startswith(f"local: {FALLBACK} (fallback: {WORDS[sid]}"), cell.seen
        assert cell.fallback_attempts >= 1
    else:
        assert cell.seen.startswith("local: fb-primary"), cell.seen


def test_context_overflow_steps_to_the_larger_context_model(servers):
    primary, _ = servers
    cell = run_scenario(BY_ID["S12"], "local", primary, None, SCALE, local_large_context_model=LONG)
    assert cell.verdict == "pass", cell
    assert cell.primary_attempts == 1 and cell.fallback_attempts == 1
    assert cell.served_by == "local" and "local: context too long" in cell.seen


def test_silent_server_hybrid_answer_is_within_the_first_token_limit(servers):
    """The issue's figure (a hybrid answer to a silent local server within 1.2× a client that gives
    up after a 10 s first-token limit) rests on this: the local attempt is abandoned at the
    first-token limit, not at the deadline, and the rest of the budget goes to Foundry."""
    primary, cloud = servers
    cell = run_scenario(BY_ID["S06"], "hybrid", primary, cloud, SCALE)
    assert cell.served_by == "foundry"
    assert f"silent (no first token in {10.0 * SCALE:.1f} s)" in cell.seen, cell.seen
    assert cell.primary_attempts == 1 and cell.fallback_attempts == 1


def test_s08_cuts_every_attempt_and_the_scorecard_names_its_departures(servers):
    """S08 as the public catalogue plays it: the retry on the same endpoint is cut too, so local
    only ends on the simulation, labelled; the scorecard says where the bundled one departs."""
    from engine.routing.faults.scorecard import as_json, render

    primary, _ = servers
    cell = run_scenario(BY_ID["S08"], "local", primary, None, SCALE)
    assert cell.primary_attempts == 2 and cell.served_by == "simulation"
    text = render([cell], SCALE)
    assert "departs from the public catalogue: the fallback model is the next tier" in text
    assert as_json([cell], SCALE)["departures"]


def test_the_scorecard_says_plainly_which_scenarios_one_model_cannot_pass():
    """A local-only cell no router could pass with one model says so, with the reason, and the
    tally says how many one model could pass at most; the other set-ups carry no such line."""
    from engine.routing.faults.scorecard import Cell, as_json, render

    def cell(sid: str, setup, verdict: str) -> Cell:
        scn = BY_ID[sid]
        return Cell(
            sid, scn.title, setup, verdict, "local", "seen", 0.1, 1, 0, {},
            one_model=scn.one_model if setup == "local" else "",
        )  # fmt: skip

    cells = [cell("S01", "local", "pass"), cell("S04", "local", "safe")]
    cells += [cell("S01", "hybrid", "pass"), cell("S04", "hybrid", "pass")]
    text = render(cells, SCALE)
    assert "local: cannot pass with one model: every attempt at the model gets 503" in text
    assert "local: 1 pass, 0 partial, 1 safe, 0 fail (1 cannot pass with one model: S04; " in text
    assert "at most 1 can)" in text
    assert "hybrid: cannot pass" not in text and "hybrid: 2 pass, 0 partial, 0 safe, 0 fail\n" in (
        text + "\n"
    )
    assert as_json(cells, SCALE)["passable"] == {"local": 1, "hybrid": 2}
