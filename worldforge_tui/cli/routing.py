"""`worldforge routing status|test`: show how calls will be routed, and probe each configured tier.

Thin front end over `engine.routing.Router`; never imports textual. Bad settings print one line
(`worldforge: error: …`) and return 2; `routing test` returns 1 when an active tier does not answer.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from worldforge_tui.cli import CliError, json_option
from worldforge_tui.text.safe_text import first_line

if TYPE_CHECKING:
    # the router and settings load when a routing command runs, not for `--help`
    from engine.routing import Router
    from engine.routing.types import ProbeRow
    from worldforge_tui.cli import Subcommands


def register(subparsers: Subcommands) -> argparse.ArgumentParser:
    """Add the `routing` sub-command (status, test) to the main CLI's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "routing",
        help="show and test model routing",
        description="Show and test how workers' model calls are routed.",
    )
    actions = parser.add_subparsers(dest="routing_action", metavar="ACTION", required=True)
    status = actions.add_parser(
        "status",
        help="runtime label, routing, model per role, tiers",
        description="Runtime label, routing mode, effective model per "
        "role, tiers configured and reachable.",
    )
    json_option(status, "print JSON")
    status.add_argument(
        "--no-probe",
        action="store_true",
        help="do not contact endpoints (reachability shown as unknown)",
    )
    status.set_defaults(func=run)
    test = actions.add_parser(
        "test",
        help="probe each configured tier and print latency",
        description="Probe each configured tier: list its models, send a one-token completion "
        "and check whether it enforces a JSON schema; exit 0 only if every active tier answers. "
        "With --faults, run the router through the fault catalogue against a bundled loopback "
        "fault server instead and print the scorecard (exit 0 unless a cell fails).",
    )
    json_option(test, "print JSON")
    test.add_argument(
        "--faults",
        action="store_true",
        help="run the 16-fault catalogue against the bundled loopback fault server",
    )
    test.add_argument(
        "--setup",
        choices=("all", "both", "local", "local+fb", "hybrid"),
        default="all",
        help="with --faults: local only (one model), local only with a fallback model on the "
        "same server, local + a healthy Foundry, local and hybrid (both) or all three (default)",
    )
    test.add_argument(
        "--scale",
        type=float,
        default=0.1,
        help="with --faults: factor on every wait and limit (1 = the catalogue's times; 0.1)",
    )
    test.add_argument("--only", default="", help="with --faults: scenario ids, e.g. S06,S09")
    test.set_defaults(func=run)
    return parser


def _status(router: Router, probe: bool) -> dict[str, Any]:
    from engine.session.memory_backend import backend_status

    data = router.status()
    reach = {p["tier"]: p for p in router.probe()} if probe else {}
    for tier, info in data["tiers"].items():
        if tier in reach:
            info["reachable"] = reach[tier]["ok"]
            info["probe_error"] = reach[tier]["error"]
        elif tier in ("local", "foundry"):
            info["reachable"] = None
    data["memory"] = backend_status(router.settings, probe=probe)
    return data


def _print_status(data: dict[str, Any]) -> None:
    from engine.routing import ROLES
    from engine.routing.errors import WORDS

    print(
        f"runtime: {data['runtime']}  (DEMO_MODE={data['demo_mode']}, "
        f"AGENT_ROUTING={data['routing']})"
    )
    print("tiers:")
    for tier, info in data["tiers"].items():
        reach = info.get("reachable")
        mark = {True: "reachable", False: "unreachable", None: "not probed"}[reach]
        if tier == "simulation":
            mark = "always available"
        elif not info["active"]:
            mark = "-"
        endpoint = info.get("endpoint") or ""
        state = "active" if info["active"] else ("configured" if info["configured"] else "off")
        line = f"  {tier:<10} {state:<10} {mark:<16} {endpoint}"
        if info.get("probe_error"):
            line += f"  ({info['probe_error']})"
        print(line.rstrip())
    for key, caps in data.get("capabilities", {}).items():
        enforced = caps.get("schema_enforced")
        schema = {True: ", schema enforced", False: ", schema advisory", None: ""}[enforced]
        shapes = len(caps.get("advisory_shapes") or ())
        if shapes:
            schema += f" (advisory for {shapes} stage schema shape{'s' if shapes > 1 else ''})"
        print(
            f"  learned    {key}: output {caps['json_mode']}, {caps['token_param']}"
            f"{'' if caps['send_temperature'] else ', no temperature'}{schema} ({caps['source']})"
        )
    model_tiers = [t for t, i in data["tiers"].items() if t != "simulation" and i["active"]]
    if model_tiers and not data.get("cooldowns"):
        print("  breaker    closed on every endpoint (this process; a running game keeps its own)")
    for key, brk in data.get("cooldowns", {}).items():
        print(
            f"  breaker    {key}: {brk['state']} ({WORDS.get(brk['reason'], brk['reason'])}, "
            f"{brk['seconds_left']:.0f}s left, {brk['skipped_calls']} calls skipped)"
        )
    mem = data.get("memory")
    if mem:
        answers = {True: "answers", False: "does not answer", None: "not probed"}[mem["answers"]]
        where = mem.get("endpoint") or ""
        print(
            f"memory: {mem['backend']} ({mem['store']}) {answers} {where}".rstrip()
            + (f"  ({mem['detail']})" if mem.get("detail") else "")
        )
    print("roles:")
    for role in ROLES:
        r = data["roles"][role]
        print(
            f"  {role:<11} local={r['local'] or '-':<16} cloud={r['cloud'] or '-':<16} "
            f"→ {' → '.join(r['order'])}"
        )


def _run_faults(args: argparse.Namespace) -> int:
    """`routing test --faults`: the router's own code through the catalogue, on loopback only."""
    import logging

    from engine.routing.faults.catalogue import BY_ID
    from engine.routing.faults.scorecard import SETUPS, as_json, render, run_catalogue

    only = [s.strip().upper() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in only if s not in BY_ID]
    if unknown:
        raise CliError(f"unknown scenario {', '.join(unknown)} (S01…S16)")
    if not 0.02 <= args.scale <= 2:
        raise CliError("--scale must be between 0.02 and 2")
    setups = {"all": SETUPS, "both": ("local", "hybrid")}.get(args.setup, (args.setup,))
    routing_log = logging.getLogger("worldforge.routing")
    mute = logging.NullHandler()  # the faults are on purpose: no breaker warnings on the screen
    quiet, routing_log.propagate = routing_log.propagate, False
    routing_log.addHandler(mute)
    try:
        cells = run_catalogue(setups, scale=args.scale, only=only or None)
    finally:
        routing_log.removeHandler(mute)
        routing_log.propagate = quiet
    if args.json:
        sys.stdout.write(json.dumps(as_json(cells, args.scale), indent=2) + "\n")
    else:
        print(render(cells, args.scale))
    return 1 if any(c.verdict == "fail" for c in cells) else 0


def _print_completions(rows: list[dict[str, Any]]) -> None:
    from engine.routing.probe import describe

    for row in rows:
        where = f"{row['endpoint']}#{row['model']}"
        if row["ok"]:
            first = (
                f", first token {row['first_token_ms']:.0f} ms" if row.get("first_token_ms") else ""
            )
            print(
                f"{row['tier']:<10} ok   {row['ms']:>8.1f} ms {where} one-token completion{first}"
            )
            schema = row.get("schema")
            if schema:
                print(f"{'':<10} {describe(schema)}")
        else:
            print(f"{row['tier']:<10} FAIL {row['ms']:>8.1f} ms {where} completion: {row['error']}")


def _print_probe(
    results: list[ProbeRow], ok: bool, completions: list[dict[str, Any]] | None = None
) -> None:
    for p in results:
        status = "ok" if p["ok"] else "FAIL"
        where = p["endpoint"] or ""
        extra = (
            f" models={','.join(p['models'][:6])}"
            if p["ok"] and p["tier"] != "simulation"
            else (f" {p['error']}" if p["error"] else "")
        )
        missing = p.get("missing_models")
        if missing:
            extra += f" missing={','.join(missing)}"
        print(f"{p['tier']:<10} {status:<4} {p['ms']:>8.1f} ms {where}{extra}".rstrip())
    _print_completions(completions or [])
    print("all active tiers answered" if ok else "an active tier did not answer")


def run(args: argparse.Namespace) -> int:
    """Entry for both actions; returns the process exit code."""
    from engine.config import SettingsError, load_settings
    from engine.routing import Router

    if args.routing_action == "test" and getattr(args, "faults", False):
        return _run_faults(args)  # loopback only, game defaults: the player's settings stay out
    try:
        router = Router(load_settings())
    except SettingsError as err:
        print(f"worldforge: error: {first_line(err, 300)}", file=sys.stderr)
        return 2
    if args.routing_action == "status":
        data = _status(router, probe=not args.no_probe)
        if args.json:
            sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")
        else:
            _print_status(data)
        return 0
    results = router.probe()
    completions = router.test_completions()
    ok = all(p["ok"] for p in results) and all(c["ok"] for c in completions)
    if args.json:
        sys.stdout.write(
            json.dumps(
                {
                    "ok": ok,
                    "runtime": router.runtime_label(),
                    "tiers": results,
                    "completions": completions,
                },
                indent=2,
            )
            + "\n"
        )
    else:
        _print_probe(results, ok, completions)
    return 0 if ok else 1
