"""The WorldForge front ends: the Textual game (`app.run_app`) and the headless `worldforge` CLI.

Importing this package must stay cheap and must not import textual: headless CLI commands load it.
"""


def version() -> str:
    """The installed package's version (one source: `engine.version`)."""
    from engine.version import version as engine_version

    return engine_version()
