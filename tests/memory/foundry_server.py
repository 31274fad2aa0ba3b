"""A loopback HTTP server speaking the Foundry memory-store preview protocol, with failure modes.

`mode` picks the behaviour: "ok", "401", "429", "500", "slow" (sleeps past the client timeout),
"garbage" (200 with non-JSON), "wrong_shape" (200 JSON of the wrong shape).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

TOKEN = "test-token-123"
PREFIX = "/api/projects/p1"


class FoundryServer:
    """Holds memories per scope and records every request it saw."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.slow_s = 2.0
        self.requests: list[dict[str, Any]] = []
        self.scopes: dict[str, list[dict[str, str]]] = {}
        self.search_items: list[dict[str, Any]] | None = None
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return

            def _reply(self, code: int, body: bytes, ctype: str = "application/json") -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                with contextlib.suppress(OSError):
                    self.wfile.write(body)

            def _handle(self, method: str) -> None:
                url = urlparse(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                owner.requests.append(
                    {
                        "method": method,
                        "path": url.path,
                        "query": parse_qs(url.query),
                        "body": body,
                        "auth": self.headers.get("Authorization"),
                    }
                )
                if owner.mode == "slow":
                    time.sleep(owner.slow_s)
                if owner.mode in ("401", "429", "500"):
                    self._reply(int(owner.mode), b'{"error":{"code":"nope"}}')
                    return
                if owner.mode == "garbage":
                    self._reply(200, b"<html>not json", "text/html")
                    return
                if owner.mode == "wrong_shape":
                    self._reply(200, b'{"memories": "lots"}' if "search" in url.path else b"[1,2]")
                    return
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    self._reply(401, b'{"error":"unauthorized"}')
                    return
                self._reply(200, json.dumps(owner.route(method, url.path, body)).encode())

            def do_GET(self) -> None:
                self._handle("GET")

            def do_POST(self) -> None:
                self._handle("POST")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{PREFIX}"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def route(self, method: str, path: str, body: Any) -> Any:
        store_path = path.removeprefix(PREFIX + "/memory_stores/")
        if method == "GET":
            return {"name": store_path, "object": "memory_store"}
        _, _, action = store_path.partition(":")
        scope = body.get("scope")
        if action == "update_memories":
            for item in body["items"]:
                self.scopes.setdefault(scope, []).append({"text": item["content"][0]["text"]})
            return {"update_id": f"upd-{len(self.requests)}", "status": "queued"}
        if action == "search_memories":
            if self.search_items is not None:
                return {"search_id": "s1", "memories": self.search_items}
            notes = self.scopes.get(scope, [])
            return {
                "search_id": "s1",
                "memories": [
                    {
                        "memory_item": {
                            "memory_id": f"m{i}",
                            "scope": scope,
                            "content": n["text"],
                            "kind": "user_profile",
                            "updated_at": "2026-01-01T00:00:00Z",
                        }
                    }
                    for i, n in enumerate(notes)
                ],
            }
        if action == "delete_scope":
            self.scopes.pop(scope, None)
            return {"deleted": True}
        return {"error": "unknown"}
