"""Bench: how well the game reads a pitch (engine.language.pitch.read_pitch) on the labelled corpus.

Scored over `bench.corpus.pitches("build")` by default; the held-out part (`pitches("heldout")`) only
when asked for by name (`--part heldout|both`), and then only as aggregate figures, never row by
row (`--rows` lists build rows alone). `--half a|b` scores one half of the build part, split by a
hash of the pitch as bench/reading.py splits it (`half_of`): tune on one half, check on the other.

- `payer_right`: who pays, read right. Lenient on case, articles, plurals and possessives; strict on
  meaning: the reading's words and the label's share the head noun and one holds all the other's
  words ("students in halls" for "students"), or they are equal. A null label must read as no
  customer, and a named one must not read as none. `payer_exact` counts equal ones only.
- `offering_right`: the offering's head noun matches the label's (offerings are paraphrased in the
  labels, "loyalty card system" for "café loyalty cards", so only the head is scored).
- `place_right`: the place as labelled (case and a leading "the" aside), null for null.
- `bad_customers`: customers that are a pronoun, a verb (before any "who"/"that" clause), a rival
  named in the pitch ("Uber for …", "like X", "than X") or a benefit ("time", "a simpler week").
  The target is 0 of each.
- `ms_per_pitch_median` / `ms_per_pitch_p95`: one cold reading (its cache cleared), the least of
  five tries per pitch, so another process's load on the machine is not counted.

Run: `.venv/bin/python -m bench.reading_pitch --json --half a` (add `--rows` for its misses).
`figures()` returns the same dict for bench/reading.py to fold in.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from typing import Any

from bench.corpus import Part, add_part_arguments, half_of, parts_asked, pitches


def _set(spaced: str) -> frozenset[str]:
    """A word list written as one spaced string."""
    return frozenset(spaced.split())


_ARTICLES = _set(
    "a an the un une le la les l des el los las una der die das den dem ein eine einen"
)
_POSSESSIVES = _set("your their our my his her its")
_QUALIFIERS = _set(
    "who that which whose in at on with of for from near across by to connecting matching "
    "de du des en à a am an im "
    "von mit für pour para con qui que die der das"
)
PRONOUNS = _set(
    "i me we us you they them he him she her it our your their my its this these those "
    "everyone everybody someone somebody anyone nobody"
)
# Finite verbs and auxiliaries a reader can mistake for a customer's head ("Nurses pass the NCLEX
# exam wants", "Longer loses time"): a customer phrase holds none before its relative clause.
VERBS = _set(
    """is are was were be been am can could will would should may might must do does did has have
    had want wants wanted need needs needed get gets got make makes made help helps helped lose
    loses lost pass passes passed find finds found keep keeps run runs use uses let lets take takes
    give gives hate hates love loves save saves saved pay pays paid book books booked buy buys
    bought sell sells sold track tracks fold folds write writes wrote paint painted deliver
    delivers delivered ship shipped shipping brew brewed hire hires touring tour runs showing
    zeigt sucht suchen hilft ist sind"""
)
# What an offering gives, never who pays for it ("Retail investors who want a simpler week").
BENEFITS = _set(
    """time money week weeks day days life sleep peace calm hours minutes savings stress health
    energy freedom convenience comfort safety quality"""
)
_RIVAL = re.compile(
    r"\b(?:like|than|versus|vs\.?)\s+(?P<a>[A-Z][\w'&-]+)|^(?P<b>[A-Z][\w'&-]+)\s+for\b|"
    r"\b(?P<c>[A-Z][\w'&-]+)\s+(?:but|except)\b"
)


def _words(phrase: str) -> list[str]:
    return re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", phrase.lower())


def _stem(word: str) -> str:
    """A word without its plural ending or possessive ("mums'" / "mum's" -> "mum")."""
    word = re.sub(r"['’]s?$", "", word)
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def norm(phrase: str | None) -> list[str]:
    """A phrase as compared: lower case, no articles or possessives, plural endings off."""
    if not phrase:
        return []
    return [_stem(w) for w in _words(phrase) if w not in _ARTICLES and w not in _POSSESSIVES]


def head(phrase: str | None) -> str:
    """The head noun: the last word before a qualifier ("students" of "students in halls", "app"
    of "app to split rent")."""
    ws = norm(phrase)
    out: list[str] = []
    for w in ws:
        if w in _QUALIFIERS and out:
            break
        out.append(w)
    return out[-1] if out else ""


def same_payer(read: str | None, label: str | None) -> bool:
    """Who pays, matched leniently on form and strictly on meaning (see the module's docstring)."""
    if not label or not read:
        return not label and not read
    a, b = norm(read), norm(label)
    if a == b:
        return True
    return head(read) == head(label) and (set(a) <= set(b) or set(b) <= set(a))


def same_place(read: str | None, label: str | None) -> bool:
    if not label or not read:
        return not label and not read
    return norm(re.sub(r"^the\s+", "", read, flags=re.IGNORECASE)) == norm(label)


def bad_kind(customer: str | None, pitch: str) -> str:
    """Why a read customer cannot be who pays ('' when it can)."""
    if not customer:
        return ""
    ws = _words(customer)
    before: list[str] = []
    for w in ws:
        if w in {"who", "that", "which", "whose", "die", "qui", "que"}:
            break
        before.append(w)
    if ws and (ws[0] in PRONOUNS or all(w in PRONOUNS for w in ws)):
        return "pronoun"
    if any(w in VERBS for w in before):
        return "verb"
    rivals = {
        (m.group("a") or m.group("b") or m.group("c")).lower() for m in _RIVAL.finditer(pitch)
    }
    if rivals & {ws[0], head(customer)}:
        return "rival"
    if before and before[-1] in BENEFITS:
        return "benefit"
    return ""


def _read(pitch: str) -> dict[str, Any]:
    """The reading the bench scores, from read_pitch's own fields."""
    from engine.language.pitch import read_pitch

    r = read_pitch(pitch)
    found = bool(getattr(r, "customer_found", True))
    return {
        "customer": r.customer if found else None,
        "offering": r.offering or None,
        # today's reader has a place of its own; the one before it had only a setting
        "place": (r.place if hasattr(r, "place") else getattr(r, "setting", "")) or None,
    }


def _cost(pitch: str, repeats: int = 5) -> float:
    """Milliseconds one cold reading of `pitch` takes: the least of `repeats` (the machine's other
    load only ever adds time)."""
    from engine.language.pitch import read_pitch

    best = float("inf")
    for _ in range(repeats):
        read_pitch.cache_clear()
        t0 = time.perf_counter()
        read_pitch(pitch)
        best = min(best, (time.perf_counter() - t0) * 1000)
    return best


def score(
    part: Part, rows_out: list[dict[str, Any]] | None = None, half: str | None = None
) -> dict[str, Any]:
    """The figures for one part (one half of the build part with `half`); `rows_out` (build only)
    collects the misses."""
    rows = pitches(part)
    if half:
        if part != "build":
            raise ValueError("a half is of the build part only")
        rows = [r for r in rows if half_of(r["pitch"]) == half]
    payer = exact = offering = place = null_rows = null_right = 0
    bad = {"pronoun": 0, "verb": 0, "rival": 0, "benefit": 0}
    costs: list[float] = []
    for row in rows:
        costs.append(_cost(row["pitch"]))
        got = _read(row["pitch"])
        p_ok = same_payer(got["customer"], row["customer"])
        payer += p_ok
        exact += norm(got["customer"]) == norm(row["customer"])
        if row["customer"] is None:
            null_rows += 1
            null_right += got["customer"] is None
        o_ok = head(got["offering"]) == head(row["offering"])
        offering += o_ok
        pl_ok = same_place(got["place"], row["place"])
        place += pl_ok
        kind = bad_kind(got["customer"], row["pitch"])
        if kind:
            bad[kind] += 1
        if rows_out is not None and part == "build" and not (p_ok and o_ok and pl_ok and not kind):
            rows_out.append({"id": row["id"], "pitch": row["pitch"], "label": row, "read": got})
    n = len(rows) or 1
    return {
        "rows": len(rows),
        "payer_right": round(payer / n, 3),
        "payer_exact": round(exact / n, 3),
        "null_customer_right": f"{null_right}/{null_rows}",
        "offering_right": round(offering / n, 3),
        "place_right": round(place / n, 3),
        "bad_customers": bad,
        "ms_per_pitch_median": round(statistics.median(costs), 3) if costs else 0.0,
        "ms_per_pitch_p95": round(sorted(costs)[int(0.95 * (len(costs) - 1))], 3) if costs else 0.0,
    }


def figures(parts: tuple[Part, ...] = ("build",), half: str | None = None) -> dict[str, Any]:
    """The parts' figures (the held-out part as aggregates only, and only when named), for
    bench/reading.py; with `half`, one half of the build part alone."""
    if half:
        return {"build": score("build", half=half)}
    return {part: score(part) for part in parts}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--rows", action="store_true", help="also list the build part's misses")
    add_part_arguments(ap)
    args = ap.parse_args(argv)
    parts = parts_asked(args)
    out: dict[str, Any] = figures(parts, args.half)
    if args.rows:
        misses: list[dict[str, Any]] = []
        score("build", misses, args.half)
        out["build_misses"] = misses
    if args.json:
        json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        for part in parts:
            f = out[part]
            print(
                f"{part}: {f['rows']} pitches, payer {f['payer_right']:.0%} "
                f"(exact {f['payer_exact']:.0%}, null {f['null_customer_right']}), "
                f"offering {f['offering_right']:.0%}, place {f['place_right']:.0%}, "
                f"bad {f['bad_customers']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
