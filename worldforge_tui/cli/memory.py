"""`worldforge memory show|recall|prune|consolidate|forget|audit`: inspect and manage a run's memory.

Thin front end over the run's memory store (`memory.contract.MemoryBackend`); no textual import.
Errors print one line (`worldforge: error: …`) and return 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.errors import GameError
from engine.language import grammar
from worldforge_tui.cli import CliError, json_option, save_dir_option
from worldforge_tui.text.safe_text import first_line

if TYPE_CHECKING:
    # the store and SQLite load when a memory command runs, not for `--help`
    import sqlite3

    from engine.config import Settings
    from engine.session.api import GameSession
    from memory.contract import MemoryBackend
    from memory.models import ConsolidationResult, ForgetReport, PruneReport
    from worldforge_tui.cli import Subcommands

COSMOS_PENDING = (
    "; Cosmos copy pending: Cosmos did not answer, its copy is deleted by the next session or"
    " command that reaches it"
)


def register(subparsers: Subcommands) -> argparse.ArgumentParser:
    """Add the `memory` sub-command (and its actions) to the main CLI's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "memory",
        help="inspect and manage a run's binding memory",
        description="Inspect and manage a run's binding memory.",
    )
    actions = parser.add_subparsers(dest="memory_action", metavar="ACTION", required=True)

    def action(name: str, text: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = actions.add_parser(name, help=text, description=text)
        p.add_argument(
            "run", nargs="?", metavar="RUN", help="the venture's run id (see `worldforge runs`)"
        )
        p.add_argument(
            "--run", dest="run_flag", metavar="RUN_ID", help="the run id, as a flag (same as RUN)"
        )
        save_dir_option(p)
        json_option(p, "print JSON")
        p.set_defaults(func=run)
        return p

    def day(p: argparse.ArgumentParser) -> None:
        p.add_argument("--day", type=int, metavar="DAY", help="game day (default: the run's day)")

    def take_over(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--take-over",
            action="store_true",
            help="take the run from a window that has been silent for 30 s (stopped or hung);"
            " that window then saves nothing. Never taken from a live one",
        )

    action("show", "list the run's memories grouped by kind")
    p = action("recall", "show the <campaign_memory> block a brief would get")
    p.add_argument("--query", required=True, metavar="TEXT", help="what the brief is about")
    p.add_argument(
        "--limit", type=int, default=12, metavar="N", help="at most this many memories (default 12)"
    )
    p.add_argument(
        "--budget",
        type=int,
        default=700,
        metavar="TOKENS",
        help="token budget of the block (default 700)",
    )
    day(p)
    p = action("prune", "delete expired, unimportant, non-binding notes")
    p.add_argument("--dry-run", action="store_true", help="list what would go; change nothing")
    day(p)
    take_over(p)
    p = action("consolidate", "fold notes into one reviewed semantic note")
    p.add_argument(
        "--source",
        action="append",
        required=True,
        metavar="ID",
        help="a memory id to fold in (repeat for each)",
    )
    p.add_argument("--summary", required=True, metavar="TEXT", help="the reviewed note's text")
    p.add_argument("--reviewer", required=True, metavar="NAME", help="who reviewed it")
    p.add_argument("--dry-run", action="store_true", help="show the result; change nothing")
    day(p)
    take_over(p)
    p = action("forget", "delete the run's memories and events for good (right to deletion)")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.add_argument(
        "--note",
        metavar="ID",
        help="forget only this note (a recorded command: the next brief drops its directions)",
    )
    take_over(p)
    p = action("audit", "show the content-free audit trail")
    p.add_argument("--limit", type=int, metavar="N", help="only the newest N records")
    return parser


def _held_line(session: GameSession, *, take_over: bool) -> str:
    """Take a silent holder's lease when the player asked (`--take-over`) and it may be taken:
    "" then. Otherwise the one line saying who holds the run and what would let this command in."""
    holder = session.holder
    if holder is None or session.forgotten:
        return str(session.read_only_line())
    if holder.expired():
        if take_over and session.try_take_over(confirmed=True):
            return ""
        return (
            f"run {session.state.run_id} is held by {holder.describe()}, silent for "
            f"{holder.silent_for():.0f} s (stopped or hung?): add --take-over to take it "
            "(that window then saves nothing)"
        )
    heard = f", heard from {holder.silent_for():.0f} s ago" if holder.beat is not None else ""
    refused = "--take-over refused: " if take_over else ""
    return (
        f"{refused}run {session.state.run_id} is open in another window ({holder.describe()}"
        f"{heard}); close it there first (only a window silent for 30 s can be taken over)"
    )


def _run_known(conn: sqlite3.Connection, run_id: str) -> bool:
    from engine.session.run_ids import table_exists

    checks = [
        ("memories", "run_id"),
        ("memory_audit", "run_id"),
        ("runs", "run_id"),
        ("events", "run_id"),
    ]
    return any(
        table_exists(conn, t)
        and conn.execute(f"SELECT 1 FROM {t} WHERE {c} = ? LIMIT 1", (run_id,)).fetchone()
        is not None
        for t, c in checks
    )


def _run_day(conn: sqlite3.Connection, run_id: str) -> int:
    """The run's current game day: the saved run row, else its newest event or memory."""
    from engine.session.run_ids import table_exists

    if table_exists(conn, "runs"):
        row = conn.execute("SELECT day FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row is not None:
            return int(row[0])
    best = 0
    for table in ("events", "memories"):
        if table_exists(conn, table):
            row = conn.execute(
                f"SELECT max(game_day) FROM {table} WHERE run_id = ?", (run_id,)
            ).fetchone()
            best = max(best, int(row[0] or 0))
    return best


def _emit(args: argparse.Namespace, data: object, text: str) -> None:
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True))
    else:
        print(text)


def _day(conn: sqlite3.Connection, args: argparse.Namespace) -> int:
    """--day, else the run's own game day."""
    day = getattr(args, "day", None)
    return int(day) if day is not None else _run_day(conn, args.run)


def _pruned(args: argparse.Namespace, rep: PruneReport, verb: str = "pruned") -> None:
    ids = ", ".join(rep.eligible_ids) or "nothing"
    line = f"{verb} {len(rep.eligible_ids)}: {ids}"
    if rep.archived_ids:  # expired notes kept (binding, a profile or important): archived
        archive = "would archive" if rep.status == "dry_run" else "archived"
        line += f"; {archive} {len(rep.archived_ids)} expired: {', '.join(rep.archived_ids)}"
    _emit(args, rep.to_dict(), line)


def _consolidated(args: argparse.Namespace, res: ConsolidationResult) -> None:
    sources = ", ".join(res.source_memory_ids)
    _emit(args, res.to_dict(), f"{res.status}: {res.semantic_memory_id} from {sources}")


def _show(store: MemoryBackend, args: argparse.Namespace) -> None:
    records = store.records()
    counts = store.counts()
    data = {
        "run_id": store.run_id,
        "store": store.store_label(),
        "counts": counts,
        "records": [r.to_dict() for r in records],
    }
    lines = [f"run {store.run_id} · store {store.store_label()} · {sum(counts.values())} live"]
    from memory.models import KINDS

    for kind in KINDS:
        group = [r for r in records if r.kind == kind]
        if not group:
            continue
        lines.append(f"{kind} ({counts[kind]} live)")
        for r in group:
            badge = " [binding]" if kind == "procedural" and r.status == "active" else ""
            if r.superseded_by:
                badge += f" (superseded by {r.superseded_by})"
            lines.append(f"  {r.id} day {r.game_day} {r.status}{badge}: {r.text}")
    _emit(args, data, "\n".join(lines))


def _settings() -> Settings:
    """Offline routing, with the memory backend the user chose (MEMORY_BACKEND, AZURE_COSMOS_*)."""
    from dataclasses import replace

    from engine.config import SettingsFileError, load_settings

    try:
        return replace(load_settings(), demo_mode="simulation")
    except (SettingsFileError, ValueError) as err:
        raise CliError(first_line(err)) from None


def _dispatch(conn: sqlite3.Connection, args: argparse.Namespace) -> None:
    from engine.session.memory_backend import memory_for

    store = memory_for(_settings(), conn, args.run)
    act = args.memory_action
    if act == "show":
        _show(store, args)
    elif act == "recall":
        res = store.recall(
            args.query, game_day=_day(conn, args), budget_tokens=args.budget, limit=args.limit
        )
        _emit(
            args,
            res.to_dict(),
            res.block + f"\n({res.tokens_used}/{res.budget} tokens,"
            f" {len(res.items)} items, {len(res.skipped)} skipped)",
        )
    elif act == "prune" and args.dry_run:
        _pruned(args, store.prune(game_day=_day(conn, args), dry_run=True), "would prune")
    elif act == "consolidate" and args.dry_run:
        _consolidated(args, _store_consolidate(conn, store, args, dry_run=True))
    elif act in ("prune", "consolidate", "forget"):
        _write_command(conn, store, args)
    elif act == "audit":
        rows = store.audit(limit=args.limit)
        _emit(
            args,
            [r.to_dict() for r in rows],
            "\n".join(
                f"{r.seq} {r.ts} day {r.game_day} {r.operation} {r.reason} {','.join(r.memory_ids)}"
                for r in rows
            )
            or "no audit records",
        )
    store.flush_cloud()  # a remote backend's queued audit rows


def _write_command(
    conn: sqlite3.Connection, store: MemoryBackend, args: argparse.Namespace
) -> None:
    """prune, consolidate and forget change the run: they go through the run's game session, so
    they take its lease (refused while another window holds the run) and are recorded commands
    that `replay --verify` re-applies. Memories of an id with no game run behind them (written by
    a script) are handled by the store alone."""
    from engine.session.saves import run_exists

    if not run_exists(conn, args.run):
        _store_only(conn, store, args)
        return
    from engine.routing import Router
    from engine.session.api import GameSession
    from engine.session.commands import Consolidate, ForgetNote, Prune
    from engine.session.saves import resolve_save_dir

    day = getattr(args, "day", None)
    if day is not None and day != _run_day(conn, args.run):
        raise CliError(
            "--day applies to dry runs only: a change to a game run happens on the "
            "run's own game day"
        )
    session = GameSession.load(  # any rules version: a player may always prune or forget
        args.run,
        save_dir=resolve_save_dir(args.save_dir),
        router=Router(_settings()),
        play=False,
    )
    try:
        if session.read_only:
            refused = _held_line(session, take_over=bool(getattr(args, "take_over", False)))
            if refused:
                raise CliError(refused)
        act = args.memory_action
        if act == "forget" and args.note is not None:
            _forgot_note(args, session.execute(ForgetNote.typed(args.note)))
        elif act == "prune":
            _pruned(args, session.give(Prune))
        elif act == "consolidate":
            _consolidated(
                args, session.execute(Consolidate.typed(args.source, args.summary, args.reviewer))
            )
        else:
            gone = session.forget_run()
            reports = gone["reports_deleted"]
            deleted = [grammar.count(gone["memories"], "memory")]
            deleted.append(grammar.count(gone["events"], "event"))
            deleted += [grammar.count(len(reports), "exported report")] if reports else []
            _forgot_run(args, gone, deleted, "; copies of reports saved elsewhere are not tracked")
    finally:
        session.close()


def _store_consolidate(
    conn: sqlite3.Connection, store: MemoryBackend, args: argparse.Namespace, *, dry_run: bool
) -> ConsolidationResult:
    return store.consolidate(
        args.source,
        summary=args.summary,
        reviewer=args.reviewer,
        game_day=_day(conn, args),
        dry_run=dry_run,
    )


def _store_only(conn: sqlite3.Connection, store: MemoryBackend, args: argparse.Namespace) -> None:
    act = args.memory_action
    if not any(store.counts().values()) and not store.records():
        # a forgotten run leaves only its content-free audit rows: a forget is final, and
        # nothing more is written under its id (not even another audit row)
        raise CliError(f"run {args.run} has nothing left to {act}: it was forgotten or is empty")
    if act == "prune":
        _pruned(args, store.prune(game_day=_day(conn, args), dry_run=False))
    elif act == "consolidate":
        _consolidated(args, _store_consolidate(conn, store, args, dry_run=False))
    elif args.note is not None:
        try:
            rep = store.forget_note(args.note, game_day=_day(conn, args))
        except KeyError:
            raise CliError(f"no note {args.note[:80]!r} in run {args.run[:80]}") from None
        _forgot_note(args, rep)
    else:
        from engine.session.events import forget_run
        from engine.session.saves import delete_run
        from worldforge_savedb.db import transaction

        with transaction(conn):
            gone = store.forget_run(compact=False)
            forget_run(conn, args.run)
            delete_run(conn, args.run)
        gone.compacted = store.compact()
        data = {**gone.to_dict(), "cosmos_pending": store.forget_pending()}
        _forgot_run(args, data, [grammar.count(gone.deleted, "memory")])


def _forgot_run(
    args: argparse.Namespace, gone: Mapping[str, object], deleted: list[str], tracked: str = ""
) -> None:
    """The one line a forgotten run prints, by the session or by the store alone."""
    wal = "" if gone["compacted"] else " (another reader kept the WAL; run again to compact)"
    pending = COSMOS_PENDING if gone.get("cosmos_pending") else ""
    line = f"forgot run {gone['run_id']}: {', '.join(deleted)} deleted{wal}{tracked}{pending}"
    _emit(args, gone, line)


def _forgot_note(args: argparse.Namespace, rep: ForgetReport) -> None:
    _emit(
        args, {**rep.to_dict(), "note": args.note}, f"forgot note {args.note} of run {rep.run_id}"
    )


def _confirm_forget(run_id: str) -> None:
    """Ask before deleting for good; without a terminal to ask on, refuse (use --yes)."""
    if not sys.stdin.isatty():
        raise CliError("memory forget deletes the run's memories for good: add --yes to confirm")
    sys.stderr.write(
        f"Forget every memory and event of run {run_id[:80]}? This cannot be undone. [y/N] "
    )
    sys.stderr.flush()
    if sys.stdin.readline().strip().lower() not in ("y", "yes"):
        raise CliError("nothing forgotten")


def run(args: argparse.Namespace) -> int:
    """Handle `worldforge memory …`; 0 on success, 2 with one error line on bad input."""
    if args.run is None:  # (argparse refuses `memory` without an ACTION)
        args.run = args.run_flag
    elif args.run_flag is not None and args.run_flag != args.run:
        raise CliError("two different run ids (RUN and --run): give one")
    if args.run is None:
        act = args.memory_action
        raise CliError(
            f"memory {act} needs a run id: worldforge memory {act} RUN (see `worldforge runs`)"
        )
    import sqlite3

    # the engine's and the memory's tables are ensured (an older save migrated) by connect() once
    # their modules are imported
    import memory.local.schema  # noqa: F401
    from engine.session.saves import resolve_save_dir
    from worldforge_savedb.db import connect, db_path

    try:
        path = db_path(resolve_save_dir(args.save_dir))
        try:
            looks = args.memory_action in ("show", "recall", "audit")
            looks = looks or bool(getattr(args, "dry_run", False))
            conn = connect(path, create=False, readonly=looks)  # looking never writes
        except FileNotFoundError:
            raise CliError(f"no save file at {path}") from None
        try:
            if not _run_known(conn, args.run):
                raise CliError(f"unknown run id {args.run[:80]!r} in {path.parent}")
            if args.memory_action == "forget" and not args.yes and args.note is None:
                _confirm_forget(args.run)
            _dispatch(conn, args)
        finally:
            conn.close()
    except (CliError, GameError, ValueError, KeyError, PermissionError, sqlite3.Error) as exc:
        print(f"worldforge: error: {first_line(exc, None)}", file=sys.stderr)
        return 2
    return 0
