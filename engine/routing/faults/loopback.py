"""The loopback HTTP plumbing every fake OpenAI-compatible server here shares (stdlib only).

`FaultServer` (the fault catalogue's, shipped for `worldforge routing test --faults`) and the
tests' `FakeOpenAI` (tests/servers/openai_server.py) each add only their routes and faults on top:
a threaded server bound to 127.0.0.1 on port 0; handlers that set TCP_NODELAY (without it a small
stream event can wait ~40 ms for a delayed ACK, which would be measured as router overhead), stay
quiet (a client hanging up is no error), send JSON and can reset a connection with no response bytes; and a start / stop / `with`
lifecycle whose stop first releases every held request (`state.release`).
"""

from __future__ import annotations

import json
import socket
import struct
import sys
import threading
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Generic, Protocol, Self, TypeVar


class HasRelease(Protocol):
    """A server's shared state: at least the event that releases held requests on stop."""

    release: threading.Event


S = TypeVar("S", bound=HasRelease)


class LoopbackServer(ThreadingHTTPServer):
    """A threaded HTTP server whose handlers reach the owner's `state`."""

    daemon_threads = True
    allow_reuse_address = True
    state: Any

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: object
    ) -> None:
        """Quiet when the client hung up (a reset or a closed pipe: a client giving up on a fault,
        or a call's deadline, is no server error); anything else is printed as usual."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class LoopbackHandler(BaseHTTPRequestHandler):
    """One request: TCP_NODELAY, no access log, JSON replies and a connection reset."""

    server: LoopbackServer
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()  # small SSE events must not wait ~40 ms on a delayed ACK
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: each server keeps its own request log."""

    def send_json(
        self, status: int, body: Mapping[str, Any] | bytes, headers: Mapping[str, str] | None = None
    ) -> None:
        """A whole JSON reply (bytes are sent as given) with its length and any extra headers."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def reset(self) -> None:
        """Close with RST and no response bytes: the client sees a connection error."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True


class Loopback(Generic[S]):
    """A loopback endpoint's lifecycle: `start()` (or `with`), `url`, `stop()`."""

    handler: type[LoopbackHandler]
    server_class: type[LoopbackServer] = LoopbackServer
    thread_name = "wf-loopback"

    def __init__(self, state: S) -> None:
        self._state = state
        self._server: LoopbackServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        server = self.server_class(("127.0.0.1", 0), self.handler)
        server.state = self._state
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=self.thread_name,
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Release held requests, then close the listener."""
        self._state.release.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        """Base URL for an OpenAI client (…/v1, as Ollama and llama.cpp publish it)."""
        return f"http://127.0.0.1:{self.port}/v1"
