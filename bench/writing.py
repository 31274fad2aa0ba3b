"""How the offline workers read and write: plays 10 fixed ventures (different pitches, archetypes,
a rejection, an own answer and a standup reply each) on the simulation tier and reports

- reading accuracy on the labelled sets in tests/data/ (and the share of labelled rejections whose
  redo changes the field they name),
- repetition: the share of sentences found verbatim in 3 or more ventures, and repeated within one,
- leaks (reprs, internal ids, file paths, float noise) and grammar defects its checker finds,
- with --gate: how often the gate has something to catch (DRIFT or a named flaw) over the balance
  paths (always approving).

Sentences are the prose a player reads: each stage's shipped artifact (rendered by engine.views.render),
the standup lines, the rubric's notes, own-answer readings, receipt notes and flaw costs. A
"sentence" has at least four words (shorter items are labels: a button, a tool name).

    python -m bench.writing --json [--gate 64]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from engine.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# pitch, archetype, seed, (stage, rejection), (stage, own answer), standup reply
VENTURES: list[tuple[str, str, int, tuple[int, str], tuple[int, str], str]] = [
    (
        "A solar microgrid cooperative for rural farmers",
        "operator",
        1,
        (4, "The landing page has no price"),
        (3, "Focus on hospitals, drop clinics"),
        "Freeze hiring and cut burn now",
    ),
    (
        "A booking and invoicing assistant for independent physiotherapy clinics",
        "builder",
        2,
        (5, "Churn target too high"),
        (4, "Do not ship this week"),
        "Mention the no-show reminders",
    ),
    (
        "Thé pour infirmières de nuit",
        "designer",
        3,
        (1, "Who is this for? Speak to nurses on night shifts"),
        (6, "No automation, people answer every ticket"),
        "Lower the price",
    ),
    (
        "夜勤看護師のためのお茶",
        "seller",
        4,
        (2, "Too salesy, cut the jargon"),
        (5, "Not yet"),
        "Cut burn and keep the team small",
    ),
    (
        "Bike repair subscriptions for city couriers",
        "operator",
        5,
        (6, "Revenue targets are fantasy"),
        (8, "Form a worker-owned cooperative"),
        "Focus on night couriers only",
    ),
    (
        "Tax filing help for freelance illustrators",
        "seller",
        6,
        (5, "Wrong channels, try referrals instead of ads"),
        (2, "Both"),
        "Spell out the deadline",
    ),
    (
        "Cheaper wedding dresses",
        "designer",
        7,
        (3, "It promises guaranteed results we can't back"),
        (4, "Ship it this week"),
        "No new hires this month",
    ),
    (
        "An inventory app for small bakeries",
        "builder",
        8,
        (4, "Too many features for a first version"),
        (3, "Go deep on one niche"),
        "Talk about waste, not features",
    ),
    (
        "Software de reservas para escuelas de surf",
        "seller",
        9,
        (7, "meh"),
        (5, "Sell to fewer, bigger accounts"),
        "Keep support personal",
    ),
    (
        "Heat pump installs for older homes",
        "operator",
        10,
        (5, "Breakeven is too late"),
        (6, "Let the bots answer the easy tickets"),
        "Hiring freeze until we are profitable",
    ),
]

LEAKS = {
    "repr": re.compile(r"\[['\"{]|\{['\"]|\bNone\b|\bTrue\b|\bFalse\b|<[a-z_.]+ object"),
    "internal id": re.compile(
        r"\bmem-\d+\b|\brun-[0-9a-f]{8,}\b|\b(?:strategist|designer|marketer|"
        r"ops|custom|founder|need|go|search|find|take|return|change|seller|"
        r"builder|operator)\.[a-z_]{3,}\b|\bstage_\d_[a-z]+\b"
    ),
    "file path": re.compile(r"\b[\w-]+/[\w./-]+\.(?:md|py|json|db)\b|#[a-z]+(?:-[a-z]+){2,}"),
    "float noise": re.compile(r"\d+\.\d{3,}|\d\.0\b(?! ?%)"),
}
_VOWEL_AN_OK = re.compile(
    r"^(?:hour|honest|honour|heir|mvp|nhs|sms|seo|faq|x-ray|fda)", re.IGNORECASE
)
_CONS_A_OK = re.compile(r"^(?:uni|use|user|usu|euro|one|once|ubi|uti)", re.IGNORECASE)


def grammar_defects(sentence: str) -> list[str]:
    """What the checker finds wrong in one sentence (empty when nothing)."""
    found = []
    if re.search(r"\s[,.;:!?]|\s{2,}|,,|\.\.(?!\.)|\(\s*\)", sentence):
        found.append("spacing or punctuation")
    if re.search(r"\{[a-z_:]+\}|<[a-z]+>", sentence):
        found.append("unfilled slot")
    first = sentence.lstrip("“\"'(- ")[:1]
    if first.isalpha() and first.islower() and first.isascii():
        found.append("lower-case start")
    for m in re.finditer(r"\b(a|an) ([A-Za-z][\w-]*)", sentence):
        art, word = m.group(1).lower(), m.group(2)
        vowel = word[0].lower() in "aeiou"
        if art == "a" and vowel and not _CONS_A_OK.match(word):
            found.append(f"'a {word}'")
        if art == "an" and not vowel and not _VOWEL_AN_OK.match(word):
            found.append(f"'an {word}'")
    if re.search(r"\b(\w+) \1\b", sentence, re.IGNORECASE) and not re.search(
        r"\b(\d+) \1\b", sentence
    ):
        found.append("doubled word")
    for m in re.finditer(
        r"\b(?:farmers|clinics|nurses|couriers|illustrators|bakeries|homes|"
        r"schools|teams|people|owners|couples) (?:loses|wants|needs|juggles|has|"
        r"is|was)\b",
        sentence,
    ):
        before = sentence[: m.start()].lower().split()[-4:]
        if not set(before) & {"for", "with", "to", "of", "about", "from", "at"}:
            found.append("agreement")  # a plural customer with a singular verb
            break
    return found


def split_sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z“\"0-9])", " ".join(str(text).split()))
    return [p.strip() for p in parts if len(p.split()) >= 4]


def venture_prose(session: Any) -> list[str]:
    """Every sentence the player reads in one venture (see the module docstring)."""
    from engine.views.render import artifact_markdown

    shipped: dict[str, dict[str, Any]] = {}
    lines: list[str] = []
    for e in session.events():
        p = e.payload
        if e.type == "STAGE_EXECUTED":
            shipped[p["stage_id"]] = p  # the last attempt is the one shipped
        elif e.type == "AGENT_STANDUP":
            lines.append(p.get("line", ""))
        elif e.type in ("FLAW_SURFACED", "ORDER_APPLIED"):
            lines.append(e.message)
        elif e.type == "CEO_DECISION" and p.get("interpreted"):
            lines.append(p["interpreted"]["says"])
    for p in shipped.values():
        for line in artifact_markdown(p.get("artifact") or {}):
            lines.append(re.sub(r"^\s*- ", "", line))  # as the player sees it, label included
        lines += list((p.get("rubric") or {}).get("notes") or [])
        lines.append(((p.get("artifact") or {}).get("follows_decision") or {}).get("how", ""))
    lines = [x for x in lines if x and not x.rstrip().endswith(":")]  # labels, not prose
    return [s for line in lines for s in split_sentences(line)]


def play_venture(row: tuple, directory: str) -> tuple[Any, list[str]]:
    from engine.config import Settings
    from engine.routing import Router
    from engine.session.api import GameSession

    pitch, archetype, seed, (rej_stage, reason), (own_stage, answer), reply = row
    s = GameSession.start_venture(
        pitch=pitch,
        archetype=archetype,
        seed=seed,
        save_dir=directory,
        router=Router(Settings(demo_mode="simulation")),
    )
    rejected = replied = False
    while s.state.phase != "ended":
        st, stage = s.state, s.state.stage
        assert stage is not None
        if st.phase == "brief":
            if s.can("standup_reply") and not replied:
                s.standup_reply(reply)
                replied = True
            s.run_stage()
        elif st.phase == "gate":
            if stage.number == rej_stage and not rejected:
                rejected = True
                try:
                    s.reject(reason)
                except InputError:  # a reason nothing can be placed from is asked about
                    s.approve()
            else:
                s.approve()
        elif stage.number == own_stage:
            s.decide_own(answer)
        else:
            s.decide("A" if (stage.number + seed) % 2 else "B")
    return s, venture_prose(s)


def reading_figures() -> dict[str, Any]:
    from tests.engine.test_reading import load, own_ok, pitch_ok, reason_ok
    from tests.engine.test_redo import field_changed, redo_pair

    out: dict[str, Any] = {}
    for name, check in (
        ("rejection_reasons", reason_ok),
        ("own_answers", own_ok),
        ("pitches", pitch_ok),
    ):
        rows = load(f"{name}.jsonl")
        out[name] = {"n": len(rows), "accuracy": round(sum(map(check, rows)) / len(rows), 3)}
    rows = [r for r in load("rejection_reasons.jsonl") if r.get("actionable", True)]
    changed = sum(field_changed(r, *redo_pair(r["reason"], r["role"])[:2]) for r in rows)
    out["redo_changes_named_field"] = {"n": len(rows), "share": round(changed / len(rows), 3)}
    return out


def gate_rate(n_paths: int) -> dict[str, Any]:
    """Stage runs with DRIFT or a named flaw over balance paths (always approving)."""
    from engine.config import Settings
    from engine.play.balance import ALL_PATHS, PITCH
    from engine.play.headless import Plan, play
    from engine.routing import Router
    from engine.session.api import GameSession

    runs = flagged = drift = 0
    kinds: Counter[str] = Counter()
    router = Router(Settings(demo_mode="simulation"))
    step = max(1, len(ALL_PATHS) // n_paths)
    with tempfile.TemporaryDirectory(prefix="wf-bench-gate-") as tmp:
        for path in ALL_PATHS[::step][:n_paths]:
            s = GameSession.start_venture(
                pitch=PITCH, name="Balance Co", seed=7, router=router, save_dir=tmp
            )
            play(s, Plan(path=path))
            for e in s.events():
                if e.type == "STAGE_EXECUTED":
                    runs += 1
                    r = e.payload["rubric"]
                    fl = r.get("flaws") or []
                    flagged += bool(r["drift"] or fl)
                    drift += bool(r["drift"])
                    kinds.update(f["kind"] for f in fl)
            s.close()
    return {
        "paths": min(n_paths, len(ALL_PATHS)),
        "stage_runs": runs,
        "flagged": flagged,
        "share": round(flagged / max(1, runs), 3),
        "drift": drift,
        "kinds": dict(kinds),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument(
        "--gate",
        type=int,
        default=0,
        metavar="N",
        help="also play N balance paths and report the gate's catch rate",
    )
    args = ap.parse_args(argv)
    per_venture: list[list[str]] = []
    with tempfile.TemporaryDirectory(prefix="wf-bench-writing-") as tmp:
        for row in VENTURES:
            s, prose = play_venture(row, tmp)
            per_venture.append(prose)
            s.close()
    seen_in: Counter[str] = Counter()
    for prose in per_venture:
        seen_in.update(set(prose))
    pairs = [(i, x) for i, prose in enumerate(per_venture) for x in set(prose)]
    widely = [x for _, x in pairs if seen_in[x] >= 3]
    total = sum(len(p) for p in per_venture)
    repeated = sum(len(p) - len(set(p)) for p in per_venture)
    leaks = {k: [x for p in per_venture for x in p if rx.search(x)] for k, rx in LEAKS.items()}
    defects = [(x, d) for p in per_venture for x in p if (d := grammar_defects(x))]
    report = {
        "ventures": len(VENTURES),
        "sentences": total,
        "verbatim_in_3plus_ventures_share": round(len(widely) / max(1, len(pairs)), 3),
        "repeated_within_venture_share": round(repeated / max(1, total), 3),
        "leaks": {k: len(v) for k, v in leaks.items()},
        "leak_examples": [x for v in leaks.values() for x in v][:5],
        "grammar_defect_share": round(len(defects) / max(1, total), 3),
        "grammar_defect_examples": [f"{d}: {x}" for x, d in defects[:8]],
        "widely_repeated_examples": sorted(set(widely))[:6],
        "reading": reading_figures(),
    }
    if args.gate:
        report["gate"] = gate_rate(args.gate)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for k, v in report.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
