"""A loopback OpenAI-compatible server that plays one catalogue fault at a time (stdlib only).

It binds 127.0.0.1 on port 0 and speaks /v1/chat/completions (streamed or not), /v1/models and
/health. `use(scenario, primary_model=…)` picks the fault (played on that model only, as the
public wall plays it; any other model there is its healthy fallback) and clears the request log;
every healthy answer is the
same canonical JSON text cut into sixty stream pieces, so a cut answer can never pass for a whole
one. Waits scale with `scale` (1.0: the catalogue's published times), and a stopped server
releases every held request at once. The loopback plumbing (TCP_NODELAY, quiet handlers, the
lifecycle) is engine.routing.faults.loopback's, shared with the tests' fake server.
"""

from __future__ import annotations

import json
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from engine.routing.faults.loopback import Loopback, LoopbackHandler, LoopbackServer

CANONICAL_TEXT = (
    "A gateway earns trust only on the bad days: when the provider stalls, resets, rate-limits or "
    "cuts an answer short, the caller still gets one whole, honest answer inside its deadline, or a "
    "clear error naming the cause. On good days every router looks the same; the difference shows "
    "only when the provider behind it misbehaves and someone has to decide, quickly, what to do next."
)
PIECES = 60


class FaultAnswer(BaseModel):
    """The artifact every catalogue call asks for: one field holding the canonical text."""

    answer: str


def canonical_json() -> str:
    return json.dumps({"answer": CANONICAL_TEXT})


def _pieces(text: str, n: int = PIECES) -> list[str]:
    size = math.ceil(len(text) / n)
    return [text[i : i + size] for i in range(0, len(text), size)]


@dataclass
class Hit:
    """One chat request as the server saw it (t: seconds since `use`)."""

    t: float
    model: str
    fault: str
    prompt_chars: int
    last_role: str
    stream: bool


@dataclass
class _State:
    scenario: str = "ok"
    scale: float = 1.0
    token_gap: float = 0.0
    reject_prefill: bool = False
    enforce_schema: bool = False
    read_rate: float = 0.0  # prompt tokens (4 characters each) read a second; 0: at once
    primary_model: str | None = None  # only this model plays the fault (None: every model)
    t0: float = field(default_factory=time.monotonic)
    attempts: int = 0
    hits: list[Hit] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)


def _error(message: str, type_: str, code: str | None, param: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


def example_for(schema: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """The first value a grammar would allow for `schema` (an enforcing server's answer)."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return example_for(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), defs)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {k: example_for(v, defs) for k, v in props.items()}
    if kind == "array":
        return [example_for(schema.get("items", {}), defs)] * int(schema.get("minItems", 1))
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1))
    if kind == "boolean":
        return True
    return "x" * int(schema.get("minLength", 1))


def _schema_of(body: dict[str, Any]) -> dict[str, Any] | None:
    fmt = body.get("response_format")
    if not isinstance(fmt, dict):
        return None
    if fmt.get("type") == "json_schema":
        inner = fmt.get("json_schema") or {}
        return inner.get("schema") if isinstance(inner, dict) else None
    schema = fmt.get("schema")
    return schema if isinstance(schema, dict) else None


class _Handler(LoopbackHandler):
    server: _Server

    def _wait(self, seconds: float) -> bool:
        """Sleep `seconds` (scaled already); True when the server is stopping."""
        return self.server.state.release.wait(seconds)

    def do_GET(self) -> None:
        path = self.path.split("?")[0].rstrip("/")
        if path in ("/health", "/v1/health"):
            self.send_json(200, {"status": "ok"})
        elif path == "/v1/models":
            self.send_json(200, {"object": "list", "data": [{"id": "fb-ok", "object": "model"}]})
        else:
            self.send_json(404, _error("not found", "not_found_error", None))

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"null")
        except ValueError:
            body = None
        if self.path.split("?")[0].rstrip("/") != "/v1/chat/completions" or not isinstance(
            body, dict
        ):
            self.send_json(
                400, _error("not a chat completion request", "invalid_request_error", None)
            )
            return
        st = self.server.state
        messages = body.get("messages") or []
        last = messages[-1].get("role", "") if messages and isinstance(messages[-1], dict) else ""
        model = str(body.get("model", ""))
        with st.lock:
            st.attempts += 1
            attempt = st.attempts
            fault = st.scenario
            st.hits.append(
                Hit(
                    round(time.monotonic() - st.t0, 4),
                    model,
                    fault,
                    sum(len(str(m.get("content", ""))) for m in messages if isinstance(m, dict)),
                    last,
                    bool(body.get("stream")),
                )
            )
        if st.primary_model is not None and model != st.primary_model:
            # as the public wall plays it: the fault is the scenario's model's; the fallback model
            # on the same server answers (S14's refuses an assistant prefill)
            prefill_refused = fault == "S14"
            fault = "ok"
        else:
            prefill_refused = False
        if (st.reject_prefill or prefill_refused) and last == "assistant":
            self.send_json(
                400,
                _error(
                    "This model does not support assistant message prefill.",
                    "invalid_request_error",
                    "prefill_unsupported",
                    "messages",
                ),
            )
            return
        self._play(fault, attempt, body, model)

    # ---- the faults ----------------------------------------------------------------------------

    def _play(self, fault: str, attempt: int, body: dict[str, Any], model: str) -> None:
        st = self.server.state
        scale = st.scale
        first = attempt == 1
        if fault == "S01" and first:
            wait = 2.0 * scale
            self.send_json(
                429,
                _error("Rate limit reached for requests.", "requests", "rate_limit_exceeded"),
                {
                    "Retry-After": str(max(1, math.ceil(wait))),
                    "retry-after-ms": str(int(wait * 1000)),
                },
            )
            return
        if fault == "S02":
            self.send_json(
                429, _error("Rate limit reached for requests.", "requests", "rate_limit_exceeded")
            )
            return
        if fault == "S03" and first:
            self.send_json(500, _error("The server had an error.", "server_error", None))
            return
        if fault in ("S04", "S16") or (fault == "S15" and time.monotonic() - st.t0 < 60.0 * scale):
            self.send_json(
                503, _error("The engine is currently overloaded.", "server_error", "overloaded")
            )
            return
        if fault == "S05" and first:
            self.reset()
            return
        if fault == "S06":
            self._wait(120.0 * scale)
            self.reset()
            return
        if fault == "S12":
            self.send_json(
                400,
                _error(
                    "This model's maximum context length is 4096 tokens. However, your messages "
                    "resulted in 9120 tokens. Please reduce the length of the messages.",
                    "invalid_request_error",
                    "context_length_exceeded",
                    "messages",
                ),
            )
            return
        if fault == "S13":
            self.send_json(
                400,
                _error(
                    "Your request was rejected as a result of our safety system.",
                    "invalid_request_error",
                    "content_policy_violation",
                ),
            )
            return
        schema = _schema_of(body)
        text = (
            json.dumps(example_for(schema))
            if st.enforce_schema and schema is not None
            else canonical_json()
        )
        if not body.get("stream"):
            self._whole(body, model, text)
            return
        self._stream(fault, first, body, model, text)

    def _completion_base(self, model: str) -> dict[str, Any]:
        return {"id": "fb-1", "created": int(time.time()), "model": model or "fb-ok"}

    def _usage(self, body: dict[str, Any], text: str) -> dict[str, int]:
        prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages") or []) // 4
        return {
            "prompt_tokens": prompt,
            "completion_tokens": PIECES,
            "total_tokens": prompt + PIECES,
        }

    def _whole(self, body: dict[str, Any], model: str, text: str) -> None:
        self.send_json(
            200,
            {
                **self._completion_base(model),
                "object": "chat.completion",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
                "usage": self._usage(body, text),
            },
        )

    def _stream(self, fault: str, first: bool, body: dict[str, Any], model: str, text: str) -> None:
        st = self.server.state
        base = {**self._completion_base(model), "object": "chat.completion.chunk"}

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            event = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            return b"data: " + json.dumps(event).encode() + b"\n\n"

        events = [chunk({"role": "assistant"})]
        events += [chunk({"content": p}) for p in _pieces(text)]
        events.append(chunk({}, "stop"))
        options = body.get("stream_options")
        if isinstance(options, dict) and options.get("include_usage"):
            usage = {**base, "choices": [], "usage": self._usage(body, text)}
            events.append(b"data: " + json.dumps(usage).encode() + b"\n\n")
        done = fault != "S11"  # S11: a whole stream whose [DONE] never comes
        cut_after = 40 if fault in ("S08", "S14") else None  # every attempt, as published
        stall_after = 20 if fault == "S09" else None
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.flush()
        try:
            if fault == "S07" and self._wait(20.0 * st.scale):
                self.reset()
                return
            chars = sum(len(str(m.get("content", ""))) for m in body.get("messages") or [])
            if st.read_rate and self._wait(chars / 4 / st.read_rate):  # reading the prompt
                self.reset()
                return
            for index, data in enumerate(events):
                tokens = index  # event 0 is the role; event i (i ≥ 1) carries token i
                if cut_after is not None and tokens > cut_after:
                    self.reset()  # no terminating chunk, no finish reason: a dead stream
                    return
                if stall_after is not None and tokens > stall_after:
                    self._wait(30.0 * st.scale)
                    self.reset()
                    return
                if fault == "S10" and index == 9:
                    self._send_chunk(b'data: {"id": "fb-1", "choices": [{"delta": {"con\n\n')
                self._send_chunk(data)
                if st.token_gap and index and self._wait(st.token_gap):
                    self.reset()
                    return
            if done:
                self._send_chunk(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            return

    def _send_chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()


class _Server(LoopbackServer):
    state: _State


class FaultServer(Loopback[_State]):
    """One loopback endpoint that plays catalogue faults: `use("S08")`, then point a tier at `url`."""

    handler = _Handler
    server_class = _Server
    thread_name = "wf-fault-server"

    def __init__(
        self,
        *,
        scale: float = 1.0,
        token_gap: float = 0.0,
        reject_prefill: bool = False,
        enforce_schema: bool = False,
        read_rate: float = 0.0,
    ) -> None:
        super().__init__(
            _State(
                scale=scale,
                token_gap=token_gap,
                reject_prefill=reject_prefill,
                enforce_schema=enforce_schema,
                read_rate=read_rate,
            )
        )

    def use(self, scenario: str, *, primary_model: str | None = None) -> None:
        """Play `scenario` ("ok" or S01…S16) from now on: attempt count, clock and log restart."""
        st = self._state
        with st.lock:
            st.scenario = scenario
            st.primary_model = primary_model
            st.t0 = time.monotonic()
            st.attempts = 0
            st.hits = []

    @property
    def hits(self) -> list[Hit]:
        with self._state.lock:
            return list(self._state.hits)
