"""`worldforge serve`: the game in a browser through textual-serve (the optional `serve` extra).

Each browser tab runs its own `worldforge play` process behind a web driver; the server listens on
loopback unless told otherwise. Without textual-serve installed the command says how to add it.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add `serve` to the main CLI's subparsers."""
    serve = subparsers.add_parser(
        "serve",
        help="play in a web browser (needs the serve extra)",
        description="Serve the game to a web browser with textual-serve.",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    serve.add_argument(
        "--save-dir", help="where saves live (default: WORLDFORGE_HOME or the user data dir)"
    )
    serve.set_defaults(func=cmd_serve)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a number, not {text[:20]!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError("port must be from 1 to 65535")
    return value


def play_command(save_dir: str | None, env_file: str | None = None) -> str:
    """The command each browser session runs: this Python, this package, the game (with the
    same --env file as `serve`)."""
    argv = [sys.executable, "-m", "worldforge_tui.cli"]
    if env_file:
        argv += ["--env", str(Path(env_file).expanduser().absolute())]
    argv.append("play")
    if save_dir:
        argv += ["--save-dir", save_dir]
    return shlex.join(argv)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from textual_serve.server import Server
    except ImportError:
        from worldforge_tui.cli import CliError

        raise CliError("serve needs textual-serve: pip install 'worldforge-tui[serve]'") from None
    command = play_command(args.save_dir, getattr(args, "env_file", None))
    server = Server(command, host=args.host, port=args.port, title="WorldForge")
    print(f"WorldForge on http://{args.host}:{args.port} (ctrl+c stops it)", file=sys.stderr)
    server.serve()
    return 0
