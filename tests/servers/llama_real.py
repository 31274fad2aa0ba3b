"""The real llama-cpp-python server (llama.cpp's engine) on a free loopback port, for integration tests
and bench/local_real.py.

It runs from its own venv (`make llm-runtime` builds `.venv-llm` from the wheel in
../shared/runtimes), so the game's venv never carries it; WORLDFORGE_LLM_PYTHON names another
interpreter that has it. The model is the tiny random-weight GGUF that `make_tiny_gguf.py` writes,
with merges learned from the game's playbooks. The server gives it an 8192-token context: a venture
that lives to stage 6 sends a TAKE brief (its memory, binding directions and schema) over 4096 of the
tiny model's tokens, which the router then labels "context too long" and falls back.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODEL_ALIAS = "tiny"
N_CTX = 8192
START_TIMEOUT = 90.0


def runtimes_dir() -> Path:
    """Where the wheel and make_tiny_gguf.py live: WORLDFORGE_RUNTIMES, else ../shared/runtimes."""
    env = os.environ.get("WORLDFORGE_RUNTIMES", "").strip()
    return Path(env) if env else ROOT.parent / "shared" / "runtimes"


def llm_python() -> Path | None:
    """An interpreter with llama_cpp.server installed, or None."""
    env = os.environ.get("WORLDFORGE_LLM_PYTHON", "").strip()
    candidates = [Path(env)] if env else [ROOT / ".venv-llm" / "bin" / "python"]
    return next((p for p in candidates if p.is_file()), None)


def unavailable_reason() -> str | None:
    """Why the real server cannot run here (one line), or None when it can."""
    maker = runtimes_dir() / "make_tiny_gguf.py"
    python = llm_python()
    if python is None or not maker.is_file():
        return (
            f"real llama.cpp server not installed: run `make llm-runtime` (needs the "
            f"llama_cpp_python wheel and make_tiny_gguf.py in {runtimes_dir()})"
        )
    check = subprocess.run(
        [str(python), "-c", "import llama_cpp.server, gguf"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if check.returncode != 0:
        last = (check.stderr.strip().splitlines() or ["?"])[-1]
        return f"llama_cpp.server does not import in {python}: {last[:200]}"
    return None


def build_model(out: Path) -> Path:
    """Write the tiny GGUF (vocabulary merges from the game's playbooks) to `out`."""
    python = llm_python()
    assert python is not None
    subprocess.run(
        [str(python), str(runtimes_dir() / "make_tiny_gguf.py"), str(out), "--corpus", *_corpus()],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return out


def _corpus() -> list[str]:
    return sorted(str(p) for p in (ROOT / "knowledge" / "playbooks").glob("*.md"))


def cached_model() -> Path:
    """The tiny GGUF, built once per content of its inputs and kept between test processes (the
    maker is seeded, so the same script and playbooks give the same bytes): each module that
    starts a server, on each xdist worker, used to spend seconds of CPU building it again.
    WORLDFORGE_TEST_CACHE overrides where it is kept (~/.cache/worldforge-tests)."""
    digest = hashlib.sha256((runtimes_dir() / "make_tiny_gguf.py").read_bytes())
    for name in _corpus():
        digest.update(name.encode() + b"\0" + Path(name).read_bytes())
    base = os.environ.get("WORLDFORGE_TEST_CACHE") or Path.home() / ".cache" / "worldforge-tests"
    folder = Path(base) / "tiny-gguf"
    model = folder / f"{digest.hexdigest()[:16]}.gguf"
    if not model.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        part = folder / f"{model.stem}.{os.getpid()}.part"
        build_model(part)
        os.replace(part, model)  # atomic: a worker building at the same time writes the same bytes
    return model


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LlamaServer:
    """A running server: its /v1 base URL, model alias and process."""

    url: str
    model: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_server(model: Path, workdir: Path, *, n_ctx: int = N_CTX) -> LlamaServer:
    """Start `python -m llama_cpp.server` on a free loopback port; wait until /v1/models answers."""
    python = llm_python()
    assert python is not None
    port = _free_port()
    log_path = workdir / f"llama-server-{port}.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [
                str(python),
                "-m",
                "llama_cpp.server",
                "--model",
                str(model),
                "--model_alias",
                MODEL_ALIAS,
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                str(n_ctx),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    server = LlamaServer(f"http://127.0.0.1:{port}/v1", MODEL_ALIAS, proc, log_path)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        try:
            with urllib.request.urlopen(f"{server.url}/models", timeout=2) as resp:
                if MODEL_ALIAS in json.loads(resp.read())["data"][0]["id"]:
                    return server
        except OSError:
            time.sleep(0.2)
    server.stop()
    tail = log_path.read_text(errors="replace")[-1500:]
    raise RuntimeError(f"llama_cpp.server did not start on port {port}:\n{tail}")


@contextmanager
def running_server(workdir: Path) -> Iterator[LlamaServer]:
    """The server on the tiny model (built once, `cached_model`) for a `with` block: started,
    then stopped."""
    server = start_server(cached_model(), workdir)
    try:
        yield server
    finally:
        server.stop()


if __name__ == "__main__":  # `python -m tests.servers.llama_real`: why it can or cannot run
    reason = unavailable_reason()
    sys.stdout.write((reason or f"ready: {llm_python()}") + "\n")
    sys.exit(1 if reason else 0)
