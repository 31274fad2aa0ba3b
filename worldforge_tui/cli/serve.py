"""`worldforge serve`: the game in a browser through textual-serve (the optional `serve` extra).

Each browser tab runs its own `worldforge play` process behind a web driver; the server listens on
loopback unless told otherwise, and warns when told to listen wider (no sign-in: every visitor
gets a game process). A busy port or a foreign address is named as such, in one line; without
textual-serve installed the command says how to add it with the tool that installed WorldForge.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import shlex
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from worldforge_tui.cli import save_dir_option, whole_number

if TYPE_CHECKING:
    from worldforge_tui.cli import Subcommands


def register(subparsers: Subcommands) -> None:
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
    serve.add_argument(
        "--port",
        type=whole_number("port", 1, 65535),
        default=8000,
        help="port to listen on (default 8000)",
    )
    save_dir_option(serve)
    serve.set_defaults(func=cmd_serve)


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


def bind_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on (host, port), in one line, or None when it can."""
    try:
        ip = ipaddress.ip_address(host.strip("[]"))  # an address needs no name lookup
        family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
        address: tuple[str, int] | tuple[str, int, int, int] | tuple[int, bytes] = (str(ip), port)
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        except (socket.gaierror, UnicodeError):
            return f"cannot listen on {host!r}: no such host name or address"
        family, address = infos[0][0], infos[0][4]
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        try:
            sock.bind(address)
        except OSError as err:
            return _bind_line(err, host, port)
    return None


def _bind_line(err: OSError, host: str, port: int) -> str:
    if err.errno == errno.EADDRINUSE:
        return f"port {port} on {host} is already in use (another server?): choose one with --port"
    if err.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this machine: use --host 127.0.0.1"
    if err.errno == errno.EACCES:
        return f"port {port} needs privileges here: choose one above 1023 with --port"
    return f"cannot listen on {host}:{port}: {err.strerror or type(err).__name__}"


def cmd_serve(args: argparse.Namespace) -> int:
    from worldforge_azurehttp import is_loopback_host
    from worldforge_tui.cli import CliError, warn

    try:
        from textual_serve.server import Server
    except ImportError:
        from engine.version import install_hint

        raise CliError(f"serve needs textual-serve: {install_hint('serve')}") from None
    problem = bind_problem(args.host, args.port)
    if problem:
        raise CliError(problem)
    if not is_loopback_host(args.host):
        warn(
            f"serving on {args.host}: anyone who can reach this machine gets a game process of "
            "their own, with no sign-in (use --host 127.0.0.1 to keep it to this machine)"
        )
    command = play_command(args.save_dir, getattr(args, "env_file", None))
    server = Server(command, host=args.host, port=args.port, title="WorldForge")
    print(f"WorldForge on http://{args.host}:{args.port} (ctrl+c stops it)", file=sys.stderr)
    try:
        server.serve()
    except OSError as err:  # lost the port between the check and the server's own bind
        raise CliError(_bind_line(err, args.host, args.port)) from None
    return 0
