"""The network guard blocks non-loopback connects before any syscall, and lets loopback through."""

from __future__ import annotations

import socket

import pytest

from tests.netguard import NetworkBlocked, is_loopback


def test_connect_to_private_address_raises_before_sending():
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(NetworkBlocked):
            sock.connect(("10.255.255.1", 80))
        with pytest.raises(NetworkBlocked):
            sock.connect_ex(("10.255.255.1", 80))
        # still unconnected: the guard raised before the real connect ran
        with pytest.raises(OSError):
            sock.getpeername()
    finally:
        sock.close()


def test_create_connection_and_lookup_are_blocked():
    with pytest.raises(NetworkBlocked):
        socket.create_connection(("10.255.255.1", 443), timeout=0.1)
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("example.com", 443)


def test_loopback_is_allowed(fake_openai):
    with socket.create_connection(("127.0.0.1", fake_openai.port), timeout=2):
        pass


@pytest.mark.parametrize(
    ("host", "ok"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("127.9.9.9", True),
        ("10.0.0.1", False),
        ("example.com", False),
        ("0.0.0.0", False),
    ],
)
def test_is_loopback(host, ok):
    assert is_loopback(host) is ok
