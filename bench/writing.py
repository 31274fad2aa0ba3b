"""How the offline workers read and write, over the benchmark pitches in tests/data/pitches.jsonl
(the rows marked "bench": offerings and customers from different worlds), played on the simulation
tier with seeds outside the tuned 7-14, each with a rejection, an own answer and a standup reply:

- reading accuracy on the labelled sets in tests/data/ (and the share of labelled rejections whose
  redo changes the field they name),
- repetition: sentences found verbatim in 3 or more ventures (bar: <= 3 %), repeated within one,
- variety: the same pitch with another seed shares <= 30 % of its sentences; the same pitch and
  seed with the other choice at every fork <= 60 %,
- defects, each detector with its examples: leaks (reprs, internal ids, file paths, float noise),
  grammar (articles, agreement, doubled words, unfilled slots, casing, spacing) and words from
  another offering world (a meal-kit company writing about allergen-free tools of a clinic),
- with --gate: how often the gate has something to catch (DRIFT or a named flaw) over the balance
  paths (always approving).

Sentences are the prose a player reads: each stage's shipped artifact (rendered by engine.views.render),
the standup lines, the rubric's notes, own-answer readings, receipt notes, flaw costs, world events
and the rival's moves; "all lines" adds the rest of what the board, the receipt and the memory pane
show: the stage goal, each fork (title, prompt, options, their trade-offs and what they bind), the
consequence and the next brief's binding line, decisions that land later, the events' choices,
the ending and every memory note. A "sentence" has at least four words (shorter items are labels:
a button, a tool name). `verbatim_in_3plus_ventures_by_source` says which part of the game the
repeats come from, and `widely_repeated_all_lines` lists the sentences found in most ventures.

    python -m bench.writing --json [--pairs 10] [--gate 64] [--top 12]
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
from engine.session.commands import Approve, Decide, DecideOwn, Reject, RunStage, StandupReply

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ARCHETYPES = ("builder", "seller", "designer", "operator")
# Player inputs, 17 of each, so no one input (and its echo) reaches 3 of the 34 ventures.
REJECTIONS = (
    "The landing page has no price",
    "Churn target too high",
    "The audience is far too broad",
    "Too salesy, cut the jargon",
    "Revenue targets are fantasy",
    "It promises guaranteed results we can't back",
    "meh",
    "Too many features for a first version",
    "Wrong channels, try referrals instead of ads",
    "Breakeven is too late",
    "The price is too high for them",
    "Make it shorter and plainer",
    "No timeline, when does this launch?",
    "This ignores what I decided",
    "The headline says nothing",
    "Burn is too high in this plan",
    "Not convinced, do it again",
)
OWN_ANSWERS = (
    "Go deep on one niche",
    "Ship it this week",
    "Sell to fewer, bigger accounts",
    "Both",
    "Keep a person on every ticket",
    "Let the bots answer the easy tickets",
    "Form a worker-owned cooperative",
    "Not yet",
    "Price it low and grow fast",
    "Polish it first, then launch",
    "Take the outside money",
    "Only the night shift customers",
    "Reach every segment we can",
    "Automate support and save margin",
    "Raise a big round",
    "Stay small and independent",
    "Do what the data says",
)
REPLIES = (
    "Cut burn and keep the team small",
    "Lower the price",
    "Keep support personal",
    "Focus on the busiest customers",
    "Mention the delivery times",
    "Spell out the deadline",
    "No new hires this month",
    "Talk about waste, not features",
    "Put the price on every page",
    "Freeze hiring until we are profitable",
    "Use referrals, not ads",
    "Launch before the end of the month",
    "Say less and show the numbers",
    "Drop the enterprise talk",
    "Name the customer in every headline",
    "Keep the promise small",
    "Ask ten customers first",
)


def bench_pitches() -> list[str]:
    rows = [
        json.loads(x)
        for x in (ROOT / "tests/data/pitches.jsonl").read_text("utf-8").splitlines()
        if x.strip()
    ]
    return [r["pitch"] for r in rows if r.get("bench")]


def venture_row(i: int, pitch: str, seed: int | None = None, flip: bool = False) -> tuple:
    """One benchmark venture: pitch, archetype, seed, a rejection, an own answer, a reply, and
    which option each fork takes (flip: the other one)."""
    return (
        pitch,
        ARCHETYPES[i % 4],
        100 + 37 * i if seed is None else seed,
        (2 + i % 6, REJECTIONS[i % len(REJECTIONS)]),
        (3 + (i * 5) % 5, OWN_ANSWERS[(i * 3) % len(OWN_ANSWERS)]),
        REPLIES[(i * 5) % len(REPLIES)],
        flip,
    )


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


_MISS = re.compile(r"\bno (?:playbook|memory|knowledge) hit\b|\bnothing recalled\b", re.IGNORECASE)
_SINGULAR_VERBS = "loses|wants|needs|juggles|has|is|was|gets|sees|trusts|asks"
# Defects one pattern finds, by name.
_PATTERNS = (
    (
        "'who' after a place of business",  # "offices who want", not "that"
        re.compile(
            r"\b(?:offices|firms|businesses|clinics|cafés|cafes|schools|practices|companies|"
            r"agencies|restaurants|shops|salons|studios|hotels|bakeries|gyms) who\b",
            re.IGNORECASE,
        ),
    ),
    (
        "article before a determiner",  # "a the busiest nurse"
        re.compile(r"\b(?:a|an) (?:the|our|each|every|their)\b", re.IGNORECASE),
    ),
    (
        "count with a singular",  # "three café"
        re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|\d+) \w+é\b"),
    ),
    (
        "breadth before the corner",  # "the cafés and others like them Acme ignores"
        re.compile(r"\bothers like them [A-Z][\w ]* ignores\b"),
    ),
)


def _world_marks() -> dict[str, set[str]]:
    """Phrases that belong to exactly one offering world's bank (its tools and things)."""
    try:
        from engine.writing.worlds import world_banks
    except ImportError:  # the offering worlds' banks are not in this tree yet: nothing to check
        return {}

    owner: dict[str, set[str]] = {}
    for world, bank in world_banks().items():
        for phrase in (*bank["tools"], *bank["things"]):
            owner.setdefault(phrase.lower(), set()).add(world)
    marks: dict[str, set[str]] = {}
    for phrase, worlds in owner.items():
        if len(worlds) == 1 and len(phrase.split()) >= 2:
            marks.setdefault(next(iter(worlds)), set()).add(phrase)
    return marks


def world_defects(sentence: str, world: str, marks: dict[str, set[str]]) -> list[str]:
    """Words from another offering world's bank ("patient records" in a meal-kit venture)."""
    low = sentence.lower()
    return [
        f"words of the {other} world ({p!r})"
        for other, phrases in marks.items()
        if other != world
        for p in phrases
        if re.search(rf"\b{re.escape(p)}\b", low)
    ][:1]


def grammar_defects(sentence: str, customer: str = "") -> list[str]:
    """What the checker finds wrong in one sentence (empty when nothing)."""
    found = []
    if _MISS.search(sentence):
        found.append("retrieval miss in prose")
    plural_customer = customer and customer.split()[-1].lower().endswith("s")
    for m in re.finditer(rf"\b{re.escape(customer)} (?:{_SINGULAR_VERBS})\b", sentence):
        # the customer inside a prepositional phrase ("for the busiest couriers") is not the
        # verb's subject ("every new cost … for couriers has to pay")
        before = sentence[: m.start()].lower().split()[-3:]
        if plural_customer and not set(before) & {
            "for",
            "with",
            "to",
            "of",
            "about",
            "from",
            "at",
            "by",
        }:
            found.append("agreement")  # the venture's plural customer with a singular verb
            break
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
    found.extend(name for name, pattern in _PATTERNS if pattern.search(sentence))
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


# Sources whose lines are fragments a card or a label carries ("speed, and a salary to pay",
# "launch by week 2", a reading "nothing the gate checks"), not sentences: counted for
# repetition, not checked for a capital start.
FRAGMENTS = frozenset({"fork card", "next brief", "reading"})


def venture_prose(session: Any, workers_only: bool = False) -> list[str]:
    """Every sentence the player reads in one venture (see the module docstring); with
    `workers_only`, only what the simulated workers wrote (artifacts, standups, 'Follows' lines),
    without the game's own lines (rubric notes, readings of the CEO's words, receipts)."""
    return [x for _, x in venture_lines(session, workers_only)]


def venture_lines(session: Any, workers_only: bool = False) -> list[tuple[str, str]]:
    """`venture_prose`, each sentence with the part of the game it is read in (its source)."""
    from engine.views.render import artifact_markdown

    shipped: dict[str, dict[str, Any]] = {}
    lines: list[tuple[str, str]] = []
    for e in session.events():
        p = e.payload
        if e.type == "STAGE_EXECUTED":
            shipped[p["stage_id"]] = p  # the last attempt is the one shipped
        elif e.type == "AGENT_STANDUP":
            lines.append(("standup", p.get("line", "")))
        elif e.type in ("FLAW_SURFACED", "ORDER_APPLIED") and not workers_only:
            lines.append(("receipt", e.message))
        elif e.type in ("WORLD_EVENT", "ANTAGONIST_MOVE") and not workers_only:
            text = p.get("text") or p.get("narrative") or ""  # events and rival moves
            lines.append(("event" if e.type == "WORLD_EVENT" else "rival", text))
        elif e.type == "CEO_DECISION" and p.get("interpreted") and not workers_only:
            lines.append(("reading", p["interpreted"]["says"]))
    if not workers_only:
        lines += board_lines(session)
    for p in shipped.values():
        for line in artifact_markdown(p.get("artifact") or {}):
            lines.append(("artifact", re.sub(r"^\s*- ", "", line)))  # as shown, label included
        if not workers_only:
            lines += [("rubric", x) for x in (p.get("rubric") or {}).get("notes") or []]
        how = ((p.get("artifact") or {}).get("follows_decision") or {}).get("how", "")
        lines.append(("follows", how))
    # labels, not prose: a heading ("Features:") or a short labelled value ("Button: Join the pilot")
    lines = [
        (src, x)
        for src, x in lines
        if x
        and not x.rstrip().endswith(":")
        and len(re.sub(r"^[A-Z][\w ,]{0,40}: ", "", x).split()) >= 4
    ]
    return [(src, s) for src, line in lines for s in split_sentences(line)]


def board_lines(session: Any) -> list[tuple[str, str]]:
    """The game's own lines outside the artifacts that a player reads, each with its source: the
    stage goal on the board, each fork (title, prompt, options, trade-offs), the receipt (the
    consequence, the next brief's binding line), decisions that land later, the events' choices,
    the ending, the reading of a standup reply, and every memory note as the memory pane shows it."""
    from engine.views.render import prose

    lines: list[tuple[str, str]] = []
    for e in session.events():
        p = e.payload
        if e.type == "STAGE_BRIEFED":
            lines.append(("goal", p.get("goal") or ""))
        elif e.type == "DILEMMA_POSED":
            lines += [("fork", p.get("title") or ""), ("fork", p.get("prompt") or "")]
            for o in p.get("options") or []:
                lines.append(("fork", o.get("text") or ""))
                lines += [("fork card", o.get(k) or "") for k in ("tradeoff", "hint", "binds")]
        elif e.type == "CONSEQUENCE_APPLIED":
            lines.append(("receipt", p.get("summary") or ""))
            lines += [("receipt", x) for x in p.get("notes") or []]
            binding = prose(str((p.get("next_brief") or {}).get("binding") or ""))
            lines.append(("next brief", binding))
        elif e.type == "DECISION_LANDED":  # the board shows its message, numbers included
            lines.append(("landed", e.message))
        elif e.type == "WORLD_EVENT":
            lines += [("event", o.get("text") or "") for o in p.get("options") or []]
        elif e.type == "RUN_ENDED":
            lines.append(("ending", p.get("reason") or ""))
        elif e.type == "CEO_STANDUP_RESPONSE":
            lines.append(("reading", (p.get("reading") or {}).get("says") or ""))
    lines += [(f"memory {m.kind}", prose(m.text)) for m in session.memory.records()]
    return lines


def play_venture(row: tuple, directory: str) -> tuple[Any, list[str], list[tuple[str, str]]]:
    """Play one benchmark venture; (session, the workers' sentences, every sentence read with
    its source)."""
    from engine.config import Settings
    from engine.routing import Router
    from engine.session.api import GameSession

    pitch, archetype, seed, (rej_stage, reason), (own_stage, answer), reply, flip = row
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
                s.give(StandupReply, reply)
                replied = True
            s.give(RunStage)
        elif st.phase == "gate":
            if stage.number == rej_stage and not rejected:
                rejected = True
                try:
                    s.give(Reject, reason)
                except InputError:  # a reason nothing can be placed from is asked about
                    s.give(Approve)
            else:
                s.give(Approve)
        elif stage.number == own_stage and not flip:
            s.give(DecideOwn, answer)
        else:
            s.give(Decide, "A" if ((stage.number + seed) % 2 == 0) == flip else "B")
    return s, venture_prose(s, workers_only=True), venture_lines(s)


def reading_figures() -> dict[str, Any]:
    from tests.engine.test_reading import load, own_ok, pitch_ok
    from tests.engine.test_redo import field_changed, redo_pair

    out: dict[str, Any] = {}
    for name, check in (
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


def shared_share(a: list[str], b: list[str]) -> float:
    """The share of venture A's distinct sentences that venture B also has, word for word."""
    sa, sb = set(a), set(b)
    return len(sa & sb) / max(1, len(sa))


def by_source(tagged: list[list[tuple[str, str]]], seen: Counter[str]) -> dict[str, Any]:
    """Per source of the lines read: its distinct sentences per venture, how many of them are
    found in 3 or more ventures, and the share of all sentences read those repeats make."""
    n: Counter[str] = Counter()
    wide: Counter[str] = Counter()
    for read in tagged:
        for src, x in set(read):
            n[src] += 1
            wide[src] += seen[x] >= 3
    total = max(1, sum(n.values()))
    return {
        src: {"sentences": n[src], "in_3plus": wide[src], "of_all": round(wide[src] / total, 4)}
        for src in sorted(n, key=lambda k: -wide[k])
    }


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    n = len(xs)
    return 0.0 if not n else (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2)


def main(argv: list[str] | None = None) -> int:
    from bench import machine
    from engine.language.pitch import read_pitch

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument(
        "--pairs",
        type=int,
        default=10,
        metavar="N",
        help="pitches played again (other seed, other choices)",
    )
    ap.add_argument(
        "--gate",
        type=int,
        default=0,
        metavar="N",
        help="also play N balance paths and report the gate's catch rate",
    )
    ap.add_argument(
        "--top",
        type=int,
        default=12,
        metavar="N",
        help="list the N sentences (of every line read) found in the most ventures",
    )
    args = ap.parse_args(argv)
    pitches = bench_pitches()
    rows = [venture_row(i, p) for i, p in enumerate(pitches)]
    per_venture: list[list[str]] = []
    tagged: list[list[tuple[str, str]]] = []
    other_seed: list[float] = []
    other_choice: list[float] = []
    with tempfile.TemporaryDirectory(prefix="wf-bench-writing-") as tmp:
        for row in rows:
            s, prose, read = play_venture(row, tmp)
            per_venture.append(prose)
            tagged.append(read)
            s.close()
        for i, row in enumerate(rows[: args.pairs]):
            s, again, _ = play_venture(venture_row(i, row[0], seed=row[2] + 5003), tmp)
            s.close()
            other_seed.append(shared_share(per_venture[i], again))
            s, flipped, _ = play_venture(venture_row(i, row[0], flip=True), tmp)
            s.close()
            other_choice.append(shared_share(per_venture[i], flipped))
    seen_in: Counter[str] = Counter()
    for prose in per_venture:
        seen_in.update(set(prose))
    pairs = [(i, x) for i, prose in enumerate(per_venture) for x in set(prose)]
    widely = [x for _, x in pairs if seen_in[x] >= 3]
    total = sum(len(p) for p in per_venture)
    repeated = sum(len(p) - len(set(p)) for p in per_venture)
    everything = [[x for _, x in read] for read in tagged]
    leaks = {k: [x for p in everything for x in p if rx.search(x)] for k, rx in LEAKS.items()}
    seen_all: Counter[str] = Counter()
    for said in everything:
        seen_all.update(set(said))
    pairs_all = [x for said in everything for x in set(said)]
    sentences_all = [x for read in tagged for x in {x for src, x in read if src not in FRAGMENTS}]
    marks = _world_marks()
    readings = [read_pitch(p) for p in pitches]
    hits: dict[str, list[str]] = {}
    defective = 0
    for read, r in zip(tagged, readings, strict=True):
        for src, x in read:
            found = grammar_defects(x, r.customer) + world_defects(x, r.world, marks)
            if src in FRAGMENTS:  # a card's fragment starts in lower case by design
                found = [d for d in found if d != "lower-case start"]
            defective += bool(found)
            for d in found:
                hits.setdefault(d.split(" (")[0].split(":")[0], []).append(f"{d}: {x}")
    report = {
        "machine": machine(),
        "ventures": len(rows),
        "pitches": len(pitches),
        "worker_sentences": total,
        "sentences_read": sum(len(p) for p in everything),
        "verbatim_in_3plus_ventures_share": round(len(widely) / max(1, len(pairs)), 3),
        "verbatim_in_3plus_ventures_share_all_lines": round(
            sum(seen_all[x] >= 3 for x in pairs_all) / max(1, len(pairs_all)), 3
        ),
        # the same, sentences only: a card's fragments and a binding line are labels, not prose
        "verbatim_in_3plus_ventures_share_all_sentences": round(
            sum(seen_all[x] >= 3 for x in sentences_all) / max(1, len(sentences_all)), 3
        ),
        "verbatim_in_3plus_ventures_by_source": by_source(tagged, seen_all),
        "repeated_within_venture_share": round(repeated / max(1, total), 3),
        "same_pitch_other_seed_shared": {
            "pairs": len(other_seed),
            "median": round(_median(other_seed), 3),
            "max": round(max(other_seed, default=0), 3),
        },
        "same_seed_other_choices_shared": {
            "pairs": len(other_choice),
            "median": round(_median(other_choice), 3),
            "max": round(max(other_choice, default=0), 3),
        },
        "leaks": {k: len(v) for k, v in leaks.items()},
        "leak_examples": [x for v in leaks.values() for x in v][:5],
        "sentence_defect_share": round(defective / max(1, sum(len(p) for p in everything)), 4),
        "defects": {k: {"hits": len(v), "examples": v[:3]} for k, v in sorted(hits.items())},
        "widely_repeated_examples": [
            f"{seen_in[x]}x {x}" for x in sorted(set(widely), key=lambda x: -seen_in[x])[:12]
        ],
        "widely_repeated_all_lines": [
            f"{seen_all[x]}x {x}"
            for x in sorted({x for x in pairs_all if seen_all[x] >= 3}, key=lambda x: -seen_all[x])[
                : args.top
            ]
        ],
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
