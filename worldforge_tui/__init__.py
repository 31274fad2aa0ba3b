"""The WorldForge front ends: the Textual game (`app.run_app`) and the headless `worldforge` CLI.

Importing this package must stay cheap and must not import textual: headless CLI commands load it.
"""
