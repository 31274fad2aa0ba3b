"""The sixteen faults, as data: what the provider does, what a correct router does, how it is checked.

After the public failoverbench catalogue (methodology v0.1, MIT), restated in our words. Times are
the published ones; a run scales them all by one factor. `label` is the cause our router must name
(the machine label in the attempt trace, its player words in the fallback reason). Each scenario is
played as the public catalogue plays it (S08 cuts every attempt, as its reference harness does);
one departure, stated in the scorecard (DEPARTURES): a call's "fallback model" is the next tier.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["required", "advisory"]
CheckKind = Literal[
    "no_hang",
    "complete",
    "no_truncated_success",
    "attempts_primary_min",
    "attempts_primary_max",
    "attempts_primary_eq",
    "first_gap_min_s",
    "max_attempts_within",
    "wall_max_s",
    "alive_after",
    "fallback_used",
    "reported_model_is_fallback",
    "usage_present",
    "no_prefill_masking",
    "seq_no_hang",
    "seq_served_during_outage",
    "seq_recovered_within_s",
    "seq_probe_discipline",
]


@dataclass(frozen=True)
class Check:
    id: str
    kind: CheckKind
    value: float = 0.0
    window_s: float = 0.0
    severity: Severity = "required"
    requires_fallback: bool = False
    informational: bool = False


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    fault: str
    correct: str
    label: str | None  # the cause our router must name (None: nothing goes wrong for the caller)
    checks: tuple[Check, ...]
    max_wall_s: float = 45.0
    ideal: Literal["success", "error"] = "success"
    sequence: tuple[int, float, float] | None = None  # (requests, interval s, per-request max s)
    # Why no router can pass it with one model and nothing behind it but the simulation ("" when
    # one can): the fault is played on every attempt at that model, so only another model answers.
    one_model: str = ""


def _c(id: str, kind: CheckKind, value: float = 0.0, **kw: object) -> Check:
    return Check(id, kind, value, **kw)  # type: ignore[arg-type]


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "S01",
        "429 with Retry-After",
        "The first attempt gets 429 with Retry-After: 2; later ones succeed.",
        "Wait as the header says, then retry (or fail over); never a tight loop.",
        "rate_limited",
        (
            _c("retried", "attempts_primary_min", 2, severity="advisory"),
            _c("retry_after_honoured", "first_gap_min_s", 1.8, severity="advisory"),
            _c("no_hammer", "max_attempts_within", 2, window_s=1.5),
        ),
        max_wall_s=20,
    ),
    Scenario(
        "S02",
        "429 without Retry-After, persistent",
        "Every attempt gets 429, no Retry-After.",
        "Back off with jitter, then fail over or end cleanly; never hammer.",
        "rate_limited",
        (
            _c("no_hammer", "max_attempts_within", 4, window_s=3),
            _c("bounded_attempts", "attempts_primary_max", 6),
            _c("no_hang", "no_hang"),
        ),
        max_wall_s=40,
        one_model=(
            "every attempt at the model is rate-limited (429), so only another model can answer"
        ),
    ),
    Scenario(
        "S03",
        "500 once, then healthy",
        "The first attempt gets 500; the second succeeds.",
        "Retry once on the same provider and answer (failing over is accepted, and noted).",
        "server_error",
        (
            _c("no_hang", "no_hang"),
            _c("same_provider_retry", "attempts_primary_min", 2, severity="advisory"),
        ),
        max_wall_s=20,
    ),
    Scenario(
        "S04",
        "503 persistent",
        "Every attempt gets 503 (overloaded).",
        "Fail over within the retry budget; name the error if there is nowhere to go.",
        "overloaded",
        (_c("bounded_attempts", "attempts_primary_max", 6), _c("no_hang", "no_hang")),
        max_wall_s=40,
        one_model=("every attempt at the model gets 503, so only another model can answer"),
    ),
    Scenario(
        "S05",
        "TCP reset before headers",
        "The first attempt's connection is reset before any byte; later ones succeed.",
        "Retry the request or fail over; answer either way.",
        "reset",
        (_c("no_hang", "no_hang"),),
        max_wall_s=20,
    ),
    Scenario(
        "S06",
        "No response at all",
        "The provider takes the request and never answers (up to 120 s).",
        "End inside the budget; fail over after the first silence rather than retrying it.",
        "silent",
        (
            _c("within_budget", "wall_max_s", 100),
            _c("no_hang", "no_hang"),
            _c("silent_route_not_retried", "attempts_primary_max", 1, severity="advisory"),
        ),
        max_wall_s=130,
        one_model=("the model never answers, so only another model can"),
    ),
    Scenario(
        "S07",
        "Slow first token",
        "Headers at once; the first token after 20 s; then normal.",
        "Answer; a first-token limit that fails over is the mature behaviour.",
        None,
        (
            _c("no_hang", "no_hang"),
            _c("ttft_limit", "wall_max_s", 15, severity="advisory", requires_fallback=True),
        ),
        max_wall_s=60,
    ),
    Scenario(
        "S08",
        "Stream cut mid-answer",
        "The first stream dies after 40 of 60 tokens, with no finish.",
        "Deliver the whole answer (retry or fail over) or a clear error; never a cut one.",
        "cut",
        (_c("no_truncated_success", "no_truncated_success"), _c("no_hang", "no_hang")),
        max_wall_s=40,
        one_model=(
            "every attempt at the model is cut mid-answer, so only another model can answer whole"
        ),
    ),
    Scenario(
        "S09",
        "Stream stalls",
        "After 20 tokens the stream goes silent for 30 s, then closes.",
        "Notice the stall within a bounded window; fail over or end cleanly; stay healthy.",
        "stalled",
        (
            _c("bounded", "wall_max_s", 45),
            _c("no_truncated_success", "no_truncated_success"),
            _c("alive_after", "alive_after"),
            _c("no_hang", "no_hang"),
        ),
        max_wall_s=70,
        one_model=(
            "every attempt at the model stalls mid-answer, so only another model can answer whole"
        ),
    ),
    Scenario(
        "S10",
        "Malformed event in the stream",
        "The tenth stream event is not JSON; the stream otherwise completes.",
        "Skip it or end cleanly; nothing partial reaches the caller; stay up.",
        None,
        (
            _c("alive_after", "alive_after"),
            _c("no_garbage", "no_truncated_success"),
            _c("no_hang", "no_hang"),
            _c("recovered_in_place", "complete", severity="advisory"),
        ),
        max_wall_s=30,
    ),
    Scenario(
        "S11",
        "Stream ends without [DONE]",
        "A whole stream, properly ended over HTTP, but no `data: [DONE]`.",
        "Finish promptly and report usage; never wait for the sentinel.",
        None,
        (
            _c("prompt_finalise", "wall_max_s", 8),
            _c("usage_reported", "usage_present", severity="advisory"),
        ),
        max_wall_s=30,
    ),
    Scenario(
        "S12",
        "Context length exceeded",
        "400 context_length_exceeded on every attempt.",
        "Never resend to the same model; a larger-context model if one is set, else end cleanly.",
        "context_window",
        (_c("no_same_model_retry", "attempts_primary_eq", 1), _c("no_hang", "no_hang")),
        max_wall_s=20,
        one_model=(
            "every attempt overflows the model's context and resending to it is wrong, so only a larger-context model can answer"
        ),
    ),
    Scenario(
        "S13",
        "Content-filter refusal",
        "400 content_policy_violation on every attempt.",
        "Never resend to the same model; show the provider's reason (routing round it is noted).",
        "content_filtered",
        (
            _c("no_same_model_retry", "attempts_primary_eq", 1),
            _c("no_hang", "no_hang"),
            _c("fallback_attempted", "fallback_used", severity="advisory", informational=True),
        ),
        max_wall_s=20,
        ideal="error",
    ),
    Scenario(
        "S14",
        "Fallback rejects prefill",
        "Every primary stream dies after 40 tokens; the fallback refuses an assistant prefill.",
        "Restart cleanly (or continue only where supported); never end on the prefill 400.",
        "cut",
        (
            _c("no_prefill_masking", "no_prefill_masking"),
            _c("no_truncated_success", "no_truncated_success"),
        ),
        max_wall_s=40,
        one_model=(
            "every attempt at the model is cut mid-answer, so only another model can answer whole"
        ),
    ),
    Scenario(
        "S15",
        "Primary flaps: down, then healthy",
        "503 for the first 60 s, then healthy; twenty requests, one every 4 s.",
        "Open the breaker and serve from the fallback; probe; close it once the primary is back.",
        "overloaded",
        (
            _c("no_hang", "seq_no_hang"),
            _c("served_during_outage", "seq_served_during_outage", requires_fallback=True),
            _c("recovered", "seq_recovered_within_s", 30),  # the model itself: no fallback needed
            _c(
                "probe_discipline",
                "seq_probe_discipline",
                severity="advisory",
                informational=True,
            ),
        ),
        max_wall_s=200,
        sequence=(20, 4.0, 30.0),
        one_model=(
            "the calls made during the outage have no other model to go to (the model's recovery after it is still checked)"
        ),
    ),
    Scenario(
        "S16",
        "Fail-over accounting",
        "Every primary attempt gets 503; the fallback answers.",
        "The caller sees the fallback's model and usage; failed attempts are not billed.",
        "overloaded",
        (
            _c("reports_fallback_model", "reported_model_is_fallback", requires_fallback=True),
            _c("usage_present", "usage_present", severity="advisory", requires_fallback=True),
            _c("bounded_attempts", "attempts_primary_max", 6),
        ),
        max_wall_s=40,
        one_model=(
            "every attempt at the model gets 503, and the check is what the caller sees of the other model that answers"
        ),
    ),
)

BY_ID = {s.id: s for s in SCENARIOS}

# Where this catalogue is not played exactly as the public one, in the scorecard's words.
DEPARTURES: tuple[str, ...] = (
    (
        "the fallback model is the next tier (Foundry in hybrid; the simulation in local only) "
        "where one local model is set; local+fb has the public set-up's fallback model on the "
        "same server"
    ),
)
