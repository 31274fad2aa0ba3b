"""What a local runtime says of its model: its context window (and whether a request fits it
before it is sent), and whether the model is still loading.

Read once per (endpoint, model) from the server where it says: llama.cpp's `/props` (n_ctx), vLLM's
`/v1/models` (max_model_len), LM Studio's `/api/v0/models/{model}` (loaded or max context length),
Ollama's `/api/show` (num_ctx) or `/api/ps` (context_length), else Ollama's own default of 4,096
when the server is Ollama; `LOCAL_CONTEXT_WINDOW` wins when set. A request whose prompt and answer
cap overflow the window has its answer cap lowered to fit; one whose prompt leaves no room for an
answer is not sent, and the player reads why and the setting that raises the window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from engine.routing.target import Target
from worldforge_savedb.records import FrozenRecord

if TYPE_CHECKING:
    from httpx import AsyncClient

OLLAMA_DEFAULT = 4096
MIN_ANSWER = 512  # tokens an artifact needs at the least: below this the call is not worth sending
CHARS_PER_TOKEN = 4  # a floor for the prompt's size (small vocabularies take more tokens)
PER_MESSAGE = 8  # the chat template's tokens around each message
PROBE_S = 2.0  # the whole look-up, once per (endpoint, model), at most
# Every runtime's smallest default window (Ollama's before 0.6): a request within it is sent as is,
# with no look-up.
SAFE_WINDOW = 2048


@dataclass(frozen=True, eq=False, repr=False)
class Window(FrozenRecord):
    """A model's context window in tokens and who said so (for the player's line)."""

    tokens: int
    source: str  # settings | llama.cpp | vllm | lmstudio | ollama | ollama_default


# What raises each runtime's window, in the player's words.
RAISE = {
    "ollama_default": (
        "Ollama's default; set OLLAMA_CONTEXT_LENGTH=8192 (or more) where the Ollama server "
        "runs, or PARAMETER num_ctx in a Modelfile; if it is set already, say so with "
        "LOCAL_CONTEXT_WINDOW"
    ),
    "ollama": "set by num_ctx; raise it in the Modelfile or with OLLAMA_CONTEXT_LENGTH",
    "llama.cpp": "start llama-server with a larger --ctx-size (-c)",
    "vllm": "start vLLM with a larger --max-model-len",
    "lmstudio": "load the model in LM Studio with a larger context length",
    "settings": "LOCAL_CONTEXT_WINDOW says so; set it to what the server really has",
}


def root_of(base_url: str) -> str:
    """The server's root: the OpenAI base URL without its trailing /v1."""
    return re.sub(r"/v1/?$", "", base_url.rstrip("/"))


def prompt_tokens(messages: list[dict[str, str]]) -> int:
    """A floor for the prompt's size in tokens (the server's tokenizer takes at least this)."""
    return sum(len(m.get("content") or "") // CHARS_PER_TOKEN + PER_MESSAGE for m in messages)


@dataclass(frozen=True, eq=False, repr=False)
class Fit(FrozenRecord):
    """What a request may ask for in this window: the answer cap to send, or why not to send."""

    max_tokens: int
    refused: str | None = None
    capped: bool = False


def fit(window: Window, model: str, prompt: int, max_tokens: int) -> Fit:
    """The answer cap that fits `window` after a prompt of `prompt` tokens, or the player's line
    saying it does not fit (the stage needs, the window, who said so, what raises it)."""
    room = window.tokens - prompt
    if room >= max_tokens:
        return Fit(max_tokens)
    if room >= min(MIN_ANSWER, max_tokens):
        return Fit(room, capped=True)
    need = prompt + min(MIN_ANSWER, max_tokens)
    return Fit(
        max_tokens,
        refused=(
            f"this stage needs about {need:,} tokens and {model}'s context window is "
            f"{window.tokens:,} ({RAISE[window.source]}); not sent"
        ),
    )


@dataclass(frozen=True, eq=False, repr=False)
class Budgeted(FrozenRecord):
    """A brief fitted to a window: its messages (recalled lines left out where needed), how many
    were left out, and the answer cap that fits (or why nothing is sent)."""

    messages: list[dict[str, str]]
    dropped: int
    fit: Fit


def budget(
    window: Window,
    model: str,
    messages: list[dict[str, str]],
    recalled: tuple[str, ...],
    max_tokens: int,
) -> Budgeted:
    """Fit the brief to `window`: while its prompt leaves less than an answer's room (the answer
    cap, or MIN_ANSWER at the least), leave out the next of `recalled` (lines of the system
    message, least important first), and say so in the brief itself. The answer cap is then
    lowered to fit, or the brief is refused in one line naming what raises the window."""
    want = min(MIN_ANSWER, max_tokens)
    system = messages[0]["content"] if messages and messages[0].get("role") == "system" else None
    dropped = 0
    if system is not None:
        for line in recalled:
            if window.tokens - prompt_tokens(_with(messages, system, dropped)) >= want:
                break
            if line and line in system:
                system = system.replace(line + "\n", "", 1).replace(line, "", 1)
                dropped += 1
    fitted = _with(messages, system, dropped) if dropped and system is not None else messages
    got = fit(window, model, prompt_tokens(fitted), max_tokens)
    if got.refused is not None and dropped:
        got = Fit(
            got.max_tokens,
            refused=got.refused.replace(
                "; not sent", f"; not sent, even with {dropped} recalled lines left out"
            ),
        )
    return Budgeted(fitted, dropped, got)


def _with(messages: list[dict[str, str]], system: str | None, dropped: int) -> list[dict[str, str]]:
    """`messages` with its system message replaced, and a note of the lines left out."""
    if system is None or not dropped:
        return messages
    note = (
        f"\n\n(Left out to fit the model's context window: {dropped} recalled "
        f"line{'s' if dropped > 1 else ''} of memory or playbook.)"
    )
    return [{**messages[0], "content": system + note}, *messages[1:]]


async def read_window(
    target: Target, client: AsyncClient, configured: int, within: float = 2.0
) -> Window | None:
    """The model's window: the setting when given, else what the server says (None: it does not
    say, or not within `within` seconds). `client` is an httpx AsyncClient."""
    import asyncio  # here: the simulation tier imports this module, never the event loop

    if configured > 0:
        return Window(configured, "settings")
    try:
        async with asyncio.timeout(within):
            for look in (_vllm, _llama_cpp, _lmstudio, _ollama):
                found = await look(target, client)
                if found is not None:
                    return found
    except (TimeoutError, OSError):
        return None
    return None


async def read_loading(target: Target, client: AsyncClient, within: float) -> bool:
    """Whether the server says the model is loading or not loaded yet (this request loads it):
    llama.cpp's /health answers 503 while it loads; Ollama's /api/ps and LM Studio's
    /api/v0/models/{id} list what is loaded. False when it does not say (or not in time)."""
    import asyncio

    root = root_of(target.endpoint)
    try:
        async with asyncio.timeout(within):
            health = await client.get(f"{root}/health")
            if health.status_code == 503 and "load" in health.text.lower():
                return True
            info = await _get(client, f"{root}/api/v0/models/{quote(target.model)}")
            if isinstance(info, dict) and "state" in info:
                return info.get("state") != "loaded"
            if isinstance(await _get(client, f"{root}/api/version"), dict):
                ps = await _get(client, f"{root}/api/ps")
                rows = ps.get("models") if isinstance(ps, dict) else None
                if isinstance(rows, list):
                    names = {
                        r.get(k) for r in rows if isinstance(r, dict) for k in ("name", "model")
                    }
                    return target.model not in names
    except (TimeoutError, OSError):
        return False
    except Exception:  # noqa: BLE001 - a server that says nothing usable says nothing
        return False
    return False


async def _get(client: AsyncClient, url: str, **kw: Any) -> Any:
    """A JSON answer from GET (or POST with `json=`), None on any error status or non-JSON body."""
    try:
        resp = await (client.post(url, **kw) if "json" in kw else client.get(url, **kw))
    except Exception:  # noqa: BLE001 - an endpoint that is not there is an answer too
        return None
    if resp.status_code != 200:
        return None
    try:
        return resp.json()
    except ValueError:
        return None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


async def _vllm(target: Target, client: AsyncClient) -> Window | None:
    data = await _get(client, f"{target.endpoint.rstrip('/')}/models")
    for row in (data or {}).get("data") or () if isinstance(data, dict) else ():
        if isinstance(row, dict) and row.get("id") == target.model:
            size = _int(row.get("max_model_len"))
            return Window(size, "vllm") if size else None
    return None


async def _llama_cpp(target: Target, client: AsyncClient) -> Window | None:
    data = await _get(client, f"{root_of(target.endpoint)}/props")
    if not isinstance(data, dict):
        return None
    settings = data.get("default_generation_settings")
    size = _int(settings.get("n_ctx")) if isinstance(settings, dict) else None
    size = size or _int(data.get("n_ctx"))
    return Window(size, "llama.cpp") if size else None


async def _lmstudio(target: Target, client: AsyncClient) -> Window | None:
    data = await _get(client, f"{root_of(target.endpoint)}/api/v0/models/{quote(target.model)}")
    if not isinstance(data, dict):
        return None
    size = _int(data.get("loaded_context_length")) or _int(data.get("max_context_length"))
    return Window(size, "lmstudio") if size else None


async def _ollama(target: Target, client: AsyncClient) -> Window | None:
    root = root_of(target.endpoint)
    if not isinstance(await _get(client, f"{root}/api/version"), dict):
        return None  # not Ollama
    ps = await _get(client, f"{root}/api/ps")
    for row in (ps or {}).get("models") or () if isinstance(ps, dict) else ():
        if isinstance(row, dict) and target.model in (row.get("name"), row.get("model")):
            size = _int(row.get("context_length"))
            if size:
                return Window(size, "ollama")
    show = await _get(client, f"{root}/api/show", json={"model": target.model})
    params = show.get("parameters") if isinstance(show, dict) else None
    found = re.search(r"(?m)^num_ctx\s+(\d+)", params) if isinstance(params, str) else None
    if found:
        return Window(int(found.group(1)), "ollama")
    return Window(OLLAMA_DEFAULT, "ollama_default")
