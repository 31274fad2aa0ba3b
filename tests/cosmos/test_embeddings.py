"""The embedding deployment for vector recall: one POST to `/embeddings` on the Foundry endpoint,
validated, and wired into the Cosmos store only when AZURE_COSMOS_EMBEDDING_DEPLOYMENT is set."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from engine.config import Settings
from engine.routing.embeddings import EmbeddingError, HttpEmbedder, embedder_for
from memory.models import NewNote


@pytest.fixture
def embeddings_server():
    """An OpenAI-compatible `/embeddings` endpoint on loopback (vectors from letter counts)."""
    seen: list[dict] = []
    reply: dict = {"mode": "ok"}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            seen.append({"path": self.path, "body": body, "auth": self.headers.get("api-key")})
            if reply["mode"] == "garbage":
                out, code = {"data": [{"embedding": ["x"]}]}, 200
            elif reply["mode"] == "down":
                out, code = {"error": {"message": "busy"}}, 503
            else:
                text = body["input"].lower()
                out, code = {"data": [{"embedding": [text.count(c) + 0.5 for c in "aeiou"]}]}, 200
            data = json.dumps(out).encode()
            self.send_response(code)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/openai/v1", seen, reply
    server.shutdown()
    server.server_close()


def test_embedder_posts_the_deployment_and_validates(embeddings_server):
    base, seen, reply = embeddings_server
    embed = HttpEmbedder(base, "text-embedding-3-small", api_key="k")
    assert embed("banana") == [3.5, 0.5, 0.5, 0.5, 0.5]
    assert seen[-1] == {
        "path": "/openai/v1/embeddings",
        "auth": "k",
        "body": {"model": "text-embedding-3-small", "input": "banana"},
    }
    reply["mode"] = "garbage"
    with pytest.raises(EmbeddingError, match="garbage"):
        embed("banana")
    reply["mode"] = "down"
    with pytest.raises(EmbeddingError, match="http-503"):
        embed("banana")


def test_embedder_only_when_a_deployment_is_set(embeddings_server):
    base, _, _ = embeddings_server
    assert embedder_for(Settings(foundry_base_url=base)) is None
    assert embedder_for(Settings(azure_cosmos_embedding_deployment="emb")) is None  # no endpoint
    made = embedder_for(
        Settings(
            foundry_base_url=base, foundry_api_key="k", azure_cosmos_embedding_deployment="emb"
        )
    )
    assert isinstance(made, HttpEmbedder) and made.url == base + "/embeddings"


@pytest.mark.slow
def test_vectors_are_written_and_a_failing_embedder_falls_back_to_keywords(
    embeddings_server, shim, shim_config, store_factory
):
    base, _, reply = embeddings_server
    shim.vector_policy = True
    store = store_factory(config=shim_config, embedder=HttpEmbedder(base, "emb", api_key="k"))
    assert store.partition.vector_enabled
    store.remember(NewNote("context", "Banana farmers want leasing", author="system", game_day=1))
    doc = store.partition.docs()[0]
    assert doc["embedding"] == [6.5, 2.5, 1.5, 0.5, 0.5]
    reply["mode"] = "down"
    store.remember(NewNote("context", "Grid fees went up", author="system", game_day=1))
    assert "embedding" not in store.partition.docs()[1]  # written without a vector, not refused
    res = store.recall("leasing", game_day=1)  # the query embedding fails: keywords rank
    assert any(r.text.startswith("Banana") for r in res.items)
