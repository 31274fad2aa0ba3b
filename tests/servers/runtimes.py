"""Loopback fakes of the local runtimes the README names, each speaking its documented dialect.

One server, a dialect per runtime (data in DIALECTS): the routes it answers besides the OpenAI
ones (where it says its context window), the `response_format` types it takes, and the error
bodies it sends for a missing model, a refused format and a prompt beyond its window, as each
runtime's documentation and bug trackers show them:

- ollama: `/api/version`, `/api/ps` (context_length of a loaded model), `POST /api/show`
  (`parameters` with num_ctx); OpenAI errors as `{"error": {"message", "type": "api_error"}}`;
  a prompt beyond num_ctx is truncated, not refused (so the router must size it first).
- llamacpp (llama-server): `/props` (default_generation_settings.n_ctx), `/health`; a prompt beyond
  the context: 400 `exceed_context_size_error`.
- vllm: `/v1/models` rows carry `max_model_len`; errors `{"object": "error", "message", "type",
  "code"}`; a prompt beyond the window: 400 "This model's maximum context length is …".
- lmstudio: `/api/v0/models/{id}` (loaded_context_length, max_context_length); `response_format`
  only `json_schema` or `text` (400 `{"error": "'response_format.type' must be 'json_schema' or
  'text'"}`); a prompt beyond the window: 400 "… context length of only N tokens …".
- foundry_local: OpenAI-compatible `/v1` only (its status and model management are CLI and SDK
  concerns); OpenAI-shaped errors.
Every answer streams as server-sent events (or is whole when `stream` is false).
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import unquote

from engine.routing.faults.loopback import Loopback, LoopbackHandler, LoopbackServer

Dialect = Literal["ollama", "llamacpp", "vllm", "lmstudio", "foundry_local"]
DIALECTS: dict[str, dict[str, Any]] = {
    "ollama": {"formats": ("json_schema", "json_object", "text"), "overflow": "truncate"},
    "llamacpp": {"formats": ("json_schema", "json_object", "text"), "overflow": "refuse"},
    "vllm": {"formats": ("json_schema", "json_object", "text"), "overflow": "refuse"},
    "lmstudio": {"formats": ("json_schema", "text"), "overflow": "refuse"},
    "foundry_local": {"formats": ("json_schema", "json_object", "text"), "overflow": "refuse"},
}


@dataclass
class _State:
    dialect: str
    model: str
    window: int
    answer: str
    num_ctx_in_modelfile: bool = False
    loaded: bool = True
    loading_s: float = 0.0  # a chat to a model not loaded waits this long (it loads), then it is
    delay_s: float = 0.0  # every chat waits this long before its headers (a slow prompt)
    loading_now: bool = False
    # One slot (llama-server --parallel 1): chats are served one at a time, in turn; the first
    # `slow_first` of them take `slow_first_s` before their headers (a long prompt being read),
    # and one whose client hangs up meanwhile frees the slot at once, as llama-server does.
    one_slot: bool = False
    slow_first: int = 0
    slow_first_s: float = 0.0
    slot: threading.Lock = field(default_factory=threading.Lock)
    requests: list[tuple[str, str, Any]] = field(default_factory=list)  # (method, path, body)
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)


def _tokens(body: dict[str, Any]) -> int:
    """The fake's tokenizer: four characters a token, as the router's floor assumes."""
    return sum(len(str(m.get("content", ""))) // 4 + 8 for m in body.get("messages") or [])


class _Handler(LoopbackHandler):
    server: _Server

    @property
    def st(self) -> _State:
        return self.server.state

    def _log(self, method: str, body: Any = None) -> None:
        with self.st.lock:
            self.st.requests.append((method, self.path, body))

    def _error(self, status: int, message: str, kind: str, code: Any = None) -> None:
        d = self.st.dialect
        if d == "vllm":
            body: dict[str, Any] = {
                "object": "error",
                "message": message,
                "type": kind,
                "param": None,
                "code": status,
            }
        elif d == "lmstudio":
            body = {"error": message}
        elif d == "llamacpp":
            body = {"error": {"code": status, "message": message, "type": kind}}
        else:  # ollama, foundry_local: OpenAI's shape
            body = {"error": {"message": message, "type": kind, "param": None, "code": code}}
        self.send_json(status, body)

    # ---- discovery -----------------------------------------------------------------------
    def do_GET(self) -> None:
        self._log("GET")
        st, path = self.st, self.path.split("?")[0].rstrip("/")
        if path == "/v1/models":
            row: dict[str, Any] = {"id": st.model, "object": "model", "owned_by": st.dialect}
            if st.dialect == "vllm":
                row["max_model_len"] = st.window
            self.send_json(200, {"object": "list", "data": [row]})
        elif st.dialect == "ollama" and path == "/api/version":
            self.send_json(200, {"version": "0.12.6"})
        elif st.dialect == "ollama" and path == "/api/ps":
            rows = [{"name": st.model, "model": st.model, "context_length": st.window}]
            self.send_json(200, {"models": rows if st.loaded else []})
        elif st.dialect == "llamacpp" and path == "/props":
            self.send_json(200, {"default_generation_settings": {"n_ctx": st.window}})
        elif st.dialect == "llamacpp" and path == "/health":
            if st.loading_now:
                body = {
                    "error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}
                }
                self.send_json(503, body)
            else:
                self.send_json(200, {"status": "ok"})
        elif st.dialect == "lmstudio" and path.startswith("/api/v0/models/"):
            if unquote(path.rsplit("/", 1)[-1]) != st.model:
                self._error(404, f"Model {path.rsplit('/', 1)[-1]} not found", "not_found")
                return
            info: dict[str, Any] = {
                "id": st.model,
                "state": "loaded" if st.loaded else "not-loaded",
            }
            info["max_context_length"] = 32768
            if st.loaded:
                info["loaded_context_length"] = st.window
            self.send_json(200, info)
        else:
            self.send_json(404, {"error": "not found"} if st.dialect == "lmstudio" else b"404")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"null")
        except ValueError:
            body = None
        self._log("POST", body)
        st, path = self.st, self.path.split("?")[0].rstrip("/")
        if st.dialect == "ollama" and path == "/api/show":
            if not isinstance(body, dict) or body.get("model") != st.model:
                self.send_json(404, {"error": f"model '{(body or {}).get('model')}' not found"})
                return
            params = f"num_ctx {st.window}\nstop <|im_end|>" if st.num_ctx_in_modelfile else ""
            self.send_json(
                200, {"parameters": params, "model_info": {"qwen2.context_length": 32768}}
            )
            return
        if path != "/v1/chat/completions" or not isinstance(body, dict):
            self._error(404, "not found", "not_found_error")
            return
        if not st.one_slot:
            self._chat(body)
            return
        with st.slot:
            with st.lock:
                chats = sum(1 for m, p, _ in st.requests if p.startswith("/v1/chat"))
            if chats <= st.slow_first and self._client_left_within(st.slow_first_s):
                return
            self._chat(body)

    def _client_left_within(self, seconds: float) -> bool:
        """Wait `seconds` (the slot held), or until the client hangs up: True if it did."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            readable, _, _ = select.select([self.connection], [], [], min(left, 0.02))
            if readable and not self.connection.recv(1, socket.MSG_PEEK):
                return True
        return False

    # ---- chat ----------------------------------------------------------------------------
    def _chat(self, body: dict[str, Any]) -> None:
        st = self.st
        if body.get("model") != st.model:
            self._model_missing(str(body.get("model")))
            return
        if not st.loaded and st.loading_s:
            st.loading_now = True
            if st.release.wait(st.loading_s):
                return
            st.loaded, st.loading_now = True, False
        if st.delay_s and st.release.wait(st.delay_s):
            return
        fmt = body.get("response_format")
        kind = fmt.get("type") if isinstance(fmt, dict) else "text"
        if kind not in DIALECTS[st.dialect]["formats"]:
            if st.dialect == "lmstudio":
                self._error(400, "'response_format.type' must be 'json_schema' or 'text'", "")
            else:
                self._error(400, f"response_format type {kind} is not supported", "invalid")
            return
        asked = _tokens(body) + int(
            body.get("max_tokens") or body.get("max_completion_tokens") or 0
        )
        too_long = _tokens(body) > st.window or (st.dialect == "vllm" and asked > st.window)
        if too_long and DIALECTS[st.dialect]["overflow"] == "refuse":
            self._overflow(body)
            return
        self._answer(body)

    def _model_missing(self, model: str) -> None:
        d = self.st.dialect
        if d == "ollama":
            self._error(404, f'model "{model}" not found, try pulling it first', "api_error")
        elif d == "vllm":
            self._error(404, f"The model `{model}` does not exist.", "NotFoundError")
        elif d == "lmstudio":
            self._error(404, f'Model "{model}" not found. Please load it first.', "")
        else:
            self._error(404, f"model {model} not found", "invalid_request_error", "model_not_found")

    def _overflow(self, body: dict[str, Any]) -> None:
        d, n = self.st.dialect, self.st.window
        prompt = _tokens(body)
        if d == "llamacpp":
            self._error(
                400,
                "the request exceeds the available context size, try increasing it",
                "exceed_context_size_error",
            )
        elif d == "vllm":
            self._error(
                400,
                f"This model's maximum context length is {n} tokens. However, you requested "
                f"{prompt + int(body.get('max_tokens') or 0)} tokens ({prompt} in the messages, "
                f"{body.get('max_tokens')} in the completion). Please reduce the length of the "
                "messages or completion.",
                "BadRequestError",
            )
        elif d == "lmstudio":
            self._error(
                400,
                f"Trying to keep the first {prompt} tokens when context the overflows. However, "
                f"the model is loaded with context length of only {n} tokens, which is not "
                "enough.",
                "",
            )
        else:
            self._error(
                400,
                f"This model's maximum context length is {n} tokens.",
                "invalid_request_error",
                "context_length_exceeded",
            )

    def _answer(self, body: dict[str, Any]) -> None:
        text = self.st.answer
        base = {"id": "rt-1", "created": int(time.time()), "model": self.st.model}
        usage = {"prompt_tokens": _tokens(body), "completion_tokens": 9, "total_tokens": 0}
        if not body.get("stream"):
            self.send_json(
                200,
                {
                    **base,
                    "object": "chat.completion",
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": usage,
                },
            )
            return
        events = [{"role": "assistant"}] + [
            {"content": text[i : i + 8]} for i in range(0, len(text), 8)
        ]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunks = [
            {**base, "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": d}]}
            for d in events
        ]
        chunks.append(
            {
                **base,
                "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            }
        )
        lines = [b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks]
        lines.append(b"data: [DONE]\n\n")
        try:
            for data in lines:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            return


class _Server(LoopbackServer):
    state: _State


class RuntimeFake(Loopback[_State]):
    """A loopback server speaking one runtime's dialect: `RuntimeFake("ollama", window=4096)`."""

    handler = _Handler
    server_class = _Server
    thread_name = "fake-runtime"

    def __init__(
        self,
        dialect: Dialect,
        *,
        model: str = "qwen2.5:7b",
        window: int = 8192,
        answer: str = "{}",
        num_ctx_in_modelfile: bool = False,
        loaded: bool = True,
        loading_s: float = 0.0,
        delay_s: float = 0.0,
        one_slot: bool = False,
        slow_first: int = 0,
        slow_first_s: float = 0.0,
    ) -> None:
        super().__init__(
            _State(
                dialect,
                model,
                window,
                answer,
                num_ctx_in_modelfile,
                loaded,
                loading_s,
                delay_s,
                one_slot=one_slot,
                slow_first=slow_first,
                slow_first_s=slow_first_s,
            )
        )

    @property
    def requests(self) -> list[tuple[str, str, Any]]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def chats(self) -> list[dict[str, Any]]:
        return [b for m, p, b in self.requests if p.startswith("/v1/chat") and b]
