"""A run as an OTLP trace (JSON), after the OpenTelemetry GenAI semantic conventions (Development).

Built from the run's event log alone with the OpenTelemetry SDK and its OTLP protobuf encoder (the
`otlp` extra), so the same log always gives the same bytes: ids come from the run id, and span
times are game time (2000-01-01 plus the game day, one second per event), the measured latency
being an attribute. One trace per run: a workflow span for the venture; per stage an
`invoke_agent` span holding a `chat` span per model attempt (tier, model, outcome, the fallback
reason), a `retrieval` span for the knowledge hits and a `search_memory` span for the memories the
brief recalled; the gate's score as a `gen_ai.evaluation.result` event and DRIFT as a guardrail
event on the agent span; each memory write an `update_memory` span. No prompt or answer text is
exported (the artifact stays in the save), and nothing secret is in the events to begin with.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from engine.errors import InputError
from worldforge_textkit.json_types import JsonObject

if TYPE_CHECKING:  # the otlp extra loads only when a trace is exported
    from opentelemetry.context import Context
    from opentelemetry.sdk.trace.id_generator import IdGenerator
    from opentelemetry.trace import Span, Tracer
    from opentelemetry.util.types import AttributeValue

Attrs = Mapping[str, "AttributeValue | None"]  # a span's attributes; a None is left out

MISSING = "the OTLP export needs the otlp extra: pip install 'worldforge[otlp]' (or uv/pipx inject)"
EPOCH_NS = 946_684_800 * 10**9  # 2000-01-01T00:00:00Z: game time starts here
DAY_NS = 86_400 * 10**9
STEP_NS = 10**9  # one event, one second of game time


def _ids(run_id: str) -> IdGenerator:
    from opentelemetry.sdk.trace.id_generator import IdGenerator

    class _Deterministic(IdGenerator):
        """Trace and span ids derived from the run id and a counter: one log, one trace."""

        def __init__(self) -> None:
            self.n = 0

        def _hash(self, label: str, bits: int) -> int:
            digest = hashlib.sha256(f"{run_id}/{label}".encode()).digest()
            return int.from_bytes(digest[: bits // 8], "big") or 1

        def generate_trace_id(self) -> int:
            return self._hash("trace", 128)

        def generate_span_id(self) -> int:
            self.n += 1
            return self._hash(f"span/{self.n}", 64)

    return _Deterministic()


class Traced(Protocol):
    """An event of the run's log as the trace reads it (engine.session.events.Event is one)."""

    @property
    def id(self) -> int: ...
    @property
    def game_day(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def actor(self) -> str: ...
    @property
    def payload(self) -> JsonObject: ...


def _at(event: Traced) -> int:
    return EPOCH_NS + int(event.game_day) * DAY_NS + int(event.id) * STEP_NS


def otlp_json(run_id: str, events: Iterable[Traced]) -> str:
    """The run's trace as OTLP/JSON (an ExportTraceServiceRequest), deterministic for one log."""
    try:
        from google.protobuf.json_format import MessageToJson
        from opentelemetry import trace
        from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    except ImportError as exc:
        raise InputError(MISSING) from exc

    from engine.version import __version__

    log = list(events)
    if not log:
        raise InputError(f"run {run_id} has no events to export")
    memory = InMemorySpanExporter()
    provider = TracerProvider(
        resource=Resource({"service.name": "worldforge", "service.version": __version__}),
        id_generator=_ids(run_id),
    )
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("worldforge")
    root = tracer.start_span(
        "invoke_workflow venture",
        start_time=_at(log[0]),
        attributes={"gen_ai.operation.name": "invoke_workflow", "gen_ai.conversation.id": run_id},
    )
    ctx = trace.set_span_in_context(root)
    for event in log:
        if event.type == "STAGE_EXECUTED":
            _stage(tracer, ctx, event)
        elif event.type == "MEMORY_WRITTEN":
            _span(tracer, ctx, event, "update_memory", _memory_write(event))
    root.end(end_time=_at(log[-1]) + STEP_NS)
    provider.shutdown()
    request = encode_spans(memory.get_finished_spans())
    return str(MessageToJson(request, indent=None, sort_keys=True))


def _span(
    tracer: Tracer,
    ctx: Context,
    event: Traced,
    op: str,
    attrs: Attrs,
    name: str = "",
    error: str | None = None,
) -> Span:
    """One span of half a step at the event's time; `error` marks it failed (`error.type`)."""
    from opentelemetry.trace import Status, StatusCode

    span = tracer.start_span(
        name or op,
        context=ctx,
        start_time=_at(event),
        attributes={
            "gen_ai.operation.name": op,
            **{k: v for k, v in attrs.items() if v is not None},
        },
    )
    if error is not None:
        span.set_attribute("error.type", error)
        span.set_status(Status(StatusCode.ERROR))
    span.end(end_time=_at(event) + STEP_NS // 2)
    return span


def _memory_write(event: Traced) -> Attrs:
    d = event.payload.get("disposition") or {}
    return {
        "gen_ai.memory.store.id": event.payload.get("store"),
        "worldforge.memory.status": d.get("status"),
        "worldforge.memory.author": event.payload.get("author"),
    }


def _stage(tracer: Tracer, ctx: Context, event: Traced) -> None:
    from opentelemetry.trace import set_span_in_context

    p = event.payload
    start = _at(event)
    agent = tracer.start_span(
        f"invoke_agent {event.actor}",
        context=ctx,
        start_time=start,
        attributes={
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": event.actor,
            "worldforge.stage.id": p.get("stage_id"),
            "worldforge.stage.attempt": p.get("attempt"),
            "worldforge.served_by": p.get("served_by"),
        },
    )
    inner = set_span_in_context(agent)
    hits = p.get("iq_hits") or []
    if hits:
        origins = sorted({str(h.get("origin")) for h in hits})
        _span(tracer, inner, event, "retrieval", {"gen_ai.data_source.id": ",".join(origins)})
    recalled = p.get("memory_injected") or []
    if recalled:
        _span(tracer, inner, event, "search_memory", {"worldforge.memory.recalled": len(recalled)})
    # each model attempt; a stage the simulation served without asking one is its own chat span
    floor = {"tier": "simulation", "outcome": "ok", "ms": None}
    for attempt in p.get("attempts") or [floor]:
        _chat(tracer, inner, event, p, attempt)
    score = p.get("score")
    agent.add_event(
        "gen_ai.evaluation.result",
        {
            "gen_ai.evaluation.name": "gate_rubric",
            "gen_ai.evaluation.score.value": float(score or 0),
            "gen_ai.evaluation.score.label": "drift" if p.get("drift") else "kept",
        },
        timestamp=start + STEP_NS // 2,
    )
    if p.get("drift"):
        agent.add_event(
            "gen_ai.guardrail.result",
            {"gen_ai.guardrail.name": "binding_directions", "gen_ai.guardrail.outcome": "drift"},
            timestamp=start + STEP_NS // 2,
        )
    agent.end(end_time=start + STEP_NS)


def _chat(tracer: Tracer, ctx: Context, event: Traced, p: JsonObject, attempt: JsonObject) -> None:
    tier = attempt.get("tier")
    model = attempt.get("model") or ("simulation" if tier == "simulation" else None)
    usage = p.get("usage") or {}
    ok = attempt.get("outcome") == "ok"
    attrs: dict[str, AttributeValue | None] = {
        "gen_ai.provider.name": {"foundry": "azure.ai.openai"}.get(str(tier), str(tier)),
        "gen_ai.request.model": model,
        "worldforge.tier": tier,
        "worldforge.attempt.outcome": attempt.get("outcome"),
        "worldforge.attempt.ms": attempt.get("ms"),
    }
    if ok and tier == p.get("served_by"):
        attrs.update(
            {
                "gen_ai.response.model": p.get("model"),
                "gen_ai.usage.input_tokens": usage.get("tokens_in"),
                "gen_ai.usage.output_tokens": usage.get("tokens_out"),
            }
        )
    if p.get("fallback_reason"):
        attrs["worldforge.fallback_reason"] = p["fallback_reason"]
    error = None if ok else str(attempt.get("error") or attempt.get("outcome"))[:80]
    _span(tracer, ctx, event, "chat", attrs, f"chat {model}" if model else "chat", error)
