"""`worldforge serve` on loopback, loaded by a real headless Chromium: the board reaches the browser.

The page draws the terminal on a canvas, so the test reads what the browser received: it drives
Chromium over the DevTools protocol and collects the websocket frames the page gets from the game,
until the board's pane titles and the action bar have arrived. Chromium comes from the OS packages,
installed by the set-up step (`make test-setup`, where the machine allows: root with apt-get), never
by a test; without it the test is skipped with one reason.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="the serve extra (textual-serve) is not installed")
aiohttp = pytest.importorskip("aiohttp", reason="aiohttp (textual-serve's server) is missing")

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find_browser() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


@pytest.fixture(scope="module")
def browser() -> str:
    path = find_browser()
    if path is None:
        pytest.skip("no Chromium on PATH: `make test-setup` installs it where apt-get runs as root")
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited early: {proc.stderr.read().decode()[-400:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("serve did not listen in time")


@pytest.fixture
def served(tmp_path):
    port = free_port()
    env = {**os.environ, "WORLDFORGE_HOME": str(tmp_path), "DEMO_MODE": "simulation"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "worldforge_tui.cli",
            "serve",
            "--port",
            str(port),
            "--save-dir",
            str(tmp_path),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start_chromium(path: str, profile: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Headless Chromium with DevTools on a loopback port; returns (process, browser ws url)."""
    proc = subprocess.Popen(
        [
            path,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            "--window-size=1200,800",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline().decode(errors="replace")
        found = re.search(r"DevTools listening on (ws://\S+)", line)
        if found:
            return proc, found.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    pytest.skip("Chromium did not start its DevTools endpoint here")


ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]")


def frame_text(response: dict[str, object]) -> str:
    """The text a websocket frame carries (binary frames arrive base64-encoded), escapes removed."""
    payload = str(response.get("payloadData", ""))
    if response.get("opcode") == 2:
        payload = base64.b64decode(payload).decode("utf-8", errors="replace")
    return ANSI.sub("", payload)


async def frames_seen(browser_ws: str, url: str, want: tuple[str, ...], limit: float = 90.0) -> str:
    """Open `url` in a new tab and collect the websocket text it receives until `want` all show."""
    port = int(browser_ws.split(":")[2].split("/")[0])
    async with aiohttp.ClientSession() as http:
        async with http.put(f"http://127.0.0.1:{port}/json/new?about:blank") as response:
            page = json.loads(await response.text())
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            seq = 0

            async def send(method: str, **params: object) -> None:
                nonlocal seq
                seq += 1
                await ws.send_json({"id": seq, "method": method, "params": params})

            await send("Network.enable")
            await send("Page.enable")
            await send("Page.navigate", url=url)
            received: list[str] = []
            deadline = time.monotonic() + limit
            while time.monotonic() < deadline:
                try:
                    message = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
                except TimeoutError:
                    break
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                data = json.loads(message.data)
                if data.get("method") == "Network.webSocketFrameReceived":
                    received.append(frame_text(data["params"]["response"]))
                    text = "".join(received)
                    if all(word in text for word in want):
                        return text
            return "".join(received)


def test_serve_shows_the_board_in_headless_chromium(served, browser, tmp_path):
    proc, browser_ws = start_chromium(browser, tmp_path / "profile")
    try:
        text = asyncio.run(frames_seen(browser_ws, served, ("Story", "Replay log", "New venture")))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert text, "the page never opened the game's websocket"
    # the board's panes and the new-venture form (the first thing a player sees) reached the page
    for word in ("Story", "Replay log", "New venture", "Pitch"):
        assert word in text, f"{word!r} never reached the browser"


def test_serve_without_the_extra_says_how_to_add_it(monkeypatch, capsys):
    import builtins

    real_import = builtins.__import__

    def no_serve(name, *args, **kwargs):
        if name.startswith("textual_serve"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_serve)
    from worldforge_tui.cli import main

    assert main(["serve", "--port", "1"]) == 2
    assert "worldforge-tui[serve]" in capsys.readouterr().err
