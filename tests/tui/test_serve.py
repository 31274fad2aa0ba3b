"""`worldforge serve` on loopback, driven by a real headless Chromium: the board reaches the browser,
and a player founds a venture, approves the first artifact and chooses its fork by key.

The page draws the terminal on a canvas, so the test reads what the browser received: it drives
Chromium over the DevTools protocol (keys and a click as input events) and collects the websocket
frames the page gets from the game until the words of each step have arrived; the save file then
shows the approval and the decision. It also takes Chromium's screenshots (pixels) at two window
sizes and compares them between states (PNG decoded with zlib, no imaging library). Chromium comes from the OS packages,
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

from worldforge_tui.screens.new_venture import HINT

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


PITCH = "Repair bookings for independent bike shops"


async def play_a_stage(page: Page) -> None:
    """Found a venture, approve the first artifact with `a`, choose the fork with `1`: the
    player's first minute, by key, in the browser."""
    # The form is the first screen, drawn before the engine loads (started once the form is
    # drawn); its hint says what Enter does once the engine has loaded: a state the frames
    # show, waited for instead of a time (every key typed into the form is the pitch's).
    await page.until("New venture", "Pitch", HINT.split(" · ")[0])
    # Focus the terminal with a click beside the form (the board behind the dialog, two columns
    # in), so the pitch field keeps the focus the form gave it. A click mid-page lands on whichever
    # field is there: since the pitch reading added a line, that is the seed field, which refuses
    # letters, so the typed pitch never showed.
    for kind in ("mousePressed", "mouseReleased"):
        await page.send(
            "Input.dispatchMouseEvent", type=kind, x=20, y=400, button="left", clickCount=1
        )
    await page.type(PITCH)
    await page.until("independent bike", "Reading:")
    await page.key("Enter", "Enter", 13, "\r")
    await page.until("approve", "STAGE_EXECUTED")
    await page.key("a", "KeyA", 65, "a")
    await page.until("ARTIFACT_APPROVED", "DILEMMA_POSED")
    await page.key("1", "Digit1", 49, "1")
    await page.until("AGENT_STANDUP")  # the standup after the fork, in the replay log


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


# ---- pixels: what headless Chromium draws, compared between states and at two sizes ----------


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes) of an 8-bit, non-interlaced RGB or RGBA PNG (what
    Chromium's screenshots are), decoded with zlib alone."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    step = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * step
    rows: list[bytes] = []
    prior = bytearray(stride)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for x in range(stride):
            a = line[x - step] if x >= step else 0
            b, c = prior[x], prior[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prior = line
        rows.append(bytes(v for i, v in enumerate(line) if i % step < 3))
    return width, height, rows


def ink_grid(rows: list[bytes], width: int, cells: int = 8) -> list[list[float]]:
    """Share of pixels differing from the background (the top-left pixel), per cell of a
    cells×cells grid over the screenshot."""
    background = rows[0][:3]
    height = len(rows)
    grid = [[0.0] * cells for _ in range(cells)]
    for gy in range(cells):
        for gx in range(cells):
            y0, y1 = gy * height // cells, (gy + 1) * height // cells
            x0, x1 = gx * width // cells, (gx + 1) * width // cells
            inked = total = 0
            for y in range(y0, y1, 2):
                row = rows[y]
                for x in range(x0, x1, 2):
                    total += 1
                    inked += row[3 * x : 3 * x + 3] != background
            grid[gy][gx] = inked / max(1, total)
    return grid


def changed_rows(a: list[bytes], b: list[bytes]) -> list[int]:
    """The pixel rows that differ between two screenshots of one size."""
    return [y for y, (ra, rb) in enumerate(zip(a, b, strict=True)) if ra != rb]


class Shots(Page):
    """A tab that also sizes its viewport and takes screenshots."""

    async def call(self, method: str, **params: object) -> dict[str, Any]:
        await self.send(method, **params)
        want = self.seq
        while True:
            message = await self.ws.receive(timeout=60)
            data = json.loads(message.data)
            if data.get("method") == "Network.webSocketFrameReceived":
                self.text += frame_text(data["params"]["response"])
            if data.get("id") == want:
                return dict(data.get("result") or {})

    async def drawn(self) -> None:
        """Wait for the page's own state: the terminal shown (textual-serve marks the body
        `-first-byte` and fades the terminal in) and two animation frames drawn since."""
        await self.call("Runtime.evaluate", expression=DRAWN, awaitPromise=True)

    async def shot(self) -> tuple[int, int, list[bytes]]:
        """A screenshot once the canvas has stopped changing: two in a row, a drawn frame apart,
        are the same (the frames already received are drawn), instead of a fixed wait."""
        last = b""
        for _ in range(40):
            await self.drawn()
            result = await self.call("Page.captureScreenshot", format="png")
            data = base64.b64decode(str(result["data"]))
            if data == last:
                return png_pixels(data)
            last = data
        raise AssertionError("the page never stopped changing")


DRAWN = """new Promise(done => {
  const terminal = document.querySelector('#terminal');
  const shown = () => document.body.classList.contains('-first-byte')
    && getComputedStyle(terminal).opacity === '1';
  const twice = () => requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
  const check = () => shown() ? twice() : requestAnimationFrame(check);
  check();
})"""


SIZES = ((1200, 800), (720, 460))


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_serve_draws_the_board_in_chromiums_pixels(served, chromium, size):
    """Screenshots of the page at two window sizes: the terminal fills the viewport (ink in every
    band, top to bottom and left to right), Escape closing the new-venture form and `?` opening
    the help each redraw a large part of the picture, and closing the help gives back the
    board's pixels exactly."""
    width, height = size

    async def steps(page: Page) -> None:
        assert isinstance(page, Shots)
        await page.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )
        await page.until("New venture", "Pitch")
        w, h, form = await page.shot()
        assert (w, h) == (width, height)
        grid = ink_grid(form, w)
        assert all(max(row) > 0.01 for row in grid), "a band of the page is blank"
        assert all(max(col) > 0.01 for col in zip(*grid, strict=True)), "a column band is blank"
        for kind in ("mousePressed", "mouseReleased"):  # the terminal takes the keys
            await page.send(
                "Input.dispatchMouseEvent", type=kind, x=4, y=4, button="left", clickCount=1
            )
        await page.key("Escape", "Escape", 27, "")
        await page.until("found a company")
        _, _, board = await page.shot()
        assert len(changed_rows(form, board)) > h // 4, "closing the form changed too little"
        await page.key("?", "Slash", 191, "?")
        await page.until("how to play")
        _, _, helped = await page.shot()
        assert len(changed_rows(board, helped)) > h // 4, "the help drew too little"
        await page.key("Escape", "Escape", 27, "")
        await page.until("found a company")
        _, _, again = await page.shot()
        assert changed_rows(board, again) == [], "the board came back other than it was"

    async def run() -> None:
        port = int(chromium.split(":")[2].split("/")[0])
        async with aiohttp.ClientSession() as http:
            async with http.put(f"http://127.0.0.1:{port}/json/new?about:blank") as response:
                target = json.loads(await response.text())
            async with http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                page = Shots(ws)
                await page.send("Network.enable")
                await page.send("Page.enable")
                await page.send("Page.navigate", url=served)
                await steps(page)

    asyncio.run(run())
