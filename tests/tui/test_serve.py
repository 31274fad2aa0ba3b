"""`worldforge serve` on loopback, driven by a real headless Chromium: the board reaches the browser,
and a player founds a venture, approves the first artifact and chooses its fork by key.

The page draws the terminal on a canvas, so the test reads what the browser received: it drives
Chromium over the DevTools protocol (keys and a click as input events) and collects the websocket
frames the page gets from the game until the words of each step have arrived; the save file then
shows the approval and the decision. Chromium comes from the OS packages,
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
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

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


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def served(tmp_path):
    port = free_port()
    env = {**os.environ, "WORLDFORGE_HOME": str(tmp_path), "WORLDFORGE_DEMO_MODE": "simulation"}
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
        stop(proc)


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


class Page:
    """One Chromium tab over the DevTools protocol: navigate, press keys, read the game's frames."""

    def __init__(self, ws: Any) -> None:
        self.ws, self.seq, self.text = ws, 0, ""

    async def send(self, method: str, **params: object) -> None:
        self.seq += 1
        await self.ws.send_json({"id": self.seq, "method": method, "params": params})

    async def until(self, *want: str, limit: float = 90.0) -> None:
        """Collect frames until every word in `want` has arrived since the last call."""
        start, deadline = len(self.text), time.monotonic() + limit
        while time.monotonic() < deadline:
            if all(word in self.text[start:] for word in want):
                return
            try:
                message = await self.ws.receive(timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if data.get("method") == "Network.webSocketFrameReceived":
                self.text += frame_text(data["params"]["response"])
        missing = [w for w in want if w not in self.text[start:]]
        raise AssertionError(f"never reached the browser: {missing}; last: {self.text[-300:]!r}")

    async def key(self, key: str, code: str, vk: int, text: str) -> None:
        """One key press as the terminal's page sees it (down with its text, then up)."""
        await self.send(
            "Input.dispatchKeyEvent",
            type="keyDown",
            key=key,
            code=code,
            windowsVirtualKeyCode=vk,
            text=text,
            unmodifiedText=text,
        )
        await self.send("Input.dispatchKeyEvent", type="keyUp", key=key, code=code)

    async def type(self, text: str) -> None:
        await self.send("Input.insertText", text=text)


async def in_a_tab(browser_ws: str, url: str, steps: Callable[[Page], Awaitable[None]]) -> None:
    """Open `url` in a new tab and run `steps` on it."""
    port = int(browser_ws.split(":")[2].split("/")[0])
    async with aiohttp.ClientSession() as http:
        async with http.put(f"http://127.0.0.1:{port}/json/new?about:blank") as response:
            target = json.loads(await response.text())
        async with http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            page = Page(ws)
            await page.send("Network.enable")
            await page.send("Page.enable")
            await page.send("Page.navigate", url=url)
            await steps(page)


async def see_the_board(page: Page) -> None:
    """The board's panes and the new-venture form (the first thing a player sees)."""
    await page.until("Story", "Replay log", "New venture", "Pitch")


async def play_a_stage(page: Page) -> None:
    """Found a venture, approve the first artifact with `a`, choose the fork with `1`: the
    player's first minute, by key, in the browser."""
    await page.until("New venture", "Pitch")
    # Focus the terminal with a click beside the form (the board behind the dialog, two columns
    # in), so the pitch field keeps the focus the form gave it. A click mid-page lands on whichever
    # field is there: since the pitch reading added a line, that is the seed field, which refuses
    # letters, so the typed pitch never showed.
    for kind in ("mousePressed", "mouseReleased"):
        await page.send(
            "Input.dispatchMouseEvent", type=kind, x=20, y=400, button="left", clickCount=1
        )
    await page.type("Repair bookings for independent bike shops")
    await page.until("independent bike", "Reading:")
    await page.key("Enter", "Enter", 13, "\r")
    await page.until("approve", "STAGE_EXECUTED")
    await page.key("a", "KeyA", 65, "a")
    await page.until("ARTIFACT_APPROVED", "DILEMMA_POSED")
    await page.key("1", "Digit1", 49, "1")
    await page.until("Standup")


@pytest.fixture
def chromium(browser, tmp_path):
    """A headless Chromium's DevTools websocket URL, stopped after the test."""
    proc, browser_ws = start_chromium(browser, tmp_path / "profile")
    try:
        yield browser_ws
    finally:
        stop(proc)


def test_serve_shows_the_board_in_headless_chromium(served, chromium):
    asyncio.run(in_a_tab(chromium, served, see_the_board))


def test_serve_plays_a_stage_by_key_in_headless_chromium(served, chromium, tmp_path):
    """A venture started, approved and its fork chosen by key in the browser; the save proves it."""
    asyncio.run(in_a_tab(chromium, served, play_a_stage))
    conn = sqlite3.connect(f"file:{tmp_path / 'worldforge.db'}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT type, payload FROM events ORDER BY id").fetchall()
    finally:
        conn.close()
    types = [t for t, _ in rows]
    assert "RUN_STARTED" in types and "ARTIFACT_APPROVED" in types
    decision = json.loads(next(p for t, p in rows if t == "CEO_DECISION"))
    assert decision.get("option") == "A", decision


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
