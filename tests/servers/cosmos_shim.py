"""A thin HTTPS shim in front of the Cosmos DB test server, for the service behaviours that server
lacks. It forwards every request unchanged and, only where a test switches it on, answers as the
real service does:

- `down`: 503 for everything (an outage);
- `throttle(n, ms)`: the next n requests get 429 with `x-ms-retry-after-ms`;
- `session_tokens`: writes answer with an `x-ms-session-token`; reads' tokens are recorded;
- `atomic_batch`: a transactional batch checks every precondition first and applies all of its
  operations or none (the server applies creates only, one by one); `fail_batch_at` makes the
  batch fail at one operation with 412 and the rest 424, writing nothing, as the service does;
- `vector_policy`: the container reports a cosine vector embedding policy, and a query ordering
  by `VectorDistance` is answered with cosine similarities over the run's documents, best first;
- `expire(seconds)`: deletes what the service's TTL would have deleted that much later.
"""

from __future__ import annotations

import http.client
import json
import math
import re
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

_DOCS = re.compile(r"^/dbs/([^/]+)/colls/([^/]+)/docs/?$")
_COLL = re.compile(r"^/dbs/([^/]+)/colls/([^/]+)/?$")


class CosmosShim:
    """Forwarding proxy with switchable service behaviours (all off by default)."""

    def __init__(self, upstream: str, cert: Path, key: Path, ca: Path, host: str = "127.0.0.2"):
        self.upstream = urlsplit(upstream)
        self._ctx = ssl.create_default_context(cafile=str(ca))
        self.down = False
        self.hang = False  # accept, then never answer (until cleared or 120 s)
        self.held = 0  # requests being held unanswered by `hang` right now
        self.gone = False  # answer 404, as if the database had been deleted
        self.session_tokens = False
        self.atomic_batch = False
        self.vector_policy = False
        self.fail_batch_at: int | None = None
        self._throttle: list[int] = []
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.read_tokens: list[str | None] = []
        self._token = 0
        self._lock = threading.Lock()
        shim = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                status, headers, out = shim.handle(
                    self.command, self.path, dict(self.headers), body
                )
                self.send_response(status)
                for k, v in headers.items():
                    if k.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(k, v)
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve
            disable_nagle_algorithm = True  # TCP_NODELAY: no Nagle delay added to each round trip

        self.server = ThreadingHTTPServer((host, 0), Handler)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(str(cert), str(key))
        self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
        self.endpoint = f"https://{host}:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def throttle(self, n: int, retry_after_ms: int) -> None:
        self._throttle = [retry_after_ms] * n

    # -- forwarding ------------------------------------------------------------------------------
    def forward(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPSConnection(
            self.upstream.hostname, self.upstream.port, context=self._ctx, timeout=30
        )
        try:
            sent = {
                k: v
                for k, v in headers.items()
                if k.lower() not in ("host", "connection", "content-length")
            }
            conn.request(method, path, body=body or None, headers=sent)
            resp = conn.getresponse()
            return resp.status, dict(resp.getheaders()), resp.read()
        finally:
            conn.close()

    def handle(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        low = {k.lower(): v for k, v in headers.items()}
        deadline = time.monotonic() + 120
        if self.hang:
            with self._lock:
                self.held += 1
            try:
                while self.hang and time.monotonic() < deadline:
                    time.sleep(0.05)
            finally:
                with self._lock:
                    self.held -= 1
        if self.gone:
            return 404, {"content-type": "application/json"}, b'{"code":"NotFound"}'
        with self._lock:
            self.requests.append((method, path, low))
            if self.down:
                return 503, {"content-type": "application/json"}, b'{"code":"ServiceUnavailable"}'
            if self._throttle:
                wait = self._throttle.pop(0)
                return (
                    429,
                    {
                        "content-type": "application/json",
                        "x-ms-retry-after-ms": str(wait),
                        "x-ms-substatus": "3200",
                    },
                    b'{"code":"TooManyRequests"}',
                )
        is_write = (
            method in ("POST", "PUT", "DELETE", "PATCH")
            and "/docs" in path
            and low.get("x-ms-documentdb-isquery") != "True"
            and low.get("content-type", "") != "application/query+json"
        )
        if self.session_tokens and not is_write and "/docs" in path:
            self.read_tokens.append(low.get("x-ms-session-token"))
        if low.get("x-ms-cosmos-is-batch-request") == "True" and self.atomic_batch:
            status, out_headers, out = self._batch(path, low, json.loads(body))
        elif self.vector_policy and b"VectorDistance" in body:
            status, out_headers, out = self._vector_query(method, path, headers, body)
        else:
            status, out_headers, out = self.forward(method, path, headers, body)
            if self.vector_policy and method == "GET" and _COLL.match(path) and status == 200:
                doc = json.loads(out)
                doc["vectorEmbeddingPolicy"] = {
                    "vectorEmbeddings": [
                        {
                            "path": "/embedding",
                            "dataType": "float32",
                            "distanceFunction": "cosine",
                            "dimensions": 8,
                        }
                    ]
                }
                out = json.dumps(doc).encode()
        if self.session_tokens and is_write and status < 300:
            with self._lock:
                self._token += 1
                out_headers["x-ms-session-token"] = f"0:-1#{self._token}"
        return status, out_headers, out

    # -- the atomic batch ------------------------------------------------------------------------
    def _doc(self, db: str, coll: str, pk: str, doc_id: str, headers: dict[str, str]) -> Any:
        q = json.dumps(
            {
                "query": "SELECT * FROM c WHERE c.runId = @run AND c.id = @id",
                "parameters": [
                    {"name": "@run", "value": json.loads(pk)[0]},
                    {"name": "@id", "value": doc_id},
                ],
            }
        ).encode()
        h = {
            **headers,
            "x-ms-documentdb-isquery": "True",
            "content-type": "application/query+json",
            "x-ms-documentdb-partitionkey": pk,
        }
        h.pop("x-ms-cosmos-is-batch-request", None)
        h.pop("x-ms-cosmos-batch-atomic", None)
        status, _, out = self.forward("POST", f"/dbs/{db}/colls/{coll}/docs", h, q)
        docs = json.loads(out).get("Documents", []) if status == 200 else []
        return docs[0] if docs else None

    def _batch(
        self, path: str, headers: dict[str, str], ops: list[dict[str, Any]]
    ) -> tuple[int, dict[str, str], bytes]:
        m = _DOCS.match(path)
        assert m, path
        db, coll = m.groups()
        pk = headers.get("x-ms-documentdb-partitionkey", "[]")
        plain = {
            k: v
            for k, v in headers.items()
            if k
            not in ("x-ms-cosmos-is-batch-request", "x-ms-cosmos-batch-atomic", "content-length")
        }
        failing, code = None, 0
        for i, op in enumerate(ops):
            body = op.get("resourceBody") or {}
            current = self._doc(db, coll, pk, op.get("id") or body.get("id"), plain)
            kind = op["operationType"]
            if self.fail_batch_at == i:
                failing, code = i, 412
            elif kind == "Create" and current is not None:
                failing, code = i, 409
            elif kind in ("Replace", "Delete") and current is None:
                failing, code = i, 404
            elif op.get("ifMatch") and current is not None and current["_etag"] != op["ifMatch"]:
                failing, code = i, 412
            if failing is not None:
                break
        if failing is not None:
            results = [
                {"statusCode": code if i == failing else 424, "requestCharge": 0}
                for i in range(len(ops))
            ]
            return 207, {"content-type": "application/json"}, json.dumps(results).encode()
        results = []
        for op in ops:
            kind, body = op["operationType"], op.get("resourceBody")
            h = {**plain, "content-type": "application/json"}
            if kind == "Create":
                status, _, out = self.forward("POST", path, h, json.dumps(body).encode())
            elif kind == "Upsert":
                h["x-ms-documentdb-is-upsert"] = "True"
                status, _, out = self.forward("POST", path, h, json.dumps(body).encode())
            elif kind == "Replace":
                if op.get("ifMatch"):
                    h["if-match"] = op["ifMatch"]
                status, _, out = self.forward(
                    "PUT", f"{path.rstrip('/')}/{quote(op['id'])}", h, json.dumps(body).encode()
                )
            else:
                raise AssertionError(f"batch operation {kind} not emulated")
            doc = json.loads(out) if out else {}
            results.append(
                {
                    "statusCode": status,
                    "requestCharge": 1,
                    "eTag": doc.get("_etag"),
                    "resourceBody": doc,
                }
            )
        return 200, {"content-type": "application/json"}, json.dumps(results).encode()

    # -- VectorDistance --------------------------------------------------------------------------
    def _vector_query(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        spec = json.loads(body)
        params = {p["name"]: p["value"] for p in spec.get("parameters", [])}
        vector = params["@embedding"]
        run = params["@run"]
        q = json.dumps(
            {
                "query": "SELECT * FROM c WHERE c.runId = @run",
                "parameters": [{"name": "@run", "value": run}],
            }
        ).encode()
        status, out_headers, out = self.forward(method, path, headers, q)
        docs = json.loads(out).get("Documents", [])
        qwords = set(params.get("@q") or [])
        rows = []
        for d in docs:
            if d.get("status") not in ("provisional", "active") or "embedding" not in d:
                continue
            rows.append(
                {
                    "doc": d,
                    "hits": len(qwords & set(d.get("terms") or [])),
                    "distance": _cosine(d["embedding"], vector),
                }
            )
        rows.sort(key=lambda r: r["distance"], reverse=True)  # cosine: a similarity, best first
        out = json.dumps({"_rid": "", "Documents": rows, "_count": len(rows)}).encode()
        return status, out_headers, out

    # -- TTL -------------------------------------------------------------------------------------
    def expire(self, db: str, coll: str, run: str, later_seconds: float) -> list[str]:
        """Delete the run's documents whose TTL runs out within `later_seconds` from now."""
        q = json.dumps(
            {
                "query": "SELECT * FROM c WHERE c.runId = @run",
                "parameters": [{"name": "@run", "value": run}],
            }
        ).encode()
        h = {
            "x-ms-documentdb-isquery": "True",
            "content-type": "application/query+json",
            "x-ms-documentdb-partitionkey": json.dumps([run]),
            "authorization": "shim",
            "x-ms-version": "2020-07-15",
        }
        _, _, out = self.forward("POST", f"/dbs/{db}/colls/{coll}/docs", h, q)
        gone = []
        for d in json.loads(out).get("Documents", []):
            ttl = d.get("ttl", -1)
            if ttl and ttl > 0 and d["_ts"] + ttl <= time.time() + later_seconds:
                self.forward(
                    "DELETE",
                    f"/dbs/{db}/colls/{coll}/docs/{quote(d['id'])}",
                    {
                        "x-ms-documentdb-partitionkey": json.dumps([run]),
                        "authorization": "shim",
                        "x-ms-version": "2020-07-15",
                    },
                    b"",
                )
                gone.append(d["id"])
        return gone


def _cosine(a: list[float], b: list[float]) -> float:
    """What VectorDistance returns for a cosine policy: the similarity (higher is closer)."""
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
