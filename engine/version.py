"""The installed package's version, for `worldforge --version`, the help screen, logs and reports."""

from __future__ import annotations


def version() -> str:
    """The version of the installed `worldforge-tui` distribution (`0+unknown` from a bare copy)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("worldforge-tui")
    except PackageNotFoundError:
        return "0+unknown"
