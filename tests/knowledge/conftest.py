"""A loopback stand-in for the Foundry IQ retrieve endpoint, with a switchable behaviour per test."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

RESULTS_BODY: dict[str, Any] = {
    "results": [
        {
            "title": "Pricing tiers",
            "content": "Charge per seat above ten seats.",
            "source": "kb/pricing.md",
            "score": 2.5,
        },
        {
            "title": "Churn drill",
            "content": "Call every churned account within a week.",
            "source": "kb/churn.md",
            "score": 3.1,
        },
    ]
}

RESPONSE_BODY: dict[str, Any] = {
    "response": [
        {
            "role": "assistant",
            "content": [
                {
                    "type": "text",
                    "text": json.dumps(
                        [
                            {
                                "ref_id": 0,
                                "title": "Runway memo",
                                "content": "Runway is cash divided by net burn.",
                            },
                            {
                                "ref_id": 1,
                                "title": "MRR memo",
                                "content": "Split MRR into new, expansion and churned.",
                            },
                        ]
                    ),
                }
            ],
        }
    ],
    "activity": [{"type": "searchIndex", "elapsedMs": 12}],
    "references": [
        {
            "type": "searchIndex",
            "id": "0",
            "activitySource": 1,
            "docKey": "doc-runway",
            "rerankerScore": 2.9,
        },
        {
            "type": "searchIndex",
            "id": "1",
            "activitySource": 1,
            "docKey": "doc-mrr",
            "rerankerScore": 1.4,
        },
    ],
}


@dataclass
class IQServer:
    """Handle on the running fake: set `mode`, read `requests` afterwards."""

    url: str
    mode: str = "results"
    requests: list[dict[str, Any]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)


def _handler(state: IQServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def _send(
            self, status: int, payload: bytes, content_type: str = "application/json"
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_POST(self) -> None:  # name fixed by http.server
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            split = urlsplit(self.path)
            state.requests.append(
                {
                    "path": split.path,
                    "query": parse_qs(split.query),
                    "auth": self.headers.get("Authorization"),
                    "body": json.loads(raw or b"null"),
                }
            )
            mode = state.mode
            if mode == "results":
                self._send(200, json.dumps(RESULTS_BODY).encode())
            elif mode == "response":
                self._send(206, json.dumps(RESPONSE_BODY).encode())
            elif mode == "empty":
                self._send(200, b'{"results": []}')
            elif mode in ("401", "500"):
                self._send(int(mode), b'{"error": {"message": "nope"}}')
            elif mode == "garbage":
                self._send(200, b"<html>not json at all{{")
            elif mode == "wrong-shape":
                self._send(200, b'{"value": [1, 2, 3]}')
            elif mode == "hang":
                state.release.wait(10)
            elif mode == "trickle":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "100000")
                self.end_headers()
                for _ in range(1000):
                    if state.release.wait(0.02):
                        break
                    try:
                        self.wfile.write(b" ")
                        self.wfile.flush()
                    except OSError:
                        break

    return Handler


@pytest.fixture
def iq_server() -> Iterator[IQServer]:
    """A threaded HTTP server on 127.0.0.1, port 0, torn down (and hung handlers released) after."""
    state = IQServer(url="")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
