"""The package's version, for `worldforge --version`, the help screen, logs and reports.

One source: `pyproject.toml` reads `__version__` from here (`[tool.setuptools.dynamic]`), so the
installed distribution's metadata always says the same, and asking costs nothing at run time
(`importlib.metadata` alone took ~0.03 s of every `worldforge` command's start).
"""

from __future__ import annotations

import sys
from pathlib import Path

__version__ = "0.1.0"


def version() -> str:
    """The version of this `worldforge-tui` package."""
    return __version__


def install_hint(extra: str) -> str:
    """How to add an extra (`serve`, `cosmos`) with the tool that installed WorldForge: pipx and
    `uv tool` keep their own environments, where a plain `pip install` never reaches."""
    import shlex  # a hint only: every command's --version imports this module

    prefix = Path(sys.prefix).as_posix()
    spec = f"'worldforge-tui[{extra}]'"
    if "/pipx/venvs/" in prefix:
        return f"pipx install --force {spec}"
    if "/uv/tools/" in prefix:
        return f"uv tool install --reinstall {spec}"
    try:
        from importlib.metadata import distribution

        installer = (distribution("worldforge-tui").read_text("INSTALLER") or "").strip()
    except Exception:  # noqa: BLE001 - not installed as a distribution: the pip line still holds
        installer = ""
    if installer == "uv":
        return f"uv pip install --python {shlex.quote(sys.executable)} {spec}"
    return f"{shlex.quote(sys.executable)} -m pip install {spec}"
