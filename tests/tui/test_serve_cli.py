"""`worldforge serve` before it serves: a busy port is named as such, a non-loopback host is
warned about, and the install hint matches the tool that installed WorldForge."""

from __future__ import annotations

import socket

import pytest

from engine.version import install_hint
from worldforge_azurehttp import is_loopback_host
from worldforge_tui.cli import main
from worldforge_tui.cli.serve import bind_problem

pytest.importorskip("textual_serve", reason="the serve extra (textual-serve) is not installed")


def test_a_busy_port_is_named_as_such(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        f"worldforge: error: port {port} on 127.0.0.1 is already in use (another server?): "
        "choose one with --port"
    )
    assert "WorldForge home" not in line


def test_a_foreign_address_is_named(capsys):
    assert bind_problem("192.0.2.1", 8000) == (
        "192.0.2.1 is not an address of this machine: use --host 127.0.0.1"
    )


def test_a_non_loopback_host_is_warned_about(monkeypatch, capsys):
    from textual_serve import server

    served = []
    monkeypatch.setattr(server.Server, "serve", lambda self, debug=False: served.append(self.host))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    assert main(["serve", "--host", "0.0.0.0", "--port", port]) == 0
    err = capsys.readouterr().err.splitlines()
    assert served == ["0.0.0.0"]
    assert err[0].startswith("worldforge: warning: serving on 0.0.0.0: anyone who can reach")
    assert "no sign-in" in err[0]
    assert main(["serve", "--port", port]) == 0
    assert "warning" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.4", False),
        ("example.org", False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback_host(host) is loopback


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        ("/home/a/.local/share/pipx/venvs/worldforge-tui", "pipx install --force"),
        ("/home/a/.local/share/uv/tools/worldforge-tui", "uv tool install --reinstall"),
    ],
)
def test_install_hint_follows_the_installer(monkeypatch, prefix, expected):
    monkeypatch.setattr("sys.prefix", prefix)
    assert install_hint("serve") == f"{expected} 'worldforge-tui[serve]'"


def test_install_hint_in_a_plain_venv_uses_this_python(monkeypatch):
    import sys

    hint = install_hint("cosmos")
    assert hint.endswith("'worldforge-tui[cosmos]'") and sys.executable in hint
