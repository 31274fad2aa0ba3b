"""The package's version, for `worldforge --version`, the help screen, logs and reports.

One source: `pyproject.toml` reads `__version__` from here (`[tool.setuptools.dynamic]`), so the
installed distribution's metadata always says the same, and asking costs nothing at run time
(`importlib.metadata` alone took ~0.03 s of every `worldforge` command's start).
"""

from __future__ import annotations

__version__ = "0.1.0"


def version() -> str:
    """The version of this `worldforge-tui` package."""
    return __version__
