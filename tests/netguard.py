"""Pytest plugin: any connection to a non-loopback address fails the test before a packet is sent.

Enable for the whole suite with `pytest_plugins = ["tests.netguard"]` in the root conftest. It patches
`socket.socket.connect`/`connect_ex`, `socket.create_connection` and name lookup, so a silent mock miss
or an accidental cloud call fails loudly instead of reaching the network.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


class NetworkBlocked(RuntimeError):
    """Raised instead of opening a connection to a non-loopback host."""


def is_loopback(host: object) -> bool:
    """True for 127.0.0.0/8, ::1, "localhost", and unix-socket paths (not network traffic)."""
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    if not isinstance(host, str):
        return False
    name = host.strip("[]").split("%", 1)[0].lower()
    if name in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _check(sock: socket.socket | None, address: Any) -> None:
    if sock is not None and sock.family not in (socket.AF_INET, socket.AF_INET6):
        return  # AF_UNIX and friends never leave the machine
    host = address[0] if isinstance(address, tuple) and address else address
    if not is_loopback(host):
        raise NetworkBlocked(f"test tried to connect to non-loopback address {address!r}")


@pytest.fixture(autouse=True)
def netguard(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Refuse non-loopback connects and lookups for the duration of each test."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_create = socket.create_connection
    real_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> None:
        _check(self, address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        _check(self, address)
        return real_connect_ex(self, address)

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        _check(None, address)
        return real_create(address, *args, **kwargs)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not is_loopback(host):
            raise NetworkBlocked(f"test tried to resolve non-loopback host {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield
