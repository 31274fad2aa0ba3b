"""The `worldforge` command: the TUI by default, and headless commands for scripts, balance and CI.

Headless commands never import textual. Bad input gives one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from engine.errors import GameError
from engine.game import ARCHETYPES
from engine.play import POLICIES
from worldforge_textkit.numbers import money, runway

if TYPE_CHECKING:
    import sqlite3
    from typing import TypeAlias

    from engine.game.models import Founder
    from engine.language.pitch import ShownReading
    from engine.session.commands import Flag

    # what each sub-command module's `register` adds its parser to
    Subcommands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]


class CliError(Exception):
    """A usage error: printed as one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, no usage dump
        raise CliError(message)


def whole_number(name: str, lo: int, hi: int, hi_said: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number from `lo` to `hi`, else one line naming the option."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} must be a whole number, not {text[:20]!r}"
            ) from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be from {lo} to {hi_said or hi}")
        return value

    return parse


_seed = whole_number("seed", 0, 2**63 - 1, "2^63-1")
_count = whole_number("--seeds", 1, 1000)


def print_json(obj: object) -> None:
    """One JSON value on stdout, as every `--json` prints it."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False, default=str) + "\n")


SAVES_HELP = "where saves live (default: WORLDFORGE_HOME or the user data dir)"


def save_dir_option(parser: argparse.ArgumentParser, help: str = SAVES_HELP) -> None:
    """`--save-dir`, as every command that reads or writes saves takes it."""
    parser.add_argument("--save-dir", help=help)


def json_option(parser: argparse.ArgumentParser, help: str = "print one JSON object") -> None:
    parser.add_argument("--json", action="store_true", help=help)


def run_argument(parser: argparse.ArgumentParser) -> None:
    """The positional RUN a command acts on."""
    parser.add_argument(
        "run_id", metavar="RUN", help="the venture's run id (see `worldforge runs`)"
    )


def cmd_play(args: argparse.Namespace) -> int:
    from worldforge_tui.app import run_app, theme_names  # textual only for the TUI

    if args.theme is not None and args.theme not in theme_names():
        raise CliError(f"unknown theme {args.theme[:40]!r}; one of: {', '.join(theme_names())}")
    web = bool(os.environ.get("TEXTUAL_DRIVER"))  # `worldforge serve`: a web driver over pipes
    if not web:  # unusable settings: the same one line and exit 2 as every other command
        from engine.config import load_settings

        load_settings()
    if not web and not (sys.stdout.isatty() and sys.stdin.isatty()):
        raise CliError(
            "play needs a terminal (stdin or stdout is not one); for a headless "
            "venture use `worldforge simulate`"
        )
    return run_app(args)


def player_flags() -> dict[str, Flag]:
    """`simulate`'s options, one per player command a headless venture can give."""
    from engine.session.commands import flags

    return flags()


def _decided(decision: dict[str, Any] | None) -> str:
    """A stage's decision on the summary's row: its option and what the workers follow, in
    words (the rule id stays in --json)."""
    if not decision:
        return ""
    from engine.views.render import decision_words
    from worldforge_textkit import clip

    words = decision_words(decision.get("rule_id"), str(decision.get("interpreted") or ""))
    return f"{decision.get('option') or '?'}: {clip(words, 60)}"


def cmd_simulate(args: argparse.Namespace) -> int:
    import gc

    # The modules loaded here live to the end: a collection while they load walks them all and
    # frees nothing (19M instructions, 1.4 % of simulate), and frozen, the venture's collections
    # skip them (-3 %).
    gc.disable()
    try:
        from engine.game.economy import meter_shown
        from engine.play.headless import Plan, play, summary
        from engine.session.api import GameSession
        from engine.views.served import served_lines, tier_warning
        from worldforge_textkit import clip
    finally:
        gc.freeze()
        gc.enable()
    plan = Plan.from_cli(  # validate before writing
        {name: getattr(args, flag.dest) for name, flag in player_flags().items()}
    )
    plan.strict_reading = args.strict_reading
    plan.policy = args.policy or ""
    session = GameSession.start_venture(
        pitch=args.pitch,
        name=args.name,
        archetype=args.archetype,
        seed=args.seed,
        save_dir=args.save_dir,
        reading={k: getattr(args, k) for k in ("customer", "offering", "place", "problem")},
        currency=args.currency,
    )
    code = session.state.founder.currency
    try:
        pitch = pitch_lines(session.state.founder)
        readings: list[dict[str, object]] = []
        unbound = play(session, plan, readings)
        result = {
            **summary(session),
            "pitch": pitch,
            "binds_nothing": unbound,
            "readings": readings,
        }
    finally:
        session.close()
    for said in unbound:  # what the TUI confirms first: a script is told, never asked
        where = f" {said['stage']}" if said["stage"] else ""
        parts = " and ".join(f"“{clip(part, 80)}”" for part in said["parts"])
        verb = "binds" if len(said["parts"]) == 1 else "bind"
        why = " ".join(w for w in said["why"] if w)  # each part's teach-back: how to say it
        warn(
            f"{said['option']}{where}: {parts} {verb} nothing (the gate checks only what binds)"
            + (f". {why}" if why else "")
        )
    if args.json:
        print_json(result)
    else:
        o = result["outcome"]
        print(f"{result['run_id']}: {o['result'].upper()} on day {o['day']} — {o['reason']}")
        sc = result["score"]
        print(f"score {sc['points']}/100 ({sc['grade']}) · ending: {sc['title']}")
        e = result["economics"]
        print(
            f"treasury {money(e['treasury_usd'], code)} · "
            f"revenue {money(e['monthly_revenue_usd'], code)}/mo · "
            f"burn {money(e['monthly_burn_usd'], code)}/mo · {runway(e['runway_months'])} · "
            f"trust {meter_shown('trust', e['trust'])} · "
            f"threat {meter_shown('threat', e['threat'])}"
        )
        for s in result["stages"]:
            d = s["decision"]
            print(
                f"  {s['beat']:<7} score {s['score'] if s['score'] is not None else '-':>3}"
                f"{' DRIFT' if s['drift'] else '      '} redos {s['redos']}  "
                f"{_decided(d)}"
            )
            if s.get("handover"):  # another role's worker shipped it this venture, and why
                print(f"          {s['handover']}")
        for line in result["reshaped"]:  # a stage the company's state added or skipped, and why
            print(f"  ↷ {line}")
        print(f"pitch read as: {describe_reading(pitch)}")  # after the run id line scripts read
        for line in served_lines(result["routing"]):
            print(line)
    warning = tier_warning(result["routing"])
    if warning:
        warn(warning)
        if args.strict_tier:
            return 1
    return 0


def pitch_lines(founder: Founder) -> dict[str, ShownReading]:
    """The pitch as the game read it and as the venture runs it (with --customer etc. applied)."""
    from engine.language.pitch import read_pitch, shown

    return {"read": shown(read_pitch(founder.pitch)), "confirmed": shown(founder.reading())}


def describe_reading(pitch: Mapping[str, ShownReading]) -> str:
    """One line of the confirmed reading ("offering: … · who pays: … · place: …")."""
    c = pitch["confirmed"]
    return " · ".join(
        f"{label}: {value if value is not None else '(none named)'}"
        for label, value in (
            ("offering", c["offering"]),
            ("who pays", c["customer"]),
            ("place", c["place"]),
        )
    ) + (f" · problem: {c['problem']}" if c["problem"] else "")


PER_PATH_DROPS = frozenset({"prefix", "path", "rules", "dilemmas", "events", "reshaped"})


def cmd_balance(args: argparse.Namespace) -> int:
    from engine.play.balance import ALL_PATHS, PathRow, run_balance
    from worldforge_tui.cli.info import progress

    seeds = list(range(args.seed, args.seed + args.seeds))
    rows: list[PathRow] = []
    kinds = len(args.archetype or ARCHETYPES)
    with progress(f"balance: playing {len(seeds) * kinds * len(ALL_PATHS)} fork paths"):
        report = run_balance(
            seeds=seeds, archetypes=args.archetype or None, rows_out=rows if args.per_path else None
        )
    if args.per_path:
        for r in rows:  # a path row without the bookkeeping (its prefix, rules, dilemmas, events)
            line = {"path": r["path"], **{k: v for k, v in r.items() if k not in PER_PATH_DROPS}}
            sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
        return 0
    if args.json:
        print_json(report)
        return 0
    print(
        f"{report['paths']} paths ({len(seeds)} seed(s) x {len(report['archetypes'])} "
        f"archetype(s)): {report['victories']} victories, {report['defeats']} defeats "
        f"(win rate {report['win_rate']:.0%}) in {report['elapsed_s']} s"
    )
    for reason, n in report["defeat_reasons"].items():
        print(f"  {n:>5}  {reason}")
    print(
        f"defeats before stage 6: {report['defeats_before_stage_6']:.0%}; archetypes change "
        f"{report['archetypes_change_outcome']:.0%} of (seed, path) outcomes"
    )
    lad = report["ladder"]
    print(
        f"players: random {lad['random']:.0%}, greedy {lad['greedy']:.0%}, lookahead "
        f"{lad['lookahead']:.0%}, hindsight {lad['hindsight']:.0%} of {lad['pairs']} "
        f"(seed, archetype); a random fork path wins {lad['random_path_mean']:.0%}"
    )
    fp = report["fixed_paths"]
    print(
        f"fixed paths: best {fp['best'][0]['path']} {fp['best'][0]['win_rate']:.0%}, worst "
        f"{fp['worst'][-1]['path']} {fp['worst'][-1]['win_rate']:.0%}, all-A "
        f"{fp['all_a']:.0%}, all-B {fp['all_b']:.0%}"
    )
    for f in report["forks"]:
        b = f["better"]
        print(
            f"  fork {f['fork']}: A better {b['A']:.0%}, B better {b['B']:.0%}, tie "
            f"{b['tie']:.0%} of {f['histories']} histories"
        )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from engine.session.replay import verify
    from engine.session.savefile import open_save
    from engine.session.saves import load_run, resolve_save_dir
    from worldforge_savedb.db import db_path

    path = db_path(resolve_save_dir(args.save_dir))
    if not path.exists():
        raise GameError(f"no save file at {path}")
    if args.stage is not None and args.without is None:
        raise CliError("--stage picks the stage --without re-derives: name a note with --without")
    if args.without is not None and args.verify:
        raise CliError("--without re-derives one stage; run --verify on its own")
    conn = open_save(path, create=False, readonly=True)  # replay re-derives in memory
    try:
        if args.without is not None:
            return _replay_without(conn, args)
        if not args.verify:
            state, inputs = load_run(conn, args.run_id)
            if args.json:
                print_json(
                    {
                        "run_id": args.run_id,
                        "inputs": inputs,
                        "phase": state.phase,
                        "day": state.day,
                    }
                )
            else:
                print(
                    f"{args.run_id}: day {state.day}, {state.phase}; "
                    f"{len(inputs)} recorded command{'s' * (len(inputs) != 1)}"
                )
                for number, record in enumerate(inputs, start=1):
                    print(f"  {number:>3} {json.dumps(record, ensure_ascii=True)[:160]}")
            return 0
        report = verify(conn, args.run_id)
    finally:
        conn.close()
    if args.json:
        print_json(report.model_dump())
    else:
        print(
            f"{report.run_id}: {'OK' if report.ok else 'MISMATCH'} — {report.steps} steps, "
            f"{report.events_checked} events re-derived ({report.mode})"
            + (f"; {report.first_difference}" if report.first_difference else "")
        )
    return 0 if report.ok else 1


def _replay_without(conn: sqlite3.Connection, args: argparse.Namespace) -> int:
    """`replay RUN --without NOTE_ID [--stage N]`: one stage re-derived without the note."""
    from engine.session.without import without

    report = without(conn, args.run_id, args.without, stage=args.stage)
    if args.json:
        print_json(report.model_dump(mode="json"))
    else:
        print(f"{report.run_id}: what if they forgot note {report.note_id}?")
        for line in report.lines():
            print(f"  {line}")
    return 0


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; given a command line that names one of this module's own commands first,
    only that command's parser (argparse hands every later word to it, so no other can be reached:
    the other commands' parsers and the memory, routing, info and serve modules are ~2 % of a
    `simulate`)."""
    from worldforge_tui import version

    p = _Parser(
        prog="worldforge",
        description="WorldForge: run a company of AI workers whose memory binds them.",
    )
    p.add_argument(
        "--version",
        action="version",
        version=f"worldforge {version()}",
        help="print the version and exit",
    )
    p.add_argument(
        "--env",
        metavar="FILE",
        dest="env_file",
        help="read settings from this .env file instead of ./.env (the environment still "
        "overrides it)",
    )
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    named = argv[0] if argv and argv[0] in OWN_COMMANDS else None
    if named in (None, "play"):
        _play_parser(sub)
    if named in (None, "simulate"):
        # simulate's player-command options come from engine.session.commands, whose dataclasses
        # load inspect and ast (a third of `--version`'s time): only when the line names simulate
        _simulate_parser(sub, {} if argv is not None and "simulate" not in argv else player_flags())
    if named in (None, "balance"):
        _balance_parser(sub)
    if named in (None, "replay"):
        _replay_parser(sub)
    if named is not None:
        return p
    from worldforge_tui.cli import completion, info, memory, routing, serve

    for module in (memory, routing, info, serve, completion):
        module.register(sub)
    return p


def _common_start(sp: argparse.ArgumentParser, required: bool) -> None:
    sp.add_argument("--pitch", required=required, help="what the company does")
    sp.add_argument("--name", help="company name (default: from the pitch)")
    sp.add_argument("--archetype", default="builder", choices=ARCHETYPES, help="founder archetype")
    sp.add_argument(
        "--seed",
        type=_seed,
        default=None if not required else 7,
        help="seed for the simulation (default 7; play's new-venture form picks a fresh one)",
    )
    save_dir_option(sp)


def _play_parser(sub: argparse._SubParsersAction[_Parser]) -> None:
    play = sub.add_parser("play", help="open the game (the default)")
    _common_start(play, required=False)
    play.add_argument(
        "--theme",
        metavar="NAME",
        help="colour theme for this session (the palette's "
        "Theme command picks one and remembers it)",
    )
    play.set_defaults(func=cmd_play)


def _simulate_parser(sub: argparse._SubParsersAction[_Parser], flags: dict[str, Flag]) -> None:
    sim = sub.add_parser("simulate", help="play a full venture headless")
    _common_start(sim, required=True)
    sim.add_argument(
        "--currency",
        metavar="CODE",
        help="the books' currency: USD, GBP or EUR (default: the pitch's money or place, else USD)",
    )
    for field, said in (
        ("customer", "who pays"),
        ("offering", "what the company sells"),
        ("place", "where it starts"),
        ("problem", "the problem it solves, as a noun phrase"),
    ):  # the new-venture form's fields: each overrides the pitch's reading
        sim.add_argument(
            f"--{field}", metavar="TEXT", help=f"{said} (default: read from the pitch)"
        )
    for flag in flags.values():  # one option per player command a headless venture gives
        repeated = flag.form != "path"  # one value a stage
        sim.add_argument(
            flag.option,
            action="append" if repeated else "store",
            default=[] if repeated else flag.default,
            metavar=flag.metavar,
            help=flag.help,
        )
    sim.add_argument(
        "--policy",
        choices=POLICIES,
        help="play every fork and event choice by a player of the skill ladder: random (a seeded "
        "coin), greedy (the option whose preview leaves the company furthest from a defeat line) "
        "or lookahead (plans two forks ahead from the previews and the rules); overrides --choose",
    )
    json_option(sim)
    sim.add_argument(
        "--strict-reading",
        action="store_true",
        help="exit 2 before giving words any part of which binds nothing (the reading's unread "
        "parts; --json lists each input's reading either way)",
    )
    sim.add_argument(
        "--strict-tier",
        action="store_true",
        help="exit 1 when a model tier was asked for (DEMO_MODE local/live) and none answered",
    )
    sim.set_defaults(func=cmd_simulate)


def _balance_parser(sub: argparse._SubParsersAction[_Parser]) -> None:
    bal = sub.add_parser(
        "balance",
        help="play every fork path (a letter per fork of the longest venture) per archetype and "
        "seed and report outcomes",
    )
    bal.add_argument("--seed", type=_seed, default=7, help="first seed (default 7)")
    bal.add_argument(
        "--seeds", type=_count, default=1, help="how many seeds from --seed (default 1)"
    )
    bal.add_argument(
        "--archetype",
        action="append",
        choices=ARCHETYPES,
        help="an archetype to explore (repeatable; default all four)",
    )
    bal.add_argument("--per-path", action="store_true", help="one JSON line per path")
    json_option(bal)
    bal.set_defaults(func=cmd_balance)


def _replay_parser(sub: argparse._SubParsersAction[_Parser]) -> None:
    rep = sub.add_parser("replay", help="re-derive a run from its inputs")
    run_argument(rep)
    save_dir_option(rep)
    rep.add_argument("--verify", action="store_true", help="check events and state match the save")
    rep.add_argument(
        "--without",
        metavar="NOTE_ID",
        help="re-derive a stage in the simulator with this memory note withheld and print the "
        "difference (brief, artifact, score, DRIFT); the run is not changed",
    )
    rep.add_argument(
        "--stage",
        type=int,
        metavar="N",
        help="with --without: the stage to re-derive (default: the first the note reached)",
    )
    json_option(rep)
    rep.set_defaults(func=cmd_replay)


OWN_COMMANDS = frozenset({"play", "simulate", "balance", "replay"})  # build_parser's own


TUI_COMMANDS = frozenset({"play", "serve"})  # they draw the terminal themselves


def _environment_line(err: OSError) -> str:
    """One line for a save dir, settings or log location the OS refused (read-only, a file…)."""
    where = err.filename or "the WorldForge home"
    reason = err.strerror or type(err).__name__
    return (
        f"cannot use {where}: {reason} (point WORLDFORGE_HOME or --save-dir at a writable "
        "directory)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    streams = (sys.stdout, sys.stderr)
    try:
        parser = build_parser(argv)
        args = parser.parse_args(argv or ["play"])
        if getattr(args, "func", None) is None:
            args = parser.parse_args(["play", *argv])
        import engine.logs  # noqa: F401 - every `worldforge.*` logger writes to the one file

        logging.raiseExceptions = False  # a log that cannot be written (full disk) stays silent

        if args.env_file is not None:
            _use_env_file(args.env_file)

        if getattr(args, "command", None) not in TUI_COMMANDS:
            from worldforge_tui.text.terminal import SafeStream

            sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)
        code = int(args.func(args) or 0)
        if code != 2:  # after the output; an exit-2 error line stands alone
            _old_names_warning()
        return code
    except (CliError, GameError) as err:
        _error(str(err))
        return 2
    except BrokenPipeError:  # the reader went away (`worldforge … | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except OSError as err:  # the environment said no: a read-only or missing home, a full disk
        _error(_environment_line(err))
        return 2
    except Exception as err:  # noqa: BLE001 - last resort: one line on screen, traceback to the log
        if _is_settings_error(err):  # settings that cannot be used: their one line, exit 2
            _error(str(err))
            return 2
        save_line = _save_refusal(err)
        if save_line:  # a busy save or a full disk: one line, exit 2, nothing half-written
            _error(save_line)
            return 2
        from engine.logs import log_exception

        try:
            where = f"details in {log_exception(err, context={'argv': argv[:1]})}"
        except Exception as log_err:  # noqa: BLE001 - the log itself failed: still one line
            where = f"no log written: {type(log_err).__name__}"
        shown = " ".join(str(err).encode("ascii", "backslashreplace").decode().split())
        _error(f"{type(err).__name__}: {_scrubbed(shown)[:200]} ({where})")
        return 1
    finally:
        sys.stdout, sys.stderr = streams


FULL_DISK_LINE = (
    "the disk is full ({detail}): the last step was not saved and nothing was half-written; "
    "free some space and run it again"
)


def _save_refusal(err: BaseException) -> str | None:
    """The one line for a save SQLite could not write: busy past the retries, or a full disk."""
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is None or not isinstance(err, sqlite3.OperationalError):
        return None
    from worldforge_savedb.db import SaveBusyError, busy_line, is_busy

    text = " ".join(str(err).split())
    if isinstance(err, SaveBusyError):
        return text
    if is_busy(err):
        return busy_line()
    if "disk is full" in text or "disk I/O error" in text:
        return FULL_DISK_LINE.format(detail=text[:60])
    return None


def _use_env_file(name: str) -> None:
    """`--env FILE`: it must exist; settings read from then on take it instead of ./.env."""
    from pathlib import Path

    from engine.config import use_env_file

    path = Path(name).expanduser()
    if not path.is_file():
        shown = name if len(name) <= 80 else "…" + name[-79:]  # the file's own name stays
        raise CliError(f"--env {shown!r}: no such file")
    use_env_file(path)


def _old_names_warning() -> None:
    """The one warning line when settings came in under their old, unprefixed names, and the one
    hint when they chose an Azure tier whose sign-in (the `azure` extra) is not installed."""
    config = sys.modules.get("engine.config")
    if config is None:
        return
    for line in (config.old_names_line(), config.azure_hint()):
        if line:
            warn(line)


def _is_settings_error(err: BaseException) -> bool:
    """A `SettingsError` (engine.config is loaded only once a command reads settings)."""
    config = sys.modules.get("engine.config")
    return config is not None and isinstance(err, config.SettingsError)


def _scrubbed(text: str) -> str:
    from worldforge_textkit.scrub import scrub

    return scrub(text)


LINE_LIMIT = 1000  # characters of a warning or error line (an echoed argument may be any size)


def one_line(message: str) -> str:
    """A warning or error as one printable line: scrubbed, escapes removed, line breaks shown as
    \\r and \\n (an argument echoed back may hold them), cut to LINE_LIMIT characters."""
    from worldforge_tui.text.terminal import printable

    text = message[: LINE_LIMIT * 4]  # bound the work on a 100,000-character argument
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    text = printable(_scrubbed(text))
    if len(message) > LINE_LIMIT * 4 or len(text) > LINE_LIMIT:
        text = f"{text[: LINE_LIMIT - 1]}… ({len(message):,} characters)"
    return text


def warn(message: str) -> None:
    """A warning line on stderr (the command still succeeds unless told to be strict)."""
    print(f"worldforge: warning: {one_line(message)}", file=sys.stderr)


def _error(message: str) -> None:
    """The one error line: scrubbed and made printable whatever stream is current."""
    print(f"worldforge: error: {one_line(message)}", file=sys.stderr)
