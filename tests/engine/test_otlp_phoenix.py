"""The OTLP export read back by a real trace viewer: Arize Phoenix (`make phoenix` builds
.venv-phoenix from PyPI; WORLDFORGE_PHOENIX names another `phoenix` executable), started here on
free loopback ports, sent the trace over OTLP/HTTP, and asked for its spans through its REST API."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk.trace", reason="the otlp extra is not installed")

ROOT = Path(__file__).resolve().parents[2]
START_S = 300.0  # a guard against a wedged viewer, not a speed limit (it starts in ~60 s here)


def _phoenix() -> Path | None:
    env = os.environ.get("WORLDFORGE_PHOENIX", "").strip()
    path = Path(env) if env else ROOT / ".venv-phoenix" / "bin" / "phoenix"
    return path if path.is_file() else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.read()
    except (urllib.error.URLError, OSError):
        return 0, b""


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory) -> Iterator[str]:
    exe = _phoenix()
    if exe is None:
        pytest.skip("Arize Phoenix not installed: run `make phoenix` (or set WORLDFORGE_PHOENIX)")
    port = _free_port()
    env = {
        **os.environ,
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(_free_port()),
        "PHOENIX_WORKING_DIR": str(tmp_path_factory.mktemp("phoenix")),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    proc = subprocess.Popen(
        [str(exe), "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + START_S
        while _get(f"{url}/healthz")[0] != 200:
            assert proc.poll() is None, "phoenix exited while starting"
            assert time.monotonic() < end, "phoenix did not start"
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(30)


def test_phoenix_reads_the_exported_run_back(phoenix, tmp_path):
    from google.protobuf.json_format import Parse
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    home = tmp_path / "home"
    env = {"WORLDFORGE_HOME": str(home), "PATH": "/usr/bin:/bin"}

    def cli(*argv: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "worldforge_tui.cli", *argv],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-1000:]
        return proc.stdout

    run_id = json.loads(cli("simulate", "--pitch", "Repair bookings for bike shops", "--json"))[
        "run_id"
    ]
    text = cli("export", run_id, "--otlp", "-")
    request = Parse(text, ExportTraceServiceRequest())
    sent = [s for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans]
    post = urllib.request.Request(
        f"{phoenix}/v1/traces",
        data=request.SerializeToString(),
        headers={"Content-Type": "application/x-protobuf"},
    )
    with urllib.request.urlopen(post, timeout=30) as resp:
        assert resp.status == 200
    end = time.monotonic() + 120  # the viewer writes spans in the background: poll for them
    spans: list[dict] = []
    while time.monotonic() < end and len(spans) < len(sent):
        status, body = _get(f"{phoenix}/v1/projects/default/spans?limit=1000")
        spans = json.loads(body)["data"] if status == 200 else []
        time.sleep(0.5)
    assert len(spans) == len(sent)
    by_id = {s["context"]["span_id"]: s for s in spans}
    root = [s for s in spans if s["parent_id"] is None]
    assert [s["name"] for s in root] == ["invoke_workflow venture"]
    agents = [s for s in spans if s["attributes"].get("gen_ai.operation.name") == "invoke_agent"]
    assert agents and all(by_id[s["parent_id"]] is root[0] for s in agents)
    chats = [s for s in spans if s["attributes"].get("gen_ai.operation.name") == "chat"]
    assert chats and all(by_id[s["parent_id"]] in agents for s in chats)
    assert any(
        e["name"] == "gen_ai.evaluation.result" for s in agents for e in s.get("events") or []
    )
