"""The labelled reading corpus (`../shared/corpus/`), split once, by pitch, into two parts.

`build`: the part a developer reads while building the reader. `heldout`: the part nobody opens
while tuning; benches report it only as aggregate figures, never record by record. A record's part
is fixed by its venture's pitch (SHA-256 of the pitch text, a third held out), so every input of
one venture lands in the same part and the split never changes when records are added.

    directions: 54 pitches, 19 held out (281 of 766 records, 346 of 942 directions)
    pitches:    153 rows, 52 held out

Set WORLDFORGE_CORPUS to read the corpus from another folder.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Literal

Part = Literal["build", "heldout"]
PARTS: tuple[Part, ...] = ("build", "heldout")
_HERE = Path(__file__).resolve().parent


def corpus_dir() -> Path:
    """The corpus folder: WORLDFORGE_CORPUS, else `../shared/corpus` beside the checkout."""
    named = os.environ.get("WORLDFORGE_CORPUS")
    return Path(named) if named else _HERE.parent.parent / "shared" / "corpus"


def part_of(pitch: str) -> Part:
    """The part a venture's records belong to, from its pitch alone (fixed forever)."""
    digest = int(hashlib.sha256(pitch.strip().encode("utf-8")).hexdigest(), 16)
    return "heldout" if digest % 3 == 0 else "build"


def half_of(pitch: str) -> str:
    """Which half of the build part a venture's records fall in ("a" or "b"), from its pitch
    alone: a rule tuned on one half is checked on the other (`--half`)."""
    digest = hashlib.sha256(("half:" + pitch.strip()).encode("utf-8")).hexdigest()
    return "a" if int(digest, 16) % 2 == 0 else "b"


def add_part_arguments(ap: argparse.ArgumentParser) -> None:
    """`--part` (the build part unless the held-out part is asked for by name) and `--half`."""
    ap.add_argument(
        "--part",
        choices=(*PARTS, "both"),
        default="build",
        help="which part to score (build by default: the held-out part only when asked by name)",
    )
    ap.add_argument(
        "--half",
        choices=("a", "b"),
        help="score one half of the build part only (split by pitch: tune on a, check on b)",
    )


def parts_asked(args: argparse.Namespace) -> tuple[Part, ...]:
    """The parts `--part` / `--half` ask for: a half is a check while tuning, so with one the
    held-out part stays closed."""
    if args.half:
        return ("build",)
    return PARTS if args.part == "both" else (args.part,)


def _rows(name: str) -> list[dict[str, Any]]:
    path = corpus_dir() / name
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def directions(part: Part) -> list[dict[str, Any]]:
    """The labelled player inputs of one part, in file order."""
    return [r for r in _rows("directions.jsonl") if part_of(r["pitch"]) == part]


def pitches(part: Part) -> list[dict[str, Any]]:
    """The labelled pitches of one part, in file order."""
    return [r for r in _rows("pitches.jsonl") if part_of(r["pitch"]) == part]
