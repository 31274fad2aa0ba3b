"""The WorldForge front ends: the Textual game (`app.run_app`) and the headless `worldforge` CLI.

Importing this package must stay cheap and must not import textual: headless CLI commands load it.
"""


def version() -> str:
    """The installed package's version (`worldforge --version`, the help screen, logs, reports)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("worldforge-tui")
    except PackageNotFoundError:
        return "0+unknown"
