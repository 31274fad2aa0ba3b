"""Issue 12 case 4: an endpoint that echoes the presented key in its 401 body (as many proxies do)
must not get the key into the save, the log, CLI output or anything a screen shows; the scrubber
also catches keys by value whatever their shape, and prose forms of secrets."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from engine.config import Settings
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import RunStage
from tests.reliability.conftest import cli
from worldforge_textkit.scrub import scrub

HEX_KEY = "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c"  # a 32-hex Azure-style key: no sk- prefix
ODD_KEY = "Qx!7~zz.pass.Phrase_42"  # a key of no known shape at all


class _Echo(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # quiet
        return

    def _echo(self) -> None:
        presented = self.headers.get("authorization", "") + " " + self.headers.get("api-key", "")
        body = json.dumps(
            {
                "error": {
                    "message": f"Invalid key presented: {presented.strip()}",
                    "type": "invalid_request_error",
                    "code": "invalid_api_key",
                }
            }
        )
        data = body.encode()
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = _echo

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        self.rfile.read(length)
        self._echo()


@pytest.fixture
def echo_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def _hits(folder: Path, *canaries: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            found = [c for c in canaries if c.encode() in data]
            if found:
                out[str(path)] = found
    return out


@pytest.mark.parametrize("key", [HEX_KEY, ODD_KEY], ids=["hex32", "odd-shape"])
def test_an_echoed_key_reaches_no_file(
    tmp_path: Path, echo_url: str, key: str, monkeypatch
) -> None:
    monkeypatch.setenv("WORLDFORGE_HOME", str(tmp_path))
    settings = Settings(
        demo_mode="local",
        local_agent_base_url=echo_url,
        local_agent_model="m",
        local_agent_api_key=key,
        agent_request_timeout=5.0,
        agent_max_retries=0,
    )
    session = GameSession.start_venture(
        pitch="Repair bookings for bike shops", seed=2, save_dir=tmp_path, router=Router(settings)
    )
    try:
        session.give(RunStage)
        fallbacks = [e for e in session.events() if e.type == "ROUTE_FALLBACK"]
        assert fallbacks, "the endpoint was never asked"
        assert all(key not in json.dumps(e.to_dict()) for e in session.events())
    finally:
        session.close()
    from engine.logs import get_logger

    get_logger().warning("a fallback reason again: %s", fallbacks[0].message)
    assert _hits(tmp_path, key) == {}


def test_routing_cli_output_never_shows_the_echoed_key(tmp_path: Path, echo_url: str) -> None:
    env = {
        "DEMO_MODE": "local",
        "LOCAL_AGENT_BASE_URL": echo_url,
        "LOCAL_AGENT_MODEL": "m",
        "LOCAL_AGENT_API_KEY": HEX_KEY,
        "AGENT_REQUEST_TIMEOUT": "5",
    }
    for args in (["routing", "status"], ["routing", "test"], ["routing", "status", "--json"]):
        res = cli(tmp_path, *args, **env)
        assert HEX_KEY not in res.stdout + res.stderr, args
        assert "Traceback" not in res.stderr
    assert _hits(tmp_path, HEX_KEY) == {}


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("my password is hunter2!x", "hunter2!x"),
        ("the vault token Zk29fj3kLq1 expired", "Zk29fj3kLq1"),
        ("Incorrect API key provided: 0123456789abcdef0123456789abcdef.", "0123456789abcdef0123"),
        (
            "auth header rejected, key was " + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3",
            "QUJDREVGR0hJSktM",
        ),
        ("connect to https://bob:pa55w0rd@proxy.local:8080/v1 failed", "pa55w0rd"),
    ],
)
def test_prose_forms_of_secrets_are_redacted(text: str, secret: str) -> None:
    assert secret not in scrub(text)


@pytest.mark.parametrize(
    "text",
    [
        "The password is required for the admin pane.",
        "A token budget of 700 tokens per brief.",
        "Skip the 32-character hex dump 0123456789abcdef0123456789abcdef in the report.",
    ],
)
def test_prose_about_secrets_survives(text: str) -> None:
    assert scrub(text) == text


def test_the_tui_logs_into_the_one_rotated_scrubbed_log(tmp_path: Path, monkeypatch) -> None:
    from engine import logs
    from engine.logs import log_path
    from worldforge_tui.boot import log, setup_file_log

    monkeypatch.setenv("WORLDFORGE_HOME", str(tmp_path))
    monkeypatch.setattr(logs, "MAX_BYTES", 4_000)  # the handler for this home is made below
    Settings(local_agent_api_key=ODD_KEY)  # configured keys are redacted by value
    setup_file_log()
    log.error("worker crashed; presented %s", ODD_KEY)
    text = log_path().read_text(encoding="utf-8")
    assert "worker crashed" in text and ODD_KEY not in text
    assert [p.name for p in tmp_path.rglob("*.log")] == ["worldforge.log"]  # no tui.log
    for n in range(60):  # ~12 kB through a 4 kB file: it rotates, keeping BACKUPS old files
        log.info("line %d %s", n, "x" * 180)
    names = sorted(p.name for p in log_path().parent.iterdir())
    assert names == ["worldforge.log"] + [f"worldforge.log.{i}" for i in range(1, logs.BACKUPS + 1)]
