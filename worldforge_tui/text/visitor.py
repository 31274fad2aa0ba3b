"""What a web visitor (`worldforge serve`) may read of a line the game wrote for its host: the
host's paths (config, saves, logs, home), its host name, process ids and the URLs its settings
hold taken out, each shown as a neutral placeholder (`<save dir>`, `the server`, `<server URL>`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

_PID = re.compile(r"\bpid \d+( on \S+)?")
# A URL, or a bare host:port on the loopback (what an endpoint error quotes).
_URL = re.compile(
    r"\b[a-z][a-z0-9+.-]*://[^\s'\"<>)\]]+"
    r"|\b(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\]):\d+[^\s'\"<>)\]]*",
    re.IGNORECASE,
)
SERVER_URL = "<server URL>"


def host_names(places: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """The host's own names a line may hold and what a visitor sees instead, longest first (a
    path inside another goes first). `places` adds paths of this session (its save dir)."""
    names: dict[str, str] = {str(Path.home()): "~"}
    try:
        from engine.config import config_dir, log_dir, save_dir

        config, saves = str(config_dir()), str(save_dir())
        names[config] = "<config dir>"
        names[saves] = "<save dir>" if saves != config else "<game dir>"  # WORLDFORGE_HOME
        names[str(log_dir())] = "<log dir>"
    except Exception:  # noqa: BLE001 - no settings dirs: the home dir still goes
        pass
    names.update(places or {})
    try:
        from engine.session.lease import HOST

        names[HOST] = "the server"
    except Exception:  # noqa: BLE001 - a host name not known is none to hide
        pass
    return sorted(((n, s) for n, s in names.items() if len(n) > 2), key=lambda p: -len(p[0]))


def without_urls(text: str, typed: Iterable[str] = ()) -> str:
    """`text` with every URL (and loopback host:port) shown as `<server URL>`, except the ones
    the visitor typed themselves."""
    kept = {t.strip() for t in typed if t and t.strip()}
    return _URL.sub(lambda m: m.group(0) if m.group(0) in kept else SERVER_URL, text)


def for_visitor(
    text: str, places: Mapping[str, str] | None = None, *, urls: Iterable[str] | None = None
) -> str:
    """`text` with the host's paths as placeholders (`<save dir>`, `<config dir>`, `~`), its host
    name as `the server` and a process id (`pid 4242 on box`) as `another process`. With `urls`
    (the URLs the visitor typed), every other URL goes too."""
    if not text:
        return text
    text = _PID.sub("another process", text)
    if urls is not None:
        text = without_urls(text, urls)
    for name, shown in host_names(places):
        if name in text:
            text = text.replace(name, shown)
    return text
