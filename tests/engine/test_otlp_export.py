"""`worldforge export RUN --otlp FILE`: a run's trace as OTLP/JSON after the GenAI conventions,
built from its event log with the OpenTelemetry SDK; the same log gives the same bytes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk.trace", reason="the otlp extra is not installed")

PITCH = "Repair bookings for independent bike shops"


def _cli(*argv: str, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "worldforge_tui.cli", *argv],
        capture_output=True,
        text=True,
        env={"WORLDFORGE_HOME": str(home), "PATH": "/usr/bin:/bin", **env},
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, str]:
    home = tmp_path_factory.mktemp("otlp")
    proc = _cli(
        "simulate",
        "--pitch",
        PITCH,
        "--choose",
        "ABABABAB",
        "--reject",
        "NEED:speak to night-shift nurses, not chains",
        "--json",
        home=home,
    )
    assert proc.returncode == 0, proc.stderr[-1000:]
    return home, json.loads(proc.stdout)["run_id"]


def test_the_trace_has_the_genai_shape_and_parses_as_otlp(run, tmp_path):
    from google.protobuf.json_format import Parse
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    home, run_id = run
    out = tmp_path / "trace.json"
    proc = _cli("export", run_id, "--otlp", str(out), home=home)
    assert proc.returncode == 0, proc.stderr
    request = Parse(out.read_text(), ExportTraceServiceRequest())
    spans = [s for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans]
    ops: dict[str, list] = {}
    for s in spans:
        attrs = {a.key: a.value for a in s.attributes}
        ops.setdefault(attrs["gen_ai.operation.name"].string_value, []).append((s, attrs))
    assert len(ops["invoke_workflow"]) == 1
    agents = ops["invoke_agent"]
    assert len(agents) >= 4  # one a stage run (the redo included)
    assert {s.trace_id for s in spans} == {agents[0][0].trace_id}  # one trace
    ids = {s.span_id for s, _ in agents}
    chats = ops["chat"]
    assert chats and all(s.parent_span_id in ids for s, _ in chats)
    assert all(a["worldforge.tier"].string_value == "simulation" for _, a in chats)
    assert ops["update_memory"] and ops["search_memory"]
    evaluations = [e for s, _ in agents for e in s.events if e.name == "gen_ai.evaluation.result"]
    assert len(evaluations) == len(agents)
    text = out.read_text()
    assert PITCH not in text  # no prompt or artifact text leaves the save


def test_the_same_log_gives_the_same_trace(run, tmp_path):
    home, run_id = run
    first = _cli("export", run_id, "--otlp", "-", home=home)
    second = _cli("export", run_id, "--otlp", "-", home=home)
    assert first.returncode == 0 and first.stdout == second.stdout and first.stdout.strip()


def test_an_unwritable_file_is_one_line_and_exit_2(run, tmp_path):
    home, run_id = run
    proc = _cli("export", run_id, "--otlp", str(tmp_path / "missing" / "t.json"), home=home)
    assert proc.returncode == 2
    errors = [ln for ln in proc.stderr.splitlines() if "error" in ln]  # beside "exporting …"
    assert len(errors) == 1 and "cannot write" in errors[0] and "Traceback" not in proc.stderr


def test_model_attempts_are_chat_spans_with_their_tier_and_fallback(tmp_path):
    """A local model that answers off-contract: each attempt a failed `chat` span on the local
    tier, the floor's answer labelled with the fallback reason."""
    from tests.servers.openai_server import FakeOpenAI

    home = tmp_path / "home"
    with FakeOpenAI("ollama", payload={"not": "the contract"}) as server:
        env = {
            "WORLDFORGE_DEMO_MODE": "local",
            "WORLDFORGE_LOCAL_AGENT_BASE_URL": server.url,
            "WORLDFORGE_LOCAL_AGENT_MODEL": "qwen2.5",
        }
        proc = _cli("simulate", "--pitch", PITCH, "--choose", "A", "--json", home=home, **env)
    assert proc.returncode == 0, proc.stderr[-1000:]
    run_id = json.loads(proc.stdout)["run_id"]
    text = _cli("export", run_id, "--otlp", "-", home=home).stdout
    spans = [
        s
        for rs in json.loads(text)["resourceSpans"]
        for ss in rs["scopeSpans"]
        for s in ss["spans"]
    ]
    chats = [s for s in spans if s["name"].startswith("chat")]
    attrs = [{a["key"]: a["value"] for a in s["attributes"]} for s in chats]
    local = [a for a in attrs if a["worldforge.tier"]["stringValue"] == "local"]
    assert local and all(a["worldforge.attempt.outcome"]["stringValue"] == "invalid" for a in local)
    assert all(
        "local: answer not valid" in a["worldforge.fallback_reason"]["stringValue"] for a in local
    )
