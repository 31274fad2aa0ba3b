"""`worldforge locate | runs | export`: where files live, the saved ventures, a venture's report.

Headless (never imports textual). Bad input prints one line and exits 2 (the main CLI's handler).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.language import grammar
from worldforge_tui.cli import json_option, print_json, run_argument, save_dir_option
from worldforge_tui.text.formatting import human_time
from worldforge_tui.text.safe_text import one_line

if TYPE_CHECKING:
    from engine.session.api import GameSession
    from worldforge_tui.cli import Subcommands

KEYMAP_FILENAME = "keymap.json"  # the same name `worldforge_tui.keymap` reads


def register(subparsers: Subcommands) -> None:
    """Add `locate`, `runs` and `export` to the main CLI's subparsers."""
    loc = subparsers.add_parser(
        "locate",
        help="print where settings, saves, logs and keymap live",
        description="Print where WorldForge keeps its files.",
    )
    save_dir_option(
        loc, "the save directory to report (default: WORLDFORGE_HOME or the user data dir)"
    )
    json_option(loc)
    loc.set_defaults(func=cmd_locate)

    runs = subparsers.add_parser(
        "runs",
        help="list saved ventures, newest first",
        description="List saved ventures, newest first.",
    )
    save_dir_option(runs)
    json_option(runs, "print a JSON list")
    runs.set_defaults(func=cmd_runs)

    exp = subparsers.add_parser(
        "export",
        help="write a venture's report card (Markdown)",
        description="Write a venture's report card as Markdown.",
    )
    run_argument(exp)
    exp.add_argument(
        "--out",
        metavar="FILE",
        help="where to write it (default: the save dir's reports/ folder); - writes to stdout",
    )
    exp.add_argument(
        "--otlp",
        metavar="FILE",
        help="write the run as an OTLP/JSON trace (GenAI conventions) instead; - writes to "
        "stdout (the otlp extra)",
    )
    save_dir_option(exp)
    json_option(exp, "print {run_id, path} as JSON")
    exp.set_defaults(func=cmd_export)


def locations(save_dir: str | None = None) -> dict[str, str]:
    """Every path the game reads or writes, by name."""
    from engine.config import config_dir, log_dir, settings_path
    from engine.session.saves import resolve_save_dir
    from worldforge_savedb.db import db_path

    saves = resolve_save_dir(save_dir)
    return {
        "config_dir": str(config_dir()),
        "settings": str(settings_path()),
        "keymap": str(config_dir() / KEYMAP_FILENAME),
        "save_dir": str(saves),
        "save_file": str(db_path(saves)),
        "reports": str(saves / "reports"),
        "logs": str(log_dir()),
    }


def cmd_locate(args: argparse.Namespace) -> int:
    paths = locations(args.save_dir)
    if args.json:
        print_json(paths)
        return 0
    for name, path in paths.items():
        exists = "" if Path(path).exists() else "  (not created yet)"
        print(f"{name.replace('_', ' '):<11} {path}{exists}")
    return 0


def run_rows(save_dir: str | None) -> list[dict[str, Any]]:
    """The saved runs as plain dicts, newest first."""
    from engine.session.api import GameSession

    runs = GameSession.list_runs(save_dir)
    return [run.to_dict() for run in sorted(runs, key=lambda r: r.updated, reverse=True)]


def cmd_runs(args: argparse.Namespace) -> int:
    rows = run_rows(args.save_dir)
    if args.json:
        print_json(rows)
        return 0
    if not rows:
        print("no saved ventures yet (worldforge play starts one)")
        return 0
    print(f"{grammar.count(len(rows), 'venture')}, newest first:")
    for row in rows:
        state = (
            str(row["outcome"]).upper()
            if row["outcome"]
            else f"in progress ({row['phase']}, stage {int(row['stage']) + 1})"
        )
        print(
            f"  {row['run_id']}  {one_line(row['name'], 32):<32} day {row['day']:<4} "
            f"{state:<28} {human_time(row['updated'])}"
        )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from engine.config import Settings
    from engine.routing import Router
    from engine.session.api import GameSession

    with progress(f"exporting {one_line(args.run_id, 40)}"):
        session = GameSession.load(
            args.run_id,
            save_dir=args.save_dir,
            router=Router(Settings(demo_mode="simulation")),
            play=False,  # any rules version: a player may always export what they played
        )
        try:
            if args.otlp:
                return _export_otlp(args, session)
            if args.out == "-":
                from engine.views.report import render_report

                sys.stdout.write(render_report(session.read_model()))
                return 0
            path = session.export_report(args.out)
        finally:
            session.close()
    if args.json:
        print_json({"run_id": args.run_id, "path": str(path)})
    else:
        print(f"report written to {path}")
    return 0


def _export_otlp(args: argparse.Namespace, session: GameSession) -> int:
    """`export RUN --otlp FILE`: the run's trace as OTLP/JSON, from its event log."""
    from engine.errors import InputError
    from engine.views.otlp import otlp_json

    text = otlp_json(args.run_id, session.events())
    if args.otlp == "-":
        sys.stdout.write(text + "\n")
        return 0
    target = Path(args.otlp)
    try:
        target.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {one_line(str(target), 80)}: {exc.strerror}") from exc
    if args.json:
        print_json({"run_id": args.run_id, "otlp": str(target)})
    else:
        print(f"trace written to {target}")
    return 0


@contextmanager
def progress(label: str, *, after: float = 1.0) -> Iterator[None]:
    """Tell a person on stderr that work is going on once it takes longer than `after` seconds:
    a ticking elapsed time on a terminal, one line when stderr is a file; silent for quick work."""
    done = threading.Event()
    started = time.monotonic()
    tty = sys.stderr.isatty()
    shown = threading.Event()

    def tick() -> None:
        if done.wait(after):
            return
        shown.set()
        if not tty:
            sys.stderr.write(f"worldforge: {label}…\n")
            sys.stderr.flush()
            return
        while not done.wait(0.25):
            sys.stderr.write(f"\r{label}… {time.monotonic() - started:.0f} s")
            sys.stderr.flush()

    ticker = threading.Thread(target=tick, name="cli-progress", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join(timeout=1)
        if shown.is_set():
            elapsed = time.monotonic() - started
            sys.stderr.write(
                ("\r" if tty else "worldforge: ") + f"{label}: done in {elapsed:.1f} s\n"
            )
            sys.stderr.flush()
