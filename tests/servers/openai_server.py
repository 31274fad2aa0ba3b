"""A loopback OpenAI-compatible server with flavours and scripted or seeded-random faults per request.

A thin use of the packaged loopback plumbing (engine.routing.faults.loopback, which the fault
catalogue's server uses too: 127.0.0.1, port 0, TCP_NODELAY, the lifecycle); this file holds only
its routes and faults. It speaks /v1/chat/completions, /v1/models
and /health like Ollama, llama.cpp or an Azure /openai/v1 deployment, and can misbehave on purpose:
drop the connection, hang, trickle bytes, 429 (with or without Retry-After), 500, 400 for unsupported
temperature / max_tokens / response_format (texts as the real servers send them), <think>-wrapped,
fenced, truncated or schema-violating JSON, a non-JSON 200 body, a 200 with no choices. Reusable: the reliability soak drives it with a seed.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Self

from engine.routing.faults.loopback import Loopback, LoopbackHandler, LoopbackServer

Flavour = Literal["ollama", "llamacpp", "azure"]
FAULTS = (
    "ok",
    "drop",
    "hang",
    "trickle",
    "rate_limit",
    "rate_limit_no_retry_after",
    "server_error",
    "bad_temperature",
    "bad_max_tokens",
    "bad_response_format",
    "think",
    "think_unclosed",
    "fenced",
    "truncated",
    "invalid_schema",
    "content_filter",
    "model_missing",
    "auth",
    "garbage_body",
    "no_choices",
)

TEMPERATURE_ERROR = (
    "Unsupported value: 'temperature' does not support 0.7 with this model. Only "
    "the default (1) value is supported."
)
MAX_TOKENS_ERROR = (
    "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
    "'max_completion_tokens' instead."
)
# The same refusal the other way round: a deployment that takes only `max_tokens`.
MAX_COMPLETION_TOKENS_ERROR = (
    MAX_TOKENS_ERROR.replace("max_tokens", "#")
    .replace("max_completion_tokens", "max_tokens")
    .replace("#", "max_completion_tokens")
)
PARAM_REFUSALS = (  # (parameter, the deployment's words, its code)
    ("temperature", TEMPERATURE_ERROR, "unsupported_value"),
    ("max_tokens", MAX_TOKENS_ERROR, "unsupported_parameter"),
    ("max_completion_tokens", MAX_COMPLETION_TOKENS_ERROR, "unsupported_parameter"),
)
RESPONSE_FORMAT_ERROR = (
    "Invalid parameter: 'response_format' of type '{kind}' is not supported with this model."
)

Payload = Mapping[str, Any] | str | Callable[[dict[str, Any]], Any]


@dataclass
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    fault: str | None = None


@dataclass
class _State:
    flavour: Flavour
    payload: Payload
    models: tuple[str, ...]
    api_key: str | None
    rejects: set[str]
    retry_after: str
    trickle_chunk: int
    trickle_delay: float
    hang_max: float
    stream_piece: int = 16
    stream_delay: float = 0.0
    loading: bool = False
    script: deque[str] = field(default_factory=deque)
    rng: random.Random | None = None
    mix: tuple[tuple[str, ...], tuple[float, ...]] | None = None
    default: str = "ok"
    requests: list[Recorded] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)

    def next_fault(self) -> str:
        with self.lock:
            if self.script:
                return self.script.popleft()
            if self.rng is not None and self.mix is not None:
                return self.rng.choices(self.mix[0], weights=self.mix[1])[0]
            return self.default


def _error_body(message: str, type_: str, param: str | None, code: str | None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


class _Handler(LoopbackHandler):
    server: _Server

    # ---- plumbing (the rest is engine.routing.faults.loopback's) --------------------------------

    def _record(self, body: dict[str, Any] | None, fault: str | None = None) -> Recorded:
        rec = Recorded(
            self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body, fault
        )
        with self.server.state.lock:
            self.server.state.requests.append(rec)
        return rec

    def _read_json(self) -> dict[str, Any] | None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            value = json.loads(raw) if raw else None
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def _authorised(self) -> bool:
        key = self.server.state.api_key
        return key is None or self.headers.get("Authorization") == f"Bearer {key}"

    # ---- routes ---------------------------------------------------------------------------------

    def do_GET(self) -> None:
        st = self.server.state
        path = self.path.split("?")[0].rstrip("/")
        self._record(None)
        if path in ("/health", "/v1/health"):
            if st.loading:
                self.send_json(
                    503,
                    {
                        "error": {
                            "code": 503,
                            "message": "Loading model",
                            "type": "unavailable_error",
                        }
                    },
                )
            else:
                self.send_json(200, {"status": "ok"})
            return
        if path == "/v1/models":
            if not self._authorised():
                self.send_json(
                    401,
                    _error_body("Unauthorized", "invalid_request_error", None, "invalid_api_key"),
                )
                return
            models = st.models[:1] if st.flavour == "llamacpp" else st.models
            self.send_json(
                200,
                {
                    "object": "list",
                    "data": [
                        {"id": m, "object": "model", "created": 0, "owned_by": "library"}
                        for m in models
                    ],
                },
            )
            return
        self.send_json(404, _error_body("not found", "not_found_error", None, None))

    def do_POST(self) -> None:
        body = self._read_json()
        path = self.path.split("?")[0].rstrip("/")
        if path != "/v1/chat/completions":
            self._record(body)
            self.send_json(404, _error_body("not found", "not_found_error", None, None))
            return
        st = self.server.state
        fault = st.next_fault()
        self._record(body, fault)
        if body is None:
            self.send_json(
                400, _error_body("invalid JSON body", "invalid_request_error", None, None)
            )
            return
        if not self._authorised() or fault == "auth":
            self.send_json(
                401,
                _error_body(
                    "Access denied due to invalid subscription key or wrong API endpoint.",
                    "invalid_request_error",
                    None,
                    "invalid_api_key",
                ),
            )
            return
        if self._reject_params(body, fault):
            return
        self._serve_fault(body, fault)

    def _reject_params(self, body: dict[str, Any], fault: str) -> bool:
        """400s a real deployment sends for parameters it does not take (persistent or scripted)."""
        st = self.server.state
        rejects = set(st.rejects)
        if fault == "bad_temperature":
            rejects.add("temperature")
        elif fault == "bad_max_tokens":
            rejects.add("max_tokens")
        elif fault == "bad_response_format":
            rejects.add("response_format")
        for param, message, code in PARAM_REFUSALS:
            if param in rejects and param in body:
                self.send_json(400, _error_body(message, "invalid_request_error", param, code))
                return True
        fmt = body.get("response_format")
        kind = fmt.get("type") if isinstance(fmt, dict) else None
        if kind is not None and ("response_format" in rejects or kind in rejects):
            if st.flavour == "llamacpp":
                # llama.cpp answers unknown/unsupported types with a bare 400 and no param.
                self.send_json(
                    400,
                    {
                        "error": {
                            "code": 400,
                            "type": "invalid_request_error",
                            "message": f"response_format type '{kind}' is not supported",
                        }
                    },
                )
            else:
                self.send_json(
                    400,
                    _error_body(
                        RESPONSE_FORMAT_ERROR.format(kind=kind),
                        "invalid_request_error",
                        "response_format.type",
                        "unsupported_value",
                    ),
                )
            return True
        return False

    def _content(self, body: dict[str, Any]) -> str:
        payload = self.server.state.payload
        value = payload(body) if callable(payload) else payload
        return value if isinstance(value, str) else json.dumps(value)

    def _serve_fault(self, body: dict[str, Any], fault: str) -> None:
        st = self.server.state
        model = str(body.get("model", ""))
        if fault == "drop":
            self.reset()
            return
        if fault == "hang":
            st.release.wait(st.hang_max)
            self.reset()
            return
        if fault in ("rate_limit", "rate_limit_no_retry_after"):
            headers = {}
            if fault == "rate_limit":
                name = "retry-after-ms" if st.flavour == "azure" else "retry-after"
                value = (
                    str(int(float(st.retry_after) * 1000))
                    if name == "retry-after-ms"
                    else st.retry_after
                )
                headers[name] = value
            self.send_json(
                429,
                _error_body("Rate limit reached. Please retry later.", "requests", None, "429"),
                headers,
            )
            return
        if fault == "garbage_body":
            self.send_json(200, b"<html><body>502 from a captive portal</body></html>")
            return
        if fault == "no_choices":
            if body.get("stream"):
                self._sse(
                    [
                        {
                            "id": "x",
                            "object": "chat.completion.chunk",
                            "created": 0,
                            "model": model,
                            "choices": [],
                        }
                    ]
                )
                return
            self.send_json(
                200,
                {
                    "id": "x",
                    "object": "chat.completion",
                    "created": 0,
                    "model": model,
                    "choices": [],
                },
            )
            return
        if fault == "server_error":
            self.send_json(
                500,
                _error_body(
                    "The server had an error while processing your request.",
                    "server_error",
                    None,
                    None,
                ),
            )
            return
        if fault == "content_filter":
            self.send_json(
                400,
                _error_body(
                    "The response was filtered due to the prompt triggering "
                    "content management policy.",
                    "invalid_request_error",
                    "prompt",
                    "content_filter",
                ),
            )
            return
        if fault == "model_missing" or (st.flavour == "ollama" and model not in st.models):
            self.send_json(
                404,
                _error_body(
                    f'model "{model}" not found, try pulling it first',
                    "not_found_error",
                    None,
                    None,
                ),
            )
            return
        self._complete(body, fault, model)

    def _complete(self, body: dict[str, Any], fault: str, model: str) -> None:
        st = self.server.state
        content = self._content(body)
        finish = "stop"
        message: dict[str, Any] = {"role": "assistant"}
        if fault == "think":
            content = f'<think>Weighing it: maybe {{"draft": 1}} first.</think>\n{content}'
        elif fault == "think_unclosed":
            content = f"<think>Let me plan {content}"
            finish = "length"
        elif fault == "fenced":
            content = f"Here is the artifact:\n```json\n{content}\n```\nDone."
        elif fault == "truncated":
            content = content[: max(1, len(content) // 2)]
            finish = "length"
        elif fault == "invalid_schema":
            content = json.dumps({"unexpected": "shape", "confidence": "very"})
        if st.flavour == "ollama":
            message["reasoning"] = "short private reasoning"
        elif st.flavour == "llamacpp":
            message["reasoning_content"] = "short private reasoning"
        message["content"] = content
        prompt_tokens = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4
        resp: dict[str, Any] = {
            "id": f"chatcmpl-{len(st.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model or st.models[0],
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": len(content) // 4,
                "total_tokens": prompt_tokens + len(content) // 4,
            },
        }
        if st.flavour == "llamacpp":
            resp["timings"] = {"prompt_n": prompt_tokens, "predicted_n": len(content) // 4}
        if body.get("stream"):
            self._sse(
                _chunks(resp, message, finish, body, st.stream_piece),
                delay=st.trickle_delay if fault == "trickle" else st.stream_delay,
            )
            return
        if fault == "trickle":
            self._trickle(json.dumps(resp).encode())
            return
        self.send_json(200, resp)

    def _sse(self, events: list[dict[str, Any]], delay: float = 0.0) -> None:
        """Server-sent events, one `data:` line per chunk, then [DONE] (chunked, as servers do)."""
        st = self.server.state
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for event in [*events, None]:
                if delay and st.release.wait(delay):
                    self.reset()
                    return
                data = (
                    b"data: [DONE]\n\n"
                    if event is None
                    else (b"data: " + json.dumps(event).encode() + b"\n\n")
                )
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            return

    def _trickle(self, data: bytes) -> None:
        """Headers now, then the body a few bytes at a time: beats any per-read timeout."""
        st = self.server.state
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.flush()
        for i in range(0, len(data), st.trickle_chunk):
            if st.release.wait(st.trickle_delay):
                self.reset()
                return
            try:
                self.wfile.write(data[i : i + st.trickle_chunk])
                self.wfile.flush()
            except OSError:
                return


def _chunks(
    resp: dict[str, Any], message: dict[str, Any], finish: str, body: dict[str, Any], piece: int
) -> list[dict[str, Any]]:
    """A completion cut into stream chunks: role, reasoning, content `piece` chars at a time, the
    finish reason, and the usage chunk when stream_options.include_usage asks for it."""
    base = {
        "id": resp["id"],
        "object": "chat.completion.chunk",
        "created": resp["created"],
        "model": resp["model"],
    }

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}

    out = [chunk({"role": "assistant"})]
    for key in ("reasoning", "reasoning_content"):
        if key in message:
            out.append(chunk({key: message[key]}))
    content = str(message.get("content") or "")
    out += [chunk({"content": content[i : i + piece]}) for i in range(0, len(content), piece)]
    out.append(chunk({}, finish))
    options = body.get("stream_options")
    if isinstance(options, dict) and options.get("include_usage"):
        out.append({**base, "choices": [], "usage": resp["usage"]})
    return out


class _Server(LoopbackServer):
    state: _State


class FakeOpenAI(Loopback[_State]):
    """The server object tests drive: its URL, scripted faults, seeded random faults, request log
    (the lifecycle, `url` and `port` are engine.routing.faults.loopback's)."""

    handler = _Handler
    server_class = _Server
    thread_name = "fake-openai"

    def __init__(
        self,
        flavour: Flavour = "ollama",
        *,
        payload: Payload = "{}",
        models: Iterable[str] = ("qwen2.5",),
        api_key: str | None = None,
        rejects: Iterable[str] | None = None,
        retry_after: float = 0.05,
        trickle_chunk: int = 8,
        trickle_delay: float = 0.05,
        hang_max: float = 30.0,
        stream_piece: int = 16,
        stream_delay: float = 0.0,
    ) -> None:
        if rejects is None:
            rejects = ("temperature", "max_tokens") if flavour == "azure" else ()
        super().__init__(
            _State(
                flavour=flavour,
                payload=payload,
                models=tuple(models),
                api_key=api_key,
                rejects=set(rejects),
                retry_after=str(retry_after),
                trickle_chunk=trickle_chunk,
                trickle_delay=trickle_delay,
                hang_max=hang_max,
                stream_piece=stream_piece,
                stream_delay=stream_delay,
            )
        )

    # ---- what tests use -------------------------------------------------------------------------

    @property
    def state(self) -> _State:
        return self._state

    def script(self, *faults: str) -> Self:
        """Queue faults for the next chat requests, in order (then the mix or the default)."""
        unknown = [f for f in faults if f not in FAULTS]
        if unknown:
            raise ValueError(f"unknown faults: {unknown}")
        with self._state.lock:
            self._state.script.extend(faults)
        return self

    def random_faults(self, seed: int, mix: Mapping[str, float]) -> Self:
        """After the script, pick each request's fault from a seeded weighted mix."""
        unknown = [f for f in mix if f not in FAULTS]
        if unknown:
            raise ValueError(f"unknown faults: {unknown}")
        with self._state.lock:
            self._state.rng = random.Random(seed)
            self._state.mix = (tuple(mix), tuple(mix.values()))
        return self

    def set_default(self, fault: str) -> None:
        if fault not in FAULTS:
            raise ValueError(f"unknown fault: {fault}")
        self._state.default = fault

    def set_payload(self, payload: Payload) -> None:
        self._state.payload = payload

    def set_rejects(self, *params: str) -> None:
        self._state.rejects = set(params)

    def set_loading(self, loading: bool) -> None:
        self._state.loading = loading

    def release_hangs(self) -> None:
        self._state.release.set()

    @property
    def requests(self) -> list[Recorded]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.rstrip("/").endswith("/chat/completions")]


def refused_url() -> str:
    """A loopback base URL nothing listens on: connecting is refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
