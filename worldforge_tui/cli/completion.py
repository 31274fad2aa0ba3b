"""`worldforge completion bash|zsh|fish`: the shell's completion script for every command and
option, generated from the CLI's own parser (shtab), so it never drifts from it.

    worldforge completion bash > ~/.local/share/bash-completion/completions/worldforge
    worldforge completion zsh > "${fpath[1]}/_worldforge"
    worldforge completion fish > ~/.config/fish/completions/worldforge.fish
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from worldforge_tui.cli import Subcommands

SHELLS = ("bash", "zsh", "fish")


def register(subparsers: Subcommands) -> None:
    """Add `completion` to the main CLI's subparsers."""
    comp = subparsers.add_parser(
        "completion",
        help="print the shell completion script (bash, zsh or fish)",
        description="Print the completion script for a shell; see the README for where it goes.",
    )
    comp.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    comp.set_defaults(func=cmd_completion)


def cmd_completion(args: argparse.Namespace) -> int:
    import shtab

    from worldforge_tui.cli import build_parser

    sys.stdout.write(shtab.complete(build_parser(), shell=args.shell))
    return 0
