"""Bench: how much of the pitch reader's build figure rests on vocabulary rows fitted to one pitch.

Each row of `engine/language/pitch_words.json` (a payer row, or one word of a word list) is taken
out in turn and the build part's pitches (`bench.corpus.pitches("build")`) are read again: a row
whose removal changes the reading of no build pitch is unused there; a row that changes exactly one
is one pitch's row (it may still be general: read its example). `lost_right` counts the pitches
whose customer was right with the row and wrong without it. Never reads the held-out part.

`--lines` instead traces the reader's own lines (engine/language/pitch.py) per build pitch: a line
only one pitch runs is a grammar branch that pitch alone exercises.

Run: `.venv/bin/python -m bench.pitch_rows --json` (prints `single` and `unused` rows, and counts).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from bench.corpus import pitches
from bench.reading_pitch import same_payer
from engine.language import pitch, pitch_words


@contextmanager
def _vocab(raw: dict[str, Any]) -> Iterator[None]:
    """Read with the vocabulary `raw` in place of the file's (written to a scratch file)."""
    saved = pitch_words.WORDS_FILE
    with tempfile.TemporaryDirectory() as scratch:
        pitch_words.WORDS_FILE = Path(scratch) / saved.name
        pitch_words.WORDS_FILE.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
        _fresh()
        try:
            yield
        finally:
            pitch_words.WORDS_FILE = saved
            _fresh()


def _fresh() -> None:
    pitch_words.vocab.cache_clear()
    pitch._payer_words.cache_clear()
    pitch.read_pitch.cache_clear()


def _readings(texts: list[str]) -> list[tuple[str | None, str, str]]:
    out = []
    for t in texts:
        r = pitch.read_pitch(t)
        out.append((r.customer if r.customer_found else None, r.offering, r.place))
    return out


def _rows(raw: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, the vocabulary without that row) for every payer row and every list word."""
    for section, rows in raw.items():
        if section.startswith("_") or section in {"languages", "place_preps", "people"}:
            continue
        for k, row in enumerate(rows):
            if section == "payers":
                cut = copy.deepcopy(raw)
                del cut[section][k]
                yield f"payers:{row['words']}", cut
                continue
            for w in row.get("words", ()):
                cut = copy.deepcopy(raw)
                cut[section][k]["words"] = [x for x in row["words"] if x != w] or ["\u2060"]
                yield f"{section}:{w}", cut


def measure() -> dict[str, Any]:
    rows = pitches("build")
    texts = [r["pitch"] for r in rows]
    raw = json.loads(pitch_words.WORDS_FILE.read_text(encoding="utf-8"))
    with _vocab(raw):
        base = _readings(texts)
    single: dict[str, dict[str, Any]] = {}
    unused: list[str] = []
    lost = 0
    for name, cut in _rows(raw):
        with _vocab(cut):
            got = _readings(texts)
        changed = [k for k in range(len(texts)) if got[k] != base[k]]
        right = [
            k
            for k in changed
            if same_payer(base[k][0], rows[k]["customer"])
            and not same_payer(got[k][0], rows[k]["customer"])
        ]
        lost += len(right)
        if not changed:
            unused.append(name)
        elif len(changed) == 1:
            single[name] = {"pitch": texts[changed[0]], "lost_right": len(right)}
    return {
        "build_pitches": len(texts),
        "rows": sum(1 for _ in _rows(raw)),
        "single_pitch_rows": len(single),
        "single_pitch_rows_holding_a_right_payer": sum(r["lost_right"] for r in single.values()),
        "unused_rows": len(unused),
        "single": single,
        "unused": unused,
    }


def branches() -> dict[str, Any]:
    """The reader's lines each build pitch runs: how many run at all, and those only one runs."""
    texts = [r["pitch"] for r in pitches("build")]
    runs: dict[int, set[str]] = {}
    here = pitch.__file__

    def trace(frame: FrameType, event: str, arg: object) -> Any:
        if frame.f_code.co_filename != here:
            return None
        if event == "line":
            runs.setdefault(frame.f_lineno, set()).add(text)
        return trace

    for text in texts:
        pitch.read_pitch.cache_clear()
        sys.settrace(trace)
        try:
            pitch.read_pitch(text)
        finally:
            sys.settrace(None)
    source = Path(here).read_text(encoding="utf-8").splitlines()
    one = {n: next(iter(p)) for n, p in sorted(runs.items()) if len(p) == 1}
    return {
        "build_pitches": len(texts),
        "lines_run": len(runs),
        "lines_one_pitch_runs": len(one),
        "one": {f"{n}: {source[n - 1].strip()[:80]}": p for n, p in one.items()},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--lines", action="store_true", help="trace the reader's lines, not its rows")
    args = ap.parse_args(argv)
    out = branches() if args.lines else measure()
    if args.json:
        json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        print({k: v for k, v in out.items() if not isinstance(v, (dict, list))})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
