"""`worldforge routing status|test` through the real argparse entry point, against loopback servers."""

from __future__ import annotations

import argparse
import json

from tests.routing.helpers import local_env
from tests.servers.openai_server import refused_url
from worldforge_tui.cli import routing as cli_routing


def _main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="worldforge")
    cli_routing.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_status_json_in_simulation(capsys):
    assert _main(["routing", "status", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["runtime"] == "simulation"
    assert data["roles"]["ops"]["order"] == ["simulation"]
    assert data["tiers"]["local"]["reachable"] is None
    assert _main(["routing", "status"]) == 0
    assert "breaker" not in capsys.readouterr().out  # no model tier: no breaker to speak of


def test_status_reports_reachability(monkeypatch, capsys, fake_openai):
    local_env(monkeypatch, fake_openai.url)
    assert _main(["routing", "status"]) == 0
    out = capsys.readouterr().out
    assert "runtime: local" in out
    assert "reachable" in out and "unreachable" not in out
    assert "local:qwen2.5 → simulation" in out
    assert "breaker    closed on every endpoint" in out


def test_test_exits_1_when_active_tier_is_down(monkeypatch, capsys):
    local_env(monkeypatch, refused_url())
    assert _main(["routing", "test", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False
    local = next(t for t in data["tiers"] if t["tier"] == "local")
    assert local["error"].startswith("unreachable")


def test_test_exits_0_when_tiers_answer(monkeypatch, capsys, fake_openai):
    local_env(monkeypatch, fake_openai.url)
    assert _main(["routing", "test"]) == 0
    assert "all active tiers answered" in capsys.readouterr().out


def test_bad_setting_is_one_line_exit_2(monkeypatch, capsys):
    monkeypatch.setenv("WORLDFORGE_LOCAL_AGENT_BASE_URL", "ftp://nope")
    assert _main(["routing", "status"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "LOCAL_AGENT_BASE_URL" in err


def test_cli_routing_never_imports_textual():
    import subprocess
    import sys

    code = (
        "import sys, worldforge_tui.cli.routing, engine.routing, engine.config; "
        "print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
