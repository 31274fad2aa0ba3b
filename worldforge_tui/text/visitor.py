"""What a web visitor (`worldforge serve`) may read of a line the game wrote for its host: the
host's paths (config, saves, home), its host name and process ids taken out."""

from __future__ import annotations

import re
from pathlib import Path

_PID = re.compile(r"\bpid \d+( on \S+)?")


def host_names() -> list[str]:
    """The host's own names a line may hold, longest first (a path inside another goes first)."""
    names: set[str] = set()
    try:
        from engine.config import config_dir, log_dir, save_dir

        names.update(str(d()) for d in (config_dir, save_dir, log_dir))
    except Exception:  # noqa: BLE001 - no settings dirs: the home dir still goes
        pass
    names.add(str(Path.home()))
    try:
        from engine.session.lease import HOST

        names.add(HOST)
    except Exception:  # noqa: BLE001 - a host name not known is none to hide
        pass
    return sorted((n for n in names if len(n) > 2), key=len, reverse=True)


def for_visitor(text: str) -> str:
    """`text` with the host's paths shown as `…`, its host name as `the server` and a process
    id (`pid 4242 on box`) as `another process`."""
    if not text:
        return text
    text = _PID.sub("another process", text)
    for name in host_names():
        if name in text:
            text = text.replace(name, "…" if "/" in name or "\\" in name else "the server")
    return text
